/**
 * TEP-64 on-chain token metadata (https://github.com/ton-blockchain/TEPs/blob/master/text/0064-token-data-standard.md):
 *
 *   onchain#00 data:(HashmapE 256 ^ContentData) = FullContent;
 *   snake#00 data:(SnakeData ~n) = ContentData;
 *
 * Keys are sha256 of the attribute name; every value is a ref to a snake cell (0x00 prefix, then the UTF-8
 * text continued through refs). `decimals` is stored as decimal text and defaults to 9 when absent.
 */
import { createHash } from "node:crypto";
import { beginCell, type Cell, Dictionary } from "@ton/core";

export type JettonMetadata = {
  symbol: string;
  name: string;
  decimals: number;
  image?: string;
  description?: string;
};

const ONCHAIN_PREFIX = 0x00;
const SNAKE_PREFIX = 0x00;
/** TEP-64: "If not specified, 9 is used by default." */
const DEFAULT_DECIMALS = 9;

const KEYS = ["name", "description", "image", "symbol", "decimals"] as const;
type Key = (typeof KEYS)[number];

function keyHash(key: Key): bigint {
  return BigInt(`0x${createHash("sha256").update(key).digest("hex")}`);
}

const KEY_HASHES: ReadonlyMap<Key, bigint> = new Map(KEYS.map((k) => [k, keyHash(k)]));

function snake(text: string): Cell {
  return beginCell().storeUint(SNAKE_PREFIX, 8).storeStringTail(text).endCell();
}

function emptyDict() {
  return Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
}

/** Builds the on-chain content cell the minter stores and returns from `get_jetton_data`. */
export function buildJettonContent(metadata: JettonMetadata): Cell {
  const dict = emptyDict();
  const values: Record<Key, string | undefined> = {
    name: metadata.name,
    description: metadata.description,
    image: metadata.image,
    symbol: metadata.symbol,
    decimals: String(metadata.decimals),
  };
  for (const key of KEYS) {
    const value = values[key];
    if (value !== undefined) dict.set(KEY_HASHES.get(key)!, snake(value));
  }
  return beginCell().storeUint(ONCHAIN_PREFIX, 8).storeDict(dict).endCell();
}

/** Reads on-chain metadata back; off-chain (0x01) content is outside the devnet and rejected. */
export function parseJettonMetadata(content: Cell): JettonMetadata {
  const s = content.beginParse();
  const prefix = s.loadUint(8);
  if (prefix !== ONCHAIN_PREFIX)
    throw new Error(`TEP-64: expected on-chain content (0x00), got 0x${prefix.toString(16)}`);
  const dict = s.loadDict(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  const read = (key: Key): string | undefined => {
    const cell = dict.get(KEY_HASHES.get(key)!);
    if (cell === undefined) return undefined;
    const v = cell.beginParse();
    const tag = v.loadUint(8);
    if (tag !== SNAKE_PREFIX)
      throw new Error(`TEP-64: ${key} is not snake data (prefix 0x${tag.toString(16)})`);
    return v.loadStringTail();
  };
  const decimalsText = read("decimals");
  const decimals = decimalsText === undefined ? DEFAULT_DECIMALS : Number.parseInt(decimalsText, 10);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new Error(`TEP-64: bad decimals ${JSON.stringify(decimalsText)}`);
  }
  const metadata: JettonMetadata = { symbol: read("symbol") ?? "", name: read("name") ?? "", decimals };
  const image = read("image");
  const description = read("description");
  if (image !== undefined) metadata.image = image;
  if (description !== undefined) metadata.description = description;
  return metadata;
}
