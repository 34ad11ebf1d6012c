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

/** The SDK's constants per (major, minor, type): resolved once, not on every quote. */
const constantsByVersion = new Map<string, SwapConstants>();

/**
 * A router's gas constants. A version or type the SDK does not know (or one not read from the chain yet)
 * takes its generation's constant-product router's (v1.0 or v2.2).
 */
function swapConstants(router: RouterRecord): SwapConstants {
  const key = `${router.majorVersion}.${router.minorVersion}.${router.routerType}`;
  let c = constantsByVersion.get(key);
  if (c === undefined) {
    c = resolveConstants(router);
    constantsByVersion.set(key, c);
  }
  return c;
}

function resolveConstants(router: RouterRecord): SwapConstants {
  const fallback =
    router.majorVersion === 1 ? { majorVersion: 1, minorVersion: 0 } : { majorVersion: 2, minorVersion: 2 };
  if (router.minorVersion !== null && router.routerType !== null) {
    try {
      const info = {
        majorVersion: router.majorVersion,
        minorVersion: router.minorVersion,
        routerType: router.routerType,
      };
      return dexFactory(info).Router.gasConstants;
    } catch {
      // not known to this SDK: the fallback below
    }
  }
  return dexFactory({ ...fallback, routerType: "ConstantProduct" }).Router.gasConstants;
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
