/**
 * With TON_API_URL set, the pipeline's chain state is toncenter's `runGetMethod` (bin/chain-state.ts): a
 * replay of a recorded mainnet trace learns its jettons' metadata from the get-method answers of a local v3
 * stand-in — on-chain content for one master, an off-chain URI the stand-in also serves for the other — and
 * the wallet → master facts from `get_wallet_data`; the API serves it. The masters' content is the
 * stand-in's (the recordings hold none): the test checks that the answers reach the store, not the tokens'
 * real names. Without TON_API_URL a replay has no chain state. Serial: one embedded engine per process.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beginCell, type Cell } from "@ton/core";
import test from "ava";
import { loadConfig, TEST_ENV } from "../../bin/config.ts";
import { startPipeline } from "../../bin/pipeline.ts";
import { startServer } from "../../bin/server.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { selectFacts } from "../../infra/store/facts-reader.ts";
import { mainnetChainData, offchainContent, onchainContent } from "../helpers/mainnet-chain-data.ts";
import { startToncenterStandIn } from "../helpers/toncenter/chain-state.ts";

const TRACE = join(import.meta.dirname, "../vectors/mainnet-traces/v2-jetton-to-jetton.json");
/** The trace's two jettons (its `interfaces`: the router's wallets 0:92DB6D… and 0:B918F6…). */
const OFFERED = "0:CEA9C6996A8108AB3B8C8903C8CDA9B6DDDBF820362BE14E270C6F8EF332C592";
const ASKED = "0:C938A175BAC8409408AB8718014CCBF0D4BBEFD7FFC82438F426E5E3070BE08E";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** get_jetton_data (TEP-74): total_supply, mintable, admin (addr_none here), content, wallet_code. */
const masterAnswer = (content: Cell) => ({
  stack: [
    { type: "int" as const, value: 10n ** 18n },
    { type: "int" as const, value: -1n },
    { type: "slice" as const, cell: beginCell().storeAddress(null).endCell() },
    { type: "cell" as const, cell: content },
    { type: "cell" as const, cell: beginCell().endCell() },
  ],
});

test.serial(
  "replay with TON_API_URL: asset metadata from runGetMethod answers (on-chain and off-chain content)",
  async (t) => {
    const { accounts, files } = mainnetChainData();
    const standIn = await startToncenterStandIn(accounts, files);
    t.teardown(() => standIn.close());
    accounts.set(OFFERED, {
      methods: { get_jetton_data: masterAnswer(onchainContent({ symbol: "STANDIN-A", decimals: "6" })) },
    });
    standIn.files.set("/meta/asked.json", { body: JSON.stringify({ symbol: "STANDIN-B", decimals: 8 }) });
    accounts.set(ASKED, {
      methods: { get_jetton_data: masterAnswer(offchainContent(`${standIn.url}/meta/asked.json`)) },
    });

    const dir = await mkdtemp(join(tmpdir(), "tondex-chain-state-"));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const config = loadConfig({
      ...TEST_ENV,
      DATA_DIR: dir,
      SOURCE: "replay",
      REPLAY_PATH: TRACE,
      TON_API_URL: standIn.url,
      TON_API_RPS: "1000",
      TON_API_TIMEOUT_MS: "2000",
      PORT: String(await freePort()),
    });
    const logger = createLogger({ level: "silent" });
    const metrics = createMetrics();
    const pipeline = await startPipeline(config, { logger, metrics });
    t.teardown(() => pipeline.store.close());
    t.not(pipeline.chainState, null);
    t.true((await pipeline.done).finished);

    // the off-chain JSON is on 127.0.0.1, which a deployment refuses (private host): on-chain content only
    const rows = await selectFacts(pipeline.store, "assets", {});
    const byAddress = new Map(rows.map((r) => [r.address, r]));
    t.is(byAddress.get(OFFERED)?.symbol, "STANDIN-A");
    t.is(byAddress.get(OFFERED)?.decimals, 6);
    t.is(byAddress.get(OFFERED)?.total_supply, 10n ** 18n);
    t.is(byAddress.get(ASKED)?.metadata_uri, `${standIn.url}/meta/asked.json`);
    t.is(byAddress.get(ASKED)?.symbol, null);
    t.is(byAddress.get(ASKED)?.decimals, null);
    t.true(standIn.log.some((l) => l.endsWith(`${OFFERED} get_jetton_data`)));
    t.false(standIn.log.includes("GET /meta/asked.json"));

    const server = await startServer(pipeline, config, logger, metrics);
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const res = await fetch(`http://127.0.0.1:${config.port}/v1/assets/${OFFERED}`);
    t.is(res.status, 200);
    const body = (await res.json()) as { asset: { symbol: string; decimals: number } };
    t.is(body.asset.symbol, "STANDIN-A");
    t.is(body.asset.decimals, 6);
  },
);

test.serial("replay without TON_API_URL has no chain state", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "tondex-chain-state-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dir, SOURCE: "replay", REPLAY_PATH: TRACE });
  const pipeline = await startPipeline(config, {
    logger: createLogger({ level: "silent" }),
    metrics: createMetrics(),
  });
  t.teardown(() => pipeline.store.close());
  t.is(pipeline.chainState, null);
  await pipeline.done;
});
