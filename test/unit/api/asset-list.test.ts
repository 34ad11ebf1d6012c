// api/asset-list.ts: the optional local asset list fills only the metadata the store does not know, for
// assets the store has seen; a bad file is refused with the path of every bad field.
import test from "ava";
import {
  AssetListError,
  parseAssetList,
  withAssetList,
  withListedMetadata,
} from "../../../api/asset-list.ts";
import type { AssetRecord } from "../../../api/read-model.ts";
import { MemoryReadModel } from "../../../api/read-model-memory.ts";
import { f } from "./harness.ts";

const USDT = "0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE";
const NOT = "0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC";
const base = (address: string, o: Partial<AssetRecord> = {}): AssetRecord => ({
  address,
  kind: "Jetton",
  symbol: null,
  decimals: null,
  priority: 0,
  deprecated: false,
  community: false,
  blacklisted: false,
  defaultSymbol: false,
  taxable: false,
  tags: [],
  ...o,
});

const LIST = parseAssetList(
  JSON.stringify([
    { address: f(USDT), symbol: "USD₮", decimals: 6, name: "Tether USD" },
    { address: NOT.toLowerCase(), symbol: "NOT", decimals: 9 },
  ]),
  "list.json",
);

test("addresses in any form; the list fills symbol, decimals and name where the store has none", (t) => {
  t.deepEqual([...LIST.keys()], [USDT, NOT]);
  t.like(withListedMetadata(base(USDT), LIST), { symbol: "USD₮", decimals: 6, displayName: "Tether USD" });
});

test("what the chain gave wins over the list", (t) => {
  const fromChain = base(NOT, { symbol: "NOTCOIN", decimals: 9, displayName: "Notcoin" });
  t.deepEqual(withListedMetadata(fromChain, LIST), fromChain);
});

test("the read model answers listed metadata but never adds assets it has not seen", async (t) => {
  const model = withAssetList(new MemoryReadModel({ assets: [base(USDT)] }), LIST);
  t.deepEqual(
    (await model.listAssets()).map((a) => [a.address, a.symbol, a.decimals]),
    [[USDT, "USD₮", 6]],
  );
  t.deepEqual(
    (await model.getAssets([USDT, NOT])).map((a) => a.symbol),
    ["USD₮"],
  );
  t.deepEqual(await model.listPools(), [], "other methods pass through");
});

test("a bad file names every bad field", (t) => {
  const bad = JSON.stringify([
    { address: "not an address", symbol: "X", decimals: 6 },
    { address: f(USDT), symbol: "", decimals: 300 },
    { address: f(USDT), symbol: "X", decimals: 6, extra: 1 },
  ]);
  const error = t.throws(() => parseAssetList(bad, "list.json"), { instanceOf: AssetListError });
  t.regex(error.message, /^list\.json: /);
  for (const path of ["/0/address", "/1/symbol", "/1/decimals", "/2: "])
    t.true(error.message.includes(path), path);
  t.throws(() => parseAssetList("{", "list.json"), { message: /list\.json: not JSON/ });
});
