/**
 * Mapper: classifier operations (dex/classify domain types) → fact rows (schemas/facts.ts). One function
 * per table; the classifier's field names carry over, assets are flattened to `{p}_kind/_master/
 * _router_wallet`, payouts to `payout_*`, `now` becomes `utime`. `mc_seqno` is the anchor transaction's.
 */
import type {
  Asset,
  LiquidityMint,
  LiquidityProvide,
  LiquidityWithdraw,
  Operation,
  Payout,
  ReferralPayment,
  SwapLeg,
  SwapRoute,
  UnknownOperation,
  VaultDeposit,
  VaultWithdrawal,
} from "../../dex/classify/index.ts";
import type {
  FactRows,
  LiquidityRow,
  ReferralFeeRow,
  SwapRouteRow,
  SwapRow,
  UnknownMessageRow,
  VaultWithdrawalRow,
} from "../../schemas/facts.ts";
import { type FeedColumns, NO_FEED_COLUMNS } from "./feed-columns.ts";

type AnchorContext = {
  mcSeqnoOf: (txHash: string) => number;
  /** The export feed's columns of a pool operation (./feed-columns.ts); absent: all null. */
  feedOf?: (pool: string, txHash: string, lt: bigint, otherwise: string | null) => FeedColumns;
};

function feed(
  ctx: AnchorContext,
  pool: string | null,
  op: { tx_hash: string; lt: bigint },
  otherwise: string | null,
) {
  return pool === null || ctx.feedOf === undefined
    ? NO_FEED_COLUMNS
    : ctx.feedOf(pool, op.tx_hash, op.lt, otherwise);
}

function asset<P extends string>(p: P, a: Asset) {
  return {
    [`${p}_kind`]: a.kind,
    [`${p}_master`]: a.master,
    [`${p}_router_wallet`]: a.router_wallet,
  } as Record<`${P}_kind`, Asset["kind"]> & Record<`${P}_master` | `${P}_router_wallet`, string | null>;
}

function payout(p: Payout | null) {
  return {
    payout_to: p?.to ?? null,
    payout_amount: p?.amount ?? null,
    payout_router_wallet: p?.router_wallet ?? null,
    payout_receiver_wallet: p?.receiver_wallet ?? null,
    payout_delivered: p?.delivered ?? null,
    payout_tx_hash: p?.tx_hash ?? null,
  };
}

function anchor(op: Exclude<Operation, UnknownOperation>, ctx: AnchorContext) {
  return {
    id: op.id,
    tx_hash: op.tx_hash,
    lt: op.lt,
    mc_seqno: ctx.mcSeqnoOf(op.tx_hash),
    utime: op.now,
    tx_hashes: op.tx_hashes,
  };
}

/**
 * The most frequent row, written out field by field (same fields, same order as `anchor`, `asset` and
 * `payout` give): spreading the computed-key `asset` objects built each row in V8's slow dictionary
 * mode, which cost more than the rest of the row mappers together.
 */
function swapRow(op: SwapLeg, ctx: AnchorContext): SwapRow {
  const p = op.payout;
  return {
    id: op.id,
    tx_hash: op.tx_hash,
    lt: op.lt,
    mc_seqno: ctx.mcSeqnoOf(op.tx_hash),
    utime: op.now,
    tx_hashes: op.tx_hashes,
    dex: op.dex,
    router: op.router,
    pool: op.pool,
    query_id: op.query_id,
    sender: op.sender,
    sender_wallet: op.sender_wallet,
    receiver: op.receiver,
    offer_kind: op.offer.kind,
    offer_master: op.offer.master,
    offer_router_wallet: op.offer.router_wallet,
    ask_kind: op.ask.kind,
    ask_master: op.ask.master,
    ask_router_wallet: op.ask.router_wallet,
    amount_in: op.amount_in,
    amount_out: op.amount_out,
    min_out: op.min_out,
    protocol_fee: op.protocol_fee,
    referral_fee: op.referral_fee,
    referrer: op.referrer,
    exit_code: op.exit_code,
    exit_name: op.exit_name,
    success: op.success,
    payout_to: p?.to ?? null,
    payout_amount: p?.amount ?? null,
    payout_router_wallet: p?.router_wallet ?? null,
    payout_receiver_wallet: p?.receiver_wallet ?? null,
    payout_delivered: p?.delivered ?? null,
    payout_tx_hash: p?.tx_hash ?? null,
    continues_as_cross_swap: op.continues_as_cross_swap,
    route_id: op.route?.id ?? null,
    route_sender: op.route?.sender ?? null,
    route_receiver: op.route?.receiver ?? null,
    ...feed(ctx, op.pool, op, op.route?.sender ?? op.sender),
    // USD columns: set by the core from the pool states before the swap (./swap-usd.ts).
    volume_usd: null,
    untracked_volume_usd: null,
    lp_fee_usd: null,
  };
}

function routeRow(op: SwapRoute, ctx: AnchorContext): SwapRouteRow {
  return {
    ...anchor(op, ctx),
    dex: op.dex,
    legs: op.legs,
    sender: op.sender,
    receiver: op.receiver,
    ...asset("offer", op.offer),
    ...asset("ask", op.ask),
    amount_in: op.amount_in,
    amount_out: op.amount_out,
    status: op.status,
    success: op.success,
  };
}

