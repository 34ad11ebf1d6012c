/**
 * Liquidity and vault-withdrawal flows built from codec-encoded bodies (./build.ts), each following
 * contracts.md §6 message by message (§2.7 v1 liquidity, §3.6 vault, §3.8 v2 liquidity):
 * v2 provide (both sides, single-sided, failed mint), v2 LpAccount refund, v2 burn, v2 vault withdrawal,
 * v1 provide and v1 LpAccount refund. Every operation must also match the documented JSON schema.
 */
import { beginCell, type Cell } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import { classify } from "../../../../dex/classify/index.ts";
import { operationToJson } from "../../../../dex/classify/json.ts";
import type { Operation } from "../../../../dex/classify/types.ts";
import {
  encodeJettonBurn,
  encodeJettonExcesses,
  encodeJettonInternalTransfer,
  encodeJettonTransfer,
  encodeJettonTransferNotification,
  encodeStonfiV1AddLiquidity,
  encodeStonfiV1CbAddLiquidity,
  encodeStonfiV1CbRefundMe,
  encodeStonfiV1PayTo,
  encodeStonfiV1ProvideLp,
  encodeStonfiV1ProvideLpPayload,
  encodeStonfiV1RefundMe,
  encodeStonfiV2AddLiquidity,
  encodeStonfiV2BurnNotificationExt,
  encodeStonfiV2CbAddLiquidity,
  encodeStonfiV2CbRefundMe,
  encodeStonfiV2PayTo,
  encodeStonfiV2ProvideLp,
  encodeStonfiV2ProvideLpPayload,
  encodeStonfiV2RefundMe,
  encodeStonfiV2VaultPayTo,
  encodeStonfiV2VaultWithdrawFee,
} from "../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE } from "../../../../dex/exit-codes.ts";
import { operationJson } from "../../../../schemas/operations.ts";
import type { RawMessage, RawTransaction } from "../../../../schemas/raw-transaction.ts";
import { addr, msg, rawAddr, tx } from "./build.ts";

const USER = 1;
const USER_WALLET_A = 2;
const ROUTER = 3;
const W_A = 4; // router's wallet of token0
const W_B = 5; // router's wallet of token1
const POOL = 7;
const USER_WALLET_B = 10;
const LP_ACCOUNT = 11; // LpAccount of (USER, POOL)
const USER_LP_WALLET = 12;
const RECEIVER = 14;
const RECEIVER_LP_WALLET = 15;
const VAULT = 16;
const REFERRER = 17;
const REFERRER_WALLET_A = 18;
const CALLER = 19;

const QID = 77n;
const NONE = beginCell().endCell();

// ----- generic jetton legs -----

function transfer(amount: bigint, to: number, response: number, payload: { inRef: boolean; payload: Cell }) {
  return encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: QID,
    amount,
    destination: addr(to),
    responseDestination: addr(response),
    customPayload: null,
    forwardTonAmount: payload.payload.bits.length > 0 && payload.inRef ? 1n : 0n,
    forwardPayload: payload,
  });
}

function internal(
  amount: bigint,
  from: number,
  response: number | null,
  payload: { inRef: boolean; payload: Cell },
) {
  return encodeJettonInternalTransfer({
    kind: "jetton.internal_transfer",
    queryId: QID,
    amount,
    from: addr(from),
    responseAddress: response === null ? null : addr(response),
    forwardTonAmount: payload.payload.bits.length > 0 && payload.inRef ? 1n : 0n,
    forwardPayload: payload,
  });
}

const excesses = () => encodeJettonExcesses({ kind: "jetton.excesses", queryId: QID });

