/**
 * Wiring of `SOURCE=mainnet`: one toncenter client per process (one token bucket for every request to
 * TON_API_URL, the source's and chain-state reads' alike) and the mainnet source over it.
 */
import type { Logger } from "../infra/log.ts";
import type { Metrics } from "../infra/metrics.ts";
import { metricsObserver, ToncenterClient } from "../infra/toncenter/client.ts";
import { createMainnetSource, type MainnetSource, type StartPoint } from "../ingest/mainnet/source.ts";
import type { Config } from "./config.ts";

/** The public API's limits without and with a key (docs.ton.org/ecosystem/api/toncenter/rate-limit). */
const PUBLIC_RPS_WITHOUT_KEY = 1;
const PUBLIC_RPS_WITH_KEY = 10;

export function toncenterRequestsPerSecond(config: Config): number {
  return config.tonApiRequestsPerSecond ?? (config.tonApiKey ? PUBLIC_RPS_WITH_KEY : PUBLIC_RPS_WITHOUT_KEY);
}

export function toncenterClientOf(config: Config, metrics?: Metrics): ToncenterClient {
  if (config.tonApiUrl === null) throw new Error("TON_API_URL is required when SOURCE=mainnet");
  return new ToncenterClient({
    url: config.tonApiUrl,
    apiKey: config.tonApiKey ?? undefined,
    requestsPerSecond: toncenterRequestsPerSecond(config),
    timeoutMs: config.tonApiTimeoutMs,
    ...(metrics ? { observer: metricsObserver(metrics) } : {}),
  });
}

export type MainnetDeps = {
  logger?: Logger;
  metrics?: Metrics;
  client?: ToncenterClient;
  /** A backfill's range: its first block when no cursor is stored (a later cursor wins), and its last. */
  range?: { from: number; to: number };
};

export function startPointOf(config: Config, range?: { from: number }): StartPoint {
  if (range) return { seqno: range.from };
  if (config.fromSeqno !== null) return { seqno: config.fromSeqno };
  if (config.fromTime !== null) return { unixTime: config.fromTime };
  return "head";
}

export function mainnetSourceOf(config: Config, deps: MainnetDeps = {}): MainnetSource {
  const client = deps.client ?? toncenterClientOf(config, deps.metrics);
  return createMainnetSource({
    client,
    start: startPointOf(config, deps.range),
    to: deps.range?.to ?? null,
    concurrency: config.mainnetConcurrency,
    pollMs: config.mainnetPollMs,
    filter: config.mainnetFilter,
    lookaheadBlocks: config.mainnetLookaheadBlocks,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.metrics ? { onHead: (seqno: number) => deps.metrics?.setSourceHead(seqno) } : {}),
  });
}
