/**
 * The one configuration module (STYLE practice 10). `loadConfig(env, argv)` reads every setting from the
 * environment, lets `--kebab-case` flags override it (`--port 9090`, `--data-dir=/var/tondex`), validates
 * each with zod, and throws one ConfigError listing every problem. It returns a frozen object; nothing
 * else reads `process.env`. Units are in the names; secrets are never echoed in problems.
 */
import { Address } from "@ton/core";
import { z } from "zod";
import { ConfigError } from "../infra/errors.ts";
import { LOG_LEVELS, type LogLevel } from "../infra/log.ts";
import { redactUrl } from "../infra/redact.ts";

export const SOURCES = ["devnet", "mainnet", "replay"] as const;

export type Config = Readonly<{
  port: number;
  metricsPort: number;
  dataDir: string;
  source: (typeof SOURCES)[number];
  kafkaBrokers: readonly string[] | null;
  kafkaTopicPrefix: string;
  clickhouseUrl: string | null;
  clickhouseRequestTimeoutMs: number;
  redisUrl: string | null;
  redisKeyPrefix: string;
  tonApiUrl: string | null;
  tonApiKey: string | null;
  tonApiRequestsPerSecond: number | null;
  tonApiTimeoutMs: number;
  fromSeqno: number | null;
  fromTime: number | null;
  mainnetConcurrency: number;
  mainnetPollMs: number;
  mainnetFilter: "stonfi" | "all";
  mainnetLookaheadBlocks: number;
  logLevel: LogLevel;
  libraryPatches: "on" | "off";
  devnetSeed: number;
  devnetActionsPerBlock: number;
  devnetBlockIntervalMs: number;
  devnetBlocks: number;
  replayPath: string | null;
  /** null: by source (`windowBlocksOf`). */
  windowBlocks: number | null;
  busPartitions: number;
  busCapacityRecords: number;
  batchMaxRecords: number;
  batchMaxMs: number;
  cacheMaxEntries: number;
  cacheTtlSeconds: number;
  apiCacheTtlMs: number;
  txQueryWindowSeconds: number;
  assetListPath: string | null;
  corsOrigins: "*" | readonly string[];
  compressMinBytes: number;
  /** null: by source (mainnet USD₮; the devnet's dUSD): bin/pricing.ts. */
  pricingUsdAnchors: readonly { address: string; decimals: number }[] | null;
  pricingMinDepthUsd: number;
  pricingTonPoolMinDepthUsd: number;
}>;

type VarSpec<T> = {
  readonly env: string;
  readonly schema: z.ZodType<NonNullable<T>, z.ZodTypeDef, string>;
  readonly default: T;
  readonly doc: string;
  /** Never shown in a problem message. */
  readonly secret?: boolean;
};

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const url = (...protocols: string[]) =>
  z.string().refine(
    (s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
  );

const oneOf = <const V extends readonly [string, ...string[]]>(values: V) =>
  z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(", ")}` }) });

const brokers = z
  .string()
  .transform((s) => s.split(",").map((b) => b.trim()))
  .pipe(
    z.array(z.string().regex(/^[^\s:/]+:\d{1,5}$/, "must be a comma-separated list of host:port")).min(1),
  );

const text = z.string().min(1, "must not be empty");

/** A prefix of names on a shared server: Kafka topics and groups (whose legal characters these are), Redis keys. */
const namePrefix = z.string().regex(/^[A-Za-z0-9._-]{0,100}$/, "must be letters, digits, '.', '_' or '-'");

/** `*`, or a comma-separated list of exact origins (`scheme://host[:port]`, as browsers send Origin). */
const origins = z.union([
  z.literal("*"),
  z
    .string()
    .transform((s) => s.split(",").map((o) => o.trim()))
    .pipe(
      z
        .array(
          z.string().refine((o) => {
            try {
              return new URL(o).origin === o;
            } catch {
              return false;
            }
          }, "must be * or a comma-separated list of origins such as https://app.example"),
        )
        .min(1),
    ),
]);

