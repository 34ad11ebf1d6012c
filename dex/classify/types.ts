/**
 * Domain types of the trace classifier: typed DEX operations assembled from decoded messages.
 * Amounts, lt and query_id are bigint; addresses are raw `0:HEX` strings (uppercase hex); tx hashes are
 * lowercase hex. The JSON form (decimal strings) is produced by ./json.ts and documented in README.md.
 */

import type { ClassifyMemo } from "./message-cache.ts";

export type Dex = "v1" | "v2";

/**
 * An asset as the trace shows it. `kind: "ton"` is native TON entering or leaving through a pTON wallet
 * (`master` is then the pTON master when known). For a jetton, `master` is its jetton master when the
 * trace reveals it (a wallet's StateInit, a known address or a hint), else null; `router_wallet` is
 * always the router's own wallet for the asset, which is how the DEX itself identifies tokens.
 */
export type Asset = {
  kind: "jetton" | "ton";
  master: string | null;
  router_wallet: string | null;
};

/** Where the output (or the refund) of a leg went, as far as the batch shows it. */
export type Payout = {
  /** Owner that receives the jettons / TON (the `pay_to` owner). */
  to: string | null;
  amount: bigint;
  /** Router wallet that sent it (the expected wallet for the ask side, or the offer side for a refund). */
  router_wallet: string | null;
  /** The receiver's jetton wallet that got the internal_transfer; null for TON or when not seen. */
  receiver_wallet: string | null;
  /** true: delivered; false: a step failed; null: the delivery is not in the batch. */
  delivered: boolean | null;
  /** Router transaction that executed the `pay_to`, when seen. */
  tx_hash: string | null;
};

type Anchor = {
  /** Stable id: the anchoring transaction hash plus a suffix for the operation type. */
  id: string;
  /** The anchoring transaction (pool, vault, router, ...). */
  tx_hash: string;
  lt: bigint;
  now: number;
  /** Every transaction of the batch that belongs to this operation. */
  tx_hashes: string[];
};

export type SwapLeg = Anchor & {
  type: "swap";
  dex: Dex;
  router: string | null;
  /** null when the router refused the request itself (a `transfer_bounce_*` refund; no pool involved). */
  pool: string | null;
  query_id: bigint;
  /** `from_user` at the router: the address the router credits the offer to. */
  sender: string | null;
  /** The sender's wallet that sent the offer to the router's wallet; null for TON or when not seen. */
  sender_wallet: string | null;
  receiver: string | null;
  offer: Asset;
  ask: Asset;
  amount_in: bigint;
  /** Output paid to the receiver; null when the pool refunded. */
  amount_out: bigint | null;
  min_out: bigint | null;
  /** Not carried by any message (contracts.md §6): derived from a paid referral fee when only one fits, else null. */
  protocol_fee: bigint | null;
  referral_fee: bigint | null;
  referrer: string | null;
  exit_code: number | null;
  exit_name: string;
  /** The payout to the receiver really happened (phases succeeded, expected wallet paid); null if not in the batch. */
  success: boolean | null;
  /** The output or the refund, as it left the router. */
  payout: Payout | null;
  /** v2 cross_swap: the output is swapped again on the same router instead of being paid out. */
  continues_as_cross_swap: boolean;
  /** The multi-hop route this leg is a hop of (same router or across routers); null for a one-hop swap. */
  route: LegRoute | null;
};

/**
 * A hop's view of its route: the route's id and its user. Across routers a later hop's `sender` is the
 * previous router (or its pTON wallet); the route's sender is who started the first hop, and its receiver
 * who got the final output.
 */
export type LegRoute = { id: string; sender: string | null; receiver: string | null };

export type SwapRoute = Anchor & {
  type: "swap_route";
  dex: Dex;
  /** Leg ids in hop order. */
  legs: string[];
  sender: string | null;
  receiver: string | null;
  offer: Asset;
  ask: Asset;
  amount_in: bigint;
  amount_out: bigint | null;
  status: "success" | "partial" | "failed" | "unknown";
  success: boolean | null;
};

