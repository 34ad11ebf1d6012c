// dex/exit-codes.ts: every `exit_name` used by test/vectors/amm/*.json maps to the same code, and
// describeExitCode behaves for known, version-specific and unknown codes.
import test from "ava";
import {
  describeExitCode,
  STONFI_EXIT_CODE,
  V1_EXIT_CODES,
  V2_EXIT_CODES,
} from "../../../../dex/exit-codes.ts";
import { listVectors, readVectorJson } from "./_helpers.ts";

type AmmFile = { pool_type: string; cases: { expected: { exit_code?: string; exit_name?: string } }[] };

const pairs = new Map<string, { code: string; v1: boolean }>();
for (const f of listVectors("amm", ".json")) {
  const file = readVectorJson<AmmFile>(`amm/${f}`);
  for (const c of file.cases) {
    const { exit_code, exit_name } = c.expected;
    if (exit_code !== undefined && exit_name !== undefined) {
      pairs.set(`${file.pool_type.startsWith("v1") ? "v1" : "v2"}:${exit_code}`, {
        code: exit_code,
        v1: file.pool_type.startsWith("v1"),
      });
      pairs.set(`name:${exit_code}`, { code: exit_name, v1: false });
    }
  }
}

const ammName = test.macro({
  exec(t, code: string, name: string) {
    t.is(describeExitCode(BigInt(code)).name, name);
    t.is(describeExitCode(Number(code), "v2").name, name);
    t.true(describeExitCode(BigInt(code)).explanation.length > 0);
  },
  title: (_p, code: string, name: string) => `AMM vector exit ${code} is ${name}`,
});

for (const [key, { code: name }] of pairs) {
  if (key.startsWith("name:")) test(ammName, key.slice(5), name);
}

test("the AMM vectors use at least the 15 expected exit names", (t) => {
  const names = new Set([...pairs].filter(([k]) => k.startsWith("name:")).map(([, v]) => v.code));
  for (const n of [
    "swap_ok",
    "swap_refund_no_liq",
    "swap_refund_0_out",
    "swap_refund_slippage",
    "max_in_ratio",
    "tvm_integer_overflow",
    "not_converge",
    "complement_out_of_range",
  ]) {
    t.true(names.has(n), n);
  }
});

test("v1 codes in v1 vectors", (t) => {
  t.is(describeExitCode(STONFI_EXIT_CODE.swap_refund_no_liq, "v1").name, "swap_refund_no_liq");
  t.regex(describeExitCode(STONFI_EXIT_CODE.swap_refund_no_liq, "v1").explanation, /slippage/);
  t.is(describeExitCode(STONFI_EXIT_CODE.swap_ok_ref, "v1").name, "swap_ok_ref");
});

test("version-specific throw codes and the brief's names", (t) => {
  t.is(describeExitCode(88, "v1").name, "invalid_call");
  t.is(describeExitCode(88, "v2").name, "low_liquidity");
  t.is(describeExitCode(5104).name, "df_zero");
  t.is(describeExitCode(50008).name, "fp_zero_division");
  t.is(describeExitCode(9).name, "tvm_cell_underflow");
  t.is(describeExitCode(0xffff).name, "wrong_op");
  t.is(
    describeExitCode(STONFI_EXIT_CODE.swap_refund_slippage).explanation,
    "refunded: slippage, output below min_out",
  );
  t.is(
    describeExitCode(STONFI_EXIT_CODE.transfer_bounce_tx_expired).explanation,
    "refunded by the router: deadline passed",
  );
});

test("unknown codes get exit_<n> and keep the code as given", (t) => {
  t.deepEqual(describeExitCode(12345), {
    code: 12345,
    name: "exit_12345",
    explanation: "unknown exit code 12345",
  });
  t.is(describeExitCode(2n ** 70n).name, `exit_${2n ** 70n}`);
  t.is(describeExitCode(7n).code, 7n);
});

test("every table entry has a name and a one-line explanation", (t) => {
  for (const m of [V1_EXIT_CODES, V2_EXIT_CODES]) {
    for (const [code, info] of m) {
      t.true(info.name.length > 0, String(code));
      t.false(info.explanation.includes("\n"), String(code));
    }
  }
});
