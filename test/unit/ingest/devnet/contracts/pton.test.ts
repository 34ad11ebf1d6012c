/**
 * The devnet pTON v1 and v2.1 minters and wallets on the real devnet chain. User messages are built with the
 * real `@ston-fi/sdk` pTON classes (opened on the devnet through `openOnChain`), the router is a devnet
 * wallet that owns its pTON wallet, and values are asserted to the nanoton under the flat fee model
 * (compute 0.004 TON per transaction, 0.001 TON per message).
 */
import { pTON } from "@ston-fi/sdk";
import { Address, beginCell, Cell, type TupleItem, TupleReader } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import {
  type Decoded,
  type DecodeHint,
  decodeBody,
  type EitherPayload,
  encodeJettonTransfer,
  encodePtonV2TonTransfer,
} from "../../../../../dex/codecs/index.ts";
import {
  Chain,
  CodeRegistry,
  openOnChain,
  registerWallet,
  stateOf,
  type Transfer,
  walletHandler,
  walletInit,
  walletTransferBody,
} from "../../../../../ingest/devnet/chain/index.ts";
import { parseJettonMetadata } from "../../../../../ingest/devnet/contracts/jetton/index.ts";
import {
  PTON_V1_WALLET_CODE,
  PTON_V2_EXIT,
  PTON_V2_WALLET_CODE,
  ptonV1MinterInit,
  ptonV1WalletAddress,
  ptonV1WalletInit,
  ptonV2MinterInit,
  ptonV2WalletAddress,
  ptonV2WalletInit,
  registerPton,
} from "../../../../../ingest/devnet/contracts/pton/index.ts";
import type { RawMessage, RawTransaction } from "../../../../../schemas/raw-transaction.ts";

const TON = 1_000_000_000n;
const MILLI = TON / 1000n;
const PTON_META = { symbol: "pTON", name: "Proxy TON", decimals: 9 };
const swapPayload = beginCell().storeUint(0x25938561, 32).storeUint(1, 8).endCell();
const refPayload: EitherPayload = { inRef: true, payload: swapPayload };
/** v1 router payouts end with bit 0 + the 32-bit exit code (contracts.md §2.11). */
const exitPayload: EitherPayload = { inRef: false, payload: beginCell().storeUint(0xc64370e5, 32).endCell() };

function setup() {
  const chain = new Chain({ registry: registerPton(registerWallet(new CodeRegistry())) });
  const router = chain.deployGenesis(walletInit(1n), 100n * TON);
  const user = chain.deployGenesis(walletInit(2n), 100n * TON);
  const carol = chain.deployGenesis(walletInit(3n), 100n * TON);
  const minter1 = chain.deployGenesis(ptonV1MinterInit(), TON);
  const minter2 = chain.deployGenesis(ptonV2MinterInit(), TON);
  // Routers get their pTON wallets at genesis, as a zerostate would hold them.
  const wallet1 = chain.deployGenesis(ptonV1WalletInit(router, minter1), TON);
  const wallet2 = chain.deployGenesis(ptonV2WalletInit(router, minter2), TON);
  const send = (from: Address, transfers: Transfer[]): RawTransaction[] => {
    const { seqno } = stateOf(chain.account(from)!.contract!, walletHandler);
    chain.sendExternal(from, walletTransferBody(seqno, 0xffffffff, transfers));
    const txs: RawTransaction[] = [];
    while (chain.pending > 0) txs.push(...chain.produceBlock().transactions);
    return txs;
  };
  const get = (address: Address, method: string, args: TupleItem[] = []): TupleReader => {
    const { exitCode, stack } = chain.runGetMethod(address, method, args);
    if (exitCode !== 0) throw new Error(`${method} exited ${exitCode}`);
    return new TupleReader(stack);
  };
  const tokenized = (wallet: Address): bigint => get(wallet, "get_wallet_data").readBigNumber();
  const tonOf = (a: Address): bigint => chain.account(a)?.balance ?? 0n;
  const sdk1 = openOnChain(chain, new pTON.v1(minter1));
  const sdk2 = openOnChain(chain, new pTON.v2_1(minter2));
  return {
    chain,
    router,
    user,
    carol,
    minter1,
    minter2,
    wallet1,
    wallet2,
    send,
    get,
    tokenized,
    tonOf,
    sdk1,
    sdk2,
  };
}
type Setup = ReturnType<typeof setup>;