/** user → own jetton wallet `transfer` → router wallet `internal_transfer` → router `transfer_notification`. */
function entry(userWallet: number, routerWallet: number, amount: bigint, payload: Cell, lt: bigint) {
  const fwd = { inRef: true, payload };
  const m1 = msg({ from: USER, to: userWallet, body: transfer(amount, ROUTER, USER, fwd) });
  const m2 = msg({ from: userWallet, to: routerWallet, body: internal(amount, USER, USER, fwd) });
  const m3 = msg({
    from: routerWallet,
    to: ROUTER,
    body: encodeJettonTransferNotification({
      kind: "jetton.transfer_notification",
      queryId: QID,
      amount,
      sender: addr(USER),
      forwardPayload: fwd,
    }),
  });
  return {
    notification: m3,
    txs: [
      tx({ account: userWallet, lt, in: m1, outs: [m2] }),
      tx({ account: routerWallet, lt: lt + 1n, in: m2, outs: [m3] }),
    ],
  };
}

/**
 * A payout the router executes: router `transfer` to its wallet → `internal_transfer` to the owner's wallet.
 * `forward` is what the router appends: v1 an inline exit code, v2 nothing (bit 0).
 */
function payout(
  request: RawMessage,
  routerWallet: number,
  ownerWallet: number,
  owner: number,
  amount: bigint,
  lt: bigint,
  forward: Cell = NONE,
): RawTransaction[] {
  const fwd = { inRef: false, payload: forward };
  const t = msg({ from: ROUTER, to: routerWallet, body: transfer(amount, owner, owner, fwd) });
  const c = msg({ from: routerWallet, to: ownerWallet, body: internal(amount, ROUTER, owner, fwd) });
  return [
    tx({ account: ROUTER, lt, in: request, outs: [t] }),
    tx({ account: routerWallet, lt: lt + 1n, in: t, outs: [c] }),
    tx({ account: ownerWallet, lt: lt + 2n, in: c }),
  ];
}

function v2PayTo(exitCode: number, amount0: bigint, amount1: bigint) {
  return encodeStonfiV2PayTo({
    kind: "stonfi.v2.pay_to",
    queryId: QID,
    toAddress: addr(USER),
    excessesAddress: addr(USER),
    originalCaller: addr(USER),
    exitCode,
    customPayload: null,
    fwdTonAmount: 0n,
    amount0Out: amount0,
    token0: addr(W_A),
    amount1Out: amount1,
    token1: addr(W_B),
  });
}

// ----- v2 provide (§3.4, §3.6, §3.8) -----

type V2Side = {
  side: 0 | 1;
  amount: bigint;
  minLpOut: bigint;
  bothPositive: boolean;
  lt: bigint;
};

/** One side of a v2 provide up to the pool's `add_liquidity` to the LpAccount (not yet consumed). */
function v2ProvideSide(s: V2Side) {
  const [userWallet, routerWallet, other] =
    s.side === 0 ? [USER_WALLET_A, W_A, W_B] : [USER_WALLET_B, W_B, W_A];
  const payload = encodeStonfiV2ProvideLpPayload({
    kind: "stonfi.v2.provide_lp_payload",
    tokenWallet1: addr(other),
    refundAddress: addr(USER),
    excessesAddress: addr(USER),
    txDeadline: 2_000_000_000n,
    minLpOut: s.minLpOut,
    receiver: addr(RECEIVER),
    bothPositive: s.bothPositive,
    fwdGas: 0n,
    customPayload: null,
  });
  const { notification, txs } = entry(userWallet, routerWallet, s.amount, payload, s.lt);
  const [amount0, amount1] = s.side === 0 ? [s.amount, 0n] : [0n, s.amount];
  const provide = msg({
    from: ROUTER,
    to: POOL,
    body: encodeStonfiV2ProvideLp({
      kind: "stonfi.v2.provide_lp",
      queryId: QID,
      fromUser: addr(USER),
      amount0,
      amount1,
      dexPayload: payload,
    }),
  });
  const add = msg({
    from: POOL,
    to: LP_ACCOUNT,
    body: encodeStonfiV2AddLiquidity({
      kind: "stonfi.v2.add_liquidity",
      queryId: QID,
      newAmount0: amount0,
      newAmount1: amount1,
      minLpOut: s.minLpOut,
      fwdAmount: 0n,
      bothPositive: s.bothPositive,
      toUser: addr(RECEIVER),
      customPayload: null,
      refundAddress: addr(USER),
      excessAddress: addr(USER),
    }),
  });
  return {
    add,
    txs: [
      ...txs,
      tx({ account: ROUTER, lt: s.lt + 2n, in: notification, outs: [provide] }),
      tx({ account: POOL, lt: s.lt + 3n, in: provide, outs: [add] }),
    ],
  };
}

