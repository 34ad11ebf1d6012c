import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import test from "ava";

const child = fileURLToPath(new URL("../../helpers/run-program-child.ts", import.meta.url));

function run(mode: string): { status: number | null; lines: Record<string, unknown>[]; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", child, mode], {
    encoding: "utf8",
    timeout: 30_000,
  });
  const lines = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: r.status, lines, stderr: r.stderr };
}

const fatalMacro = test.macro(async (t, mode: string, msg: string, type: string, message: string) => {
  const r = run(mode);
  t.is(r.status, 1, r.stderr);
  t.is(r.lines.length, 1);
  const line = r.lines[0]!;
  t.is(line.level, 60, "pino's fatal level");
  t.is(line.name, "tondex");
  t.is(line.msg, msg);
  const err = line.err as { type: string; message: string; stack: string };
  t.is(err.type, type);
  t.is(err.message, message);
  t.true(err.stack.includes("run-program-child.ts"));
  t.is(r.stderr, "", "nothing bypasses the logger");
});

test(
  "an unhandled rejection is logged as fatal and exits 1",
  fatalMacro,
  "rejection",
  "unhandled rejection",
  "Error",
  "nobody awaited this",
);
test(
  "an uncaught exception is logged as fatal and exits 1",
  fatalMacro,
  "exception",
  "uncaught exception",
  "TypeError",
  "thrown in a timer",
);
test(
  "a command that throws is logged as fatal and exits 1",
  fatalMacro,
  "throws",
  "command failed",
  "RangeError",
  "the command itself failed",
);

test("a command's own exit code is the process's, with nothing logged", (t) => {
  for (const code of [0, 2]) {
    const r = run(String(code));
    t.is(r.status, code);
    t.deepEqual(r.lines, []);
  }
});