const on = (txs: RawTransaction[], address: Address): RawTransaction[] =>
  txs.filter((tx) => tx.account === address.toRawString().toUpperCase());
const only = (txs: RawTransaction[], address: Address): RawTransaction => {
  const found = on(txs, address);
  if (found.length !== 1) throw new Error(`expected one tx on ${address.toRawString()}, got ${found.length}`);
  return found[0]!;
};
const raw = (a: Address): string => a.toRawString().toUpperCase();
const ok = (tx: RawTransaction) => ({
  success: tx.compute.success,
  exit: tx.compute.exit_code,
  aborted: tx.aborted,
});
const SUCCESS = { success: true, exit: 0, aborted: false };

function plain(x: unknown): unknown {
  if (Address.isAddress(x)) return `addr:${x.toRawString()}`;
  if (x instanceof Cell) return `cell:${x.hash().toString("hex")}`;
  if (Array.isArray(x)) return x.map(plain);
  if (x !== null && typeof x === "object") {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  }
  return x;
}
const decoded = (m: RawMessage, hint: DecodeHint = {}) =>
  plain(decodeBody(Cell.fromBase64(m.body_boc), hint));
/** Asserts that a message body decodes (dex/codecs `decodeBody`) to exactly `expected`. */
const same = (t: ExecutionContext, m: RawMessage, expected: Decoded, hint: DecodeHint = {}) =>
  t.deepEqual(decoded(m, hint), plain(expected));

function tonOutBody(s: Setup, amount: bigint, response: Address | null, forwardTonAmount = 0n): Cell {
  return encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: 21n,
    amount,
    destination: s.user,
    responseDestination: response,
    customPayload: null,
    forwardTonAmount,
    forwardPayload: exitPayload,
  });
}

// ---- pTON v1 ------------------------------------------------------------------------------------------

test("v1: the SDK derives the router's pTON wallet and reads jetton data through the devnet", async (t) => {
  const s = setup();
  const address = await s.sdk1.getWalletAddress(s.router);
  t.true(address.equals(ptonV1WalletAddress(s.router, s.minter1)));
  t.true(address.equals(s.wallet1));
  const data = await s.sdk1.getJettonData();
  t.is(data.totalSupply, 0n);
  t.true(data.canIncSupply);
  t.is(data.adminAddress, null);
  t.deepEqual(parseJettonMetadata(data.contentRaw), PTON_META);
  t.true(data.jettonWalletCode.equals(PTON_V1_WALLET_CODE));
  const wallet = s.get(s.wallet1, "get_wallet_data");
  t.is(wallet.readBigNumber(), 0n);
  t.true(wallet.readAddress().equals(s.router));
  t.true(wallet.readAddress().equals(s.minter1));
  t.true(wallet.readCell().equals(PTON_V1_WALLET_CODE));
  t.is(wallet.remaining, 0);
});

async function tonInV1(s: Setup, tonAmount: bigint) {
  const params = await s.sdk1.getTonTransferTxParams({
    queryId: 5,
    tonAmount,
    destinationAddress: s.router,
    refundAddress: s.user,
    forwardPayload: swapPayload,
    forwardTonAmount: 185n * MILLI,
  });
  return { params, txs: s.send(s.user, [{ to: params.to, value: params.value, body: params.body! }]) };
}

test("v1 TON in: transfer straight to the router's pTON wallet → transfer_notification to the router", async (t) => {
  const s = setup();
  const { params, txs } = await tonInV1(s, 2n * TON);
  t.true(params.to.equals(s.wallet1));
  t.is(params.value, 2n * TON + 185n * MILLI);
  const tx = only(txs, s.wallet1);
  t.deepEqual(ok(tx), SUCCESS);
  same(t, tx.in_msg!, {
    kind: "jetton.transfer",
    queryId: 5n,
    amount: 2n * TON,
    destination: s.router,
    responseDestination: null,
    customPayload: null,
    forwardTonAmount: 185n * MILLI,
    forwardPayload: refPayload,
  });
  const note = tx.out_msgs[0]!;
  same(t, note, {
    kind: "jetton.transfer_notification",
    queryId: 5n,
    amount: 2n * TON,
    sender: s.user,
    forwardPayload: refPayload,
  });
  t.is(note.destination, raw(s.router));
  // 2.185 − 2 kept − 0.004 compute = 0.181 sent, 0.180 delivered.
  t.is(note.value, String(180n * MILLI));
  t.is(s.tokenized(s.wallet1), 2n * TON);
  t.is(s.tonOf(s.wallet1), 3n * TON);
});

