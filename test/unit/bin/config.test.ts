import test from "ava";
import {
  CONFIG_VARS,
  configHelp,
  flagOf,
  loadConfig,
  TEST_ENV,
  windowBlocksOf,
} from "../../../bin/config.ts";
import { ConfigError, isRetryable } from "../../../infra/errors.ts";

function problemsOf(env: Record<string, string>, argv: string[] = []): readonly string[] {
  const error = (() => {
    try {
      loadConfig(env, argv);
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  if (!(error instanceof ConfigError)) throw new Error("expected a ConfigError");
  if (isRetryable(error)) throw new Error("a configuration error must not be retryable");
  return error.problems;
}

test("defaults: embedded deployment on port 8080 with data under ./data", (t) => {
  const c = loadConfig({}, []);
  t.deepEqual(
    { ...c },
    {
      port: 8080,
      metricsPort: 0,
      dataDir: "./data",
      source: "devnet",
      kafkaBrokers: null,
      kafkaTopicPrefix: "",
      redisKeyPrefix: "",
      clickhouseUrl: null,
      clickhouseRequestTimeoutMs: 30_000,
      redisUrl: null,
      tonApiUrl: null,
      tonApiKey: null,
      tonApiRequestsPerSecond: null,
      tonApiTimeoutMs: 15_000,
      fromSeqno: null,
      fromTime: null,
      mainnetConcurrency: 4,
      mainnetPollMs: 1_000,
      mainnetFilter: "stonfi",
      mainnetLookaheadBlocks: 32,
      logLevel: "info",
      libraryPatches: "on",
      devnetSeed: 1,
      devnetActionsPerBlock: 24,
      devnetBlockIntervalMs: 1_000,
      devnetBlocks: 600,
      replayPath: null,
      windowBlocks: null,
      busPartitions: 1,
      busCapacityRecords: 10_000,
      batchMaxRecords: 5_000,
      batchMaxMs: 200,
      cacheMaxEntries: 10_000,
      cacheTtlSeconds: 300,
      apiCacheTtlMs: 1_000,
      txQueryWindowSeconds: 0,
      assetListPath: null,
      corsOrigins: "*",
      compressMinBytes: 1024,
      pricingUsdAnchors: null,
      pricingMinDepthUsd: 1_000,
      pricingTonPoolMinDepthUsd: 50_000,
    },
  );
  t.true(Object.isFrozen(c));
});

test("pricing: USD anchors as address:decimals in any address form; thresholds in USD", (t) => {
  const c = loadConfig(
    {
      PRICING_USD_ANCHORS:
        "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs:6, 0:0000000000000000000000000000000000000000000000000000000000000001:9",
      PRICING_MIN_DEPTH_USD: "2500.5",
    },
    [],
  );
  t.deepEqual(c.pricingUsdAnchors, [
    { address: "0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE", decimals: 6 },
    { address: "0:0000000000000000000000000000000000000000000000000000000000000001", decimals: 9 },
  ]);
  t.is(c.pricingMinDepthUsd, 2500.5);
  t.deepEqual(
    problemsOf({
      PRICING_USD_ANCHORS: "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs",
      PRICING_TON_POOL_MIN_DEPTH_USD: "-1",
    }),
    [
      "PRICING_USD_ANCHORS must be a comma-separated list of address:decimals, got 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs'",
      "PRICING_TON_POOL_MIN_DEPTH_USD must be a non-negative number, got '-1'",
    ],
  );
});

test("the trace window's depth: WINDOW_BLOCKS, else 24 on the devnet and 64 on real chain data", (t) => {
  t.is(windowBlocksOf(loadConfig({}, [])), 24);
  t.is(windowBlocksOf(loadConfig({ SOURCE: "replay", REPLAY_PATH: "x" }, [])), 64);
  t.is(windowBlocksOf(loadConfig({ SOURCE: "replay", REPLAY_PATH: "x", WINDOW_BLOCKS: "12" }, [])), 12);
});

test("environment values are parsed; flags override them; empty values mean unset", (t) => {
  const c = loadConfig(
    {
      PORT: "9000",
      SOURCE: "mainnet",
      TON_API_URL: "https://toncenter.com/api/v2/",
      TON_API_KEY: "k",
      KAFKA_BROKERS: "127.0.0.1:19092, kafka:9092",
      CLICKHOUSE_URL: "http://user:pw@127.0.0.1:8123/tondex",
      REDIS_URL: "",
      LOG_LEVEL: "debug",
    },
    ["--port", "9100", "--data-dir=/var/tondex", "--redis-url", "redis://127.0.0.1:6379"],
  );
  t.is(c.port, 9100);
  t.is(c.dataDir, "/var/tondex");
  t.is(c.source, "mainnet");
  t.deepEqual(c.kafkaBrokers, ["127.0.0.1:19092", "kafka:9092"]);
  t.true(Object.isFrozen(c.kafkaBrokers));
  t.is(c.clickhouseUrl, "http://user:pw@127.0.0.1:8123/tondex");
  t.is(c.redisUrl, "redis://127.0.0.1:6379");
  t.is(c.logLevel, "debug");
  t.is(c.tonApiKey, "k");
});

test("every problem is reported at once, naming the variable and the value", (t) => {
  const problems = problemsOf(
    {
      PORT: "abc",
      SOURCE: "testnet",
      CACHE_TTL_SECONDS: "0",
      KAFKA_BROKERS: "localhost",
      CLICKHOUSE_URL: "ftp://u:secret@host",
      LOG_LEVEL: "loud",
    },
    ["--nope", "stray"],
  );
  t.deepEqual(problems, [
    "unknown option --nope",
    "unexpected argument 'stray'",
    "PORT must be an integer, got 'abc'",
    "SOURCE must be one of devnet, mainnet, replay, got 'testnet'",
    "KAFKA_BROKERS must be a comma-separated list of host:port, got 'localhost'",
    "CLICKHOUSE_URL must be a URL starting with http:// or https://, got 'ftp://u:***@host'",
    "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'",
    "CACHE_TTL_SECONDS must be at least 1, got '0'",
  ]);
});

test("source-specific settings are required; a blank secret is unset; a flag needs a value", (t) => {
  t.deepEqual(problemsOf({ TON_API_KEY: " ", SOURCE: "replay" }), [
    "REPLAY_PATH is required when SOURCE=replay",
  ]);
  t.deepEqual(problemsOf({ SOURCE: "mainnet" }), ["TON_API_URL is required when SOURCE=mainnet"]);
  // The runtime reads one partition (processors/README.md): more is refused, naming the variable.
  t.deepEqual(problemsOf({ BUS_PARTITIONS: "4" }), [
    "BUS_PARTITIONS must be 1: the processor reads one partition, so whole traces stay in one window (processors/README.md), got '4'",
  ]);
  t.deepEqual(problemsOf({}, ["--bus-partitions", "0"]), ["BUS_PARTITIONS must be at least 1, got '0'"]);
  t.is(loadConfig({ BUS_PARTITIONS: "1" }).busPartitions, 1);
  t.deepEqual(problemsOf({ PORT: "70000" }, ["--port"]), [
    "--port needs a value",
    "PORT must be at most 65535, got '70000'",
  ]);
});

test("test-speed settings are valid configuration; every variable has a flag and help", (t) => {
  const c = loadConfig(TEST_ENV);
  t.is(c.batchMaxMs, 5);
  t.is(c.logLevel, "silent");
  t.is(flagOf("CLICKHOUSE_REQUEST_TIMEOUT_MS"), "--clickhouse-request-timeout-ms");
  for (const v of Object.values(CONFIG_VARS)) t.true(configHelp().includes(v.env), v.env);
});
