/**
 * The devnet fee model: flat, documented constants instead of TON's per-opcode gas and per-bit forward
 * prices, so balances move realistically and tests can compute them exactly. All amounts in nanoton.
 * Real basechain prices for comparison: gas 400 nanoton/unit, fwd lump 400_000 + per bit/cell
 * (https://docs.ton.org/develop/howto/fees-low-level).
 */

/** Gas units every executed compute phase is charged (a typical small contract call). */
export const GAS_USED_PER_TX = 10_000n;
/** Basechain gas price, nanoton per gas unit. */
export const GAS_PRICE = 400n;
/** Flat compute fee: 0.004 TON. */
export const COMPUTE_FEE = GAS_USED_PER_TX * GAS_PRICE;
/** Gas limit written into the compute phase (TON caps one transaction at 1M gas on basechain). */
export const GAS_LIMIT = 1_000_000n;
/** Gas credit granted to external messages before `accept_message` (TON: 10_000). */
export const EXTERNAL_GAS_CREDIT = 10_000n;
/** Flat forward fee per outgoing internal message, bounces included: 0.001 TON. */
export const FORWARD_FEE = 1_000_000n;
/** Logical-time budget of one block: block N starts at lt ≥ N × LT_PER_BLOCK (TON uses 1_000_000). */
export const LT_PER_BLOCK = 1_000_000n;
/** TVM exit codes the model produces (https://docs.ton.org/learn/tvm-instructions/tvm-exit-codes). */
export const ACTION_NOT_ENOUGH_TON = 37;
/** Bounced bodies keep this many bits of the original body after the 0xffffffff prefix. */
export const BOUNCE_BODY_BITS = 256;
