/**
 * The exit codes the pool contracts put in a swap's `pay_to` (contracts.md §2.3, §3.3): full CRC32 of
 * the name. Human names and explanations live in dex/exit-codes.ts; the math only needs the values.
 */
export const SWAP_EXIT = {
  swap_ok: 0xc64370e5,
  swap_refund_no_liq: 0x5ffe1295,
  swap_refund_reserve_err: 0x38976e9b,
  swap_refund_tx_expired: 0x1ec28412,
  swap_refund_0_out: 0x5f954434,
  swap_refund_slippage: 0x39603190,
  swap_pool_locked: 0x365c484d,
  swap_fee_out_of_bounds: 0xa768c0d1,
} as const;

/** Throw codes of the pool that abort a burn (the LP wallet then restores the balance). */
export const BURN_EXIT = {
  ok: 0,
  zero_output: 81,
  invalid_amount: 92,
  invalid_call: 93,
} as const;
