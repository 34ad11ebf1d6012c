/**
 * The on-disk format of `tondex devnet --out DIR` (read back by the replay source and the tests):
 *
 *   DIR/manifest.json       {version, seed, blocks, transactions, truth, first_mc_seqno, last_mc_seqno, options}
 *   DIR/blocks.jsonl        one line per block: {mc_seqno, utime, tx_count} (empty blocks included)
 *   DIR/transactions.jsonl  one RawTransaction (schemas/raw-transaction.ts) per line, in block then lt order
 *   DIR/truth.jsonl         one ground-truth record per line (below), in block then transaction order
 *
 * A truth line: {mc_seqno, tx_hash, lt, now, account, type, fields}. `type` and the field names are the
 * classifier's (schemas/operations.ts; nested asset fields as dotted keys, e.g. "offer.router_wallet");
 * amounts and lt are decimal strings, addresses raw `0:HEX` (uppercase), addr_none null.
 */
import { z } from "zod";

export const DEVNET_DUMP_VERSION = "devnet-dump.v1" as const;

export const DEVNET_FILES = {
  manifest: "manifest.json",
  blocks: "blocks.jsonl",
  transactions: "transactions.jsonl",
  truth: "truth.jsonl",
} as const;

const dec = z.string().regex(/^\d+$/, "expected a decimal string");
const rawAddress = z.string().regex(/^-?\d+:[0-9A-F]{64}$/, "expected a raw address wc:HEX");

export const blockLine = z
  .object({
    mc_seqno: z.number().int().positive(),
    utime: z.number().int(),
    tx_count: z.number().int().min(0),
  })
  .strict();

export const truthLine = z
  .object({
    mc_seqno: z.number().int().positive(),
    tx_hash: z.string().regex(/^[0-9a-f]{64}$/),
    lt: dec,
    now: z.number().int(),
    account: rawAddress,
    type: z.enum([
      "swap",
      "referral_payment",
      "vault_deposit",
      "vault_withdrawal",
      "liquidity_provide",
      "liquidity_mint",
      "liquidity_withdraw",
    ]),
    fields: z.record(z.union([z.string(), z.number(), z.boolean(), z.null()])),
  })
  .strict();

export const manifest = z
  .object({
    version: z.literal(DEVNET_DUMP_VERSION),
    seed: z.number().int().min(0),
    blocks: z.number().int().min(0),
    transactions: z.number().int().min(0),
    truth: z.number().int().min(0),
    first_mc_seqno: z.number().int(),
    last_mc_seqno: z.number().int(),
    options: z.record(z.unknown()),
  })
  .strict();

export type BlockLine = z.infer<typeof blockLine>;
export type TruthLine = z.infer<typeof truthLine>;
export type DevnetManifest = z.infer<typeof manifest>;