/** `address:decimals[,…]`, any address form (the last `:` splits): USD anchors of the pricing. */
const anchors = z
  .string()
  .transform((s) => s.split(",").map((e) => e.trim()))
  .pipe(
    z
      .array(
        z.string().transform((e, ctx) => {
          const at = e.lastIndexOf(":");
          const decimals = Number(e.slice(at + 1));
          try {
            if (at <= 0 || !/^\d{1,2}$/.test(e.slice(at + 1))) throw new Error("no decimals");
            return { address: Address.parse(e.slice(0, at)).toRawString().toUpperCase(), decimals };
          } catch {
            ctx.addIssue({ code: "custom", message: "must be a comma-separated list of address:decimals" });
            return z.NEVER;
          }
        }),
      )
      .min(1),
  );

const usd = z
  .string()
  .regex(/^\d+(\.\d+)?$/, "must be a non-negative number")
  .transform(Number);

/** Every setting: environment name, schema, default (with why), documentation. */
export const CONFIG_VARS: { readonly [K in keyof Config]: VarSpec<Config[K]> } = {
  port: { env: "PORT", schema: int(1, 65535), default: 8080, doc: "HTTP port of the API and /metrics" },
  metricsPort: {
    env: "METRICS_PORT",
    schema: int(0, 65535),
    // 0: any free port, logged at start: N replicas on one host must not collide; production sets one.
    default: 0,
    doc: "HTTP port of `tondex process`'s /metrics (it has no API); 0: any free port, logged",
  },
  dataDir: {
    env: "DATA_DIR",
    schema: text,
    default: "./data",
    doc: "local state: the embedded ClickHouse under DATA_DIR/clickhouse, devnet snapshots",
  },
  source: { env: "SOURCE", schema: oneOf(SOURCES), default: "devnet", doc: "chain source" },
  kafkaBrokers: {
    env: "KAFKA_BROKERS",
    schema: brokers,
    default: null, // unset: the in-process bus (one process runs every stage)
    doc: "Kafka bootstrap brokers, host:port[,host:port]; unset: in-process bus",
  },
  kafkaTopicPrefix: {
    env: "KAFKA_TOPIC_PREFIX",
    schema: namePrefix,
    default: "", // one deployment per cluster; a prefix lets several (or tests) share one cluster
    doc: "prefix of tondex's Kafka topic and consumer-group names",
  },
  clickhouseUrl: {
    env: "CLICKHOUSE_URL",
    schema: url("http:", "https:"),
    default: null, // unset: embedded chdb engine under DATA_DIR, no server needed
    doc: "ClickHouse server (>= 24.8) HTTP URL, optionally with /database; unset: embedded engine",
  },
  clickhouseRequestTimeoutMs: {
    env: "CLICKHOUSE_REQUEST_TIMEOUT_MS",
    schema: int(100, 3_600_000),
    default: 30_000, // @clickhouse/client's own default: long enough for a large insert batch
    doc: "HTTP request timeout towards a ClickHouse server",
  },
  redisUrl: {
    env: "REDIS_URL",
    schema: url("redis:", "rediss:"),
    default: null, // unset: in-process LRU (each API replica caches for itself)
    doc: "Redis for the shared hot cache; unset: in-process LRU",
  },
  redisKeyPrefix: {
    env: "REDIS_KEY_PREFIX",
    schema: namePrefix,
    default: "", // as KAFKA_TOPIC_PREFIX: several deployments (or tests) sharing one Redis keep apart
    doc: "prefix of every Redis key tondex reads or writes (pool states, the data version)",
  },
  tonApiUrl: {
    env: "TON_API_URL",
    schema: url("http:", "https:"),
    default: null,
    doc: "TON HTTP API for SOURCE=mainnet (required there)",
  },
  tonApiKey: {
    env: "TON_API_KEY",
    schema: text,
    default: null,
    secret: true,
    doc: "API key for TON_API_URL",
  },
  tonApiRequestsPerSecond: {
    env: "TON_API_RPS",
    schema: int(1, 10_000),
    // unset: the public toncenter plan's limit, 1 request/s without a key and 10 with a free key
    // (docs.ton.org/ecosystem/api/toncenter/rate-limit); a self-hosted ton-indexer can take far more.
    default: null,
    doc: "requests/s to TON_API_URL, shared by the source and chain-state reads (default 1, or 10 with TON_API_KEY)",
  },
  tonApiTimeoutMs: {
    env: "TON_API_TIMEOUT_MS",
    schema: int(100, 600_000),
    default: 15_000, // a 1000-transaction page of a busy block takes a few seconds on the public API
    doc: "timeout of one request to TON_API_URL (then retried)",
  },
  fromSeqno: {
    env: "FROM_SEQNO",
    schema: int(1, 2 ** 31 - 1),
    default: null, // unset: the stored cursor, else --from-time, else the chain's head
    doc: "SOURCE=mainnet: first masterchain block when no cursor is stored (a later one than the cursor wins)",
  },
  fromTime: {
    env: "FROM_TIME",
    schema: z
      .string()
      .transform((s) => (/^\d+$/.test(s) ? Number(s) : Math.floor(Date.parse(s) / 1000)))
      .pipe(
        z
          .number({ invalid_type_error: "must be unix seconds or an ISO date" })
          .int()
          .min(1, "must be unix seconds or an ISO date"),
      ),
    default: null,
    doc: "SOURCE=mainnet: start at the first masterchain block at or after this time (unix seconds or ISO date)",
  },
  mainnetConcurrency: {
    env: "MAINNET_CONCURRENCY",
    schema: int(1, 256),
    // Requests in flight hide the API's latency: at 10 requests/s and ~100-300 ms per answer, 4 blocks in
    // flight keep the rate limit busy (bench/mainnet.ts).
    default: 4,
    doc: "SOURCE=mainnet: masterchain blocks fetched in parallel (published in order)",
  },
  mainnetPollMs: {
    env: "MAINNET_POLL_MS",
    schema: int(50, 60_000),
    default: 1_000, // masterchain blocks come every few seconds; one head poll per second costs 1 request/s
    doc: "SOURCE=mainnet: how often the chain's head is asked for once caught up",
  },
  mainnetFilter: {
    env: "MAINNET_FILTER",
    schema: oneOf(["stonfi", "all"] as const),
    default: "stonfi", // the service needs STON.fi operations only (README "Following mainnet")
    doc: "SOURCE=mainnet: keep only traces touching STON.fi (stonfi) or every transaction (all)",
  },
  mainnetLookaheadBlocks: {
    env: "MAINNET_LOOKAHEAD_BLOCKS",
    schema: int(1, 10_000),
    // The recorded mainnet traces reach their first STON.fi message up to 22 masterchain blocks after their
    // external message (test/vectors/mainnet-traces); blocks are held this long before the filter decides.
    default: 32,
    doc: "SOURCE=mainnet with MAINNET_FILTER=stonfi: blocks held back so a trace's early transactions are kept",
  },
  logLevel: { env: "LOG_LEVEL", schema: oneOf(LOG_LEVELS), default: "info", doc: "pino log level" },
  libraryPatches: {
    env: "LIBRARY_PATCHES",
    schema: oneOf(["on", "off"] as const),
    // on: faster @ton/core, same results (infra/library-patches; never with an unverified version)
    default: "on",
    doc: "the @ton/core speed patches of infra/library-patches (off: the plain library, slower, same results)",
  },
  devnetSeed: {
    env: "DEVNET_SEED",
    schema: int(0, 0xffffffff),
    default: 1, // any fixed seed: the same seed replays the same market
    doc: "seed of the devnet market simulator",
  },
  devnetActionsPerBlock: {
    env: "DEVNET_ACTIONS_PER_BLOCK",
    schema: int(0, 100_000),
    default: 24, // a busy but readable market: a few hundred transactions per block
    doc: "mean user actions per devnet block",
  },
  devnetBlockIntervalMs: {
    env: "DEVNET_BLOCK_INTERVAL_MS",
    schema: int(0, 3_600_000),
    default: 1_000, // a live-looking chain that does not fill the disk; 0 = as fast as possible
    doc: "wall-clock pause between devnet blocks",
  },
  devnetBlocks: {
    env: "DEVNET_BLOCKS",
    schema: int(0, 100_000_000),
    // The demo is a session, not an endless market: about ten minutes of market at one block a second
    // (about 130k transactions, ~100 MB under DATA_DIR), then the chain idles and the API keeps serving.
    // An endless market at the default rate adds roughly 13 GB a day. 0 = run until stopped.
    default: 600,
    doc: "stop the devnet source after this many blocks, drained (0: never)",
  },
  replayPath: { env: "REPLAY_PATH", schema: text, default: null, doc: "file or directory for SOURCE=replay" },
  windowBlocks: {
    env: "WINDOW_BLOCKS",
    schema: int(1, 10_000),
    // unset: by source (`windowBlocksOf`). A complete operation leaves the window at once; the depth only
    // bounds how long an unfinished trace is waited for, and each step reclassifies what the window holds.
    default: null,
    doc: "blocks the processor keeps to assemble multi-transaction operations (default 24 on the devnet, 64 on real chain data)",
  },
  busPartitions: {
    env: "BUS_PARTITIONS",
    schema: int(1, 1024),
    // The processor runtime reads one partition: records are keyed by account, and a trace spans accounts,
    // so a second partition would split traces across windows. Any other value is refused below (the
    // partitioning contract: processors/README.md); the setting stays for the distributed deployment.
    default: 1,
    doc: "partitions per topic of the in-process bus (only 1: processors/README.md)",
  },
  busCapacityRecords: {
    env: "BUS_CAPACITY_RECORDS",
    schema: int(1, 10_000_000),
    // Two full batches: the source reads one batch ahead while the processor works on the other. A batch
    // also ends when its partition holds this many records, so keep it ≥ BATCH_MAX_RECORDS. About 30 MB
    // of devnet transactions (2.7 kB each as JSON).
    default: 10_000,
    doc: "records an in-process partition holds before producers wait",
  },
  batchMaxRecords: {
    env: "BATCH_MAX_RECORDS",
    schema: int(1, 1_000_000),
    // Each batch pays a fixed cost: one insert per table (a few ms to ~20 ms each in chdb, whatever the
    // size) and one classification of the whole trace window (WINDOW_BLOCKS of recent blocks, decoded once
    // and then cached). From 5,000 up those costs are noise: bench/pipeline.ts measured 2,500 to 20,000
    // within run-to-run variation, and 700 about 25 % slower; a batch's memory grows with it.
    default: 5_000,
    doc: "most raw transactions per processor batch (one insert per table per batch)",
  },
  batchMaxMs: {
    env: "BATCH_MAX_MS",
    schema: int(0, 60_000),
    // Bounds the latency a quiet chain adds (a partial batch waits this long for more records); under
    // load batches fill long before. Replays and catch-ups are not slowed by it.
    default: 200,
    doc: "longest a partial batch waits to fill",
  },
  cacheMaxEntries: {
    env: "CACHE_MAX_ENTRIES",
    schema: int(1, 10_000_000),
    default: 10_000, // comfortably more than STON.fi's pool count
    doc: "entries of the in-process hot cache",
  },
  cacheTtlSeconds: {
    env: "CACHE_TTL_SECONDS",
    schema: int(1, 30 * 86_400),
    default: 300, // the processor refreshes pool state on every batch; TTL only ages out idle pools
    doc: "lifetime of a hot cache entry",
  },
  apiCacheTtlMs: {
    env: "API_CACHE_TTL_MS",
    schema: int(0, 3_600_000),
    default: 1_000, // routers, assets and pools at most a second stale; pool states come from the hot cache
    doc: "how long the API reuses the routers/assets/pools lists it read from the store",
  },
  txQueryWindowSeconds: {
    env: "TX_QUERY_WINDOW_SECONDS",
    schema: int(0, 100 * 365 * 86_400),
    // A self-hoster expects to find what they indexed. api.ston.fi's policy is 86400 (24 hours); either way
    // the window is measured back from the newest indexed block, never from the wall clock.
    default: 0,
    doc: "how far back before the newest indexed block /v1/transactions/query may look (0: all indexed history)",
  },
  assetListPath: {
    env: "ASSET_LIST_PATH",
    schema: text,
    default: null, // unset: metadata only from the chain; unknown stays null
    doc: "JSON file of asset metadata ([{address, symbol, decimals, name?, image?}]) for assets whose metadata the chain did not give",
  },
  corsOrigins: {
    env: "CORS_ORIGINS",
    schema: origins,
    default: "*", // a public read-only API: browser dApps on any origin may call it, as api.ston.fi allows
    doc: "origins allowed to call the API from a browser (CORS): * or a comma-separated list",
  },
  compressMinBytes: {
    env: "COMPRESS_MIN_BYTES",
    schema: int(0, 1_000_000_000),
    default: 1024, // koa-compress's own default: below about a kilobyte gzip saves less than it costs
    doc: "smallest response body sent compressed (br or gzip, when the client accepts it)",
  },
  pricingUsdAnchors: {
    env: "PRICING_USD_ANCHORS",
    schema: anchors,
    // unset: USD₮ on mainnet and replays (analytics.md §7.1: jUSDT, jUSDC, USDe off by default), dUSD on the devnet
    default: null,
    doc: "USD stablecoins priced at 1 USD, as address:decimals[,…] (api/README.md Pricing)",
  },
  pricingMinDepthUsd: {
    env: "PRICING_MIN_DEPTH_USD",
    schema: usd,
    default: 1_000, // analytics.md §7.3: a pool's quote side worth less never prices a token (= low confidence)
    doc: "least USD on a pool's quote side for it to price a token",
  },
  pricingTonPoolMinDepthUsd: {
    env: "PRICING_TON_POOL_MIN_DEPTH_USD",
    schema: usd,
    default: 50_000, // analytics.md §7.2: TON/USD only from pools this deep
    doc: "least USD in a TON/USD pool for it to set TON's price",
  },
};