function liquidityBase(op: LiquidityProvide | LiquidityMint | LiquidityWithdraw, ctx: AnchorContext) {
  return {
    ...anchor(op, ctx),
    dex: op.dex,
    pool: op.pool,
    amount0: op.amount0,
    amount1: op.amount1,
    query_id: op.query_id,
    success: op.success,
  };
}

function liquidityRow(
  op: LiquidityProvide | LiquidityMint | LiquidityWithdraw,
  ctx: AnchorContext,
): LiquidityRow {
  const none = {
    asset0_kind: null,
    asset0_master: null,
    asset0_router_wallet: null,
    asset1_kind: null,
    asset1_master: null,
    asset1_router_wallet: null,
  };
  switch (op.type) {
    case "liquidity_provide":
      return {
        ...liquidityBase(op, ctx),
        kind: "provide",
        router: op.router,
        owner: op.sender,
        ...feed(ctx, op.pool, op, op.sender),
        receiver: null,
        lp_account: op.lp_account,
        withdraw_kind: null,
        ...asset("asset0", op.asset0),
        ...asset("asset1", op.asset1),
        lp_amount: null,
        min_lp_out: op.min_lp_out,
        exit_code: op.exit_code,
        exit_name: op.exit_name,
        outcome: op.outcome,
      };
    case "liquidity_mint":
      return {
        ...liquidityBase(op, ctx),
        kind: "mint",
        router: null,
        owner: op.user,
        ...feed(ctx, op.pool, op, op.user),
        receiver: op.receiver,
        lp_account: null,
        withdraw_kind: null,
        ...none,
        lp_amount: op.lp_amount,
        min_lp_out: null,
        exit_code: null,
        exit_name: null,
        outcome: null,
      };
    case "liquidity_withdraw":
      return {
        ...liquidityBase(op, ctx),
        kind: "withdraw",
        router: null,
        owner: op.owner,
        ...feed(ctx, op.pool, op, op.owner),
        receiver: null,
        lp_account: null,
        withdraw_kind: op.kind,
        ...asset("asset0", op.asset0),
        ...asset("asset1", op.asset1),
        lp_amount: op.lp_amount,
        min_lp_out: null,
        exit_code: null,
        exit_name: null,
        outcome: null,
      };
  }
}

function referralRow(op: ReferralPayment | VaultDeposit, ctx: AnchorContext): ReferralFeeRow {
  const direct = op.type === "referral_payment";
  return {
    ...anchor(op, ctx),
    kind: direct ? "direct" : "vault_deposit",
    dex: op.dex,
    router: op.router,
    pool: op.pool,
    vault: direct ? null : op.vault,
    referrer: op.referrer,
    ...asset("asset", op.asset),
    amount: op.amount,
    query_id: op.query_id,
    msg_hash: direct ? null : op.msg_hash,
    success: op.success,
    ...payout(direct ? op.payout : null),
    amount_usd: null,
  };
}

function withdrawalRow(op: VaultWithdrawal, ctx: AnchorContext): VaultWithdrawalRow {
  return {
    ...anchor(op, ctx),
    dex: op.dex,
    router: op.router,
    vault: op.vault,
    owner: op.owner,
    ...asset("asset", op.asset),
    amount: op.amount,
    query_id: op.query_id,
    success: op.success,
    ...payout(op.payout),
    amount_usd: null,
  };
}

function unknownRow(
  op: UnknownOperation,
  ctx: AnchorContext & { utimeOf: (txHash: string) => number },
): UnknownMessageRow {
  return {
    id: op.id,
    kind: op.type,
    tx_hash: op.tx_hash,
    lt: op.lt,
    mc_seqno: ctx.mcSeqnoOf(op.tx_hash),
    utime: ctx.utimeOf(op.tx_hash),
    msg_hash: op.msg_hash,
    opcode: op.opcode,
    reason: op.reason,
  };
}

export type OperationRows = Pick<
  FactRows,
  "swaps" | "swap_routes" | "liquidity" | "referral_fees" | "vault_withdrawals" | "unknown_messages"
>;

/** Rows for a list of operations; `mcSeqnoOf`/`utimeOf` resolve anchor transactions of the batch. */
export function operationRows(
  ops: readonly Operation[],
  ctx: AnchorContext & { utimeOf: (txHash: string) => number },
): Required<{ [K in keyof OperationRows]: NonNullable<OperationRows[K]>[number][] }> {
  const rows = {
    swaps: [] as SwapRow[],
    swap_routes: [] as SwapRouteRow[],
    liquidity: [] as LiquidityRow[],
    referral_fees: [] as ReferralFeeRow[],
    vault_withdrawals: [] as VaultWithdrawalRow[],
    unknown_messages: [] as UnknownMessageRow[],
  };
  for (const op of ops) {
    switch (op.type) {
      case "swap":
        rows.swaps.push(swapRow(op, ctx));
        break;
      case "swap_route":
        rows.swap_routes.push(routeRow(op, ctx));
        break;
      case "liquidity_provide":
      case "liquidity_mint":
      case "liquidity_withdraw":
        rows.liquidity.push(liquidityRow(op, ctx));
        break;
      case "referral_payment":
      case "vault_deposit":
        rows.referral_fees.push(referralRow(op, ctx));
        break;
      case "vault_withdrawal":
        rows.vault_withdrawals.push(withdrawalRow(op, ctx));
        break;
      case "unknown":
      case "malformed":
        rows.unknown_messages.push(unknownRow(op, ctx));
        break;
    }
  }
  return rows;
}