test("v1 TON in with too little value is refused (709) and bounced", (t) => {
  const s = setup();
  const body = encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: 1n,
    amount: TON,
    destination: s.router,
    responseDestination: null,
    customPayload: null,
    forwardTonAmount: 0n,
    forwardPayload: refPayload,
  });
  // needs value − amount − 0.004 > 0.001
  const tx = only(s.send(s.user, [{ to: s.wallet1, value: TON + 5n * MILLI, body }]), s.wallet1);
  t.deepEqual(ok(tx), { success: false, exit: 709, aborted: true });
  t.is(tx.out_msgs[0]!.bounced, true);
  t.is(tx.out_msgs[0]!.value, String(TON));
  t.is(s.tokenized(s.wallet1), 0n);
});

test("v1 TON out: the router's transfer pays amount + remaining value in a bounceable transfer_notification", async (t) => {
  const s = setup();
  await tonInV1(s, 2n * TON);
  const before = s.tonOf(s.wallet1);
  const txs = s.send(s.router, [
    { to: s.wallet1, value: 100n * MILLI, body: tonOutBody(s, 1500n * MILLI, null) },
  ]);
  const tx = only(txs, s.wallet1);
  t.deepEqual(ok(tx), SUCCESS);
  t.is(tx.out_msgs.length, 1);
  const pay = tx.out_msgs[0]!;
  t.is(pay.destination, raw(s.user));
  t.is(pay.bounce, true);
  t.is(pay.value, String(1500n * MILLI + 100n * MILLI - 5n * MILLI));
  same(t, pay, {
    kind: "jetton.transfer_notification",
    queryId: 21n,
    amount: 1500n * MILLI,
    sender: s.router,
    forwardPayload: exitPayload,
  });
  t.is(s.tokenized(s.wallet1), 500n * MILLI);
  t.is(s.tonOf(s.wallet1), before - 1500n * MILLI);
  const overdraw = s.send(s.router, [{ to: s.wallet1, value: 100n * MILLI, body: tonOutBody(s, TON, null) }]);
  t.is(only(overdraw, s.wallet1).compute.exit_code, 706);
});

test("v1 TON out to an address that bounces restores the tokenized balance", async (t) => {
  const s = setup();
  await tonInV1(s, 2n * TON);
  const nowhere = Address.parseRaw(`0:${"cd".repeat(32)}`);
  const body = encodeJettonTransfer({
    kind: "jetton.transfer",
    queryId: 4n,
    amount: TON,
    destination: nowhere,
    responseDestination: null,
    customPayload: null,
    forwardTonAmount: 0n,
    forwardPayload: exitPayload,
  });
  const [paid, returned] = on(s.send(s.router, [{ to: s.wallet1, value: 100n * MILLI, body }]), s.wallet1);
  t.deepEqual(ok(paid!), SUCCESS);
  t.is(returned!.in_msg!.bounced, true);
  t.deepEqual(ok(returned!), SUCCESS);
  t.is(s.tokenized(s.wallet1), 2n * TON);
});

test("v1 deploy_wallet (SDK body, 1.05 TON) deploys the owner's wallet with the remaining value", async (t) => {
  const s = setup();
  const params = await s.sdk1.getDeployWalletTxParams({ ownerAddress: s.user, queryId: 8 });
  t.true(params.to.equals(s.minter1));
  t.is(params.value, 1050n * MILLI);
  const txs = s.send(s.user, [{ to: params.to, value: params.value, body: params.body! }]);
  const atMinter = only(txs, s.minter1);
  same(t, atMinter.in_msg!, { kind: "pton.v1.deploy_wallet", queryId: 8n, owner: s.user });
  const deploy = atMinter.out_msgs[0]!;
  const wallet = ptonV1WalletAddress(s.user, s.minter1);
  t.is(deploy.destination, raw(wallet));
  t.truthy(deploy.init_boc);
  t.like(decoded(deploy) as object, { kind: "unknown", op: null, reason: "empty cell" });
  t.deepEqual(ok(only(txs, wallet)), SUCCESS);
  // 1.05 − 0.004 − 0.001 at the wallet, − 0.004 compute there.
  t.is(s.tonOf(wallet), 1050n * MILLI - 9n * MILLI);
  const data = s.get(wallet, "get_wallet_data");
  t.is(data.readBigNumber(), 0n);
  t.true(data.readAddress().equals(s.user));
});

