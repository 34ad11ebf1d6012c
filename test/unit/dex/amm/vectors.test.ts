/**
 * Every case of vectors/amm — outcomes read from the real contract code in a sandbox — must come out of
 * the engine identically, field by field. Only out-of-gas cases (exit −14) are skipped: gas, not math.
 */
import test from "ava";
import { diffCase, runAmmCase } from "../../../../dex/amm/run-case.ts";
import { type AmmKind, parseAmmCase } from "../../../../schemas/amm-case.ts";
import { listVectors, readVectorJson } from "../../../helpers/vectors.ts";

type VectorFile = { kind: AmmKind; pool_type: string; count: number; cases: Record<string, unknown>[] };

const files = listVectors("amm", ".public.json");

test("all fourteen AMM vector files are present", (t) => {
  t.is(files.length, 14);
});

const checkFile = test.macro({
  exec(t, file: string) {
    const data = readVectorJson<VectorFile>(`amm/${file}`);
    t.is(data.cases.length, data.count, "case count matches the file header");
    const mismatches: string[] = [];
    let compared = 0;
    for (const raw of data.cases) {
      const expected = raw.expected as Record<string, unknown>;
      if (expected.status === "tx_failed" && expected.exit_code === "-14") continue;
      const parsed = parseAmmCase(raw, data.kind);
      if (!parsed.ok) {
        mismatches.push(`${parsed.id}: ${parsed.error}`);
        continue;
      }
      compared++;
      for (const d of diffCase(expected, runAmmCase(parsed.case))) {
        mismatches.push(`${raw.id} ${d.field}: expected ${String(d.expected)}, got ${String(d.actual)}`);
      }
    }
    t.deepEqual(mismatches, []);
    t.true(compared >= data.count - 22, "only out-of-gas cases are skipped");
  },
  title: (_, file: string) => `engine reproduces ${file}`,
});

for (const file of files) test(checkFile, file);
