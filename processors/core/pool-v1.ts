/**
 * The DEX v1 pool as a state machine over its own committed transactions (contracts.md §2.5–§2.9;
 * [v1-src] `pool.func`, `pool/router-calls.func`). The math is dex/amm's; this file says which engine
 * call each inbound message is, and which `pay_to` / mint / hand-back messages the pool must then send.
 */
import { burn, type PoolState, provide, swap } from "../../dex/amm/index.ts";
import type {
  Decoded,
  StonfiV1BurnNotification,
  StonfiV1CbAddLiquidity,
  StonfiV1Swap,
} from "../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE as EXIT } from "../../dex/exit-codes.ts";
import {
  describe,
  type ModelInput,
  next,
  type OutMsg,
  payTo,
  raw,
  type Step,
  sided,
  type TrackedPool,
  unmodelled,
} from "./pool-types.ts";

/** On-chain getter requests (§2.3): the pool answers from its state and changes nothing. */
const V1_GETTER_OPS: ReadonlySet<number> = new Set([
  0x43c034e6, 0xed4d8b67, 0x9163a98a, 0x9ce632c5, 0x8751801f,
]);

/**
 * §2.5, §2.9. The side is the router wallet that received the offer; the pool takes any wallet other
 * than token0 as token1. A referrer gets its `pay_to(swap_ok_ref)` first, even for 0 (§11.2).
 */
function v1Swap(p: TrackedPool, sw: StonfiV1Swap): Step {
  if (p.token0Wallet === null) return unmodelled("swap side needs the pool's token wallets");
  const offer0 = raw(sw.senderWallet) === p.token0Wallet;
  const from = raw(sw.fromUser);
  if (sw.jettonAmount <= 0n) {
    // nothing to swap: the pool refunds 0 like an empty pool (the engine rejects a zero input)
    return next(p.state, [payTo(p, from, EXIT.swap_refund_no_liq, sided(offer0, 0n))]);
  }
  const r = swap(p.state, {
    direction: offer0 ? "0to1" : "1to0",
    amountIn: sw.jettonAmount,
    minOut: sw.minOut,
    hasReferral: sw.hasRef,
  });
  if (r.status === "refund") {
    // the refund goes to from_user, not to the receiver (§2.9)
    return next(p.state, [payTo(p, from, r.exitCode, sided(offer0, sw.jettonAmount))]);
  }
  const main = payTo(p, raw(sw.toAddress), EXIT.swap_ok, sided(!offer0, r.amountOut));
  if (!sw.hasRef) return next(r.pool, [main]);
  const ref = payTo(p, raw(sw.refAddress), EXIT.swap_ok_ref, sided(!offer0, r.referralFeeOut));
  return next(r.pool, [ref, main]);
}

/** §2.7, §2.9: mint for the LpAccount's totals, or hand both amounts back with min_lp_out 0. */
function v1Mint(p: TrackedPool, b: StonfiV1CbAddLiquidity): Step {
  const r = provide(p.state, { amount0: b.totAm0, amount1: b.totAm1, minLpOut: b.minLpOut });
  if (r.status === "stored") {
    return unmodelled("cb_add_liquidity with amounts the LpAccount never forwards (≤ 1000 or min 0)");
  }
  if (r.status === "refunded") {
    const back: OutMsg = { op: "add_liquidity", amount0: b.totAm0, amount1: b.totAm1, minLpOut: 0n };
    return next(p.state, [back]);
  }
  return next(r.pool, [{ op: "mint", amount0: r.lpMinted, amount1: 0n }]);
}

/** §2.7, §2.9: `floor(lp·r_i/S)` of both reserves in one `pay_to(burn_ok)` to the LP owner. */
function v1Burn(p: TrackedPool, b: StonfiV1BurnNotification): Step {
  if (b.amount <= 0n || b.amount > p.state.lpSupply) {
    return { kind: "diverged", expected: "burn fails (amount out of range)", actual: "committed" };
  }
  const r = burn(p.state, b.amount);
  if (r.status !== "ok") {
    return { kind: "diverged", expected: `burn fails with ${r.exitCode}`, actual: "committed" };
  }
  const amounts = { amount0: r.amount0Out, amount1: r.amount1Out };
  return next(r.pool, [payTo(p, raw(b.from), EXIT.burn_ok, amounts)]);
}

/**
 * §2.8: from the router, both counters go to protocol_fee_address in one `pay_to`; from anyone else the
 * caller earns floor(collected/1000) of each side in a second `pay_to`. Exit code 0 on both.
 */
function v1Collect(p: TrackedPool, source: string | null): Step {
  const s = p.state;
  const state: PoolState = { ...s, collectedProtocolFee0: 0n, collectedProtocolFee1: 0n };
  const all = { amount0: s.collectedProtocolFee0, amount1: s.collectedProtocolFee1 };
  if (p.router !== null && source === p.router) return next(state, [payTo(p, undefined, 0, all)]);
  const reward = { amount0: all.amount0 / 1000n, amount1: all.amount1 / 1000n }; // floor
  const rest = { amount0: all.amount0 - reward.amount0, amount1: all.amount1 - reward.amount1 };
  return next(state, [payTo(p, undefined, 0, rest), payTo(p, source, 0, reward)]);
}

export function modelV1(input: ModelInput, body: Decoded): Step {
  const p = input.pool;
  switch (body.kind) {
    case "stonfi.v1.swap":
      return v1Swap(p, body);
    case "stonfi.v1.provide_lp": {
      // the pool only forwards the deposit to the user's LpAccount (§2.5, §2.7)
      const fwd: OutMsg = { op: "add_liquidity", amount0: body.amount0, amount1: body.amount1 };
      return next(p.state, [{ ...fwd, minLpOut: body.minLpOut }]);
    }
    case "stonfi.v1.cb_add_liquidity":
      return v1Mint(p, body);
    case "stonfi.v1.cb_refund_me": {
      const amounts = { amount0: body.totAm0, amount1: body.totAm1 };
      return next(p.state, [payTo(p, raw(body.user), EXIT.refund_ok, amounts)]);
    }
    case "stonfi.v1.burn_notification":
      return v1Burn(p, body);
    case "stonfi.v1.set_fees_pool": {
      // the pool enforces 0..100 bps itself (§2.8): a committed set_fees is in range
      const lpFeeBps = BigInt(body.lpFee);
      const refFeeBps = BigInt(body.refFee);
      return next({ ...p.state, lpFeeBps, protocolFeeBps: BigInt(body.protocolFee), refFeeBps });
    }
    case "stonfi.v1.collect_fees_pool":
      return v1Collect(p, input.source);
    case "stonfi.v1.reset_gas":
    case "jetton.provide_wallet_address":
      return next(p.state);
  }
  // an empty body is ignored by the v1 pool ([v1-src] pool.func); getters only read
  if (body.kind === "unknown" && (body.op === null || V1_GETTER_OPS.has(body.op))) return next(p.state);
  return unmodelled(`v1 pool accepted ${describe(body)}`);
}