test("v1 reset_gas (owner): keeps tokenized balance + 0.01 TON, returns the rest as excesses", async (t) => {
  const s = setup();
  await tonInV1(s, 2n * TON);
  const body = beginCell().storeUint(0x42a0fb43, 32).storeUint(6, 64).endCell();
  const tx = only(s.send(s.router, [{ to: s.wallet1, value: 100n * MILLI, body }]), s.wallet1);
  same(t, tx.in_msg!, { kind: "pton.v1.reset_gas", queryId: 6n }, { pton: true });
  same(t, tx.out_msgs[0]!, { kind: "jetton.excesses", queryId: 6n });
  // 3 + 0.1 − 0.004 − 2.01 = 1.086 sent, 1.085 delivered.
  t.is(tx.out_msgs[0]!.value, String(1085n * MILLI));
  t.is(s.tonOf(s.wallet1), 2010n * MILLI);
  const byUser = only(s.send(s.user, [{ to: s.wallet1, value: 100n * MILLI, body }]), s.wallet1);
  t.is(byUser.compute.exit_code, 705);
});

// ---- pTON v2.1 ----------------------------------------------------------------------------------------

test("v2.1: SDK wallet address, get_jetton_data, get_version and get_wallet_data shapes", async (t) => {
  const s = setup();
  const address = await s.sdk2.getWalletAddress(s.router);
  t.true(address.equals(ptonV2WalletAddress(s.router, s.minter2)));
  t.true(address.equals(s.wallet2));
  t.false(address.equals(ptonV1WalletAddress(s.router, s.minter2)));
  const data = s.get(s.minter2, "get_jetton_data");
  t.is(data.readBigNumber(), 0n);
  t.is(data.readBigNumber(), -1n);
  t.is(data.readAddressOpt(), null);
  t.deepEqual(parseJettonMetadata(data.readCell()), PTON_META);
  t.true(data.readCell().equals(PTON_V2_WALLET_CODE));
  t.is(data.remaining, 0);
  const version = s.get(s.minter2, "get_version");
  t.is(version.readNumber(), 2);
  t.is(version.readNumber(), 1);
  t.is(version.readCell().beginParse().loadStringTail(), "release");
  const wallet = s.get(s.wallet2, "get_wallet_data");
  t.is(wallet.readBigNumber(), 0n);
  t.true(wallet.readAddress().equals(s.router));
  t.true(wallet.readAddress().equals(s.minter2));
  t.true(wallet.readCell().equals(PTON_V2_WALLET_CODE));
  const master = {
    type: "slice",
    cell: beginCell()
      .storeAddress(Address.parseRaw(`-1:${"11".repeat(32)}`))
      .endCell(),
  };
  t.is(s.chain.runGetMethod(s.minter2, "get_wallet_address", [master as TupleItem]).exitCode, 85);
});

async function tonInV2(s: Setup, tonAmount: bigint) {
  const params = await s.sdk2.getTonTransferTxParams({
    queryId: 5,
    tonAmount,
    destinationAddress: s.router,
    refundAddress: s.user,
    forwardPayload: swapPayload,
    forwardTonAmount: 300n * MILLI,
  });
  return { params, txs: s.send(s.user, [{ to: params.to, value: params.value, body: params.body! }]) };
}

test("v2.1 ton_transfer in → transfer_notification(from = user) to the router", async (t) => {
  const s = setup();
  const { params, txs } = await tonInV2(s, 2n * TON);
  t.true(params.to.equals(s.wallet2));
  t.is(params.value, 2n * TON + 310n * MILLI);
  const tx = only(txs, s.wallet2);
  t.deepEqual(ok(tx), SUCCESS);
  same(t, tx.in_msg!, {
    kind: "pton.v2.ton_transfer",
    queryId: 5n,
    tonAmount: 2n * TON,
    refundAddress: s.user,
    forwardPayload: refPayload,
  });
  const note = tx.out_msgs[0]!;
  same(t, note, {
    kind: "jetton.transfer_notification",
    queryId: 5n,
    amount: 2n * TON,
    sender: s.user,
    forwardPayload: refPayload,
  });
  t.is(note.destination, raw(s.router));
  t.is(note.bounce, false);
  // 2.31 − 2 − 0.004 = 0.306 sent, 0.305 delivered.
  t.is(note.value, String(305n * MILLI));
  t.is(s.tokenized(s.wallet2), 2n * TON);
  t.is(s.tonOf(s.wallet2), 3n * TON);
});

