/**
 * Fact rows: the ClickHouse layer (`*Row`) of the data contracts, mirroring schemas/clickhouse/*.sql
 * column for column (an integration test compares both with `system.columns`).
 *
 * In code a row holds bigint for UInt64/UInt256 (amounts, lt, query_id) and unix seconds for DateTime;
 * on the wire bigints are decimal strings (infra/json.ts). Each table's zod `schema` reads a row back from
 * JSONEachRow output (quoted 64-bit integers, unix-timestamp DateTime) into exactly the row that was
 * written, and also accepts an in-memory row, so producers can validate what they emit.
 */
import { z } from "zod";
import { DEX_VERSIONS, POOL_TYPES } from "./pool-types.ts";
import { ACCOUNT_STATUSES } from "./raw-transaction.ts";

type Column<Z extends z.ZodTypeAny = z.ZodTypeAny> = { readonly ch: string; readonly zod: Z };
type Columns = Record<string, Column>;
export type RowOf<C extends Columns> = { [K in keyof C]: z.output<C[K]["zod"]> };

const digits = z.string().regex(/^\d+$/, "expected a decimal string");
const signed = z.string().regex(/^-?\d+$/, "expected a decimal string");
const col = <Z extends z.ZodTypeAny>(ch: string, zod: Z): Column<Z> => ({ ch, zod });
const nullable = <Z extends z.ZodTypeAny>(c: Column<Z>) => col(`Nullable(${c.ch})`, c.zod.nullable());
const enumCol = <const V extends readonly [string, ...string[]]>(values: V) =>
  col(`Enum8(${values.map((v, i) => `'${v}' = ${i + 1}`).join(", ")})`, z.enum(values));

/** Reads a quoted 64-bit integer (or accepts a bigint): lt, query_id, offsets, versions. */
const u64 = col("UInt64", z.union([z.bigint(), digits.transform(BigInt)]));
/** Raw token amounts: jetton `VarUInteger 16` fits in 128 bits; 256 leaves room for sums. */
const u256 = col("UInt256", z.union([z.bigint(), digits.transform(BigInt)]));
const uint = (bits: number, max: number) => col(`UInt${bits}`, z.number().int().min(0).max(max));
const u8 = uint(8, 0xff);
const u16 = uint(16, 0xffff);
const u32 = uint(32, 0xffffffff);
const i32 = col("Int32", z.number().int());
/** Exit codes: TVM's are signed 32-bit, the DEX's are unsigned 32-bit (0xc64370e5); Int64 holds both. */
const exitCode = col("Int64", z.union([z.number().int(), signed.transform(Number)]));
/** Unix seconds in code; read back as a (quoted) unix timestamp thanks to date_time_output_format. */
const dateTime = col("DateTime('UTC')", z.union([z.number().int().min(0), digits.transform(Number)]));
const str = col("String", z.string());
const bool = col("Bool", z.boolean());
/** Approximate USD figures (dex/pricing); never raw amounts. */
const f64 = col("Float64", z.number());
const strings = col("Array(String)", z.array(z.string()));

export { DEX_VERSIONS, POOL_TYPES };

const dex = enumCol(DEX_VERSIONS);
const poolType = enumCol(POOL_TYPES);
const assetKind = enumCol(["jetton", "ton"]);

export type FactTable<C extends Columns = Columns> = {
  readonly name: string;
  readonly columns: C;
  /** The ReplacingMergeTree sorting key: one row per distinct key survives deduplication. */
  readonly orderBy: readonly (keyof C & string)[];
  readonly schema: z.ZodType<RowOf<C>, z.ZodTypeDef, unknown>;
};

function table<C extends Columns>(name: string, orderBy: readonly (keyof C & string)[], columns: C) {
  const shape = Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, c.zod]));
  const schema = z.object(shape).strict() as unknown as z.ZodType<RowOf<C>, z.ZodTypeDef, unknown>;
  return { name, columns, orderBy, schema } satisfies FactTable<C>;
}

/** The anchoring transaction of a classifier operation (`id` = anchor tx hash + suffix). */
const anchor = { id: str, tx_hash: str, lt: u64, mc_seqno: u32, utime: dateTime, tx_hashes: strings };
/** An asset as the classifier reports it: `{p}_kind`, `{p}_master`, `{p}_router_wallet`. */
const asset = <P extends string>(p: P, optional = false) => {
  const kind = optional ? nullable(assetKind) : assetKind;
  return {
    [`${p}_kind`]: kind,
    [`${p}_master`]: nullable(str),
    [`${p}_router_wallet`]: nullable(str),
  } as Record<`${P}_kind`, typeof kind> &
    Record<`${P}_master` | `${P}_router_wallet`, Column<z.ZodNullable<z.ZodString>>>;
};
const payout = {
  payout_to: nullable(str),
  payout_amount: nullable(u256),
  payout_router_wallet: nullable(str),
  payout_receiver_wallet: nullable(str),
  payout_delivered: nullable(bool),
  payout_tx_hash: nullable(str),
};

