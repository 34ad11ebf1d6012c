import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { createMetrics, reasonLabel, renderMetrics, serveMetrics } from "../../../infra/metrics.ts";

test("each createMetrics has its own registry with the pipeline metrics", async (t) => {
  const a = createMetrics();
  const b = createMetrics();
  a.transactionsProcessed.inc(5);
  a.factsWritten.inc({ table: "swaps" }, 3);
  a.blocksProcessed.inc(2);
  a.setSourceHead(140);
  a.setProcessed(0, 90);
  a.setProcessed(1, 95);
  a.setProcessed(0, 80); // a partition never goes backwards
  a.setConsumed(0, 150);
  a.setConsumed(1, 130);
  a.setConsumed(1, 120);
  const { body, contentType } = await renderMetrics(a);
  t.regex(contentType, /^text\/plain/);
  t.regex(body, /^tondex_transactions_processed_total 5$/m);
  t.regex(body, /^tondex_facts_written_total\{table="swaps"\} 3$/m);
  t.regex(body, /^tondex_blocks_processed_total 2$/m);
  t.regex(body, /^tondex_source_head_mc_seqno 140$/m);
  t.regex(body, /^tondex_processed_mc_seqno 90$/m);
  // lag: from the newest block read (the cursor trails it by the trace window), never negative
  t.regex(body, /^tondex_consumed_mc_seqno 130$/m);
  t.regex(body, /^tondex_lag_blocks 10$/m);
  t.regex((await renderMetrics(b)).body, /^tondex_transactions_processed_total 0$/m);
});

test("unknown-message reasons become bounded labels", async (t) => {
  const seen = new Set<string>();
  t.is(
    reasonLabel("STON.fi transaction failed (compute exit 65535, aborted)", seen),
    "STON.fi transaction failed (compute exit N, aborted)",
  );
  t.is(
    reasonLabel("bounced message to 0:ABCDEF0123 from v2 router", seen),
    "bounced message to N from v2 router",
  );
  for (let i = 0; i < 100; i++)
    reasonLabel(`reason kind ${String.fromCharCode(65 + (i % 26))}${"x".repeat(i)}`, seen);
  t.is(seen.size, 50);
  t.is(reasonLabel("a brand new reason", seen), "other");
  const m = createMetrics();
  m.countUnknown("malformed", "stonfi.v2 swap: bad ref at bit 267");
  t.regex(
    (await renderMetrics(m)).body,
    /^tondex_unknown_messages_total\{kind="malformed",reason="stonfi.v2 swap: bad ref at bit N"\} 1$/m,
  );
});

test("data_dir_bytes counts the disk space under DATA_DIR at each scrape, like du", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "tondex-metrics-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const m = createMetrics({ dataDir: dir });
  const bytes = async () => {
    const line = (await renderMetrics(m)).body.match(/^tondex_data_dir_bytes (\d+)$/m);
    return Number(line?.[1]);
  };
  const empty = await bytes();
  t.is(empty, statSync(dir).blocks * 512);
  mkdirSync(join(dir, "clickhouse"));
  writeFileSync(join(dir, "clickhouse", "part.bin"), Buffer.alloc(100_000, 1));
  linkSync(join(dir, "clickhouse", "part.bin"), join(dir, "clickhouse", "hardlink.bin"));
  const file = statSync(join(dir, "clickhouse", "part.bin")).blocks * 512;
  t.true(file >= 100_000);
  // A hard-linked part (ClickHouse snapshots its parts this way) occupies its blocks once.
  t.is(await bytes(), empty + statSync(join(dir, "clickhouse")).blocks * 512 + file);
  t.notRegex((await renderMetrics(createMetrics())).body, /data_dir_bytes/);
});

test("serveMetrics: GET /metrics on a free port, with consumer lag and batch failures; other paths 404", async (t) => {
  const metrics = createMetrics();
  metrics.setConsumerLag(0, 1_234);
  metrics.setConsumerLag(0, -5); // a watermark read before the batch's end: never negative
  metrics.batchFailures.inc();
  metrics.factsWritten.inc({ table: "swaps" }, 7);
  const server = await serveMetrics(metrics, 0);
  t.teardown(() => server.close());
  t.true(server.port > 0);
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
  t.is(res.status, 200);
  t.regex(res.headers.get("content-type") ?? "", /^text\/plain/);
  const body = await res.text();
  t.regex(body, /^tondex_consumer_lag_records\{partition="0"\} 0$/m);
  t.regex(body, /^tondex_batch_failures_total 1$/m);
  t.regex(body, /^tondex_facts_written_total\{table="swaps"\} 7$/m);
  t.is((await fetch(`http://127.0.0.1:${server.port}/`)).status, 404);
  t.is((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: "POST" })).status, 404);
});