const refund = test.macro({
  exec(t, value: bigint, forwardPayload: EitherPayload | null) {
    const s = setup();
    const body = encodePtonV2TonTransfer({
      kind: "pton.v2.ton_transfer",
      queryId: 9n,
      tonAmount: TON,
      refundAddress: s.carol,
      forwardPayload,
    });
    const tx = only(s.send(s.user, [{ to: s.wallet2, value, body }]), s.wallet2);
    t.deepEqual(ok(tx), SUCCESS);
    t.is(tx.out_msgs.length, 1);
    const back = tx.out_msgs[0]!;
    same(t, back, { kind: "pton.v2.ton_refund", queryId: 9n });
    t.is(back.destination, raw(s.carol));
    t.is(back.bounce, false);
    t.is(back.value, String(value - 5n * MILLI));
    t.is(s.tokenized(s.wallet2), 0n);
    t.is(s.tonOf(s.wallet2), TON);
  },
  title: (name = "") => `v2.1 ton_transfer refunded: ${name}`,
});

test("value equal to ton_amount", refund, TON, refPayload);
test("no forward-payload bit", refund, 2n * TON, null);

test("v2.1 ton_transfer refused: ton_amount 0 (87), addr_none refund address (84)", (t) => {
  const s = setup();
  const body = (tonAmount: bigint, refundAddress: Address | null) =>
    encodePtonV2TonTransfer({
      kind: "pton.v2.ton_transfer",
      queryId: 1n,
      tonAmount,
      refundAddress,
      forwardPayload: refPayload,
    });
  const zero = only(s.send(s.user, [{ to: s.wallet2, value: TON, body: body(0n, s.user) }]), s.wallet2);
  t.deepEqual(ok(zero), { success: false, exit: PTON_V2_EXIT.lowAmount, aborted: true });
  t.is(zero.out_msgs[0]!.bounced, true);
  const none = only(s.send(s.user, [{ to: s.wallet2, value: 2n * TON, body: body(TON, null) }]), s.wallet2);
  t.deepEqual(ok(none), { success: false, exit: PTON_V2_EXIT.invalidAddress, aborted: true });
});

test("v2.1 TON out without a response address: one ton_transfer with everything, refund = router", async (t) => {
  const s = setup();
  await tonInV2(s, 2n * TON);
  const before = s.tonOf(s.wallet2);
  const body = tonOutBody(s, 1500n * MILLI, null, 50n * MILLI);
  const tx = only(s.send(s.router, [{ to: s.wallet2, value: 100n * MILLI, body }]), s.wallet2);
  t.deepEqual(ok(tx), SUCCESS);
  t.is(tx.out_msgs.length, 1);
  const pay = tx.out_msgs[0]!;
  same(t, pay, {
    kind: "pton.v2.ton_transfer",
    queryId: 21n,
    tonAmount: 1500n * MILLI,
    refundAddress: s.router,
    forwardPayload: exitPayload,
  });
  t.is(pay.destination, raw(s.user));
  t.is(pay.bounce, false);
  t.is(pay.value, String(1500n * MILLI + 100n * MILLI - 5n * MILLI));
  t.is(s.tokenized(s.wallet2), 500n * MILLI);
  t.is(s.tonOf(s.wallet2), before - 1500n * MILLI);
});

test("v2.1 TON out with a response address: exactly amount + forward, then excesses", async (t) => {
  const s = setup();
  await tonInV2(s, 2n * TON);
  const before = s.tonOf(s.wallet2);
  const body = tonOutBody(s, 1500n * MILLI, s.carol, 50n * MILLI);
  const tx = only(s.send(s.router, [{ to: s.wallet2, value: 100n * MILLI, body }]), s.wallet2);
  t.deepEqual(ok(tx), SUCCESS);
  const [pay, excess] = tx.out_msgs;
  same(t, pay!, {
    kind: "pton.v2.ton_transfer",
    queryId: 21n,
    tonAmount: 1500n * MILLI,
    refundAddress: s.carol,
    forwardPayload: exitPayload,
  });
  t.is(pay!.value, String(1550n * MILLI));
  same(t, excess!, { kind: "jetton.excesses", queryId: 21n });
  t.is(excess!.destination, raw(s.carol));
  // 0.1 − 0.004 − 0.05 − 0.001 (fee of the first message) = 0.045 sent, 0.044 delivered.
  t.is(excess!.value, String(44n * MILLI));
  t.is(s.tonOf(s.wallet2), before - 1500n * MILLI);
});

