// STON.fi exit codes, refund reasons and throw codes, with a one-line explanation for end users.
//
// Sources (shared/reference/contracts.md):
// * §2.3 "v1 exit codes" and "v1 error (throw) codes" ([v1-src] `*/errors.func`);
// * §3.3 "Exit codes" and "Error (throw) codes" ([v2-src] `common/op.fc`, `common/errors.fc`);
// * §3.9.5 and [funcbox] 0.1.4 `math/math.fc` for the fixed-point errors 50001–50009 and 51002;
// * §11 for TVM 4 (257-bit overflow and division by zero) and the out-of-gas compute exit −14.
// Names equal the `exit_name` labels of test/vectors/amm/*.json (the AMM engine imports this table).
//
// A v2 refund carries either one of the CRC32 codes below or, when the pool or router hit any other
// exception, the raw error number (contracts.md §3.3), so both kinds live in one table per version.

export type ExitCodeInfo = { readonly name: string; readonly explanation: string };
export type ExitCodeDescription = { code: number | bigint; name: string; explanation: string };
export type DexVersion = "v1" | "v2";

/** CRC32 "exit codes" carried by `pay_to` and appended to router refunds (full CRC32, unmasked). */
export const STONFI_EXIT_CODE = {
  ok: 0,
  swap_ok: 0xc64370e5,
  swap_ok_ref: 0x45078540,
  swap_refund_no_liq: 0x5ffe1295,
  swap_refund_reserve_err: 0x38976e9b,
  swap_refund_tx_expired: 0x1ec28412,
  swap_refund_0_out: 0x5f954434,
  swap_refund_slippage: 0x39603190,
  swap_pool_locked: 0x365c484d,
  swap_fee_out_of_bounds: 0xa768c0d1,
  burn_ok: 0xdda48b6a,
  refund_ok: 0xde7dbbc2,
  transfer_bounce_locked: 0x0a0dbdcb,
  transfer_bounce_invalid_request: 0x19727ea8,
  transfer_bounce_invalid_pool: 0x09a8afbf,
  transfer_bounce_wrong_wc: 0x720f5b17,
  transfer_bounce_low_gas: 0x8368a711,
  transfer_bounce_tx_expired: 0x0f5681d3,
  provide_refund_wrong_workchain: 0x4e7405a8,
  provide_refund_tx_expired: 0xd6a53fd8,
} as const;

type Row = readonly [code: number, name: string, explanation: string];

const COMMON_ROWS: readonly Row[] = [
  [0, "ok", "success; also the code on protocol-fee collection payouts"],
  [STONFI_EXIT_CODE.swap_ok, "swap_ok", "swap succeeded: output sent to the receiver"],
  [STONFI_EXIT_CODE.burn_ok, "burn_ok", "LP tokens burned: the pool paid out both tokens"],
  [STONFI_EXIT_CODE.refund_ok, "refund_ok", "liquidity deposit refunded from the LP account"],
  [
    STONFI_EXIT_CODE.swap_refund_reserve_err,
    "swap_refund_reserve_err",
    "refunded: the swap would push a pool reserve out of range (too large or empty)",
  ],
  [
    STONFI_EXIT_CODE.transfer_bounce_locked,
    "transfer_bounce_locked",
    "refunded by the router: the router is locked (paused)",
  ],
  [
    STONFI_EXIT_CODE.transfer_bounce_invalid_request,
    "transfer_bounce_invalid_request",
    "refunded by the router: invalid request (unknown command, missing payload, or not enough TON attached)",
  ],
  [705, "lp_wallet_not_owner", "LP wallet: only the owner can do this"],
  [706, "lp_wallet_insufficient_balance", "LP wallet: not enough LP tokens"],
  [707, "lp_wallet_wrong_sender_or_gas", "LP wallet: wrong sender or not enough TON attached"],
  [708, "lp_wallet_no_forward_payload", "LP wallet: the forward-payload bit is missing"],
  [709, "lp_wallet_insufficient_gas", "LP wallet: not enough TON attached or a bad bounce"],
  [4, "tvm_integer_overflow", "the pool math overflowed the 257-bit integer range or divided by zero"],
  [5, "tvm_integer_out_of_range", "a value did not fit its field (integer out of expected range)"],
  [7, "tvm_type_check_error", "the contract received a value of the wrong type"],
  [8, "tvm_cell_overflow", "a message or storage cell would be too large"],
  [
    9,
    "tvm_cell_underflow",
    "malformed message: a field is missing or an address is addr_none where one is required",
  ],
  [13, "tvm_out_of_gas", "the transaction ran out of gas"],
  [-14, "compute_exit_-14", "the transaction ran out of gas (no refund was sent)"],
  [0xffff, "wrong_op", "the contract does not accept this operation"],
];

