/**
 * Real mainnet traces (test/vectors/mainnet-traces replayed through `tondex replay`, no chain access): the
 * action tree and the operations, checked against the messages of every trace, decoded here from the
 * layouts of contracts.md (§2.5, §2.6, §3.6) independently of the indexer's codecs. Nothing is keyed to a
 * file: every pool transaction of every trace is checked.
 * - action tree (api.md §6.6): each swap leg's completed status carries exactly the result fields its exit
 *   code names — `swap_ok`; `swap_ok_ref` with the `ref_*` fields when a v1 pool also paid the referrer;
 *   `ask_jetton_wallet`/`ask_amount` for `swap_refund_no_liq`/`swap_refund_reserve_err`; `offer_*` for the
 *   other refunds — with the amounts the pool's messages carry.
 */
import { type Address, Cell, type Slice } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import type { z } from "zod";
import { actionTreeResponse } from "../../schemas/api/transactions.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { type ReplayedTraces, replayTraces, rootOf } from "../helpers/replayed-traces.ts";
import { request } from "../unit/api/harness.ts";

const test = anyTest as TestFn<ReplayedTraces>;
test.before(async (t) => {
  t.context = await replayTraces();
});
test.after.always((t) => t.context.close?.());

async function get<T>(
  t: { context: ReplayedTraces },
  path: string,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
) {
  const res = await request(t.context.api, "GET", path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return schema.parse(res.json);
}

/** Op codes and exit codes (contracts.md §2.3, §3.3). */
const OP = { v1Swap: 0x25938561, v2Swap: 0x6664de2a, v1PayTo: 0xf93bb43f, v2PayTo: 0x657b54f5 };
const EXIT: Record<number, string> = {
  3326308581: "swap_ok",
  1158120768: "swap_ok_ref",
  1610486421: "swap_refund_no_liq",
  949448347: "swap_refund_reserve_err",
  516064274: "swap_refund_tx_expired",
  1603617844: "swap_refund_0_out",
  962605456: "swap_refund_slippage",
  912017485: "swap_pool_locked",
  2808660177: "swap_fee_out_of_bounds",
};

const body = (boc: string): Slice => Cell.fromBase64(boc).beginParse();
const friendly = (a: Address | null) => a?.toString({ bounceable: true, urlSafe: true }) ?? null;

type PayTo = { exit: string; amount: bigint; wallet: string | null };

/** A `pay_to` (v1 §2.6, v2 §3.6): its exit code, the non-zero amount and the token it is paid in. */
function payTo(boc: string): PayTo | null {
  const s = body(boc);
  const op = s.loadUint(32);
  if (op !== OP.v1PayTo && op !== OP.v2PayTo) return null;
  s.skip(64);
  s.loadMaybeAddress();
  if (op === OP.v2PayTo) {
    s.loadMaybeAddress();
    s.loadMaybeAddress();
  }
  const code = s.loadUint(32);
  if (op === OP.v2PayTo) s.loadMaybeRef();
  const r = s.loadRef().beginParse();
  if (op === OP.v2PayTo) r.loadCoins();
  const amount0 = r.loadCoins();
  const token0 = r.loadMaybeAddress();
  const amount1 = r.loadCoins();
  const token1 = r.loadMaybeAddress();
  return {
    exit: EXIT[code] ?? String(code),
    amount: amount0 + amount1,
    wallet: friendly(amount0 > 0n ? token0 : token1),
  };
}

/** The offered amount of a router → pool `swap` (v1 §2.5: jetton_amount; v2 §3.6: amount0 + amount1). */
function swapIn(boc: string): { dex: "v1" | "v2"; amountIn: bigint } | null {
  const s = body(boc);
  const op = s.loadUint(32);
  if (op !== OP.v1Swap && op !== OP.v2Swap) return null;
  s.skip(64);
  s.loadMaybeAddress();
  if (op === OP.v1Swap) {
    s.loadMaybeAddress();
    return { dex: "v1", amountIn: s.loadCoins() };
  }
  return { dex: "v2", amountIn: s.loadCoins() + s.loadCoins() };
}

/** Pool transactions of a trace: their inbound message is a router's `swap`. */
function poolSwaps(txs: readonly RawTransaction[]) {
  return txs.flatMap((tx) => {
    const sw = tx.in_msg?.body_boc ? swapIn(tx.in_msg.body_boc) : null;
    if (sw === null) return [];
    const pays = tx.out_msgs.flatMap((m) => {
      const p = m.body_boc ? payTo(m.body_boc) : null;
      return p ? [p] : [];
    });
    return [{ tx, ...sw, pays }];
  });
}

/** api.md §6.6: the result fields of a completed swap action, by exit code (required, then optional). */
const SWAP_OK = [
  "ask_jetton_wallet",
  "ask_jetton_amount",
  "offer_jetton_wallet",
  "offer_jetton_amount",
  "is_reversed",
];
const SWAP_OK_OPTIONAL = ["ask_jetton", "offer_jetton", "fwd_gas"];
const REF = ["ref_offer_jetton_wallet", "ref_ask_jetton_wallet", "ref_ask_amount"];
const ASK_REFUND = ["ask_jetton_wallet", "ask_amount"];
const OFFER_REFUND = ["offer_jetton_wallet", "offer_amount"];
const STATUS_KEYS = ["@type", "tx_id", "success", "exit_code"];

function resultFields(exit: string): { required: string[]; optional: string[] } {
  if (exit === "swap_ok") return { required: SWAP_OK, optional: SWAP_OK_OPTIONAL };
  if (exit === "swap_ok_ref") return { required: [...SWAP_OK, ...REF], optional: SWAP_OK_OPTIONAL };
  if (exit === "swap_refund_no_liq" || exit === "swap_refund_reserve_err") {
    return { required: ASK_REFUND, optional: [] };
  }
  return { required: OFFER_REFUND, optional: [] };
}

test("action tree: every swap leg names its result as api.md §6.6 does, with the pool's amounts", async (t) => {
  let legs = 0;
  const exits = new Set<string>();
  for (const trace of t.context.traces) {
    const tree = await get(t, `/v1/transactions/${rootOf(trace).hash}/action_tree`, actionTreeResponse);
    for (const pool of poolSwaps(trace.txs)) {
      const label = `${trace.name} pool tx ${pool.tx.hash}`;
      const action = tree.actions.find(
        (a) => a.status["@type"] === "completed" && a.status.tx_id.hash === pool.tx.hash,
      );
      if (action === undefined) {
        t.fail(`${label}: no action`);
        continue;
      }
      legs++;
      t.is(action["@type"], "swap", label);
      t.is(action.contract_major_version, pool.dex, label);
      const ref = pool.pays.find((p) => p.exit === "swap_ok_ref");
      const main = pool.pays.find((p) => p.exit !== "swap_ok_ref");
      if (main === undefined) {
        t.fail(`${label}: the pool sent no pay_to`);
        continue;
      }
      // A v1 pool that also paid the referrer (even 0) answers `swap_ok_ref`.
      const exit = main.exit === "swap_ok" && ref !== undefined ? "swap_ok_ref" : main.exit;
      exits.add(exit);
      const status = action.status as Record<string, unknown>;
      t.is(status.exit_code, exit, label);
      const { required, optional } = resultFields(exit);
      t.deepEqual(
        Object.keys(status)
          .filter((k) => !STATUS_KEYS.includes(k) && !optional.includes(k))
          .sort(),
        [...required].sort(),
        `${label}: result fields of ${exit}`,
      );
      if (exit === "swap_ok" || exit === "swap_ok_ref") {
        t.is(status.ask_jetton_amount, `${main.amount}`, label);
        t.is(status.ask_jetton_wallet, main.wallet, label);
        t.is(status.offer_jetton_amount, `${pool.amountIn}`, label);
        t.is(status.is_reversed, false, label);
        if (ref) t.is(status.ref_ask_amount, `${ref.amount}`, label);
      } else if (required === ASK_REFUND) {
        t.deepEqual([status.ask_amount, status.ask_jetton_wallet], [`${main.amount}`, main.wallet], label);
      } else {
        t.deepEqual(
          [status.offer_amount, status.offer_jetton_wallet],
          [`${main.amount}`, main.wallet],
          label,
        );
      }
    }
  }
  t.true(legs >= 8, `swap legs checked: ${legs}`);
  // The recorded traces hold a v1 referral swap and a v1 refund: both shapes are exercised.
  t.true(exits.has("swap_ok_ref") && exits.has("swap_refund_no_liq"), [...exits].join(","));
});
