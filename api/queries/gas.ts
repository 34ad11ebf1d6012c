/**
 * `gas_params` of the swap simulations (api.md §4.8), from the official SDK's gas constants for the
 * router's version and type (contracts.md §2.12, §3.13) — the same TON amounts the SDK attaches.
 *
 * - jetton offer: `gas_budget` = the message value sent to the user's jetton wallet (`gasAmount`),
 *   `forward_gas` = its `forward_ton_amount`;
 * - TON offer: `forward_gas` = the pTON transfer's forward amount; `gas_budget` = that plus the pTON v2
 *   `ton_transfer` overhead of 0.01 TON (the SDK sends `offer + forward + 0.01`; pTON v1 has none);
 * - `estimated_gas_consumption`: compute gas the DEX contracts burn, measured in the sandbox
 *   (contracts.md §2.12, §3.13), at the basechain price of 400 nanoTON per gas unit. Jetton-wallet hops
 *   and forwarding fees are not included; the unspent rest of the budget returns to the user as excess.
 */
import { dexFactory } from "@ston-fi/sdk";
import type { RouterRecord } from "../read-model.ts";

export type GasParams = { gasBudget?: bigint; forwardGas: bigint; estimatedGasConsumption: bigint };

const NANO_PER_GAS = 400n;
const PTON_V2_TRANSFER_OVERHEAD = 10_000_000n;

/** Gas units: router transfer_notification + pool swap + router pay_to (+ referral hops). */
const SWAP_GAS_UNITS = {
  v1: { plain: 11_300n + 11_100n + 13_200n, referral: 11_300n + 17_400n + 2n * 13_200n },
  v2: { plain: 17_900n + 15_600n + 13_400n, referral: 17_900n + 19_100n + 13_400n + 15_600n + 5_900n },
} as const;

type JettonGas = { gasAmount: bigint; forwardGasAmount: bigint };
type SwapConstants = {
  swapJettonToJetton: JettonGas;
  swapJettonToTon: JettonGas;
  swapTonToJetton: { forwardGasAmount: bigint };
};

function swapConstants(router: RouterRecord): SwapConstants {
  const info = {
    majorVersion: router.majorVersion,
    minorVersion: router.minorVersion,
    routerType: router.routerType,
  };
  try {
    return dexFactory(info).Router.gasConstants;
  } catch {
    // A version this SDK does not know yet: use its generation's constant-product router (v1.0 or v2.2).
    const known =
      router.majorVersion === 1 ? { majorVersion: 1, minorVersion: 0 } : { majorVersion: 2, minorVersion: 2 };
    return dexFactory({ ...known, routerType: "ConstantProduct" }).Router.gasConstants;
  }
}

export function swapGas(
  router: RouterRecord,
  offerIsTon: boolean,
  askIsTon: boolean,
  referral: boolean,
): GasParams {
  const c = swapConstants(router);
  const v1 = router.majorVersion === 1;
  const units = SWAP_GAS_UNITS[v1 ? "v1" : "v2"][referral ? "referral" : "plain"];
  const estimatedGasConsumption = units * NANO_PER_GAS;
  if (offerIsTon) {
    const forwardGas = c.swapTonToJetton.forwardGasAmount;
    return {
      gasBudget: forwardGas + (v1 ? 0n : PTON_V2_TRANSFER_OVERHEAD),
      forwardGas,
      estimatedGasConsumption,
    };
  }
  const g = askIsTon ? c.swapJettonToTon : c.swapJettonToJetton;
  return { gasBudget: g.gasAmount, forwardGas: g.forwardGasAmount, estimatedGasConsumption };
}