/** Migration 008 on swaps and liquidity: the export feed's maker and the pool's reserves after the event. */
const feedColumns = { maker: nullable(str), reserve0_after: nullable(u256), reserve1_after: nullable(u256) };

export const blocks = table("blocks", ["mc_seqno"], {
  mc_seqno: u32,
  utime: dateTime,
  tx_count: u32,
  shard_blocks: strings,
});

export const transactions = table("transactions", ["account", "lt", "hash"], {
  hash: str,
  lt: u64,
  account: str,
  mc_seqno: u32,
  shard: nullable(str),
  block_seqno: nullable(u32),
  utime: dateTime,
  aborted: bool,
  compute_success: bool,
  compute_exit_code: nullable(i32),
  action_success: nullable(bool),
  action_result_code: nullable(i32),
  in_msg_hash: nullable(str),
  out_msg_hashes: strings,
  orig_status: nullable(enumCol(ACCOUNT_STATUSES)),
  end_status: nullable(enumCol(ACCOUNT_STATUSES)),
  prev_trans_hash: nullable(str),
  prev_trans_lt: nullable(u64),
});

export const messages = table("messages", ["msg_hash", "direction", "tx_hash"], {
  msg_hash: str,
  direction: enumCol(["in", "out"]),
  tx_hash: str,
  tx_lt: u64,
  msg_index: u16,
  mc_seqno: u32,
  utime: dateTime,
  source: nullable(str),
  destination: nullable(str),
  opcode: nullable(u32),
  value: nullable(u256),
  fwd_fee: nullable(u256),
  bounce: nullable(bool),
  bounced: nullable(bool),
  created_lt: nullable(u64),
  created_at: nullable(dateTime),
  body_boc: str,
  init_boc: nullable(str),
});

export const swaps = table("swaps", ["utime", "id"], {
  ...anchor,
  dex,
  router: nullable(str),
  pool: nullable(str),
  query_id: u64,
  sender: nullable(str),
  sender_wallet: nullable(str),
  receiver: nullable(str),
  ...asset("offer"),
  ...asset("ask"),
  amount_in: u256,
  amount_out: nullable(u256),
  min_out: nullable(u256),
  protocol_fee: nullable(u256),
  referral_fee: nullable(u256),
  referrer: nullable(str),
  exit_code: nullable(exitCode),
  exit_name: str,
  success: nullable(bool),
  ...payout,
  continues_as_cross_swap: bool,
  // 006: the route this leg is a hop of (classifier `route`).
  route_id: nullable(str),
  route_sender: nullable(str),
  route_receiver: nullable(str),
  // 008: the export feed's maker and reserves after the pool transaction (null: not known when written).
  ...feedColumns,
  // 010: USD value of the executed leg at the swap's time (dex/pricing; null: not executed or not priced).
  volume_usd: nullable(f64),
  untracked_volume_usd: nullable(f64),
  lp_fee_usd: nullable(f64),
});

export const swapRoutes = table("swap_routes", ["utime", "id"], {
  ...anchor,
  dex,
  legs: strings,
  sender: nullable(str),
  receiver: nullable(str),
  ...asset("offer"),
  ...asset("ask"),
  amount_in: u256,
  amount_out: nullable(u256),
  status: enumCol(["success", "partial", "failed", "unknown"]),
  success: nullable(bool),
});

export const liquidity = table("liquidity", ["pool", "utime", "id"], {
  ...anchor,
  kind: enumCol(["provide", "mint", "withdraw"]),
  dex,
  router: nullable(str),
  pool: str,
  owner: nullable(str),
  receiver: nullable(str),
  lp_account: nullable(str),
  withdraw_kind: nullable(enumCol(["burn", "lp_refund"])),
  amount0: u256,
  amount1: u256,
  ...asset("asset0", true),
  ...asset("asset1", true),
  lp_amount: nullable(u256),
  min_lp_out: nullable(u256),
  query_id: u64,
  exit_code: nullable(exitCode),
  exit_name: nullable(str),
  success: nullable(bool),
  outcome: nullable(enumCol(["minted", "mint_failed", "refunded", "stored"])),
  // 008, as on swaps.
  ...feedColumns,
});

export const referralFees = table("referral_fees", ["utime", "id"], {
  ...anchor,
  kind: enumCol(["direct", "vault_deposit"]),
  dex,
  router: nullable(str),
  pool: nullable(str),
  vault: nullable(str),
  referrer: nullable(str),
  ...asset("asset"),
  amount: u256,
  query_id: u64,
  msg_hash: nullable(str),
  success: nullable(bool),
  ...payout,
  // 019: USD value at the anchoring transaction (dex/pricing; null: asset unknown or not priced).
  amount_usd: nullable(f64),
});

