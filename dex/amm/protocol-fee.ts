/**
 * The protocol fee of a swap, from what its messages carry. No message states it (contracts.md §6), but
 * a swap that paid a referral fee pins it down: both fees are `ceil(base_out·bps/D)` of the same gross
 * output `base_out = out + protocol_fee + referral_fee` (v1 §2.9, v2 §3.9.1), with the protocol fee's bps
 * P a pool parameter in 0..100 and the referral bps R the pool's `ref_fee` (v1, 0..100) or the payload's
 * referral value (v2). Every (P, R, base_out) consistent with the paid `out` and referral amount is
 * enumerated; the fee is known when they all give the same one.
 */
import { FEE_DIVIDER, floorDiv } from "./math.ts";
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
  if (s.referralFee <= 0n || s.amountOut <= 0n) return null;
  if (s.referralBps !== null && (s.referralBps <= 0n || s.referralBps > MAX_POOL_FEE_BPS)) return null;
  const net = s.amountOut + s.referralFee;
  const fees = new Set<bigint>();
  for (let p = 0n; p <= MAX_POOL_FEE_BPS; p++) {
    // base − ceil(base·P/D) − ref = out puts base in [T·D/(D−P), (T+1)·D/(D−P)), T = out + ref: ≤ 2 values.
    const from = floorDiv(net * FEE_DIVIDER, FEE_DIVIDER - p);
    for (let base = from; base <= from + 2n; base++) {
      // The referral bps R with ceil(base·R/D) = ref: R in ((ref−1)·D/base, ref·D/base].
      const lo = floorDiv((s.referralFee - 1n) * FEE_DIVIDER, base) + 1n;
      const hi = floorDiv(s.referralFee * FEE_DIVIDER, base);
      const r = s.referralBps ?? (lo > 1n ? lo : 1n);
      if (r < lo || r > hi || r > MAX_POOL_FEE_BPS) continue;
      const g = outputFees(base, p, r);
      if (g.amountOut === s.amountOut && g.referralFeeOut === s.referralFee) fees.add(g.protocolFeeOut);
    }
    if (fees.size > 1) return null;
  }
  const [fee] = fees;
  return fees.size === 1 && fee !== undefined ? fee : null;
}