/** The LpAccount keeps the deposit: `excesses` to the excess address. */
function lpAccountStores(add: RawMessage, lt: bigint): RawTransaction {
  return tx({
    account: LP_ACCOUNT,
    lt,
    in: add,
    outs: [msg({ from: LP_ACCOUNT, to: USER, body: excesses() })],
  });
}

/** The LpAccount forwards its whole balance: `cb_add_liquidity` to the pool. */
function v2CbAddLiquidity(totAm0: bigint, totAm1: bigint, minLpOut: bigint) {
  return msg({
    from: LP_ACCOUNT,
    to: POOL,
    body: encodeStonfiV2CbAddLiquidity({
      kind: "stonfi.v2.cb_add_liquidity",
      queryId: QID,
      totAm0,
      totAm1,
      user: addr(USER),
      minLpOut,
      fwdAmount: 0n,
      customPayload: null,
      toUser: addr(RECEIVER),
      refundAddress: addr(USER),
      excessAddress: addr(USER),
    }),
  });
}

/** Pool mints to the receiver's LP wallet (`internal_transfer`, from = user, response = excess address). */
function v2Mint(cb: RawMessage, lp: bigint, lt: bigint): RawTransaction[] {
  const mint = msg({
    from: POOL,
    to: RECEIVER_LP_WALLET,
    body: internal(lp, USER, USER, { inRef: false, payload: NONE }),
  });
  const back = msg({ from: RECEIVER_LP_WALLET, to: USER, body: excesses() });
  return [
    tx({ account: POOL, lt, in: cb, outs: [mint] }),
    tx({ account: RECEIVER_LP_WALLET, lt: lt + 1n, in: mint, outs: [back] }),
  ];
}

// ----- helpers for the assertions -----

const ofType = <T extends Operation["type"]>(ops: Operation[], type: T) =>
  ops.filter((o): o is Extract<Operation, { type: T }> => o.type === type);

/** Classifies, checks every operation against the documented schema and that nothing is left unexplained. */
function run(t: ExecutionContext, txs: RawTransaction[]): Operation[] {
  const ops = classify(txs);
  for (const op of ops) {
    const parsed = operationJson.safeParse(operationToJson(op));
    t.true(parsed.success, `${op.id}: ${parsed.error?.message}`);
  }
  t.deepEqual(
    ops.filter((o) => o.type === "unknown" || o.type === "malformed"),
    [],
  );
  t.deepEqual(classify([...txs].reverse()), ops);
  return ops;
}

const jetton = (wallet: number) => ({ kind: "jetton", master: null, router_wallet: rawAddr(wallet) });

// ----- tests -----

