/**
 * `tondex replay` through the real CLI (child process, embedded chdb under a temp DATA_DIR): a devnet
 * dump replays into facts equal to its ground truth; a malformed line in a JSONL file is stored as
 * `malformed` with its reason while the good records around it are stored; progress lines are printed
 * when stderr is not a terminal.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import test from "ava";
import { openStore } from "../../infra/store/client.ts";
import { countFacts, selectFacts } from "../../infra/store/facts-reader.ts";
import { truthLine } from "../../schemas/devnet-dump.ts";
import { factsMatchTruth } from "../helpers/facts-truth.ts";

const run = promisify(execFile);
const TONDEX = join(import.meta.dirname, "../../bin/tondex.mjs");

test("a devnet dump replays into facts equal to its truth; a bad line is stored as malformed", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "tondex-replay-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const dump = join(dir, "dump");
  await run(process.execPath, [TONDEX, "devnet", "--seed", "9", "--blocks", "30", "--out", dump]);
  const lines = (await readFile(join(dump, "transactions.jsonl"), "utf8")).trim().split("\n");
  const extra = join(dir, "extra.jsonl");
  // A later block's transactions plus one unreadable line and one invalid record.
  await writeFile(
    extra,
    ['{"not json', JSON.stringify({ version: "raw-tx.v1", mc_seqno: 999 }), ""].join("\n"),
  );
  const env = { ...process.env, LOG_LEVEL: "warn" };
  const out = await run(process.execPath, [TONDEX, "replay", dump, extra, "--data-dir", join(dir, "data")], {
    env,
  });
  t.regex(out.stderr, /blocks\/s/);
  const result = JSON.parse(out.stdout.trim().split("\n").at(-1)!) as {
    transactions: number;
    finished: boolean;
  };
  t.is(result.transactions, lines.length);
  t.true(result.finished);
  const store = await openStore({ clickhouseUrl: null, dataDir: join(dir, "data", "clickhouse") });
  t.teardown(() => store.close());
  t.is(await countFacts(store, "transactions", {}), BigInt(lines.length));
  const malformed = await selectFacts(store, "unknown_messages", { where: { kind: "malformed" } });
  const reasons = malformed.map((m) => m.reason).join("\n");
  t.regex(reasons, /extra\.jsonl:1: .*invalid JSON/);
  t.regex(reasons, /extra\.jsonl:2: .*\/hash/);
  const truth = (await readFile(join(dump, "truth.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => truthLine.parse(JSON.parse(l)));
  const check = await factsMatchTruth(store, truth.map(fromLine));
  t.deepEqual(check.problems, []);
  t.true(check.checked > 100);
});

/** Truth lines are already in wire form; factsMatchTruth compares wire forms too. */
function fromLine(l: ReturnType<typeof truthLine.parse>) {
  return { ...l, lt: BigInt(l.lt), fields: l.fields };
}
