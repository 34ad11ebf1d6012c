/** Same seed ⇒ byte-identical output (blocks and truth); another seed ⇒ different output. */
import { createHash } from "node:crypto";
import test from "ava";
import { truthToLine } from "../../../../ingest/devnet/dump.ts";
import { runDevnet } from "../../../helpers/devnet-run.ts";

async function digest(seed: number): Promise<string> {
  const run = await runDevnet({ seed, blocks: 30, actionsPerBlock: 20 });
  const h = createHash("sha256");
  for (const b of run.blocks) {
    h.update(JSON.stringify({ mc: b.mc_seqno, utime: b.utime, txs: b.transactions }));
    h.update(JSON.stringify(b.truth.map(truthToLine)));
  }
  return h.digest("hex");
}

test("two runs with one seed are byte-identical; different seeds differ", async (t) => {
  const a = await digest(21);
  const b = await digest(21);
  const c = await digest(22);
  t.is(a, b);
  t.not(a, c);
});
