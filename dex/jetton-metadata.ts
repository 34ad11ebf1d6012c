/**
 * TEP-64 token metadata from a jetton master's `content` cell
 * (https://github.com/ton-blockchain/TEPs/blob/master/text/0064-token-data-standard.md):
 *
 *   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;
 *   offchain#01 uri:Text = FullContent;
 *   snake#00 data:(SnakeData ~n) = ContentData;
 *
 * Pure and total: anything unreadable gives `null` fields rather than an exception, because a token's
 * metadata is user-supplied data and must never stop indexing.
 */
import { createHash } from "node:crypto";
import { type Cell, Dictionary } from "@ton/core";

export type TokenMetadata = {
  symbol: string | null;
  name: string | null;
  /**
   * TEP-64: 9 when an on-chain dictionary has no `decimals` key. null when not known: off-chain content (the
   * JSON behind the URI states it), or a value that is not a number of 0..255.
   */
  decimals: number | null;
  image: string | null;
  description: string | null;
  /** Off-chain content: the JSON's URI (its fields are not fetched here). */
  uri: string | null;
};

const KEYS = ["name", "description", "image", "symbol", "decimals", "uri"] as const;
type Key = (typeof KEYS)[number];
const KEY_HASH: ReadonlyMap<Key, bigint> = new Map(
  KEYS.map((k) => [k, BigInt(`0x${createHash("sha256").update(k).digest("hex")}`)]),
);
const EMPTY: TokenMetadata = {
  symbol: null,
  name: null,
  decimals: null,
  image: null,
  description: null,
  uri: null,
};

function snakeText(cell: Cell): string | null {
  try {
    const s = cell.beginParse();
    if (s.remainingBits >= 8 && s.preloadUint(8) === 0x00) s.skip(8);
    return s.loadStringTail();
  } catch {
    return null;
  }
}

function decimalsOf(text: string | null): number | null {
  if (text === null) return 9;
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n <= 255 ? n : null;
}

export function parseTokenMetadata(content: Cell | null): TokenMetadata {
  if (content === null) return EMPTY;
  try {
    const s = content.beginParse();
    const prefix = s.loadUint(8);
    if (prefix === 0x01) return { ...EMPTY, uri: s.loadStringTail() };
    if (prefix !== 0x00) return EMPTY;
    const dict = s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
    const read = (key: Key): string | null => {
      const cell = dict.get(KEY_HASH.get(key)!);
      return cell === undefined ? null : snakeText(cell);
    };
    return {
      symbol: read("symbol"),
      name: read("name"),
      decimals: decimalsOf(read("decimals")),
      image: read("image"),
      description: read("description"),
      uri: read("uri"),
    };
  } catch {
    return EMPTY;
  }
}

/** Whether on-chain content states a key at all (a semi-chain JSON may state what the dictionary does not). */
function onchainHas(content: Cell, key: Key): boolean {
  try {
    const s = content.beginParse();
    if (s.loadUint(8) !== 0x00) return false;
    return s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell()).has(KEY_HASH.get(key)!);
  } catch {
    return false;
  }
}

const jsonText = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * Off-chain (`offchain#01 uri`) and semi-chain (an on-chain dictionary with a `uri` key) content completed
 * with the JSON the URI points to (TEP-64 "Data serialization": the same keys, as a JSON object). Values the
 * dictionary states come first; the JSON fills the others. `decimals` may be a JSON string or number; when
 * neither part states it, TEP-64's default 9 applies. Anything that is not a JSON object changes nothing.
 */
export function mergeOffchainMetadata(content: Cell | null, json: unknown): TokenMetadata {
  const onchain = parseTokenMetadata(content);
  if (content === null || json === null || typeof json !== "object" || Array.isArray(json)) return onchain;
  const off = json as Record<string, unknown>;
  const rawDecimals = off.decimals;
  const offDecimals =
    typeof rawDecimals === "number" || typeof rawDecimals === "string" ? String(rawDecimals) : null;
  return {
    symbol: onchain.symbol ?? jsonText(off.symbol),
    name: onchain.name ?? jsonText(off.name),
    decimals: onchainHas(content, "decimals") ? onchain.decimals : decimalsOf(offDecimals),
    image: onchain.image ?? jsonText(off.image),
    description: onchain.description ?? jsonText(off.description),
    uri: onchain.uri,
  };
}
