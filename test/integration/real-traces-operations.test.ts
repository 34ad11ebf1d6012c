/**
 * Real mainnet traces (test/vectors/mainnet-traces replayed through `tondex replay`, no chain access): the
 * action tree and the operations, checked against the messages of every trace, decoded here from the
 * layouts of contracts.md (§2.5, §2.6, §3.6) independently of the indexer's codecs. Nothing is keyed to a
 * file: every pool transaction of every trace is checked.
 * - action tree (api.md §6.6): each swap leg's completed status carries exactly the result fields its exit
 *   code names — `swap_ok`; `swap_ok_ref` with the `ref_*` fields when a v1 pool also paid the referrer;
 *   `ask_jetton_wallet`/`ask_amount` for `swap_refund_no_liq`/`swap_refund_reserve_err`; `offer_*` for the
 *   other refunds — with the amounts the pool's messages carry.
 * - operations (api.md §4.6), listed for every account of every trace: `wallet_tx_*` is the transaction
 *   that started the operation — the operation wallet's own transaction processing the trace's external
 *   message, before the pool transaction — or null, never another transaction; it is known whenever that
 *   wallet's trace root is stored.
 * - unknown is not zero: without a pool state (no deployment seen, no chain access) reserves, LP supply
 *   and the LP fee are null; a refund moves no reserve and charges nothing; a swap adds its input to the
 *   offer side, and takes out + protocol fee + referral fee from the ask side, known exactly when the
 *   protocol fee is: the one fee every (P, R, gross output) consistent with the paid output and referral
 *   fee gives (contracts.md §2.9, §3.9.1), enumerated here by brute force.
 */
import { Address, Cell, type Slice } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import { actionTreeResponse } from "../../schemas/api/transactions.ts";
import { operationsResponse } from "../../schemas/api/wallets.ts";
import type { RawTransaction } from "../../schemas/raw-transaction.ts";
import { type ReplayedTraces, replayTraces, rootOf } from "../helpers/replayed-traces.ts";
import { f as friendlyOf, request } from "../unit/api/harness.ts";

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
const OP = {
  v1Swap: 0x25938561,
  v2Swap: 0x6664de2a,
  v1PayTo: 0xf93bb43f,
  v2PayTo: 0x657b54f5,
  v2PayVault: 0x63381632,
};
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

const WINDOW = "since=2020-01-01T00:00:00&until=2035-01-01T00:00:00";

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

/** The referral amount of a v2 `pay_vault` (§3.6). */
function payVault(boc: string): bigint | null {
  const s = body(boc);
  if (s.loadUint(32) !== OP.v2PayVault) return null;
  s.skip(64);
  s.loadMaybeAddress();
  s.loadMaybeAddress();
  const r = s.loadRef().beginParse();
  const amount0 = r.loadCoins();
  r.loadMaybeAddress();
  return amount0 + r.loadCoins();
}

type SwapIn = { dex: "v1" | "v2"; amountIn: bigint; offer0: boolean; refBps: bigint | null };

/**
 * A router → pool `swap` (v1 §2.5: jetton_amount; v2 §3.6: amount0 + amount1 and the user's payload,
 * whose `ref_fee` is the referral bps, §3.4). v1's side is its sender_wallet's, told by the pool's pay_to.
 */