test("v2 provide of both sides: two deposits into one LpAccount, the second mints", (t) => {
  const a = v2ProvideSide({ side: 0, amount: 1000n, minLpOut: 1n, bothPositive: true, lt: 10n });
  const b = v2ProvideSide({ side: 1, amount: 2000n, minLpOut: 1n, bothPositive: true, lt: 20n });
  const cb = v2CbAddLiquidity(1000n, 2000n, 1n);
  const ops = run(t, [
    ...a.txs,
    lpAccountStores(a.add, 14n),
    ...b.txs,
    tx({ account: LP_ACCOUNT, lt: 24n, in: b.add, outs: [cb] }),
    ...v2Mint(cb, 1414n, 25n),
  ]);
  const provides = ofType(ops, "liquidity_provide");
  t.is(provides.length, 2);
  const [pa, pb] = provides;
  for (const [p, amount0, amount1] of [
    [pa!, 1000n, 0n],
    [pb!, 0n, 2000n],
  ] as const) {
    t.is(p.dex, "v2");
    t.is(p.router, rawAddr(ROUTER));
    t.is(p.pool, rawAddr(POOL));
    t.is(p.sender, rawAddr(USER));
    t.is(p.lp_account, rawAddr(LP_ACCOUNT));
    t.is(p.amount0, amount0);
    t.is(p.amount1, amount1);
    t.deepEqual(p.asset0, jetton(W_A));
    t.deepEqual(p.asset1, jetton(W_B));
    t.is(p.min_lp_out, 1n);
    t.is(p.query_id, QID);
    t.is(p.exit_code, null);
    t.is(p.exit_name, "ok");
    t.is(p.success, true);
    // side A waited in the LpAccount; side B's cb_add_liquidity carried both, and the pool minted
    t.is(p.outcome, "minted");
  }
  const mints = ofType(ops, "liquidity_mint");
  t.is(mints.length, 1);
  const m = mints[0]!;
  t.is(m.dex, "v2");
  t.is(m.pool, rawAddr(POOL));
  t.is(m.user, rawAddr(USER));
  t.is(m.receiver, rawAddr(RECEIVER));
  t.is(m.amount0, 1000n);
  t.is(m.amount1, 2000n);
  t.is(m.lp_amount, 1414n);
  t.is(m.query_id, QID);
  t.is(m.success, true);
  t.is(m.lt, 25n);
});

test("v2 provide waiting for the other side is stored in the LpAccount", (t) => {
  const a = v2ProvideSide({ side: 0, amount: 1000n, minLpOut: 1n, bothPositive: true, lt: 10n });
  const ops = run(t, [...a.txs, lpAccountStores(a.add, 14n)]);
  const [p] = ofType(ops, "liquidity_provide");
  t.is(p!.success, true);
  t.is(p!.outcome, "stored");
  t.deepEqual(ofType(ops, "liquidity_mint"), []);
});

test("v2 single-sided provide (both_positive = 0) mints at once", (t) => {
  const a = v2ProvideSide({ side: 1, amount: 5000n, minLpOut: 10n, bothPositive: false, lt: 10n });
  const cb = v2CbAddLiquidity(0n, 5000n, 10n);
  const ops = run(t, [
    ...a.txs,
    tx({ account: LP_ACCOUNT, lt: 14n, in: a.add, outs: [cb] }),
    ...v2Mint(cb, 2400n, 15n),
  ]);
  const [p, ...more] = ofType(ops, "liquidity_provide");
  t.is(more.length, 0);
  t.is(p!.amount0, 0n);
  t.is(p!.amount1, 5000n);
  t.deepEqual(p!.asset0, jetton(W_A));
  t.deepEqual(p!.asset1, jetton(W_B));
  t.is(p!.min_lp_out, 10n);
  t.is(p!.success, true);
  t.is(p!.outcome, "minted");
  const [m, ...moreMints] = ofType(ops, "liquidity_mint");
  t.is(moreMints.length, 0);
  t.is(m!.amount0, 0n);
  t.is(m!.amount1, 5000n);
  t.is(m!.lp_amount, 2400n);
  t.is(m!.receiver, rawAddr(RECEIVER));
  t.is(m!.success, true);
});

test("v2 failed mint: the pool returns the deposit with add_liquidity(min_lp_out 0) to the LpAccount", (t) => {
  const a = v2ProvideSide({ side: 0, amount: 3000n, minLpOut: 10n ** 12n, bothPositive: false, lt: 10n });
  const cb = v2CbAddLiquidity(3000n, 0n, 10n ** 12n);
  // §3.8: add_liquidity(tot_am0, tot_am1, min_lp_out 0, fwd 0, both_positive 1, to_user addr_none,
  // no payload, ^[refund addr_none, excess_address]) to the LpAccount of refund_address (= USER here)
  const back = msg({
    from: POOL,
    to: LP_ACCOUNT,
    body: encodeStonfiV2AddLiquidity({
      kind: "stonfi.v2.add_liquidity",
      queryId: QID,
      newAmount0: 3000n,
      newAmount1: 0n,
      minLpOut: 0n,
      fwdAmount: 0n,
      bothPositive: true,
      toUser: null,
      customPayload: null,
      refundAddress: null,
      excessAddress: addr(USER),
    }),
  });
  const ops = run(t, [
    ...a.txs,
    tx({ account: LP_ACCOUNT, lt: 14n, in: a.add, outs: [cb] }),
    tx({ account: POOL, lt: 15n, in: cb, outs: [back] }),
    lpAccountStores(back, 16n),
  ]);
  const [m, ...moreMints] = ofType(ops, "liquidity_mint");
  t.is(moreMints.length, 0);
  t.is(m!.lp_amount, null);
  t.is(m!.success, false);
  t.is(m!.amount0, 3000n);
  t.is(m!.amount1, 0n);
  t.is(m!.receiver, rawAddr(RECEIVER));
  const [p] = ofType(ops, "liquidity_provide");
  t.is(p!.success, true); // the deposit reached the LpAccount ...
  t.is(p!.outcome, "mint_failed"); // ... but no LP was minted; it is a refundable LpAccount balance again
  t.is(p!.amount0, 3000n);
});