test("v2.1 TON out with response = destination is the single-message form", async (t) => {
  const s = setup();
  await tonInV2(s, 2n * TON);
  const tx = only(
    s.send(s.router, [{ to: s.wallet2, value: 100n * MILLI, body: tonOutBody(s, TON, s.user) }]),
    s.wallet2,
  );
  t.is(tx.out_msgs.length, 1);
  t.like(decoded(tx.out_msgs[0]!) as object, {
    kind: "pton.v2.ton_transfer",
    refundAddress: plain(s.router),
  });
});

test("v2.1 TON out refused: above the balance (88), not from the owner (0xffff)", async (t) => {
  const s = setup();
  await tonInV2(s, TON);
  const over = only(
    s.send(s.router, [{ to: s.wallet2, value: 100n * MILLI, body: tonOutBody(s, 2n * TON, null) }]),
    s.wallet2,
  );
  t.is(over.compute.exit_code, PTON_V2_EXIT.lowBalance);
  const stranger = only(
    s.send(s.user, [{ to: s.wallet2, value: 100n * MILLI, body: tonOutBody(s, TON, null) }]),
    s.wallet2,
  );
  t.is(stranger.compute.exit_code, PTON_V2_EXIT.wrongOp);
  t.is(s.tokenized(s.wallet2), TON);
});

test("v2.1 deploy_wallet (SDK): internal_deploy with StateInit, excesses from the new wallet", async (t) => {
  const s = setup();
  const params = await s.sdk2.getDeployWalletTxParams({
    ownerAddress: s.user,
    excessAddress: s.carol,
    queryId: 3,
  });
  t.is(params.value, 100n * MILLI);
  const txs = s.send(s.user, [{ to: params.to, value: params.value, body: params.body! }]);
  const atMinter = only(txs, s.minter2);
  same(t, atMinter.in_msg!, {
    kind: "pton.v2.deploy_wallet",
    queryId: 3n,
    owner: s.user,
    excessesAddress: s.carol,
  });
  const deploy = atMinter.out_msgs[0]!;
  const wallet = ptonV2WalletAddress(s.user, s.minter2);
  same(t, deploy, { kind: "pton.v2.internal_deploy", queryId: 3n, excessesAddress: s.carol });
  t.is(deploy.destination, raw(wallet));
  t.truthy(deploy.init_boc);
  // The minter keeps its old balance: 0.1 − 0.004 = 0.096 sent, 0.095 delivered.
  t.is(deploy.value, String(95n * MILLI));
  t.is(s.tonOf(s.minter2), TON);
  const atWallet = only(txs, wallet);
  same(t, atWallet.out_msgs[0]!, { kind: "jetton.excesses", queryId: 3n });
  t.is(atWallet.out_msgs[0]!.destination, raw(s.carol));
  // 0.095 − 0.004 − 0.01 reserve = 0.081 sent, 0.080 delivered.
  t.is(atWallet.out_msgs[0]!.value, String(80n * MILLI));
  t.is(s.tonOf(wallet), 10n * MILLI);
  const cheap = await s.sdk2.getDeployWalletTxParams({
    ownerAddress: s.carol,
    excessAddress: s.carol,
    gasAmount: 43n * MILLI,
  });
  const refused = only(s.send(s.user, [{ to: cheap.to, value: cheap.value, body: cheap.body! }]), s.minter2);
  t.is(refused.compute.exit_code, PTON_V2_EXIT.insufficientGas);
});

test("v2.1 reset_gas (owner): keeps tokenized balance + 0.01 TON", async (t) => {
  const s = setup();
  await tonInV2(s, 2n * TON);
  const body = beginCell().storeUint(0x29d22935, 32).storeUint(6, 64).endCell();
  const tx = only(s.send(s.router, [{ to: s.wallet2, value: 100n * MILLI, body }]), s.wallet2);
  same(t, tx.in_msg!, { kind: "pton.v2.reset_gas", queryId: 6n }, { pton: true });
  same(t, tx.out_msgs[0]!, { kind: "jetton.excesses", queryId: 6n });
  t.is(tx.out_msgs[0]!.value, String(1085n * MILLI));
  t.is(s.tonOf(s.wallet2), 2010n * MILLI);
});