function swapIn(boc: string): SwapIn | null {
  const s = body(boc);
  const op = s.loadUint(32);
  if (op !== OP.v1Swap && op !== OP.v2Swap) return null;
  s.skip(64);
  s.loadMaybeAddress();
  if (op === OP.v1Swap) {
    s.loadMaybeAddress();
    return { dex: "v1", amountIn: s.loadCoins(), offer0: true, refBps: null };
  }
  const amount0 = s.loadCoins();
  const amount1 = s.loadCoins();
  const payload = s.loadRef().beginParse();
  payload.skip(32);
  for (let i = 0; i < 3; i++) payload.loadMaybeAddress();
  payload.skip(64);
  const r = payload.loadRef().beginParse();
  r.loadCoins();
  r.loadMaybeAddress();
  r.loadCoins();
  r.loadMaybeRef();
  r.loadCoins();
  r.loadMaybeRef();
  return { dex: "v2", amountIn: amount0 + amount1, offer0: amount0 > 0n, refBps: BigInt(r.loadUint(16)) };
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
    const vault = tx.out_msgs.flatMap((m) => {
      const v = m.body_boc ? payVault(m.body_boc) : null;
      return v === null ? [] : [v];
    });
    const main = pays.find((p) => p.exit !== "swap_ok_ref");
    const referral = pays.find((p) => p.exit === "swap_ok_ref")?.amount ?? vault[0] ?? 0n;
    return [{ tx, ...sw, pays, main, referral }];
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

const D = 10000n;
const ceilFee = (base: bigint, bps: bigint) => (base * bps + D - 1n) / D;

/** Every protocol fee a (P, R, base) in the contracts' ranges gives for this output and referral fee. */
function consistentProtocolFees(out: bigint, referral: bigint, refBps: bigint | null): Set<bigint> {
  const fees = new Set<bigint>();
  const rs = refBps === null ? Array.from({ length: 100 }, (_, i) => BigInt(i + 1)) : [refBps];
  for (let p = 0n; p <= 100n; p++) {
    const from = ((out + referral) * D) / (D - p);
    for (let base = from - 1n; base <= from + 2n; base++) {
      const protocol = ceilFee(base, p);
      for (const r of rs) {
        if (ceilFee(base, r) === referral && base - protocol - referral === out) fees.add(protocol);
      }
    }
  }
  return fees;
}

const raw = (friendlyAddress: string) => Address.parse(friendlyAddress).toRawString().toUpperCase();

test("operations: wallet_tx_* is the operation wallet's transaction that started the trace, or null", async (t) => {
  let known = 0;
  let ops = 0;
  for (const trace of t.context.traces) {
    const root = rootOf(trace);
    for (const account of new Set(trace.txs.map((tx) => tx.account))) {
      const { operations } = await get(
        t,
        `/v1/wallets/${friendlyOf(account)}/operations?${WINDOW}`,
        operationsResponse,
      );
      for (const { operation: op } of operations) {
        const pool = trace.txs.find((tx) => tx.hash === op.pool_tx_hash);
        if (pool === undefined) continue; // another trace's operation of the same account
        ops++;
        const label = `${trace.name} ${account} ${op.operation_type} ${op.pool_tx_hash}`;
        t.not(op.wallet_tx_hash, op.pool_tx_hash, label);
        const wallet = raw(op.wallet_address);
        if (root.account === wallet) {
          // The start is stored: it is named.
          t.deepEqual(
            [op.wallet_tx_hash, op.wallet_tx_lt, op.wallet_tx_timestamp],
            [root.hash, root.lt, new Date(root.now * 1000).toISOString().slice(0, 19)],
            label,
          );
          known++;
          continue;
        }
        if (op.wallet_tx_hash === null) {
          t.deepEqual([op.wallet_tx_lt, op.wallet_tx_timestamp], [null, null], label);
          continue;
        }
        const started = trace.txs.find((tx) => tx.hash === op.wallet_tx_hash);
        t.truthy(started, `${label}: a transaction of the same trace`);
        t.is(started?.account, wallet, `${label}: of the operation's wallet`);
        t.is(started?.in_msg?.source, null, `${label}: processing an external message`);
        t.true(BigInt(started?.lt ?? "0") < BigInt(pool.lt), `${label}: before the pool transaction`);
      }
    }
  }
  t.true(ops >= 8, `operations checked: ${ops}`);
  t.true(known >= 6, `operations started by a stored wallet transaction: ${known}`);
});

test("operations: a value the transactions do not determine is null, never 0; what they determine is stated", async (t) => {
  const stateLts = new Map(
    (
      await t.context.store.query(
        "SELECT pool, toString(min(lt)) AS lt FROM pool_states FINAL GROUP BY pool",
        z.object({ pool: z.string(), lt: z.string() }),
      )
    ).map((r) => [r.pool, BigInt(r.lt)]),
  );
  let swaps = 0;
  let derivedFees = 0;
  for (const trace of t.context.traces) {
    const pools = poolSwaps(trace.txs);
    for (const account of new Set(trace.txs.map((tx) => tx.account))) {
      const { operations } = await get(
        t,
        `/v1/wallets/${friendlyOf(account)}/operations?${WINDOW}`,
        operationsResponse,
      );
      for (const { operation: op } of operations) {
        const pool = pools.find((p) => p.tx.hash === op.pool_tx_hash);
        if (pool === undefined || pool.main === undefined) continue;
        swaps++;
        const label = `${trace.name} ${op.pool_tx_hash}`;
        const first = stateLts.get(pool.tx.account);
        const stateKnown = first !== undefined && first <= BigInt(pool.tx.lt);
        if (!stateKnown) {
          t.deepEqual([op.asset0_reserve, op.asset1_reserve, op.lp_token_supply], [null, null, null], label);
        }
        if (pool.main.exit !== "swap_ok") {
          // A refund: the pool kept nothing and charged nothing.
          t.false(op.success, label);
          t.deepEqual(
            [op.asset0_delta, op.asset1_delta, op.lp_token_delta, op.lp_fee_amount, op.protocol_fee_amount],
            ["0", "0", "0", "0", "0"],
            label,
          );
          continue;
        }
        const out = pool.main.amount;
        const offer0 = op.asset0_amount === `${pool.amountIn}` && op.asset1_amount === `${out}`;
        t.true(offer0 || (op.asset1_amount === `${pool.amountIn}` && op.asset0_amount === `${out}`), label);
        const [offerDelta, askDelta] = offer0
          ? [op.asset0_delta, op.asset1_delta]
          : [op.asset1_delta, op.asset0_delta];
        t.is(offerDelta, `${pool.amountIn}`, `${label}: the whole input joins the offer side`);
        t.is(op.lp_token_delta, "0", label);
        t.is(op.referral_fee_amount, `${pool.referral}`, label);
        if (stateKnown) continue;
        t.is(op.lp_fee_amount, null, `${label}: the LP fee needs the reserves`);
        const fees = pool.referral > 0n ? consistentProtocolFees(out, pool.referral, pool.refBps) : new Set();
        const [fee] = fees;
        const expected = fees.size === 1 && typeof fee === "bigint" ? fee : null;
        t.is(op.protocol_fee_amount, expected === null ? null : `${expected}`, `${label}: protocol fee`);
        t.is(
          askDelta,
          expected === null ? null : `${-(out + expected + pool.referral)}`,
          `${label}: ask side`,
        );
        if (expected !== null) derivedFees++;
      }
    }
  }
  t.true(swaps >= 8, `swaps checked: ${swaps}`);
  t.true(derivedFees >= 1, `protocol fees pinned down by a referral: ${derivedFees}`);
});