test("v2 LpAccount refund: one pay_to(refund_ok) per non-zero side, both paid out", (t) => {
  const refundMe = msg({
    from: USER,
    to: LP_ACCOUNT,
    body: encodeStonfiV2RefundMe({
      kind: "stonfi.v2.refund_me",
      queryId: QID,
      leftPayload: null,
      rightPayload: null,
    }),
  });
  const cbRefund = msg({
    from: LP_ACCOUNT,
    to: POOL,
    body: encodeStonfiV2CbRefundMe({
      kind: "stonfi.v2.cb_refund_me",
      queryId: QID,
      totAm0: 300n,
      totAm1: 700n,
      user: addr(USER),
      leftPayload: null,
      rightPayload: null,
    }),
  });
  const pay0 = msg({ from: POOL, to: ROUTER, body: v2PayTo(STONFI_EXIT_CODE.refund_ok, 300n, 0n) });
  const pay1 = msg({ from: POOL, to: ROUTER, body: v2PayTo(STONFI_EXIT_CODE.refund_ok, 0n, 700n) });
  const ops = run(t, [
    tx({ account: LP_ACCOUNT, lt: 10n, in: refundMe, outs: [cbRefund] }),
    tx({ account: POOL, lt: 11n, in: cbRefund, outs: [pay0, pay1] }),
    ...payout(pay0, W_A, USER_WALLET_A, USER, 300n, 12n),
    ...payout(pay1, W_B, USER_WALLET_B, USER, 700n, 12n),
  ]);
  const [w, ...more] = ofType(ops, "liquidity_withdraw");
  t.is(more.length, 0);
  t.is(w!.dex, "v2");
  t.is(w!.kind, "lp_refund");
  t.is(w!.pool, rawAddr(POOL));
  t.is(w!.owner, rawAddr(USER));
  t.is(w!.lp_amount, null);
  t.is(w!.amount0, 300n);
  t.is(w!.amount1, 700n);
  t.deepEqual(w!.asset0, jetton(W_A));
  t.deepEqual(w!.asset1, jetton(W_B));
  t.is(w!.query_id, QID);
  t.is(w!.success, true);
});

