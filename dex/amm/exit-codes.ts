/**
 * The exit codes the math produces. Swap codes are the CRC32 values the pool puts in `pay_to`
 * (one table for the project: dex/exit-codes.ts, with names and explanations).
 */
import { STONFI_EXIT_CODE } from "../exit-codes.ts";

export const SWAP_EXIT = {
  swap_ok: STONFI_EXIT_CODE.swap_ok,
  swap_refund_no_liq: STONFI_EXIT_CODE.swap_refund_no_liq,
  swap_refund_reserve_err: STONFI_EXIT_CODE.swap_refund_reserve_err,
  swap_refund_tx_expired: STONFI_EXIT_CODE.swap_refund_tx_expired,
  swap_refund_0_out: STONFI_EXIT_CODE.swap_refund_0_out,
  swap_refund_slippage: STONFI_EXIT_CODE.swap_refund_slippage,
  swap_pool_locked: STONFI_EXIT_CODE.swap_pool_locked,
  swap_fee_out_of_bounds: STONFI_EXIT_CODE.swap_fee_out_of_bounds,
} as const;

/** Throw codes of the pool that abort a burn (the LP wallet then restores the balance). */
export const BURN_EXIT = {
  ok: 0,
  zero_output: 81,
  invalid_amount: 92,
  invalid_call: 93,
} as const;