const V1_ROWS: readonly Row[] = [
  [STONFI_EXIT_CODE.swap_ok_ref, "swap_ok_ref", "referral fee paid to the referrer"],
  [
    STONFI_EXIT_CODE.swap_refund_no_liq,
    "swap_refund_no_liq",
    "refunded: the pool has no liquidity, the output would be zero, or the output is not above min_out (slippage)",
  ],
  [75, "insufficient_gas_wallet_address", "not enough TON attached to ask for a wallet address"],
  [80, "no_liquidity", "the pool or LP account has no liquidity or balance for this"],
  [81, "zero_output", "the operation would pay out nothing"],
  [82, "invalid_caller", "message from an unexpected sender"],
  [83, "insufficient_gas", "not enough TON attached to pay for the operation"],
  [85, "wrong_workchain", "router: address not in workchain 0; pool: fee outside 0..100 bps"],
  [86, "wrong_address", "router: both tokens are the same wallet; pool: unknown token"],
  [87, "invalid_amount", "router: the jetton amount is zero; pool: amount too low"],
  [88, "invalid_call", "router: upgrade state forbids this call; pool: collected fees too low to collect"],
  [89, "wrong_k", "the pool invariant check failed"],
  [90, "math_error", "the pool math failed"],
  [91, "invalid_recipient", "the protocol-fee address is not set"],
];