export type ReferralPayment = Anchor & {
  type: "referral_payment";
  dex: "v1";
  router: string | null;
  pool: string;
  referrer: string | null;
  asset: Asset;
  amount: bigint;
  query_id: bigint;
  success: boolean | null;
  payout: Payout | null;
};

export type VaultDeposit = Anchor & {
  type: "vault_deposit";
  dex: "v2";
  router: string | null;
  pool: string | null;
  vault: string | null;
  referrer: string | null;
  asset: Asset;
  amount: bigint;
  query_id: bigint;
  /** The deposit_ref_fee message (router → vault). */
  msg_hash: string | null;
  success: boolean | null;
};

export type VaultWithdrawal = Anchor & {
  type: "vault_withdrawal";
  dex: "v2";
  router: string | null;
  vault: string;
  owner: string | null;
  asset: Asset;
  amount: bigint;
  query_id: bigint;
  success: boolean | null;
  payout: Payout | null;
};

/**
 * What became of a deposit in the LpAccount, as far as the batch shows: `minted` (forwarded in a
 * `cb_add_liquidity`, now or together with a later deposit, and the pool minted LP), `mint_failed` (the pool
 * returned it with `add_liquidity(min_lp_out 0)`: a refundable LpAccount balance again), `refunded`
 * (forwarded in a `cb_refund_me`) or `stored` (still waiting in the LpAccount, e.g. for the other side).
 */
export type ProvideOutcome = "minted" | "mint_failed" | "refunded" | "stored";

export type LiquidityProvide = Anchor & {
  type: "liquidity_provide";
  dex: Dex;
  router: string | null;
  pool: string;
  sender: string | null;
  lp_account: string | null;
  amount0: bigint;
  amount1: bigint;
  /** token0 / token1 of the pool: the router wallet that received the deposit and the payload's other wallet. */
  asset0: Asset;
  asset1: Asset;
  min_lp_out: bigint | null;
  query_id: bigint;
  exit_code: number | null;
  exit_name: string;
  /** The deposit reached the LpAccount (false: refunded or failed). */
  success: boolean | null;
  /** null: the deposit did not reach the LpAccount, or its transaction is not in the batch. */
  outcome: ProvideOutcome | null;
};

export type LiquidityMint = Anchor & {
  type: "liquidity_mint";
  dex: Dex;
  pool: string;
  user: string | null;
  receiver: string | null;
  amount0: bigint;
  amount1: bigint;
  lp_amount: bigint | null;
  query_id: bigint;
  success: boolean | null;
};

export type LiquidityWithdraw = Anchor & {
  type: "liquidity_withdraw";
  dex: Dex;
  /** burn: LP burned for both reserves; lp_refund: an LpAccount returned its stored deposit. */
  kind: "burn" | "lp_refund";
  pool: string;
  owner: string | null;
  /** burn: the response address the burn named (excesses go there); null for an LpAccount refund or none. */
  response: string | null;
  lp_amount: bigint | null;
  amount0: bigint;
  amount1: bigint;
  asset0: Asset;
  asset1: Asset;
  query_id: bigint;
  success: boolean | null;
};

export type UnknownOperation = {
  type: "unknown" | "malformed";
  id: string;
  tx_hash: string;
  lt: bigint;
  /** The message concerned, when there is one. */
  msg_hash: string | null;
  opcode: number | null;
  reason: string;
};

export type Operation =
  | SwapLeg
  | SwapRoute
  | ReferralPayment
  | VaultDeposit
  | VaultWithdrawal
  | LiquidityProvide
  | LiquidityMint
  | LiquidityWithdraw
  | UnknownOperation;

export type ClassifyOptions = {
  /** Jetton wallet → jetton master known from elsewhere (e.g. a recorded trace's interfaces). Fills gaps only. */
  jettonMasters?: ReadonlyMap<string, string>;
  /** Per-message results reused across calls over overlapping batches (./message-cache.ts); output is the same. */
  memo?: ClassifyMemo;
};
