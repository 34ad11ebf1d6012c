import test from "ava";
import { runCli } from "../../helpers/cli.ts";
import { vectorPath } from "../../helpers/vectors.ts";

const swapFile = vectorPath("amm/v2_weighted_stableswap_swap.public.json");

test("amm --check on a vector file: every case passes, out-of-gas cases are skipped", async (t) => {
  const { code, stdout } = await runCli(["amm", "--check", swapFile]);
  t.is(code, 0);
  t.is(stdout.trim().split("\n").at(-1), "240 passed, 0 failed, 8 skipped");
});

test("amm prints one JSON line per case in input order with every expected field", async (t) => {
  const { code, stdout } = await runCli(["amm", swapFile]);
  t.is(code, 0);
  const lines = stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  t.is(lines.length, 248);
  t.is(lines[0]?.id, "v2_weighted_stableswap/swap/0000");
  // Vector 0000's expected values (read from the contract run in the sandbox).
  t.like(lines[0], {
    status: "ok",
    exit_name: "swap_ok",
    amount_out: "3382929",
    protocol_fee_out: "23505",
    base_out: "3406434",
  });
});

const case1 = {
  id: "a",
  pool_type: "v2_constant_product",
  params: {
    reserve0: "100000",
    reserve1: "100000",
    lp_supply: "1",
    lp_fee_bps: "20",
    protocol_fee_bps: "10",
  },
  direction: "0to1",
  amount_in: "500",
};

test("amm reads JSON lines from stdin; a malformed case names the case and field and the rest still run", async (t) => {
  const bad = { ...case1, id: "b", params: { ...case1.params, reserve1: "-5" } };
  const stdin = `${JSON.stringify(bad)}\n${JSON.stringify(case1)}\n`;
  const { code, stdout, stderr } = await runCli(["amm", "-"], stdin);
  t.is(code, 1);
  const [first, second] = stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  t.is(first?.id, "b");
  t.regex(String(first?.error), /params\/reserve1/);
  t.regex(stderr, /case b: .*reserve1/);
  // floor(500·9980·1e5/(1e5·1e4 + 500·9980)) = 496; protocol ceil(496·10/1e4) = 1
  t.like(second, { id: "a", status: "ok", base_out: "496", amount_out: "495" });
});

test("amm --check reports a wrong expectation and exits non-zero", async (t) => {
  const wrong = { ...case1, expected: { status: "ok", amount_out: "494" } };
  const { code, stdout } = await runCli(["amm", "--check", "-"], JSON.stringify([wrong]));
  t.is(code, 1);
  t.regex(stdout, /MISMATCH a amount_out: expected "494", got "495"/);
  t.regex(stdout, /0 passed, 1 failed, 0 skipped\n$/);
});

test("amm on a missing file is a clear error", async (t) => {
  const { code, stderr } = await runCli(["amm", "/nonexistent/file.json"]);
  t.is(code, 2);
  t.regex(stderr, /cannot read \/nonexistent\/file.json/);
});
