/**
 * v2 pool governance as the tracker models it (contracts.md §3.8; [v2-src] `pool/msgs/router.fc`,
 * `pool/pools/<type>/ext_router.fc`): fees, curve parameters, the lock toggle, the rate setter, and the
 * messages that leave the state alone. A committed transaction passed every sender and range check of
 * the contract, so only the effect is modelled here.
 */
import { E } from "../../dex/amm/fixed-point.ts";
import type { Decoded, PoolParams } from "../../dex/codecs/index.ts";
import { type ModelInput, next, raw, type Step, type TrackedPool, unmodelled } from "./pool-types.ts";

/** On-chain getter requests (§3.3): answered from the state, which they do not change. */
const V2_GETTER_OPS: ReadonlySet<number> = new Set([0x26df39fc, 0x15fbca95]);

/** §3.8: amp / w0 / rate per pool type; w0 is set only while still 0 (side = token0 → w, else 1e18 − w). */
export function applyParams(p: TrackedPool, params: PoolParams): Step {
  const s = p.state;
  if (`v2_${params.poolType}` !== s.type) {
    return { kind: "diverged", expected: `${s.type} parameters`, actual: `${params.poolType} parameters` };
  }
  if (params.poolType === "stableswap") return next({ ...s, amp: BigInt(params.amp) });
  if (s.w0 === 0n && p.token0Wallet === null) return unmodelled("set_params side needs the token wallets");
  const w0 = s.w0 !== 0n ? s.w0 : raw(params.sideWallet) === p.token0Wallet ? params.w : E - params.w;
  if (params.poolType === "weighted_const_product") return next({ ...s, w0 });
  // WStable: amp always, rate only when non-zero, the rate setter is not part of the math
  const rate = params.rate !== 0n ? params.rate : s.rate;
  return next({ ...s, amp: params.amp, rate, w0 });
}

/** The admin-side ops of a v2 pool, or null when `body` is none of them. */
export function modelV2Admin(input: ModelInput, body: Decoded): Step | null {
  const s = input.pool.state;
  switch (body.kind) {
    case "stonfi.v2.internal_set_fees":
      return next({ ...s, lpFeeBps: BigInt(body.lpFee), protocolFeeBps: BigInt(body.protocolFee) });
    case "stonfi.v2.internal_set_params":
      return applyParams(input.pool, body.params);
    case "stonfi.v2.internal_update_status":
      return next({ ...s, isLocked: !s.isLocked });
    case "stonfi.v2.set_rate":
      return next({ ...s, rate: body.newRate });
    case "stonfi.v2.internal_update_pool_code":
      // new code may store and compute anything: only ChainState can say what the pool is now
      return unmodelled("pool code upgraded (internal_update_pool_code)");
    case "stonfi.v2.reset_gas_pool":
    case "jetton.provide_wallet_address":
      return next(s);
    case "unknown":
      return body.op !== null && V2_GETTER_OPS.has(body.op) ? next(s) : null;
    default:
      return null;
  }
}
