/**
 * The DexScreener feed while the pipeline is writing: a devnet market keeps producing blocks while the test
 * polls `/latest-block` and fetches `/events` up to it, as an aggregator would; latest-block never
 * decreases, and after everything settled every range served earlier is re-served byte for byte (no
 * served block ever changes).
 */
import test from "ava";
import { startApiDevnet } from "../helpers/api-devnet.ts";
import { request } from "../unit/api/harness.ts";

const BASE = "/export/dexscreener/v1";

test("nothing the feed served while the pipeline was writing changes later", async (t) => {
  const env = await startApiDevnet({ seed: 23, marketBlocks: 5 });
  t.teardown(() => env.close());
  const served: { path: string; text: string }[] = [];
  let latest = -1;
  let next = 0;
  const poll = async () => {
    const lb = await request(env.api, "GET", `${BASE}/latest-block`);
    if (lb.status === 404) return;
    t.is(lb.status, 200, lb.text);
    const n = (lb.json as { block: { blockNumber: number } }).block.blockNumber;
    t.true(n >= latest, `latest-block went from ${latest} to ${n}`);
    latest = n;
    if (next > latest) return;
    const path = `${BASE}/events?fromBlock=${next}&toBlock=${latest}`;
    const r = await request(env.api, "GET", path);
    t.is(r.status, 200, r.text);
    served.push({ path, text: r.text });
    next = latest + 1;
  };
  // At least 40 rounds, and on until the feed has moved on more than five times (a slow machine writes
  // fewer batches per round), at most 400.
  for (let round = 0; round < 400 && (round < 40 || served.length <= 5); round++) {
    await env.market(3);
    await poll();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await env.settle();
  await poll();
  const events = served.reduce((n, s) => n + (JSON.parse(s.text) as { events: unknown[] }).events.length, 0);
  t.log(`${served.length} ranges served up to block ${latest}, ${events} events`);
  t.true(served.length > 5);
  t.true(events > 50);
  for (const s of served) t.is((await request(env.api, "GET", s.path)).text, s.text, s.path);
});
