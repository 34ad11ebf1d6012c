/**
 * Prometheus metrics (prom-client). `createMetrics()` builds a fresh Registry and the metrics on it;
 * it is created once in bin/ and passed down (no module singletons, so tests get isolated registries).
 * The API serves `renderMetrics(metrics)` at /metrics; a process without the API (`tondex process`) serves
 * it with `serveMetrics`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { directoryBytes } from "./disk.ts";

export type Metrics = {
  readonly registry: Registry;
  readonly blocksProcessed: Counter;
  readonly transactionsProcessed: Counter;
  readonly factsWritten: Counter<"table">;
  readonly unknownMessages: Counter<"kind" | "reason">;
  /** Counts an unknown/malformed message under a bounded label derived from its reason text. */
  countUnknown(kind: string, reason: string): void;
  readonly batchSeconds: Histogram;
  /** Batches that failed (core, write): not committed, read again (distributed) or ending the run. */
  readonly batchFailures: Counter;
  readonly storeRetries: Counter;
  readonly cacheErrors: Counter;
  /** Pool tracker reports by kind: `unknown_pool` (a pool first seen with an unknown state), `mismatch`, `unrecognised`. */
  readonly poolReports: Counter<"kind">;
  /** Pools re-read from the chain after a report, by outcome (`resynced`, `unavailable`, `behind`) and report kind. */
  readonly poolResyncs: Counter<"outcome" | "reason">;
  /** Chain API (toncenter) HTTP attempts by endpoint and outcome (status code, "timeout", "network"). */
  readonly apiRequests: Counter<"endpoint" | "outcome">;
  /** Chain API attempts retried, by endpoint and the failed outcome. */
  readonly apiRetries: Counter<"endpoint" | "reason">;
  /** Seconds requests waited for the chain API's rate limiter. */
  readonly apiRateLimitWaitSeconds: Counter;
  /** Latest masterchain seqno the source has seen (set by ingest). */
  setSourceHead(mcSeqno: number): void;
  /** A bus partition's stored cursor: where a restart resumes (set by the processor shell after each write). */
  setProcessed(partition: number, mcSeqno: number): void;
  /**
   * The newest mc_seqno a bus partition's processor has read and written (set after each write). Complete
   * operations are stored as soon as they complete; the cursor trails this by the trace window.
   */
  setConsumed(partition: number, mcSeqno: number): void;
  /** Records of a bus partition not yet processed when its last batch was written (high watermark − next offset). */
  setConsumerLag(partition: number, records: number): void;
};

export type MetricsOptions = {
  /** Metric name prefix (default "tondex_"). */
  readonly prefix?: string;
  /** Also collect Node process metrics (CPU, memory, event loop); off in tests. */
  readonly defaultMetrics?: boolean;
  /** DATA_DIR: its disk usage is measured on every scrape (`data_dir_bytes`). */
  readonly dataDir?: string;
};