test("v2 burn: burn → burn_notification_ext → two pay_to(burn_ok)", (t) => {
  const burn = msg({
    from: USER,
    to: USER_LP_WALLET,
    body: encodeJettonBurn({
      kind: "jetton.burn",
      queryId: QID,
      amount: 50n,
      responseDestination: null,
      customPayload: null,
    }),
  });
  const note = msg({
    from: USER_LP_WALLET,
    to: POOL,
    body: encodeStonfiV2BurnNotificationExt({
      kind: "stonfi.v2.burn_notification_ext",
      queryId: QID,
      amount: 50n,
      from: addr(USER),
      responseAddress: null,
      customPayload: null,
    }),
  });
  const pay0 = msg({ from: POOL, to: ROUTER, body: v2PayTo(STONFI_EXIT_CODE.burn_ok, 11n, 0n) });
  const pay1 = msg({ from: POOL, to: ROUTER, body: v2PayTo(STONFI_EXIT_CODE.burn_ok, 0n, 22n) });
  const ops = run(t, [
    tx({ account: USER_LP_WALLET, lt: 10n, in: burn, outs: [note] }),
    tx({ account: POOL, lt: 11n, in: note, outs: [pay0, pay1] }),
    ...payout(pay0, W_A, USER_WALLET_A, USER, 11n, 12n),
    ...payout(pay1, W_B, USER_WALLET_B, USER, 22n, 12n),
  ]);
  const [w, ...more] = ofType(ops, "liquidity_withdraw");
  t.is(more.length, 0);
  t.is(w!.dex, "v2");
  t.is(w!.kind, "burn");
  t.is(w!.owner, rawAddr(USER));
  t.is(w!.lp_amount, 50n);
  t.is(w!.amount0, 11n);
  t.is(w!.amount1, 22n);
  t.deepEqual(w!.asset0, jetton(W_A));
  t.deepEqual(w!.asset1, jetton(W_B));
  t.is(w!.success, true);
  t.is(w!.lt, 11n);
});

test("v2 vault withdrawal: withdraw_fee → vault_pay_to → router transfer to the owner", (t) => {
  const withdraw = msg({
    from: CALLER,
    to: VAULT,
    body: encodeStonfiV2VaultWithdrawFee({ kind: "stonfi.v2.vault.withdraw_fee", queryId: QID }),
  });
  const payTo = msg({
    from: VAULT,
    to: ROUTER,
    body: encodeStonfiV2VaultPayTo({
      kind: "stonfi.v2.vault.vault_pay_to",
      queryId: QID,
      amountOut: 123n,
      token: addr(W_A),
      to: addr(REFERRER),
    }),
  });
  const ops = run(t, [
    tx({ account: VAULT, lt: 10n, in: withdraw, outs: [payTo] }),
    ...payout(payTo, W_A, REFERRER_WALLET_A, REFERRER, 123n, 11n),
  ]);
  const [v, ...more] = ofType(ops, "vault_withdrawal");
  t.is(more.length, 0);
  t.is(v!.dex, "v2");
  t.is(v!.router, rawAddr(ROUTER));
  t.is(v!.vault, rawAddr(VAULT));
  t.is(v!.owner, rawAddr(REFERRER));
  t.deepEqual(v!.asset, jetton(W_A));
  t.is(v!.amount, 123n);
  t.is(v!.query_id, QID);
  t.is(v!.success, true);
  t.is(v!.payout?.receiver_wallet, rawAddr(REFERRER_WALLET_A));
  t.is(v!.payout?.delivered, true);
  t.is(v!.tx_hashes.length, 4);
});

