/**
 * `tondex amm [FILE|-]` — answer AMM cases with the engine, one JSON line per case, in input order.
 * `tondex amm --check FILE` — compare with each case's `expected`; last line `N passed, M failed, K skipped`.
 *
 * Input: a vectors/amm file (an object with `cases`), a JSON array of cases, or JSON lines of cases.
 */
import { readFile } from "node:fs/promises";
import { diffCase, runAmmCase } from "../../dex/amm/run-case.ts";
import { type AmmKind, parseAmmCase } from "../../schemas/amm-case.ts";
import type { CliIo } from "../io.ts";

const HELP = `usage: tondex amm [FILE|-]          print the engine's answer for every case (JSON lines)
       tondex amm --check FILE|-    compare with each case's "expected"; exit 1 on any mismatch

FILE is a vectors/amm file ({"kind", "cases": [...]}), a JSON array of cases, or JSON lines.
Output fields are the ones "expected" has for the case kind (FORMAT.md in vectors/amm), decimal strings.
Cases whose expected outcome is "tx_failed" with exit code -14 (out of gas: not a math outcome)
are skipped by --check.
`;

type Input = { kind?: AmmKind; cases: unknown[] };

const KINDS: readonly string[] = ["swap", "reverse", "liquidity"];

function parseInput(text: string): Input {
  const trimmed = text.trim();
  if (trimmed === "") return { cases: [] };
  let whole: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch {
    // JSON lines: one case per non-empty line.
    return {
      cases: trimmed
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((line, i) => {
          try {
            return JSON.parse(line) as unknown;
          } catch (e) {
            return { __error: `line ${i + 1}: not valid JSON (${(e as Error).message})` };
          }
        }),
    };
  }
  if (Array.isArray(whole)) return { cases: whole };
  if (typeof whole === "object" && whole !== null && Array.isArray((whole as { cases?: unknown }).cases)) {
    const w = whole as { kind?: unknown; cases: unknown[] };
    return {
      kind: typeof w.kind === "string" && KINDS.includes(w.kind) ? (w.kind as AmmKind) : undefined,
      cases: w.cases,
    };
  }
  return { cases: [whole] };
}

type Answer = {
  id: string;
  output?: Record<string, unknown>;
  error?: string;
  expected?: Record<string, unknown>;
};

function answer(raw: unknown, index: number, kind: AmmKind | undefined): Answer {
  if (typeof raw === "object" && raw !== null && "__error" in raw) {
    return { id: `#${index + 1}`, error: String((raw as { __error: unknown }).__error) };
  }
  const parsed = parseAmmCase(raw, kind);
  if (!parsed.ok) return { id: parsed.id === "?" ? `#${index + 1}` : parsed.id, error: parsed.error };
  const { value } = parsed.case;
  try {
    return { id: value.id, output: runAmmCase(parsed.case), expected: value.expected };
  } catch (e) {
    // AmmInputError and friends: a question no contract could be asked. Named, per case.
    const err = e as { code?: unknown; message?: unknown };
    return {
      id: value.id,
      error: `${typeof err.code === "string" ? `${err.code}: ` : ""}${String(err.message ?? e)}`,
      expected: value.expected,
    };
  }
}

async function readSource(path: string | undefined, io: CliIo): Promise<string> {
  return path === undefined || path === "-" ? io.readStdin() : readFile(path, "utf8");
}

/**
 * The contract ran out of gas (exit −14): the vectors cannot say what the math would give, so such a
 * case is skipped. Other `tx_failed` cases (a burn the pool rejects with 81/92) are math and compared.
 */
function isOutOfGas(expected: Record<string, unknown> | undefined): boolean {
  return expected?.status === "tx_failed" && expected.exit_code === "-14";
}

function check(answers: Answer[], io: CliIo): number {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const a of answers) {
    if (isOutOfGas(a.expected)) {
      skipped++;
      continue;
    }
    if (a.error !== undefined || a.output === undefined || a.expected === undefined) {
      failed++;
      io.stdout(`FAIL ${a.id}: ${a.error ?? "case has no expected values"}\n`);
      continue;
    }
    const diffs = diffCase(a.expected, a.output as Record<string, string | boolean | null>);
    if (diffs.length === 0) passed++;
    else {
      failed++;
      for (const d of diffs)
        io.stdout(
          `MISMATCH ${a.id} ${d.field}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.actual)}\n`,
        );
    }
  }
  io.stdout(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  return failed > 0 ? 1 : 0;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout(HELP);
    return 0;
  }
  const checking = args[0] === "--check";
  const files = checking ? args.slice(1) : args;
  if (files.length > 1 || (checking && files.length === 0)) {
    io.stderr(`tondex amm: expected ${checking ? "one FILE after --check" : "at most one FILE"}\n\n${HELP}`);
    return 2;
  }
  let input: Input;
  try {
    input = parseInput(await readSource(files[0], io));
  } catch (e) {
    io.stderr(`tondex amm: cannot read ${files[0] ?? "stdin"}: ${(e as Error).message}\n`);
    return 2;
  }
  const answers = input.cases.map((c, i) => answer(c, i, input.kind));
  if (checking) return check(answers, io);
  let errors = 0;
  for (const a of answers) {
    if (a.error !== undefined) {
      errors++;
      io.stderr(`tondex amm: case ${a.id}: ${a.error}\n`);
      io.stdout(`${JSON.stringify({ id: a.id, error: a.error })}\n`);
    } else io.stdout(`${JSON.stringify({ id: a.id, ...a.output })}\n`);
  }
  return errors > 0 ? 1 : 0;
}