/** Reason texts carry numbers and addresses; a label keeps only their shape, and at most this many. */
const MAX_REASON_LABELS = 50;

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const prefix = options.prefix ?? "tondex_";
  const registry = new Registry();
  const registers = [registry];
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix });

  const reasons = new Set<string>();
  let head: number | null = null;
  const processed = new Map<number, number>();
  const lowestProcessed = () => (processed.size === 0 ? null : Math.min(...processed.values()));
  const consumed = new Map<number, number>();
  const lowestConsumed = () => (consumed.size === 0 ? null : Math.min(...consumed.values()));

  new Gauge({
    name: `${prefix}source_head_mc_seqno`,
    help: "Latest masterchain seqno seen at the chain source",
    registers,
    collect() {
      if (head !== null) this.set(head);
    },
  });
  new Gauge({
    name: `${prefix}processed_mc_seqno`,
    help: "Masterchain seqno a restarted processor resumes after: the stored cursor (lowest over bus partitions); it trails the newest block read by the trace window",
    registers,
    collect() {
      const low = lowestProcessed();
      if (low !== null) this.set(low);
    },
  });
  new Gauge({
    name: `${prefix}consumed_mc_seqno`,
    help: "Newest masterchain seqno the processor has read and written (lowest over bus partitions)",
    registers,
    collect() {
      const low = lowestConsumed();
      if (low !== null) this.set(low);
    },
  });
  new Gauge({
    name: `${prefix}lag_blocks`,
    help: "Masterchain blocks the processor is behind the source head (head − consumed_mc_seqno)",
    registers,
    collect() {
      const low = lowestConsumed();
      if (head !== null && low !== null) this.set(Math.max(0, head - low));
    },
  });

  const consumerLag = new Gauge({
    name: `${prefix}consumer_lag_records`,
    help: "Records of the raw-transactions topic partition not yet processed, as of the last batch written (the partition's end when the batch was fetched − the batch's next offset)",
    labelNames: ["partition"] as const,
    registers,
  });

  const dataDir = options.dataDir;
  if (dataDir !== undefined) {
    new Gauge({
      name: `${prefix}data_dir_bytes`,
      help: "Disk space used under DATA_DIR (allocated blocks, as du counts them), measured at each scrape",
      registers,
      async collect() {
        this.set(await directoryBytes(dataDir));
      },
    });
  }

  const unknownMessages = new Counter({
    name: `${prefix}unknown_messages_total`,
    help: "Messages the classifier could not explain, by kind (unknown/malformed) and reason shape",
    labelNames: ["kind", "reason"] as const,
    registers,
  });

  return {
    registry,
    unknownMessages,
    countUnknown(kind, reason) {
      unknownMessages.inc({ kind, reason: reasonLabel(reason, reasons) });
    },
    blocksProcessed: new Counter({
      name: `${prefix}blocks_processed_total`,
      help: "Masterchain blocks whose facts were written",
      registers,
    }),
    transactionsProcessed: new Counter({
      name: `${prefix}transactions_processed_total`,
      help: "Raw transactions consumed and written by the processor",
      registers,
    }),
    factsWritten: new Counter({
      name: `${prefix}facts_written_total`,
      help: "Fact rows inserted, by table",
      labelNames: ["table"],
      registers,
    }),
    batchSeconds: new Histogram({
      name: `${prefix}batch_seconds`,
      help: "Time to process one batch: core, write, cache",
      buckets: [0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    batchFailures: new Counter({
      name: `${prefix}batch_failures_total`,
      help: "Processor batches that failed (core or write): nothing of them committed; read again",
      registers,
    }),
    storeRetries: new Counter({
      name: `${prefix}store_retries_total`,
      help: "Store writes retried after a retryable error",
      registers,
    }),
    poolReports: new Counter({
      name: `${prefix}pool_reports_total`,
      help: "Pool state tracker reports: unknown_pool (first seen with an unknown state), mismatch, unrecognised",
      labelNames: ["kind"],
      registers,
    }),
    poolResyncs: new Counter({
      name: `${prefix}pool_resyncs_total`,
      help: "Pools re-read from the chain after a report (reason: unknown_pool, mismatch, unrecognised), by outcome: resynced, unavailable (no answer), behind (older than what was processed)",
      labelNames: ["outcome", "reason"],
      registers,
    }),
    cacheErrors: new Counter({
      name: `${prefix}cache_errors_total`,
      help: "Hot cache operations that failed (the store stays the source of truth)",
      registers,
    }),
    apiRequests: new Counter({
      name: `${prefix}api_requests_total`,
      help: "Chain API (toncenter) HTTP attempts, by endpoint and outcome",
      labelNames: ["endpoint", "outcome"],
      registers,
    }),
    apiRetries: new Counter({
      name: `${prefix}api_retries_total`,
      help: "Chain API attempts retried (429, 5xx, timeouts, network), by endpoint and reason",
      labelNames: ["endpoint", "reason"],
      registers,
    }),
    apiRateLimitWaitSeconds: new Counter({
      name: `${prefix}api_rate_limit_wait_seconds_total`,
      help: "Seconds requests waited for the chain API's rate limiter",
      registers,
    }),
    setSourceHead(mcSeqno) {
      head = mcSeqno;
    },
    setProcessed(partition, mcSeqno) {
      processed.set(partition, Math.max(mcSeqno, processed.get(partition) ?? 0));
    },
    setConsumed(partition, mcSeqno) {
      consumed.set(partition, Math.max(mcSeqno, consumed.get(partition) ?? 0));
    },
    setConsumerLag(partition, records) {
      consumerLag.set({ partition: String(partition) }, Math.max(0, records));
    },
  };
}

/**
 * A bounded label for a free-text reason: digits and hex runs collapsed, cut at 60 characters, and
 * "other" once `seen` holds MAX_REASON_LABELS distinct labels (Prometheus cardinality).
 */
export function reasonLabel(reason: string, seen: Set<string>): string {
  const label = reason
    .replace(/\b(?:0x)?[0-9a-fA-F:-]*\d[0-9a-fA-F:-]*\b/g, "N")
    .slice(0, 60)
    .trim();
  if (seen.has(label)) return label;
  if (seen.size >= MAX_REASON_LABELS) return "other";
  seen.add(label);
  return label;
}

export async function renderMetrics(metrics: Metrics): Promise<{ contentType: string; body: string }> {
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}

export type MetricsServer = { readonly port: number; close(): Promise<void> };

/**
 * `GET /metrics` on `port` (0: any free port, read back from `port`) for a process that has no API; every
 * other path is 404. A scrape that fails to render answers 500 with the error's message.
 */
export async function serveMetrics(metrics: Metrics, port: number): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: GET /metrics\n");
      return;
    }
    renderMetrics(metrics).then(
      ({ contentType, body }) => res.writeHead(200, { "content-type": contentType }).end(body),
      (error: unknown) =>
        res.writeHead(500, { "content-type": "text/plain" }).end(`metrics failed: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
