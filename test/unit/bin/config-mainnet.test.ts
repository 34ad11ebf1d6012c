import test from "ava";
import { loadConfig } from "../../../bin/config.ts";
import { startPointOf, toncenterRequestsPerSecond } from "../../../bin/mainnet.ts";

test("mainnet settings: defaults, start points and the request budget", (t) => {
  const base = loadConfig({ SOURCE: "mainnet", TON_API_URL: "https://toncenter.com" });
  t.is(base.mainnetConcurrency, 4);
  t.is(base.mainnetFilter, "stonfi");
  t.is(base.mainnetLookaheadBlocks, 32);
  t.is(toncenterRequestsPerSecond(base), 1);
  t.is(startPointOf(base), "head");
  const keyed = loadConfig({ SOURCE: "mainnet", TON_API_URL: "https://toncenter.com", TON_API_KEY: "k" });
  t.is(toncenterRequestsPerSecond(keyed), 10);
  t.is(toncenterRequestsPerSecond(loadConfig({ TON_API_RPS: "25" })), 25);
  t.deepEqual(startPointOf(loadConfig({}, ["--from-seqno", "40420806"])), { seqno: 40420806 });
  t.deepEqual(startPointOf(loadConfig({}, ["--from-time", "2024-09-16T13:36:38Z"])), {
    unixTime: 1726493798,
  });
  t.deepEqual(startPointOf(loadConfig({ FROM_TIME: "1726493798" })), { unixTime: 1726493798 });
  // A backfill's range wins over both.
  t.deepEqual(startPointOf(loadConfig({ FROM_SEQNO: "5" }), { from: 9 }), { seqno: 9 });
});

test("mainnet settings: bad values are named", (t) => {
  t.throws(() => loadConfig({ FROM_TIME: "yesterday", MAINNET_FILTER: "some", MAINNET_CONCURRENCY: "0" }), {
    message:
      "invalid configuration: FROM_TIME must be unix seconds or an ISO date, got 'yesterday'; MAINNET_CONCURRENCY must be at least 1, got '0'; MAINNET_FILTER must be one of stonfi, all, got 'some'",
  });
  t.throws(() => loadConfig({ SOURCE: "mainnet" }), {
    message: /TON_API_URL is required when SOURCE=mainnet/,
  });
});
