/**
 * The protocol fee of a swap, from what its messages carry. No message states it (contracts.md §6), but
 * a swap that paid a referral fee pins it down: both fees are `ceil(base_out·bps/D)` of the same gross
 * output `base_out = out + protocol_fee + referral_fee` (v1 §2.9, v2 §3.9.1), with the protocol fee's bps
 * P a pool parameter in 0..100 and the referral bps R the pool's `ref_fee` (v1, 0..100) or the payload's
 * referral value (v2). Every (P, R, base_out) consistent with the paid `out` and referral amount is
 * enumerated; the fee is known when they all give the same one.
 */
import { FEE_DIVIDER, floorDiv, max, min } from "./math.ts";
import { MAX_POOL_FEE_BPS } from "./pool.ts";
import { outputFees } from "./swap.ts";

export type ReferralSwap = {
  /** What the receiver got. */
  amountOut: bigint;
  /** The referral fee paid (v1 `swap_ok_ref` pay_to, v2 `pay_vault`). */
  referralFee: bigint;
  /** The referral bps when a message states it (v2 payload's referral value); null: any 1..100 (v1). */
  referralBps: bigint | null;
};

/** The protocol fee, or null when the messages leave it open (no referral paid, or several fees fit). */
export function protocolFeeFromReferral(s: ReferralSwap): bigint | null {
  const { amountOut: out, referralFee: ref } = s;
  if (ref <= 0n || out <= 0n) return null;
  if (s.referralBps !== null && (s.referralBps <= 0n || s.referralBps > MAX_POOL_FEE_BPS)) return null;
  const D = FEE_DIVIDER;
  const net = out + ref;
  // base − ceil(base·P/D) = net with P in 0..100 bounds the gross output.
  const lowest = net;
  const highest = floorDiv(net * D, D - MAX_POOL_FEE_BPS) + 2n;
  // ceil(base·R/D) = ref bounds R by the gross output's range.
  const rFrom = s.referralBps ?? max(1n, floorDiv(ref * D, highest) - 1n);
  const rTo = s.referralBps ?? min(MAX_POOL_FEE_BPS, floorDiv(ref * D, lowest) + 1n);
  const fees = new Set<bigint>();
  for (let r = rFrom; r <= rTo; r++) {
    // The gross outputs whose referral fee is ref: (floor((ref−1)·D/R), floor(ref·D/R)].
    const baseLo = max(lowest, floorDiv((ref - 1n) * D, r) + 1n);
    const baseHi = min(highest, floorDiv(ref * D, r));
    if (baseLo > baseHi) continue;
    // Their protocol fee base − net = ceil(base·P/D) bounds P: (prot − 1)·D/base < P ≤ prot·D/base.
    const pFrom = max(0n, floorDiv((baseLo - net - 1n) * D, baseHi));
    const pTo = min(MAX_POOL_FEE_BPS, floorDiv((baseHi - net) * D, baseLo) + 1n);
    for (let p = pFrom; p <= pTo; p++) {
      // For one P, base − ceil(base·P/D) = net puts base in [net·D/(D−P), (net+1)·D/(D−P)): ≤ 2 values.
      const from = max(baseLo, floorDiv(net * D, D - p));
      const to = min(baseHi, from + 2n);
      for (let base = from; base <= to; base++) {
        const g = outputFees(base, p, r);
        if (g.amountOut === out && g.referralFeeOut === ref) fees.add(g.protocolFeeOut);
      }
    }
    if (fees.size > 1) return null;
  }
  const [fee] = fees;
  return fees.size === 1 && fee !== undefined ? fee : null;
}
