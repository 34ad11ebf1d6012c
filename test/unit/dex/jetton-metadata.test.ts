// dex/jetton-metadata.ts: TEP-64 content → metadata; what the content does not state is null, never guessed
// (the one default TEP-64 itself gives: 9 decimals when on-chain content omits the key).
import { createHash } from "node:crypto";
import { beginCell, type Cell, Dictionary } from "@ton/core";
import test from "ava";
import { mergeOffchainMetadata, parseTokenMetadata } from "../../../dex/jetton-metadata.ts";

const key = (name: string) => BigInt(`0x${createHash("sha256").update(name).digest("hex")}`);
const snake = (text: string) => beginCell().storeUint(0, 8).storeStringTail(text).endCell();

function onchain(fields: Record<string, string>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [k, v] of Object.entries(fields)) dict.set(key(k), snake(v));
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

test("on-chain content: every field as stored", (t) => {
  t.deepEqual(parseTokenMetadata(onchain({ symbol: "USD₮", name: "Tether USD", decimals: "6" })), {
    symbol: "USD₮",
    name: "Tether USD",
    decimals: 6,
    image: null,
    description: null,
    uri: null,
  });
});

test("on-chain content without a decimals key: TEP-64's default 9", (t) => {
  t.is(parseTokenMetadata(onchain({ symbol: "X" })).decimals, 9);
});

test("decimals that are not a number of 0..255 are unknown, not 9", (t) => {
  for (const bad of ["six", "256", "-1", "1.5", ""]) {
    t.is(parseTokenMetadata(onchain({ symbol: "X", decimals: bad })).decimals, null, bad);
  }
});

test("off-chain content: only the URI is known (the JSON behind it states symbol and decimals)", (t) => {
  const content = beginCell().storeUint(1, 8).storeStringTail("https://example.org/usdt.json").endCell();
  t.deepEqual(parseTokenMetadata(content), {
    symbol: null,
    name: null,
    decimals: null,
    image: null,
    description: null,
    uri: "https://example.org/usdt.json",
  });
});

test("no content, an unknown prefix or a broken cell: nothing is known", (t) => {
  t.is(parseTokenMetadata(null).decimals, null);
  t.is(parseTokenMetadata(beginCell().storeUint(7, 8).endCell()).decimals, null);
  t.is(parseTokenMetadata(beginCell().storeUint(0, 4).endCell()).symbol, null);
});

// mergeOffchainMetadata: TEP-64 off-chain and semi-chain content completed with the JSON behind the URI.
const offchain = (uri: string) => beginCell().storeUint(1, 8).storeStringTail(uri).endCell();

test("off-chain JSON: its fields; decimals as a string or a number; absent decimals are TEP-64's 9", (t) => {
  const c = offchain("https://example.org/j.json");
  const json = {
    symbol: "J",
    name: "Jet",
    description: "d",
    image: "https://example.org/j.png",
    decimals: "6",
  };
  t.deepEqual(mergeOffchainMetadata(c, json), {
    symbol: "J",
    name: "Jet",
    decimals: 6,
    image: "https://example.org/j.png",
    description: "d",
    uri: "https://example.org/j.json",
  });
  t.is(mergeOffchainMetadata(c, { ...json, decimals: 18 }).decimals, 18);
  t.is(mergeOffchainMetadata(c, { symbol: "J" }).decimals, 9);
  t.is(mergeOffchainMetadata(c, { symbol: "J", decimals: "lots" }).decimals, null);
  t.is(mergeOffchainMetadata(c, { symbol: "J", decimals: 1.5 }).decimals, null);
});

test("semi-chain: the dictionary's values win, the JSON fills what it does not state", (t) => {
  const c = onchain({ symbol: "ON", decimals: "3", uri: "https://example.org/s.json" });
  const m = mergeOffchainMetadata(c, {
    symbol: "OFF",
    name: "Named off chain",
    decimals: 9,
    image: "https://i",
  });
  t.deepEqual(m, {
    symbol: "ON",
    name: "Named off chain",
    decimals: 3,
    image: "https://i",
    description: null,
    uri: "https://example.org/s.json",
  });
});

test("a JSON that is not an object, or values that are not strings, change nothing", (t) => {
  const c = offchain("https://example.org/x.json");
  const plain = parseTokenMetadata(c);
  for (const json of [null, [], "text", 42]) t.deepEqual(mergeOffchainMetadata(c, json), plain);
  const m = mergeOffchainMetadata(c, { symbol: 7, name: { en: "x" }, image: ["a"] });
  t.deepEqual([m.symbol, m.name, m.image], [null, null, null]);
});