/** Test-speed values, next to the production defaults above: short waits, tiny caches. */
export const TEST_ENV: Readonly<Record<string, string>> = {
  BATCH_MAX_MS: "5",
  BATCH_MAX_RECORDS: "100",
  BUS_CAPACITY_RECORDS: "1000",
  CACHE_TTL_SECONDS: "5",
  CLICKHOUSE_REQUEST_TIMEOUT_MS: "2000",
  LOG_LEVEL: "silent",
};

export const flagOf = (env: string) => `--${env.toLowerCase().replace(/_/g, "-")}`;

/** `--flag value` / `--flag=value` → overrides keyed by environment name; unknown flags are problems. */
function parseArgv(argv: readonly string[], problems: string[]): Record<string, string> {
  const byFlag = new Map(Object.values(CONFIG_VARS).map((v) => [flagOf(v.env), v.env]));
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf("=");
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const env = byFlag.get(flag);
    if (!arg.startsWith("--")) problems.push(`unexpected argument '${arg}'`);
    else if (env === undefined) problems.push(`unknown option ${flag}`);
    else if (eq !== -1) out[env] = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("--")) out[env] = argv[++i] as string;
    else problems.push(`${flag} needs a value`);
  }
  return out;
}

export function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  argv: readonly string[] = [],
): Config {
  const problems: string[] = [];
  const overrides = parseArgv(argv, problems);
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(CONFIG_VARS) as [string, VarSpec<unknown>][]) {
    const raw = (overrides[spec.env] ?? env[spec.env])?.trim();
    if (raw === undefined || raw === "") {
      values[key] = spec.default;
      continue;
    }
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) values[key] = parsed.data;
    else {
      const shown = spec.secret ? "" : `, got '${redactUrl(raw)}'`;
      problems.push(`${spec.env} ${parsed.error.issues.map((i) => i.message).join(" and ")}${shown}`);
    }
  }
  if (values.source === "mainnet" && values.tonApiUrl === null) {
    problems.push("TON_API_URL is required when SOURCE=mainnet");
  }
  if (values.source === "replay" && values.replayPath === null) {
    problems.push("REPLAY_PATH is required when SOURCE=replay");
  }
  if (typeof values.busPartitions === "number" && values.busPartitions !== 1) {
    problems.push(
      `BUS_PARTITIONS must be 1: the processor reads one partition, so whole traces stay in one window (processors/README.md), got '${values.busPartitions}'`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  if (Array.isArray(values.kafkaBrokers)) Object.freeze(values.kafkaBrokers);
  return Object.freeze(values) as Config;
}

/** One line per setting, for `--help` and infra/README.md. */
export function configHelp(): string {
  return Object.values(CONFIG_VARS)
    .map(
      (v) => `  ${v.env.padEnd(30)} ${v.doc}${v.default === null ? "" : ` (default ${String(v.default)})`}`,
    )
    .join("\n");
}

/**
 * The trace window's depth: WINDOW_BLOCKS, else by source. Real traces are long: the recorded mainnet
 * STON.fi traces span 16 to 43 masterchain blocks from the user's message to the last payout (a busy
 * network delays hops), so real data (mainnet, replay) keeps 64. The devnet delivers a hop per block and
 * settles a 3-hop v2 swap in about 15, so 24 is deeper than any of its traces and keeps its steps cheap.
 */
export function windowBlocksOf(config: Pick<Config, "windowBlocks" | "source">): number {
  return config.windowBlocks ?? (config.source === "devnet" ? 24 : 64);
}
