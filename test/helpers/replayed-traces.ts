/**
 * The recorded mainnet traces (test/vectors/mainnet-traces), replayed as a user would: `tondex replay` of
 * every trace file through the real CLI (a child process, embedded chdb under a temporary DATA_DIR), then
 * the API mounted over that store as `tondex start` mounts it for a replay source: the ClickHouse read
 * model, no chain access. Tests on real data ask the API what a user would and check the answers from the
 * protocol and the trace files themselves.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";
import { ClickHouseReadModel } from "../../api/read-model-clickhouse.ts";
import { unavailableChainState } from "../../dex/chain-state-unavailable.ts";
import { openStore, type Store } from "../../infra/store/client.ts";
import { type RunningApi, request, silentLogger, startApi } from "../unit/api/harness.ts";
import { type LoadedTrace, loadAllTraces } from "./traces.ts";

const run = promisify(execFile);
const TONDEX = join(import.meta.dirname, "../../bin/tondex.mjs");

export type ReplayedTraces = {
  traces: LoadedTrace[];
  store: Store;
  api: RunningApi;
  close: () => Promise<void>;
};

export async function replayTraces(): Promise<ReplayedTraces> {
  const traces = loadAllTraces();
  const dir = await mkdtemp(join(tmpdir(), "tondex-real-"));
  const dataDir = join(dir, "data");
  await run(process.execPath, [TONDEX, "replay", ...traces.map((t) => t.path), "--data-dir", dataDir], {
    env: { ...process.env, LOG_LEVEL: "warn" },
  });
  const store = await openStore({ clickhouseUrl: null, dataDir: join(dataDir, "clickhouse") });
  const api = await startApi({
    data: new ClickHouseReadModel(store),
    chain: unavailableChainState("the replay source has no chain access"),
    clock: Date.now,
    logger: silentLogger,
  });
  return {
    traces,
    store,
    api,
    close: async () => {
      await api.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The transaction whose inbound message is external: where the trace (and the user's action) began. */
export function rootOf(trace: LoadedTrace) {
  const root = trace.txs.find((tx) => tx.in_msg !== null && tx.in_msg.source === null);
  if (root === undefined) throw new Error(`${trace.name}: no external inbound message`);
  return root;
}

/** GET `path` from the replayed API: its 200 body parsed with `schema` (anything else throws, naming it). */
export async function getJson<T>(
  t: { context: ReplayedTraces },
  path: string,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
): Promise<T> {
  const res = await request(t.context.api, "GET", path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return schema.parse(res.json);
}

/** The window the wallet endpoints take, wide enough for every recorded trace. */
export const ALL_TIME = "since=2020-01-01T00:00:00&until=2035-01-01T00:00:00";

/**
 * Every jetton with the metadata a chain read would store: a newer `assets` row with 9 decimals, a name and
 * a symbol where the replay had none (a stand-in for chain state, not a claim about these jettons). Returns
 * how many jettons have decimals then.
 */
export async function addChainMetadata(store: Store): Promise<number> {
  await store.command(`INSERT INTO assets (address, kind, symbol, name, decimals, image, description,
      metadata_uri, total_supply, version)
    SELECT address, kind, ifNull(symbol, concat('J', substring(address, 3, 4))),
      ifNull(name, concat('Jetton ', substring(address, 3, 8))), ifNull(decimals, 9), image, description,
      metadata_uri, total_supply, version + 1
    FROM assets FINAL WHERE kind = 'jetton'`);
  const [row] = await store.query(
    "SELECT count() AS n FROM assets FINAL WHERE kind = 'jetton' AND decimals IS NOT NULL",
    z.object({ n: z.union([z.number(), z.string().transform(Number)]) }),
  );
  return Number(row?.n ?? 0);
}