export const vaultWithdrawals = table("vault_withdrawals", ["vault", "utime", "id"], {
  ...anchor,
  dex,
  router: nullable(str),
  vault: str,
  owner: nullable(str),
  ...asset("asset"),
  amount: u256,
  query_id: u64,
  success: nullable(bool),
  ...payout,
  // 019, as on referral_fees.
  amount_usd: nullable(f64),
});

export const unknownMessages = table("unknown_messages", ["utime", "id"], {
  id: str,
  kind: enumCol(["unknown", "malformed"]),
  tx_hash: str,
  lt: u64,
  mc_seqno: u32,
  utime: dateTime,
  msg_hash: nullable(str),
  opcode: nullable(u32),
  reason: str,
});

export const poolStates = table("pool_states", ["pool", "lt"], {
  pool: str,
  lt: u64,
  tx_hash: str,
  mc_seqno: u32,
  utime: dateTime,
  pool_type: poolType,
  reserve0: u256,
  reserve1: u256,
  lp_supply: u256,
  lp_fee_bps: u16,
  protocol_fee_bps: u16,
  ref_fee_bps: u16,
  collected_protocol_fee0: u256,
  collected_protocol_fee1: u256,
  is_locked: bool,
  amp: u256,
  rate: u256,
  w0: u256,
});

/** What operations reveal of a pool; null for what they do not (migration 005). */
export const pools = table("pools", ["pool"], {
  pool: str,
  router: nullable(str),
  dex,
  pool_type: nullable(poolType),
  token0_wallet: nullable(str),
  token1_wallet: nullable(str),
  token0_master: nullable(str),
  token1_master: nullable(str),
  /** The deploying transaction; null when the deployment was not seen. */
  created_lt: nullable(u64),
  created_utime: nullable(dateTime),
  version: u64,
});

export const assets = table("assets", ["address"], {
  address: str,
  kind: enumCol(["jetton", "ton", "pton", "lp"]),
  symbol: nullable(str),
  name: nullable(str),
  decimals: nullable(u8),
  image: nullable(str),
  description: nullable(str),
  metadata_uri: nullable(str),
  total_supply: nullable(u256),
  version: u64,
});

/** A router taking part in operations; its get-method facts are null until read (migration 005). */
export const routers = table("routers", ["address"], {
  address: str,
  dex,
  pool_type: nullable(poolType),
  major: u16,
  minor: nullable(u16),
  development: nullable(str),
  pton_master: nullable(str),
  pton_wallet: nullable(str),
  is_locked: nullable(bool),
  admin: nullable(str),
  version: u64,
});

export const cursor = table("cursor", ["consumer", "partition_id"], {
  consumer: str,
  partition_id: u32,
  mc_seqno: u32,
  next_offset: u64,
  written_at: dateTime,
});

/** Fact tables in write order; the cursor is written last, after every fact of its batch. */
export const FACT_TABLES = {
  blocks,
  transactions,
  messages,
  swaps,
  swap_routes: swapRoutes,
  liquidity,
  referral_fees: referralFees,
  vault_withdrawals: vaultWithdrawals,
  unknown_messages: unknownMessages,
  pool_states: poolStates,
  pools,
  assets,
  routers,
} as const;

export type FactTableName = keyof typeof FACT_TABLES;
type RowOfTable<T> = T extends FactTable<infer C> ? RowOf<C> : never;
export type FactRowOf<N extends FactTableName> = RowOfTable<(typeof FACT_TABLES)[N]>;
/** What a processor core emits for one batch: rows per table (absent or empty: nothing to write). */
export type FactRows = { readonly [N in FactTableName]?: readonly FactRowOf<N>[] };

export type BlockRow = FactRowOf<"blocks">;
export type TransactionRow = FactRowOf<"transactions">;
export type MessageRow = FactRowOf<"messages">;
export type SwapRow = FactRowOf<"swaps">;
export type SwapRouteRow = FactRowOf<"swap_routes">;
export type LiquidityRow = FactRowOf<"liquidity">;
export type ReferralFeeRow = FactRowOf<"referral_fees">;
export type VaultWithdrawalRow = FactRowOf<"vault_withdrawals">;
export type UnknownMessageRow = FactRowOf<"unknown_messages">;
export type PoolStateRow = FactRowOf<"pool_states">;
export type PoolRow = FactRowOf<"pools">;
export type AssetRow = FactRowOf<"assets">;
export type RouterRow = FactRowOf<"routers">;
export type CursorRow = RowOf<(typeof cursor)["columns"]>;
