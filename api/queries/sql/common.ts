/**
 * Shared pieces of the ClickHouse read model's SQL: row-field parsers (JSONEachRow with quoted 64-bit
 * integers and unix-timestamp DateTime, see infra/store/client.ts STORE_SETTINGS), the SQL that resolves a
 * pool token to its asset address, and asset references.
 *
 * Deduplication (ReplacingMergeTree; a re-delivered batch is physically present twice until a merge):
 * - operation facts (swaps, liquidity, referral_fees, vault_withdrawals), pool_states and the versioned
 *   reference tables (pools, assets, routers) are read through `FINAL`: a row may be rewritten with new
 *   content under the same key (a higher `version`, a re-processed batch), and FINAL returns exactly the
 *   row a merge would keep. The reads filter on the sorting key or a bloom-indexed column first, so FINAL
 *   only merges the few granules selected.
 * - chain facts (transactions, messages) are immutable: two copies of a key are byte-identical, so
 *   `LIMIT 1 BY <sorting key>` is enough and skips FINAL's merge on the hot action-tree path.
 */
import { z } from "zod";
import { TON_RAW } from "../../mappers/common.ts";
import type { RawAddress } from "../../read-model.ts";

export { TON_RAW };

/** UInt64/UInt256 (quoted by the store settings) → bigint. */
export const big = z.union([z.bigint(), z.string().regex(/^\d+$/).transform(BigInt)]);
/** DateTime as unix seconds (a number, or a quoted one). */
export const seconds = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);
export const str = z.string();
export const nstr = z.string().nullable();

/** An asset column's kind (null where the fact does not name the asset). */
export const assetKind = z.enum(["jetton", "ton"]).nullable();

/**
 * An operation's two assets in pool order (`a` = token0 side) and their amounts, as the operation and feed
 * queries select them (`tokenAssetSql` columns: kind, jetton master, router wallet).
 */
export const assetPairColumns = {
  a_kind: assetKind,
  a_master: nstr,
  a_wallet: nstr,
  b_kind: assetKind,
  b_master: nstr,
  b_wallet: nstr,
  amount_a: big,
  amount_b: big,
};

/**
 * The asset address of a pool token, as the API names it: native TON (the zero address) for the pTON
 * side — recognised by the router's pTON wallet or master, or an `assets` row of kind `pton` — else the
 * jetton master; null while the master is unknown. `p` is a `pools` row, `r` its router (LEFT JOINed with
 * join_use_nulls, so a missing router compares as NULL and the condition is false).
 */
export function tokenAssetSql(side: 0 | 1, p = "p", r = "r"): string {
  const wallet = `${p}.token${side}_wallet`;
  const master = `${p}.token${side}_master`;
  return `if(
    ifNull(${wallet} = ${r}.pton_wallet, false)
      OR ifNull(${master} = ${r}.pton_master, false)
      OR ifNull(${master} IN (SELECT address FROM assets FINAL WHERE kind = 'pton'), false),
    '${TON_RAW}', ${master})`;
}

/** `pools` joined with its router: the columns every pool-token resolution needs. */
export const POOLS_WITH_ROUTER = `pools AS p FINAL
  LEFT JOIN (SELECT address, pton_master, pton_wallet FROM routers FINAL) AS r ON r.address = p.router`;

/** An asset as operation facts flatten it (`{p}_kind`, `{p}_master`, `{p}_router_wallet`). */
export type AssetRef = { kind: "jetton" | "ton" | null; master: string | null; routerWallet: string | null };

/**
 * The API address of an asset reference: TON for `ton`, else the jetton master, else (master not known
 * yet) the router's wallet for it, which is at least a valid address naming the token in the DEX.
 */
export function assetAddress(a: AssetRef): RawAddress | null {
  if (a.kind === "ton") return TON_RAW;
  return a.master ?? a.routerWallet;
}

export const max0 = (v: bigint): bigint => (v > 0n ? v : 0n);

/** Raw addresses are compared in canonical form (uppercase hex), as the store keeps them. */
export const norm = (raw: RawAddress): RawAddress => raw.toUpperCase();
