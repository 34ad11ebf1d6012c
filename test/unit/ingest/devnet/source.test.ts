import test from "ava";
import { createDevnetSource } from "../../../../ingest/devnet/source.ts";

test("the market's setup blocks are not paced; market blocks are", async (t) => {
  // A minute between blocks: a paced setup (a dozen blocks and more) could not finish within the test.
  const source = createDevnetSource({ seed: 1, intervalMs: 60_000 });
  const abort = new AbortController();
  const setup: number[] = [];
  const started = Date.now();
  for await (const block of source.blocks(0, abort.signal)) {
    if (source.devnet.market !== null) {
      // The first market block: the pause comes after it (cut short by the abort).
      abort.abort();
      continue;
    }
    setup.push(block.mc_seqno);
  }
  t.true(setup.length >= 10, `setup took ${setup.length} blocks`);
  t.deepEqual(
    setup,
    setup.map((_, i) => i + 1),
  );
  t.true(source.devnet.pools.length > 0, "the pools have their first liquidity");
  t.true(Date.now() - started < 60_000);
});
