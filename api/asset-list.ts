/**
 * An optional local asset list (ASSET_LIST_PATH): metadata for assets whose metadata the chain did not give
 * the processors (no chain access, off-chain TEP-64 content not fetched). It only fills what the store does
 * not know — a value read from the chain always wins — and never adds assets the store has not seen.
 *
 * Format: a JSON array of `{ "address", "symbol", "decimals", "name"?, "image"? }`, addresses in any TON
 * form. Parsing reports every problem with its path (`/2/decimals: …`).
 */
import { z } from "zod";
import { addressIn } from "../schemas/api/wire.ts";
import { formatZodError } from "../schemas/raw-transaction.ts";
import type { AssetRecord, DexReadModel, RawAddress, ReferenceNow } from "./read-model.ts";

const entry = z
  .object({
    address: addressIn,
    symbol: z.string().min(1).max(64),
    decimals: z.number().int().min(0).max(255),
    name: z.string().min(1).max(256).optional(),
    image: z.string().url().max(2048).optional(),
  })
  .strict();

export type AssetListEntry = z.output<typeof entry>;
export type AssetList = ReadonlyMap<RawAddress, AssetListEntry>;

export class AssetListError extends Error {
  override readonly name = "AssetListError";
}

/** The list in a file's text; throws `AssetListError` naming every bad field. */
export function parseAssetList(text: string, origin: string): AssetList {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AssetListError(`${origin}: not JSON (${(error as Error).message})`);
  }
  const parsed = z.array(entry).safeParse(json);
  if (!parsed.success) throw new AssetListError(`${origin}: ${formatZodError(parsed.error).join("; ")}`);
  const list = new Map<RawAddress, AssetListEntry>();
  for (const e of parsed.data) list.set(e.address, e);
  return list;
}

/** `a` with the list's values where the store has none. */
export function withListedMetadata(a: AssetRecord, list: AssetList): AssetRecord {
  const listed = list.get(a.address);
  if (listed === undefined) return a;
  return {
    ...a,
    symbol: a.symbol ?? listed.symbol,
    decimals: a.decimals ?? listed.decimals,
    ...(a.displayName === undefined && listed.name !== undefined ? { displayName: listed.name } : {}),
    ...(a.imageUrl === undefined && listed.image !== undefined ? { imageUrl: listed.image } : {}),
  };
}

/** The read model with the list applied to every asset it answers. */
export function withAssetList(model: DexReadModel, list: AssetList): DexReadModel {
  if (list.size === 0) return model;
  const fill = (assets: AssetRecord[]) => assets.map((a) => withListedMetadata(a, list));
  /** The inner model's lookups with the listed metadata, one per inner lookups object. */
  const filled = new WeakMap<ReferenceNow, ReferenceNow>();
  const referenceNow = () => {
    const inner = model.referenceNow?.();
    if (inner === undefined) return undefined;
    let mine = filled.get(inner);
    if (mine === undefined) {
      mine = { ...inner, getAssets: (addresses) => fill(inner.getAssets(addresses)) };
      filled.set(inner, mine);
    }
    return mine;
  };
  return new Proxy(model, {
    get(target, prop, receiver) {
      if (prop === "referenceNow") return referenceNow;
      if (prop === "listAssets") return async () => fill(await target.listAssets());
      if (prop === "getAssets")
        return async (addresses: readonly RawAddress[]) => fill(await target.getAssets(addresses));
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
