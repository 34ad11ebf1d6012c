/**
 * What a user sees for real mainnet traces (test/vectors/mainnet-traces replayed through `tondex replay`,
 * no chain access): wallet operations, transaction lookups, last transactions, wallet assets and asset
 * metadata. Every expectation comes from the protocol and the trace files, for any trace:
 * - unknown is null, never "0": without a deployment or chain access no pool state is known, so reserves,
 *   LP supply and the LP fee are null; what the operation itself determines is stated (a refund moves no
 *   reserve, a swap adds its whole input to the offer side);
 * - `wallet_tx_*` is the user's wallet transaction that started the trace (the one with the external
 *   inbound message);
 * - indexed history is findable however old; a wallet's seqno is the one its last external message
 *   carried plus one (standard wallets store seqno + 1 on accepting a message);
 * - no 503 for a deployment without chain access, and no invented metadata.
 */
import { Cell } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import { assetListResponse } from "../../schemas/api/assets.ts";
import { txQueryResponse } from "../../schemas/api/transactions.ts";
import { lastTransactionsResponse, operationsResponse } from "../../schemas/api/wallets.ts";
import { ALL_TIME, getJson, type ReplayedTraces, replayTraces, rootOf } from "../helpers/replayed-traces.ts";
import { f } from "../unit/api/harness.ts";

const test = anyTest as TestFn<ReplayedTraces>;
test.before(async (t) => {
  t.context = await replayTraces();
});
test.after.always((t) => t.context.close?.());

const TON = "EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c";
const WINDOW = ALL_TIME;

const get = getJson;

/** The seqno a standard wallet's external body carries: v5 starts with "sign", v3/v4 with the signature. */
function carriedSeqno(bodyBoc: string): number {
  const s = Cell.fromBase64(bodyBoc).beginParse();
  s.skip(s.preloadUint(32) === 0x7369676e ? 96 : 512 + 64);
  return s.loadUint(32);
}

test("every operation a trace's user sees is anchored at the user's wallet transaction; unknowns are null", async (t) => {
  const statesOf = new Map(
    (
      await t.context.store.query(
        "SELECT pool, toString(min(lt)) AS lt FROM pool_states FINAL GROUP BY pool",
        z.object({ pool: z.string(), lt: z.string() }),
      )
    ).map((r) => [f(r.pool), BigInt(r.lt)]),
  );
  let seen = 0;
  for (const trace of t.context.traces) {
    const root = rootOf(trace);
    const { operations } = await get(
      t,
      `/v1/wallets/${f(root.account)}/operations?${WINDOW}`,
      operationsResponse,
    );
    for (const { operation: op } of operations) {
      const label = `${trace.name} ${op.operation_type} ${op.pool_tx_hash}`;
      t.true(
        trace.txs.some((tx) => tx.hash === op.pool_tx_hash),
        `${label}: the operation belongs to the user's trace`,
      );
      seen++;
      t.is(op.wallet_tx_hash, root.hash, label);
      t.is(op.wallet_tx_lt, root.lt, label);
      const firstState = statesOf.get(op.pool_address);
      if (firstState === undefined || firstState > BigInt(op.pool_tx_lt)) {
        t.is(op.asset0_reserve, null, `${label}: no pool state known`);
        t.is(op.asset1_reserve, null, label);
        t.is(op.lp_token_supply, null, label);
        if (op.operation_type === "Swap" && op.success) t.is(op.lp_fee_amount, null, label);
      }
      if (op.operation_type === "Swap" && !op.success) {
        t.deepEqual([op.asset0_delta, op.asset1_delta, op.lp_token_delta], ["0", "0", "0"], label);
      }
      if (op.operation_type === "Swap" && op.success) {
        // The whole input goes to the offer side's reserve (the LP fee stays in the pool); the ask side
        // loses output + protocol fee + referral fee, unknown while the protocol fee is.
        const offer0 = op.fee_asset_address === op.asset1_address;
        t.is(offer0 ? op.asset0_delta : op.asset1_delta, offer0 ? op.asset0_amount : op.asset1_amount, label);
        if (op.protocol_fee_amount === null) t.is(offer0 ? op.asset1_delta : op.asset0_delta, null, label);
      }
    }
  }
  t.true(seen >= 5, `operations seen: ${seen}`);
});

test("indexed history is findable by external message hash however old, with the wallet's seqno", async (t) => {
  for (const trace of t.context.traces) {
    const root = rootOf(trace);
    const since = new Date(root.now * 1000).toISOString().slice(0, 19);
    for (const path of [
      `/v1/transactions/query?ext_msg_hash=${root.in_msg!.hash}`,
      `/v1/transactions/query?ext_msg_hash=${root.in_msg!.hash}&min_tx_timestamp=${since}`,
    ]) {
      const found = await get(t, path, txQueryResponse);
      t.deepEqual(
        found,
        {
          tx_id: { lt: Number(root.lt), hash: root.hash, contract_address: f(root.account) },
          wallet_seqno: carriedSeqno(root.in_msg!.body_boc) + 1,
        },
        trace.name,
      );
    }
  }
});

test("last transactions: the wallet's seqno follows its last indexed external message", async (t) => {
  for (const trace of t.context.traces) {
    const root = rootOf(trace);
    const last = await get(
      t,
      `/v1/wallets/${f(root.account)}/transactions/last?limit=50`,
      lastTransactionsResponse,
    );
    t.is(last.seqno, carriedSeqno(root.in_msg!.body_boc) + 1, trace.name);
    const own = trace.txs.filter((tx) => tx.account === root.account);
    t.deepEqual(
      last.tx_list.map((x) => x.hash).sort(),
      own.map((tx) => tx.hash).sort(),
      `${trace.name}: every stored transaction of the wallet`,
    );
  }
});

test("wallet assets answer without chain access: balances unknown (absent), never 503", async (t) => {
  for (const trace of t.context.traces) {
    const { asset_list } = await get(t, `/v1/wallets/${f(rootOf(trace).account)}/assets`, assetListResponse);
    t.true(asset_list.length > 0, trace.name);
    for (const a of asset_list) {
      t.is(a.balance, undefined, `${trace.name} ${a.contract_address}`);
      t.is(a.wallet_address, undefined, `${trace.name} ${a.contract_address}`);
    }
  }
});

test("asset metadata is never invented: without chain access a jetton's symbol and decimals are null", async (t) => {
  const { asset_list } = await get(t, "/v1/assets", assetListResponse);
  const jettons = asset_list.filter((a) => a.kind === "Jetton");
  t.true(jettons.length >= 5);
  for (const a of jettons) t.like(a, { symbol: null, decimals: null }, a.contract_address);
  t.like(
    asset_list.find((a) => a.contract_address === TON),
    { symbol: "TON", decimals: 9 },
  );
});
