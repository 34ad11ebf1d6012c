/**
 * The parts of toncenter's index API v3 answers the mainnet source reads, as zod schemas. Field names and
 * JSON shapes are those of ton-index-go (toncenter/ton-indexer at eb9fbfa3, `ton-index-go/index/models/`):
 * - `MasterchainInfo {last, first: Block}` (response.go); `Block.shard` is written with `json:"shard,string"`
 *   through `ShardId.String()` = uppercase hex of the uint64 (`%X`, no leading zeros); `gen_utime`, `start_lt`,
 *   `end_lt` are strings (blockchain.go `Block`).
 * - `TransactionsResponse {transactions, address_book}` (response.go); `Transaction` (blockchain.go):
 *   `account` (raw `0:HEX`), `hash` (base64), `lt` (string), `now`, `mc_block_seqno`, `trace_id` (omitted when
 *   unknown), `prev_trans_hash` (base64), `prev_trans_lt` (string), `orig_status`, `end_status`,
 *   `description {type, aborted, compute_ph {skipped, success, exit_code}, action {success, result_code}}` with
 *   omitempty phases, `block_ref {workchain, shard, seqno}`, `in_msg`, `out_msgs`.
 * - `Message`: `hash` (base64), `source`/`destination` (raw or null), `value`, `fwd_fee`, `created_lt`,
 *   `created_at` as strings (`json:",string"`), `opcode` as `"0x%08x"` (`OpcodeType.String()`), `bounce`,
 *   `bounced`, `message_content {hash, body (base64 BOC), decoded}`, `init_state` (same shape, null when none).
 * - `/api/v3/transactionsByMasterchainBlock?seqno&limit&offset&sort` (main.go): "transactions from masterchain
 *   block and from all shards"; ordered `T.lt, account` (crud/crud_transactions.go); `limit` above the
 *   server's MaxLimit is a 422 `limit is not allowed: N > MAX` (crud/crud.go `limitQuery`), never a silent
 *   cap; an unknown seqno answers an empty list (the 404 is commented out in main.go).
 * - `/api/v3/blocks?workchain&start_utime&sort&limit` orders by `gen_utime` (crud/crud_blocks.go).
 */
import { z } from "zod";

const decimal = z.string().regex(/^-?\d+$/, "expected a decimal string");
const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "expected base64");

export const v3Block = z
  .object({
    workchain: z.number().int(),
    shard: z.string().regex(/^[0-9A-Fa-f]{1,16}$/, "expected a shard id in hex"),
    seqno: z.number().int().nonnegative(),
    gen_utime: decimal,
  })
  .passthrough();

export const v3MasterchainInfo = z.object({ last: v3Block, first: v3Block }).passthrough();
export const v3Blocks = z.object({ blocks: z.array(v3Block) }).passthrough();

const v3Content = z
  .object({ hash: base64.nullable().optional(), body: base64.nullable().optional() })
  .passthrough();

export const v3Message = z
  .object({
    hash: base64,
    source: z.string().nullable(),
    destination: z.string().nullable(),
    value: decimal.nullable(),
    fwd_fee: decimal.nullable(),
    created_lt: decimal.nullable(),
    created_at: decimal.nullable(),
    opcode: z
      .string()
      .regex(/^0x[0-9a-fA-F]{1,8}$/, "expected 0x-prefixed hex")
      .nullable(),
    bounce: z.boolean().nullable(),
    bounced: z.boolean().nullable(),
    message_content: v3Content.nullable(),
    init_state: v3Content.nullable().optional(),
  })
  .passthrough();

export const v3Transaction = z
  .object({
    account: z.string(),
    hash: base64,
    lt: decimal,
    now: z.number().int(),
    mc_block_seqno: z.number().int(),
    trace_id: base64.nullable().optional(),
    prev_trans_hash: base64,
    prev_trans_lt: decimal,
    orig_status: z.string(),
    end_status: z.string(),
    description: z
      .object({
        type: z.string(),
        aborted: z.boolean().optional(),
        compute_ph: z
          .object({
            skipped: z.boolean().optional(),
            success: z.boolean().optional(),
            exit_code: z.number().int().optional(),
          })
          .passthrough()
          .optional(),
        action: z
          .object({ success: z.boolean().optional(), result_code: z.number().int().optional() })
          .passthrough()
          .optional(),
      })
      .passthrough(),
    block_ref: z
      .object({ workchain: z.number().int(), shard: z.string(), seqno: z.number().int() })
      .passthrough(),
    in_msg: v3Message.nullable(),
    out_msgs: z.array(v3Message),
  })
  .passthrough();

export const v3Transactions = z.object({ transactions: z.array(v3Transaction) }).passthrough();
/** A page whose transactions are checked one by one (one odd transaction must not stop a block). */
export const v3TransactionsPage = z.object({ transactions: z.array(z.unknown()) }).passthrough();

export type V3Block = z.infer<typeof v3Block>;
export type V3Message = z.infer<typeof v3Message>;
export type V3Transaction = z.infer<typeof v3Transaction>;
export type V3MasterchainInfo = z.infer<typeof v3MasterchainInfo>;

export const V3_PATHS = {
  masterchainInfo: "/api/v3/masterchainInfo",
  transactionsByMasterchainBlock: "/api/v3/transactionsByMasterchainBlock",
  blocks: "/api/v3/blocks",
} as const;

/** ton-index-go's documented maximum page size (`maximum(1000)` on `limit`, main.go). */
export const V3_MAX_LIMIT = 1000;
