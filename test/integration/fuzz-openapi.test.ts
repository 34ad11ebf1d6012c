/**
 * Property-based fuzzing from the OpenAPI document (infra/fuzz.sh): schemathesis against a started
 * `tondex start` (embedded, devnet) with a fixed seed and a bounded budget. At least 2,000 cases in under
 * 3 minutes, with no 5xx, no response outside its documented schema, status or content type, no
 * connection reset; and the documented examples reach the handlers (most operations answer 2xx).
 *
 * Needs Python ≥ 3.9 (the script installs schemathesis into .cache/fuzz-venv, and Debian's python3 and
 * python3-venv when it runs as root with apt-get). Skipped, saying so, only when no Python can be had.
 */
import { spawn, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import test from "ava";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SCRIPT = join(ROOT, "infra", "fuzz.sh");

type FuzzResult = {
  cases: number;
  requests: number;
  seconds: number;
  statuses: Record<string, number>;
  operations_with_2xx: number;
  failures: number;
  errors: number;
  exit: number;
};

// Installing schemathesis (once) happens here, before the test's own clock starts.
const install = spawnSync("bash", [SCRIPT, "--install"], { encoding: "utf8" });
const skipReason =
  install.status === 77 ? (install.stderr.match(/SKIP: .*/)?.[0] ?? "SKIP: fuzz: no Python") : null;
if (install.status !== 0 && install.status !== 77) {
  throw new Error(`infra/fuzz.sh --install failed (${install.status}):\n${install.stderr}`);
}

const fuzzTest = skipReason === null ? test : test.skip;
const title =
  skipReason === null
    ? "schemathesis: ≥ 2,000 cases from the OpenAPI in under 3 minutes, no 5xx, no schema violation, no reset"
    : `${skipReason} (Python is not available)`;

fuzzTest(title, async (t) => {
  t.timeout(420_000);
  const child = spawn("bash", [SCRIPT], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => {
    out += c;
  });
  child.stderr.setEncoding("utf8").on("data", (c: string) => {
    err += c;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const line = out.split("\n").find((l) => l.startsWith("FUZZ_RESULT "));
  t.truthy(line, `no result line; exit ${code}\n${out}\n${err.slice(-4000)}`);
  const result = JSON.parse((line ?? "FUZZ_RESULT {}").slice("FUZZ_RESULT ".length)) as FuzzResult;
  t.log(out.slice(out.indexOf("fuzz summary")).split("\nFUZZ_RESULT")[0]);
  t.is(code, 0, `${out.slice(-6000)}\n${err.slice(-2000)}`);
  t.is(result.exit, 0);
  t.is(result.failures, 0);
  t.is(result.errors, 0, "network errors (a reset connection) or schemathesis errors");
  t.true(result.cases >= 2000, `cases: ${result.cases}`);
  t.true(result.seconds < 180, `seconds: ${result.seconds}`);
  t.deepEqual(
    Object.keys(result.statuses).filter((s) => Number(s) >= 500),
    [],
    "no 5xx",
  );
  // The examples (real devnet addresses, amounts, times, hashes) reach the handlers.
  t.true(result.operations_with_2xx >= 25, `operations answered 2xx: ${result.operations_with_2xx} of 28`);
});