test("v1 provide: payload → pool provide_lp → add_liquidity → cb_add_liquidity → mint", (t) => {
  const payload = encodeStonfiV1ProvideLpPayload({
    kind: "stonfi.v1.provide_lp_payload",
    tokenWallet1: addr(W_A),
    minLpOut: 1n,
  });
  // side 1 (token1 = W_B); the LpAccount already holds 4000 of token0 from an earlier deposit
  const { notification, txs } = entry(USER_WALLET_B, W_B, 6000n, payload, 10n);
  const provide = msg({
    from: ROUTER,
    to: POOL,
    body: encodeStonfiV1ProvideLp({
      kind: "stonfi.v1.provide_lp",
      queryId: QID,
      owner: addr(USER),
      minLpOut: 1n,
      amount0: 0n,
      amount1: 6000n,
    }),
  });
  const add = msg({
    from: POOL,
    to: LP_ACCOUNT,
    body: encodeStonfiV1AddLiquidity({
      kind: "stonfi.v1.add_liquidity",
      queryId: QID,
      newAmount0: 0n,
      newAmount1: 6000n,
      minLpOut: 1n,
    }),
  });
  const cb = msg({
    from: LP_ACCOUNT,
    to: POOL,
    body: encodeStonfiV1CbAddLiquidity({
      kind: "stonfi.v1.cb_add_liquidity",
      queryId: QID,
      totAm0: 4000n,
      totAm1: 6000n,
      user: addr(USER),
      minLpOut: 1n,
    }),
  });
  // §2.7: mint = internal_transfer from = pool, response = user; the LP wallet returns excesses
  const mint = msg({
    from: POOL,
    to: USER_LP_WALLET,
    body: internal(4898n, POOL, USER, { inRef: false, payload: NONE }),
  });
  const back = msg({ from: USER_LP_WALLET, to: USER, body: excesses() });
  const ops = run(t, [
    ...txs,
    tx({ account: ROUTER, lt: 12n, in: notification, outs: [provide] }),
    tx({ account: POOL, lt: 13n, in: provide, outs: [add] }),
    tx({ account: LP_ACCOUNT, lt: 14n, in: add, outs: [cb] }),
    tx({ account: POOL, lt: 15n, in: cb, outs: [mint] }),
    tx({ account: USER_LP_WALLET, lt: 16n, in: mint, outs: [back] }),
  ]);
  const [p, ...more] = ofType(ops, "liquidity_provide");
  t.is(more.length, 0);
  t.is(p!.dex, "v1");
  t.is(p!.router, rawAddr(ROUTER));
  t.is(p!.sender, rawAddr(USER));
  t.is(p!.lp_account, rawAddr(LP_ACCOUNT));
  t.is(p!.amount0, 0n);
  t.is(p!.amount1, 6000n);
  t.deepEqual(p!.asset0, jetton(W_A));
  t.deepEqual(p!.asset1, jetton(W_B));
  t.is(p!.min_lp_out, 1n);
  t.is(p!.success, true);
  t.is(p!.outcome, "minted");
  const [m, ...moreMints] = ofType(ops, "liquidity_mint");
  t.is(moreMints.length, 0);
  t.is(m!.dex, "v1");
  t.is(m!.user, rawAddr(USER));
  t.is(m!.receiver, rawAddr(USER));
  t.is(m!.amount0, 4000n);
  t.is(m!.amount1, 6000n);
  t.is(m!.lp_amount, 4898n);
  t.is(m!.success, true);
});

test("v1 LpAccount refund: refund_me → cb_refund_me → one pay_to(refund_ok) with both amounts", (t) => {
  const refundMe = msg({
    from: USER,
    to: LP_ACCOUNT,
    body: encodeStonfiV1RefundMe({ kind: "stonfi.v1.refund_me", queryId: QID }),
  });
  const cbRefund = msg({
    from: LP_ACCOUNT,
    to: POOL,
    body: encodeStonfiV1CbRefundMe({
      kind: "stonfi.v1.cb_refund_me",
      queryId: QID,
      totAm0: 1500n,
      totAm1: 2500n,
      user: addr(USER),
    }),
  });
  const pay = msg({
    from: POOL,
    to: ROUTER,
    body: encodeStonfiV1PayTo({
      kind: "stonfi.v1.pay_to",
      queryId: QID,
      owner: addr(USER),
      exitCode: STONFI_EXIT_CODE.refund_ok,
      amount0Out: 1500n,
      token0: addr(W_A),
      amount1Out: 2500n,
      token1: addr(W_B),
    }),
  });
  // §2.6: the v1 router sends one transfer per non-zero amount, each with the inline exit code
  const code = beginCell().storeUint(STONFI_EXIT_CODE.refund_ok, 32).endCell();
  const fwd = { inRef: false, payload: code };
  const t0 = msg({ from: ROUTER, to: W_A, body: transfer(1500n, USER, USER, fwd) });
  const t1 = msg({ from: ROUTER, to: W_B, body: transfer(2500n, USER, USER, fwd) });
  const c0 = msg({ from: W_A, to: USER_WALLET_A, body: internal(1500n, ROUTER, USER, fwd) });
  const c1 = msg({ from: W_B, to: USER_WALLET_B, body: internal(2500n, ROUTER, USER, fwd) });
  const ops = run(t, [
    tx({ account: LP_ACCOUNT, lt: 10n, in: refundMe, outs: [cbRefund] }),
    tx({ account: POOL, lt: 11n, in: cbRefund, outs: [pay] }),
    tx({ account: ROUTER, lt: 12n, in: pay, outs: [t0, t1] }),
    tx({ account: W_A, lt: 13n, in: t0, outs: [c0] }),
    tx({ account: W_B, lt: 13n, in: t1, outs: [c1] }),
    tx({ account: USER_WALLET_A, lt: 14n, in: c0 }),
    tx({ account: USER_WALLET_B, lt: 14n, in: c1 }),
  ]);
  const [w, ...more] = ofType(ops, "liquidity_withdraw");
  t.is(more.length, 0);
  t.is(w!.dex, "v1");
  t.is(w!.kind, "lp_refund");
  t.is(w!.owner, rawAddr(USER));
  t.is(w!.lp_amount, null);
  t.is(w!.amount0, 1500n);
  t.is(w!.amount1, 2500n);
  t.deepEqual(w!.asset0, jetton(W_A));
  t.deepEqual(w!.asset1, jetton(W_B));
  t.is(w!.success, true);
});

