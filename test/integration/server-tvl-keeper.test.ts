/**
 * The server keeps the DEX TVL at every hour ahead of the requests (bin/server.ts `keepDexTvlEveryMs`, as
 * `tondex start` and `tondex serve` run it; api/queries/tvl-keeper.ts): after a devnet run, every hour
 * boundary from the day before the first pool state to the indexed head is kept without any request, the
 * hourly history over them answers exactly those points, and stopping the server's background work leaves
 * the store closable. Without the option nothing is kept ahead. Its own file: one chdb path per process.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { z } from "zod";
import { pricingFingerprint } from "../../api/queries/tvl.ts";
import { loadConfig, TEST_ENV } from "../../bin/config.ts";
import { startPipeline } from "../../bin/pipeline.ts";
import { pricingConfigOf } from "../../bin/pricing.ts";
import { startServer } from "../../bin/server.ts";
import { createLogger } from "../../infra/log.ts";
import { createMetrics } from "../../infra/metrics.ts";
import { DAY, HOUR } from "../../infra/store/rollups.ts";
import { dexTvlResponse } from "../../schemas/api/tvl.ts";
import { apiTime } from "../helpers/api-devnet.ts";

test("tondex's server keeps every hour's DEX TVL from the first state's day to the head, unasked", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "tondex-tvl-keeper-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = loadConfig({
    ...TEST_ENV,
    DATA_DIR: dir,
    SOURCE: "devnet",
    DEVNET_SEED: "3",
    DEVNET_BLOCKS: "60",
    DEVNET_BLOCK_INTERVAL_MS: "0",
  });
  const logger = createLogger({ level: "silent" });
  const pipeline = await startPipeline(config, { logger, metrics: createMetrics() });
  t.teardown(() => pipeline.store.close());
  t.true((await pipeline.done).finished);
  const store = pipeline.store;
  const fingerprint = pricingFingerprint(pricingConfigOf(config));
  const keptHours = async () =>
    (
      await store.query(
        "SELECT toUInt32(at) AS at FROM dex_tvl_1h FINAL WHERE pricing = {p:String} ORDER BY at",
        z.object({ at: z.number() }),
        { p: fingerprint },
      )
    ).map((r) => r.at);

  // Without the option, the server does nothing in the background: in 2 s (the keeper below keeps every
  // hour of this store in ~0.2 s) not one point is kept.
  const plain = await startServer(pipeline, { ...config, port: 0 }, logger, createMetrics());
  await new Promise((r) => setTimeout(r, 2_000));
  await plain.stopBackground();
  await new Promise<void>((resolve) => plain.close(() => resolve()));
  t.deepEqual(await keptHours(), []);

  const server = await startServer(
    pipeline,
    { ...config, port: 0, keepDexTvlEveryMs: 60_000 },
    logger,
    createMetrics(),
  );
  const [bounds] = await store.query(
    `SELECT toUInt32((SELECT max(utime) FROM transactions)) AS head,
       toUInt32((SELECT min(at) FROM pool_state_rollup_1d)) AS first_day`,
    z.object({ head: z.number(), first_day: z.number() }),
  );
  const from = Math.ceil((bounds!.first_day - DAY) / HOUR) * HOUR;
  const to = Math.floor(bounds!.head / HOUR) * HOUR;
  const every = Array.from({ length: (to - from) / HOUR + 1 }, (_, i) => from + i * HOUR);
  t.true(every.length >= 12, `${every.length} hours`);
  let hours: number[] = [];
  for (let i = 0; i < 600 && hours.length < every.length; i++) {
    await new Promise((r) => setTimeout(r, 100));
    hours = await keptHours();
  }
  t.deepEqual(hours, every, "every hour kept, none asked for");

  // The hourly history over those hours answers the kept points (a short devnet's hours precede its first
  // states, so they are null: the values themselves are tested in tvl-kept.test.ts).
  const { port } = server.address() as { port: number };
  const res = await fetch(
    `http://127.0.0.1:${port}/v1/stats/tvl?interval=hour&since=${apiTime(from)}&until=${apiTime(to)}`,
  );
  t.is(res.status, 200);
  const body = dexTvlResponse.parse(await res.json());
  const kept = await store.query(
    "SELECT toUInt32(at) AS at, tvl_usd FROM dex_tvl_1h FINAL WHERE pricing = {p:String} ORDER BY at",
    z.object({ at: z.number(), tvl_usd: z.number().nullable() }),
    { p: fingerprint },
  );
  t.deepEqual(
    body.points.map((p) => [
      Date.parse(`${p.timestamp}Z`) / 1000,
      p.tvl_usd === null ? null : Number(p.tvl_usd),
    ]),
    kept.map((k) => [k.at, k.tvl_usd === null ? null : Number(k.tvl_usd.toFixed(6))]),
  );

  await server.stopBackground();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
