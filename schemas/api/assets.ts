/**
 * Asset catalogue routes (api.md §5.3). `POST /v1/assets/query` takes a JSON body (client ≥ 0.27.1) but the
 * older query-string encoding (client 0.26: repeated `search_term` / `unconditional_asset`) is accepted
 * too; both parse to the same `AssetQueryInput`. The legacy `POST /v1/assets/search` takes `search_string`.
 */
import { z } from "zod";
import { assetInfo, assetInfoV2 } from "./objects.ts";
import { addressIn, boolBodyIn, boolIn, limitBodyIn, limitIn, repeated } from "./wire.ts";

export type SortKey = { field: string; descending: boolean };

/** `"<field>:asc|desc"` (api.md §7.2); which fields exist is checked per entity by the caller. */
export const sortKeyIn = z
  .string()
  .regex(/^[a-z0-9_]{1,40}:(asc|desc)$/, "expected <field>:asc or <field>:desc")
  .transform((s): SortKey => {
    const [field = "", dir] = s.split(":");
    return { field, descending: dir === "desc" };
  });

const condition = z.string().max(2000);
const searchTerm = z.string().min(1).max(200);

/** What both encodings of an asset (or pool) query mean once parsed. */
export type CatalogQueryInput = {
  condition?: string;
  searchTerms: string[];
  unconditional: string[];
  wallet?: string;
  sortBy: SortKey[];
  limit?: number;
  dexV2?: boolean;
};

/** Query-string encoding: repeated keys, singular names (client 0.26 / TS 0.32 pools/query). */
export const catalogQueryString = z.object({
  condition: condition.optional(),
  search_term: repeated(searchTerm).optional(),
  search_terms: repeated(searchTerm).optional(),
  search_string: searchTerm.optional(),
  unconditional_asset: repeated(addressIn).optional(),
  unconditional_assets: repeated(addressIn).optional(),
  wallet_address: addressIn.optional(),
  sort_by: repeated(sortKeyIn).optional(),
  limit: limitIn.optional(),
  dex_v2: boolIn.optional(),
});

/** JSON-body encoding: arrays, plural names; singular names tolerated. */
export const catalogQueryBody = z.object({
  condition: condition.optional(),
  search_terms: z.array(searchTerm).max(100).optional(),
  search_term: z.union([searchTerm, z.array(searchTerm).max(100)]).optional(),
  search_string: searchTerm.optional(),
  unconditional_assets: z.array(addressIn).max(100).optional(),
  unconditional_asset: z.union([addressIn, z.array(addressIn).max(100)]).optional(),
  wallet_address: addressIn.optional(),
  sort_by: z.array(sortKeyIn).max(10).optional(),
  limit: limitBodyIn.optional(),
  dex_v2: boolBodyIn.optional(),
});

type CatalogFields = z.output<typeof catalogQueryString> | z.output<typeof catalogQueryBody>;

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Either encoding → one input; the search terms and unconditional assets of all spellings are merged. */
export function toCatalogQueryInput(f: CatalogFields): CatalogQueryInput {
  const searchTerms = [...list(f.search_terms), ...list(f.search_term), ...list(f.search_string)];
  return {
    condition: f.condition,
    searchTerms: [...new Set(searchTerms)],
    unconditional: [...new Set([...list(f.unconditional_assets), ...list(f.unconditional_asset)])],
    wallet: f.wallet_address,
    sortBy: f.sort_by ?? [],
    limit: f.limit,
    dexV2: f.dex_v2,
  };
}

/** Both encodings in one request: body values win over query-string values of the same meaning. */
export function mergeCatalogInput(
  query: z.output<typeof catalogQueryString>,
  body: z.output<typeof catalogQueryBody>,
): CatalogQueryInput {
  const q = toCatalogQueryInput(query);
  const b = toCatalogQueryInput(body);
  const pick = <T>(x: T[], y: T[]) => (x.length > 0 ? x : y);
  return {
    condition: b.condition ?? q.condition,
    searchTerms: pick(b.searchTerms, q.searchTerms),
    unconditional: pick(b.unconditional, q.unconditional),
    wallet: b.wallet ?? q.wallet,
    sortBy: pick(b.sortBy, q.sortBy),
    limit: b.limit ?? q.limit,
    dexV2: b.dexV2 ?? q.dexV2,
  };
}

export const assetListResponse = z.object({ asset_list: z.array(assetInfo) }).strict();
export const assetResponse = z.object({ asset: assetInfo }).strict();
export const assetV2ListResponse = z.object({ asset_list: z.array(assetInfoV2) }).strict();