test("a v2 deposit refunded later from the LpAccount is shown as refunded", (t) => {
  const a = v2ProvideSide({ side: 0, amount: 1000n, minLpOut: 1n, bothPositive: true, lt: 10n });
  const refundMe = msg({
    from: USER,
    to: LP_ACCOUNT,
    body: encodeStonfiV2RefundMe({
      kind: "stonfi.v2.refund_me",
      queryId: QID,
      leftPayload: null,
      rightPayload: null,
    }),
  });
  const cbRefund = msg({
    from: LP_ACCOUNT,
    to: POOL,
    body: encodeStonfiV2CbRefundMe({
      kind: "stonfi.v2.cb_refund_me",
      queryId: QID,
      totAm0: 1000n,
      totAm1: 0n,
      user: addr(USER),
      leftPayload: null,
      rightPayload: null,
    }),
  });
  const pay0 = msg({ from: POOL, to: ROUTER, body: v2PayTo(STONFI_EXIT_CODE.refund_ok, 1000n, 0n) });
  const ops = run(t, [
    ...a.txs,
    lpAccountStores(a.add, 14n),
    tx({ account: LP_ACCOUNT, lt: 30n, in: refundMe, outs: [cbRefund] }),
    tx({ account: POOL, lt: 31n, in: cbRefund, outs: [pay0] }),
    ...payout(pay0, W_A, USER_WALLET_A, USER, 1000n, 32n),
  ]);
  const [p] = ofType(ops, "liquidity_provide");
  t.is(p!.outcome, "refunded");
  const [w] = ofType(ops, "liquidity_withdraw");
  t.is(w!.amount0, 1000n);
  t.is(w!.amount1, 0n);
  t.is(w!.success, true);
});

test("a v1 first deposit is minted to addr_none's LP wallet: locked, no receiver", (t) => {
  const LOCKED_LP_WALLET = 20;
  const cb = msg({
    from: LP_ACCOUNT,
    to: POOL,
    body: encodeStonfiV1CbAddLiquidity({
      kind: "stonfi.v1.cb_add_liquidity",
      queryId: QID,
      totAm0: 4_000_000n,
      totAm1: 9_000_000n,
      user: addr(USER),
      minLpOut: 1n,
    }),
  });
  // §2.9: liquidity = floor(isqrt(4e6 · 9e6) / 1000) = 6000, minted with response_address = addr_none
  const mint = msg({
    from: POOL,
    to: LOCKED_LP_WALLET,
    body: internal(6000n, POOL, null, { inRef: false, payload: NONE }),
  });
  const ops = run(t, [
    tx({ account: POOL, lt: 10n, in: cb, outs: [mint] }),
    tx({ account: LOCKED_LP_WALLET, lt: 11n, in: mint }),
  ]);
  const [m] = ofType(ops, "liquidity_mint");
  t.is(m!.dex, "v1");
  t.is(m!.user, rawAddr(USER));
  t.is(m!.receiver, null);
  t.is(m!.lp_amount, 6000n);
  t.is(m!.success, true);
});