const V2_ROWS: readonly Row[] = [
  [STONFI_EXIT_CODE.swap_refund_no_liq, "swap_refund_no_liq", "refunded: the pool has no liquidity"],
  [
    STONFI_EXIT_CODE.swap_refund_tx_expired,
    "swap_refund_tx_expired",
    "refunded: deadline passed before the pool executed the swap",
  ],
  [
    STONFI_EXIT_CODE.swap_refund_0_out,
    "swap_refund_0_out",
    "refunded: the amount is too small to give any output",
  ],
  [STONFI_EXIT_CODE.swap_refund_slippage, "swap_refund_slippage", "refunded: slippage, output below min_out"],
  [STONFI_EXIT_CODE.swap_pool_locked, "swap_pool_locked", "refunded: the pool is locked (paused)"],
  [
    STONFI_EXIT_CODE.swap_fee_out_of_bounds,
    "swap_fee_out_of_bounds",
    "refunded: referral fee above the 1% maximum",
  ],
  [
    STONFI_EXIT_CODE.transfer_bounce_invalid_pool,
    "transfer_bounce_invalid_pool",
    "refunded by the router: offer and ask token are the same",
  ],
  [
    STONFI_EXIT_CODE.transfer_bounce_wrong_wc,
    "transfer_bounce_wrong_wc",
    "refunded by the router: sender is not in workchain 0",
  ],
  [
    STONFI_EXIT_CODE.transfer_bounce_low_gas,
    "transfer_bounce_low_gas",
    "refunded by the router: not enough TON attached for the swap or provide",
  ],
  [
    STONFI_EXIT_CODE.transfer_bounce_tx_expired,
    "transfer_bounce_tx_expired",
    "refunded by the router: deadline passed",
  ],
  [
    STONFI_EXIT_CODE.provide_refund_wrong_workchain,
    "provide_refund_wrong_workchain",
    "liquidity refunded: the LP receiver is not in workchain 0",
  ],
  [
    STONFI_EXIT_CODE.provide_refund_tx_expired,
    "provide_refund_tx_expired",
    "liquidity refunded: deadline passed",
  ],
  [80, "no_liquidity", "the pool or LP account has no liquidity or balance for this"],
  [81, "zero_output", "the operation would pay out nothing"],
  [82, "invalid_caller", "message from an unexpected sender"],
  [83, "insufficient_gas", "not enough TON attached to pay for the operation"],
  [85, "wrong_workchain", "an address is not in workchain 0"],
  [86, "wrong_address", "an address is invalid for this operation"],
  [88, "low_liquidity", "not enough liquidity"],
  [90, "math_error", "the pool math failed"],
  [92, "invalid_amount", "invalid amount (zero, or it would leave a reserve or the LP supply at zero)"],
  [93, "invalid_call", "this call is not allowed now (for example the pool is locked)"],
  [94, "fee_out_range", "fee outside 0..100 bps"],
  [95, "invalid_token", "unknown token for this pool"],
  [96, "empty_not_allowed", "empty message body"],
  [97, "max_in_ratio", "refunded: the amount is above 30% of the pool's input reserve"],
  [99, "empty_cell", "a required cell is empty"],
  [5103, "not_converge", "refunded: the stable-swap solver did not converge"],
  [5104, "df_zero", "refunded: the stable-swap solver hit a zero derivative"],
  [
    51002,
    "complement_out_of_range",
    "refunded: the amount is too small relative to the pool for weighted math",
  ],
  [50001, "fp_pow_x_out_of_bounds", "refunded: weighted math power base out of range"],
  [50002, "fp_pow_y_out_of_bounds", "refunded: weighted math exponent out of range"],
  [50003, "fp_pow_product_out_of_bounds", "refunded: weighted math result out of range"],
  [50004, "fp_exp_invalid_exponent", "refunded: weighted math exponent out of range"],
  [50005, "fp_ln_out_of_bounds", "refunded: weighted math logarithm of a non-positive value"],
  [50006, "fp_log_zero_base", "refunded: weighted math logarithm with base zero"],
  [50007, "fp_negative_power", "refunded: weighted math negative power"],
  [50008, "fp_zero_division", "refunded: weighted math division by zero"],
  [50009, "fp_invalid_input", "refunded: weighted math invalid input"],
];

function toMap(...rows: (readonly Row[])[]): ReadonlyMap<number, ExitCodeInfo> {
  const m = new Map<number, ExitCodeInfo>();
  for (const list of rows) for (const [code, name, explanation] of list) m.set(code, { name, explanation });
  return m;
}

/** Every code a v1 contract can report (CRC exit codes, throw codes, TVM codes). */
export const V1_EXIT_CODES: ReadonlyMap<number, ExitCodeInfo> = toMap(COMMON_ROWS, V1_ROWS);
/** Every code a v2 contract can report (CRC exit codes, raw error numbers used as refund codes, TVM codes). */
export const V2_EXIT_CODES: ReadonlyMap<number, ExitCodeInfo> = toMap(COMMON_ROWS, V2_ROWS);

/**
 * Names and explains an exit code. Without `dex` the v2 table is tried first, then v1 (the CRC codes are
 * shared; small throw codes such as 85–88 mean different things per version).
 * Unknown codes get `exit_<n>`.
 */
export function describeExitCode(code: number | bigint, dex?: DexVersion): ExitCodeDescription {
  const n = typeof code === "bigint" ? bigintToSafe(code) : code;
  const info = n === null ? undefined : lookup(n, dex);
  if (info !== undefined) return { code, name: info.name, explanation: info.explanation };
  return { code, name: `exit_${code}`, explanation: `unknown exit code ${code}` };
}

function lookup(n: number, dex: DexVersion | undefined): ExitCodeInfo | undefined {
  if (dex === "v1") return V1_EXIT_CODES.get(n);
  if (dex === "v2") return V2_EXIT_CODES.get(n);
  return V2_EXIT_CODES.get(n) ?? V1_EXIT_CODES.get(n);
}

function bigintToSafe(b: bigint): number | null {
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : null;
}
