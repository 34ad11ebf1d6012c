/**
 * The devnet TEP-74 jetton minter and wallet on the real devnet chain: every trace starts with an external
 * message to a devnet user wallet; values are asserted to the nanoton under the flat fee model
 * (compute 0.004 TON per transaction, 0.001 TON per message, 0.01 TON wallet storage reserve).
 */
import { Address, beginCell, Cell, type TupleItem, TupleReader } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import { createChainState } from "../../../../../dex/chain-state.ts";
import {
  type Decoded,
  decodeBody,
  type EitherPayload,
  encodeJettonBurn,
  encodeJettonProvideWalletAddress,
  encodeJettonTransfer,
} from "../../../../../dex/codecs/index.ts";
import {
  Chain,
  CodeRegistry,
  instantiate,
  registerWallet,
  stateOf,
  type Transfer,
  walletHandler,
  walletInit,
  walletTransferBody,
} from "../../../../../ingest/devnet/chain/index.ts";
import {
  buildJettonContent,
  JETTON_EXIT,
  JETTON_WALLET_CODE,
  type JettonMetadata,
  jettonMintBody,
  jettonMinterInit,
  jettonWalletAddress,
  jettonWalletData,
  jettonWalletHandler,
  parseJettonMetadata,
  registerJettons,
} from "../../../../../ingest/devnet/contracts/jetton/index.ts";
import type { RawMessage, RawTransaction } from "../../../../../schemas/raw-transaction.ts";

const TON = 1_000_000_000n;
const MILLI = TON / 1000n;
const META: JettonMetadata = {
  symbol: "USDX",
  name: "US Dollar X",
  decimals: 6,
  image: "https://example.org/usdx.png",
  description: "devnet stablecoin",
};
const nowhere = Address.parseRaw(`0:${"ab".repeat(32)}`);
const payload = beginCell().storeUint(0xdeadbeef, 32).endCell();
const refPayload: EitherPayload = { inRef: true, payload };

function setup() {
  const chain = new Chain({ registry: registerJettons(registerWallet(new CodeRegistry())) });
  const admin = chain.deployGenesis(walletInit(1n), 100n * TON);
  const alice = chain.deployGenesis(walletInit(2n), 100n * TON);
  const bob = chain.deployGenesis(walletInit(3n), 100n * TON);
  const minter = chain.deployGenesis(jettonMinterInit({ admin, metadata: META }), TON);
  /** Sends from a devnet wallet and runs blocks until the trace is over. */
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
  const walletOf = (owner: Address) => jettonWalletAddress(owner, minter);
  const balanceOf = (owner: Address): bigint => get(walletOf(owner), "get_wallet_data").readBigNumber();
  const mint = (to: Address, amount: bigint, tonAmount = 50n * MILLI) =>
    send(admin, [
      {
        to: minter,
        value: 100n * MILLI,
        body: jettonMintBody({ queryId: 7n, to, amount, responseAddress: admin, tonAmount }),
      },
    ]);
  const transferBody = (amount: bigint, destination: Address | null, over: Partial<TransferArgs> = {}) =>
    encodeJettonTransfer({
      kind: "jetton.transfer",
      queryId: 11n,
      amount,
      destination,
      responseDestination: over.response === undefined ? alice : over.response,
      customPayload: null,
      forwardTonAmount: over.forwardTonAmount ?? 100n * MILLI,
      forwardPayload: over.forwardPayload === undefined ? refPayload : over.forwardPayload,
    });
  return { chain, admin, alice, bob, minter, send, get, walletOf, balanceOf, mint, transferBody };
}

type TransferArgs = {
  response: Address | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherPayload | null;
};

const on = (txs: RawTransaction[], address: Address): RawTransaction[] =>
  txs.filter((tx) => tx.account === address.toRawString().toUpperCase());
const only = (txs: RawTransaction[], address: Address): RawTransaction => {
  const found = on(txs, address);
  if (found.length !== 1) throw new Error(`expected one tx on ${address.toRawString()}, got ${found.length}`);
  return found[0]!;
};
const bodyOf = (m: RawMessage): Cell => Cell.fromBase64(m.body_boc);
/** Addresses and cells as comparable strings, so records compare with deepEqual. */
function plain(x: unknown): unknown {
  if (Address.isAddress(x)) return `addr:${x.toRawString()}`;
  if (x instanceof Cell) return `cell:${x.hash().toString("hex")}`;
  if (Array.isArray(x)) return x.map(plain);
  if (x !== null && typeof x === "object") {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  }
  return x;
}
const decoded = (m: RawMessage): unknown => plain(decodeBody(bodyOf(m)));
/** Asserts that a message body decodes (dex/codecs `decodeBody`) to exactly `expected`. */
const same = (t: ExecutionContext, m: RawMessage, expected: Decoded) =>
  t.deepEqual(decoded(m), plain(expected));
const alike = (t: ExecutionContext, m: RawMessage, expected: Record<string, unknown>) =>
  t.like(decoded(m) as Record<string, unknown>, plain(expected) as Record<string, unknown>);
const raw = (a: Address | null): string | null => (a === null ? null : a.toRawString().toUpperCase());
const ok = (tx: RawTransaction) => ({
  success: tx.compute.success,
  exit: tx.compute.exit_code,
  aborted: tx.aborted,
});
const SUCCESS = { success: true, exit: 0, aborted: false };

test("mint: the admin's internal_transfer deploys the wallet, credits it and returns excesses", (t) => {
  const s = setup();
  const txs = s.mint(s.alice, 1_000_000n);
  const atMinter = only(txs, s.minter);
  t.deepEqual(ok(atMinter), SUCCESS);
  t.is(atMinter.out_msgs.length, 1);
  const toWallet = atMinter.out_msgs[0]!;
  t.is(toWallet.destination, raw(s.walletOf(s.alice)));
  t.is(toWallet.value, String(50n * MILLI));
  t.is(toWallet.bounce, true);
  t.truthy(toWallet.init_boc);
  alike(t, toWallet, {
    kind: "jetton.internal_transfer",
    queryId: 7n,
    amount: 1_000_000n,
    from: null,
    forwardTonAmount: 0n,
  });
  const atWallet = only(txs, s.walletOf(s.alice));
  t.deepEqual(ok(atWallet), SUCCESS);
  t.is(atWallet.out_msgs.length, 1);
  const excess = atWallet.out_msgs[0]!;
  same(t, excess, { kind: "jetton.excesses", queryId: 7n });
  t.is(excess.destination, raw(s.admin));
  // 0.05 − 0.01 storage − 0.004 compute = 0.036 sent, 0.035 delivered after the forward fee.
  t.is(excess.value, String(35n * MILLI));
  t.is(s.chain.account(s.walletOf(s.alice))!.balance, 10n * MILLI);
  // Minter: 1 + 0.1 − 0.004 compute − (0.05 + 0.001 fee on top).
  t.is(s.chain.account(s.minter)!.balance, TON + 100n * MILLI - 4n * MILLI - 51n * MILLI);
  t.is(s.balanceOf(s.alice), 1_000_000n);
  t.is(s.get(s.minter, "get_jetton_data").readBigNumber(), 1_000_000n);
});

test("get-methods have the TEP-74 stack shapes (TupleReader) and the on-chain metadata reads back", (t) => {
  const s = setup();
  s.mint(s.alice, 5n);
  const data = s.get(s.minter, "get_jetton_data");
  t.is(data.readBigNumber(), 5n);
  t.is(data.readBigNumber(), -1n);
  t.true(data.readAddress().equals(s.admin));
  t.deepEqual(parseJettonMetadata(data.readCell()), META);
  t.true(data.readCell().equals(JETTON_WALLET_CODE));
  t.is(data.remaining, 0);
  const arg: TupleItem = { type: "slice", cell: beginCell().storeAddress(s.alice).endCell() };
  const address = s.get(s.minter, "get_wallet_address", [arg]);
  t.true(address.readAddress().equals(s.walletOf(s.alice)));
  t.is(address.remaining, 0);
  const wallet = s.get(s.walletOf(s.alice), "get_wallet_data");
  t.is(wallet.readBigNumber(), 5n);
  t.true(wallet.readAddress().equals(s.alice));
  t.true(wallet.readAddress().equals(s.minter));
  t.true(wallet.readCell().equals(JETTON_WALLET_CODE));
  t.is(wallet.remaining, 0);
  t.is(s.chain.runGetMethod(s.minter, "get_wallet_address", []).exitCode, 7);
  t.is(s.chain.runGetMethod(s.minter, "no_such_method").exitCode, 11);
});

test("dex/chain-state reads balances, wallet addresses and jetton data from the devnet", async (t) => {
  const s = setup();
  s.mint(s.alice, 123n);
  const state = createChainState({
    runGetMethod: async (address, method, args) => s.chain.runGetMethod(address, method, args),
    getBalance: async (address) => s.chain.account(address)?.balance ?? 0n,
  });
  const jetton = await state.getJettonData(s.minter);
  t.is(jetton?.totalSupply, 123n);
  t.is(jetton?.mintable, true);
  t.true(jetton?.admin?.equals(s.admin));
  t.deepEqual(parseJettonMetadata(jetton!.content), META);
  const wallet = await state.getJettonWalletAddress(s.minter, s.alice);
  t.true(wallet.equals(s.walletOf(s.alice)));
  const data = await state.getJettonWalletData(wallet);
  t.is(data?.balance, 123n);
  t.true(data?.owner.equals(s.alice));
  t.true(data?.master.equals(s.minter));
  t.is(await state.getBalance(wallet), 10n * MILLI);
  t.is(await state.getJettonWalletData(s.walletOf(s.bob)), null);
});

test("transfer: internal_transfer to the new wallet, transfer_notification to the owner, excesses back", (t) => {
  const s = setup();
  s.mint(s.alice, 1000n);
  const txs = s.send(s.alice, [
    { to: s.walletOf(s.alice), value: 200n * MILLI, body: s.transferBody(400n, s.bob) },
  ]);
  const atAlice = only(txs, s.walletOf(s.alice));
  t.deepEqual(ok(atAlice), SUCCESS);
  const internal = atAlice.out_msgs[0]!;
  t.is(internal.destination, raw(s.walletOf(s.bob)));
  t.is(internal.value, String(195n * MILLI));
  t.truthy(internal.init_boc);
  same(t, internal, {
    kind: "jetton.internal_transfer",
    queryId: 11n,
    amount: 400n,
    from: s.alice,
    responseAddress: s.alice,
    forwardTonAmount: 100n * MILLI,
    forwardPayload: refPayload,
  });
  const atBob = only(txs, s.walletOf(s.bob));
  t.deepEqual(ok(atBob), SUCCESS);
  const [notification, excess] = atBob.out_msgs;
  same(t, notification!, {
    kind: "jetton.transfer_notification",
    queryId: 11n,
    amount: 400n,
    sender: s.alice,
    forwardPayload: refPayload,
  });
  t.is(notification!.destination, raw(s.bob));
  t.is(notification!.value, String(100n * MILLI));
  t.is(notification!.bounce, false);
  same(t, excess!, { kind: "jetton.excesses", queryId: 11n });
  t.is(excess!.destination, raw(s.alice));
  // 0.195 − 0.01 storage − 0.004 compute − (0.1 + 0.001) notification = 0.08 sent, 0.079 delivered.
  t.is(excess!.value, String(79n * MILLI));
  t.is(s.balanceOf(s.alice), 600n);
  t.is(s.balanceOf(s.bob), 400n);
  t.is(s.chain.account(s.walletOf(s.bob))!.balance, 10n * MILLI);
  t.is(s.chain.account(s.walletOf(s.alice))!.balance, 10n * MILLI);
});

test("transfer without forward amount and without response sends nothing after the credit", (t) => {
  const s = setup();
  s.mint(s.alice, 1000n);
  s.mint(s.bob, 1n);
  const body = s.transferBody(10n, s.bob, { response: null, forwardTonAmount: 0n });
  const txs = s.send(s.alice, [{ to: s.walletOf(s.alice), value: 50n * MILLI, body }]);
  const atBob = only(txs, s.walletOf(s.bob));
  t.deepEqual(ok(atBob), SUCCESS);
  t.is(atBob.out_msgs.length, 0);
  t.is(s.balanceOf(s.bob), 11n);
  // Bob's wallet already held its reserve, so it keeps the whole 0.045 − 0.004.
  t.is(s.chain.account(s.walletOf(s.bob))!.balance, 10n * MILLI + 41n * MILLI);
});

const refused = test.macro({
  exec(
    t,
    make: (s: ReturnType<typeof setup>) => { from: "alice" | "bob"; value: bigint; body: Cell },
    code: number,
  ) {
    const s = setup();
    s.mint(s.alice, 1000n);
    const { from, value, body } = make(s);
    const sender = s[from];
    const txs = s.send(sender, [{ to: s.walletOf(s.alice), value, body }]);
    const tx = only(txs, s.walletOf(s.alice));
    t.deepEqual(ok(tx), { success: false, exit: code, aborted: true });
    t.is(tx.out_msgs.length, 1);
    const bounce = tx.out_msgs[0]!;
    t.is(bounce.bounced, true);
    t.is(bounce.destination, raw(sender));
    t.is(bounce.value, String(value - 5n * MILLI));
    alike(t, bounce, { kind: "unknown", op: 0xffffffff });
    t.is(s.balanceOf(s.alice), 1000n);
  },
  title: (name = "") => `transfer refused: ${name}`,
});

test(
  "705 not the owner",
  refused,
  (s) => ({ from: "bob", value: 200n * MILLI, body: s.transferBody(1n, s.bob) }),
  705,
);
test(
  "706 above the balance",
  refused,
  (s) => ({ from: "alice", value: 200n * MILLI, body: s.transferBody(1001n, s.bob) }),
  706,
);
test(
  "709 value below forward amount + fees",
  refused,
  // needs > 0.1 forward + 2 × 0.001 + 2 × 0.004 + 0.01 = 0.12
  (s) => ({ from: "alice", value: 120n * MILLI, body: s.transferBody(1n, s.bob) }),
  JETTON_EXIT.notEnoughTon,
);
test(
  "708 no forward-payload bit",
  refused,
  (s) => ({ from: "alice", value: 200n * MILLI, body: s.transferBody(1n, s.bob, { forwardPayload: null }) }),
  708,
);
test(
  "333 destination outside the basechain",
  refused,
  (s) => ({
    from: "alice",
    value: 200n * MILLI,
    body: s.transferBody(1n, Address.parseRaw(`-1:${"11".repeat(32)}`)),
  }),
  333,
);
test(
  "0xffff unknown op",
  refused,
  () => ({
    from: "alice",
    value: 200n * MILLI,
    body: beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell(),
  }),
  0xffff,
);

test("burn: burn_notification to the minter lowers total_supply and returns excesses", (t) => {
  const s = setup();
  s.mint(s.alice, 1000n);
  const body = encodeJettonBurn({
    kind: "jetton.burn",
    queryId: 3n,
    amount: 100n,
    responseDestination: s.alice,
    customPayload: null,
  });
  const txs = s.send(s.alice, [{ to: s.walletOf(s.alice), value: 100n * MILLI, body }]);
  const atWallet = only(txs, s.walletOf(s.alice));
  t.deepEqual(ok(atWallet), SUCCESS);
  same(t, atWallet.out_msgs[0]!, {
    kind: "jetton.burn_notification",
    queryId: 3n,
    amount: 100n,
    sender: s.alice,
    responseDestination: s.alice,
  });
  t.is(atWallet.out_msgs[0]!.bounce, true);
  const atMinter = only(txs, s.minter);
  t.deepEqual(ok(atMinter), SUCCESS);
  const excess = atMinter.out_msgs[0]!;
  same(t, excess, { kind: "jetton.excesses", queryId: 3n });
  t.is(excess.destination, raw(s.alice));
  // 0.1 − 0.004 − 0.001 = 0.095 at the minter; − 0.004 − 0.001 = 0.09 delivered.
  t.is(excess.value, String(90n * MILLI));
  t.is(s.balanceOf(s.alice), 900n);
  t.is(s.get(s.minter, "get_jetton_data").readBigNumber(), 900n);
});

test("burn refused: not the owner (705), too little TON (707)", (t) => {
  const s = setup();
  s.mint(s.alice, 1000n);
  const body = encodeJettonBurn({
    kind: "jetton.burn",
    queryId: 3n,
    amount: 1n,
    responseDestination: null,
    customPayload: null,
  });
  const byBob = only(
    s.send(s.bob, [{ to: s.walletOf(s.alice), value: 100n * MILLI, body }]),
    s.walletOf(s.alice),
  );
  t.is(byBob.compute.exit_code, 705);
  // needs > 0.001 + 2 × 0.004
  const cheap = only(
    s.send(s.alice, [{ to: s.walletOf(s.alice), value: 9n * MILLI, body }]),
    s.walletOf(s.alice),
  );
  t.is(cheap.compute.exit_code, 707);
  t.is(s.balanceOf(s.alice), 1000n);
});

test("a bounced internal_transfer restores the sender's balance (receiver refuses with 707)", (t) => {
  const s = setup();
  s.mint(s.alice, 1000n);
  // Bob's wallet address holds a wallet of another master: it cannot derive Alice's wallet and throws 707.
  const state = { balance: 0n, owner: s.bob, master: nowhere, walletCode: JETTON_WALLET_CODE };
  s.chain.addAccount(s.walletOf(s.bob), 0n, instantiate(jettonWalletHandler, state));
  const txs = s.send(s.alice, [
    { to: s.walletOf(s.alice), value: 200n * MILLI, body: s.transferBody(300n, s.bob) },
  ]);
  const [sent, restored] = on(txs, s.walletOf(s.alice));
  t.deepEqual(ok(sent!), SUCCESS);
  const atBob = only(txs, s.walletOf(s.bob));
  t.deepEqual(ok(atBob), { success: false, exit: 707, aborted: true });
  t.is(atBob.out_msgs[0]!.bounced, true);
  alike(t, restored!.in_msg!, { kind: "unknown", op: 0xffffffff });
  t.deepEqual(ok(restored!), SUCCESS);
  t.is(restored!.out_msgs.length, 0);
  t.is(s.balanceOf(s.alice), 1000n);
});

test("a bounced burn_notification restores the balance", (t) => {
  const s = setup();
  // A wallet whose master does not exist: the bounceable burn_notification comes back.
  const init = {
    code: JETTON_WALLET_CODE,
    data: jettonWalletData({
      balance: 500n,
      owner: s.alice,
      master: nowhere,
      walletCode: JETTON_WALLET_CODE,
    }),
  };
  const wallet = s.chain.deployGenesis(init, TON);
  const body = encodeJettonBurn({
    kind: "jetton.burn",
    queryId: 1n,
    amount: 200n,
    responseDestination: null,
    customPayload: null,
  });
  const txs = s.send(s.alice, [{ to: wallet, value: 100n * MILLI, body }]);
  const [burned, restored] = on(txs, wallet);
  t.deepEqual(ok(burned!), SUCCESS);
  t.is(restored!.in_msg!.bounced, true);
  t.deepEqual(ok(restored!), SUCCESS);
  t.is(s.get(wallet, "get_wallet_data").readBigNumber(), 500n);
});

test("minter: mint only from the admin (73); provide_wallet_address answers take_wallet_address (TEP-89)", (t) => {
  const s = setup();
  const mint = jettonMintBody({
    queryId: 1n,
    to: s.bob,
    amount: 5n,
    responseAddress: null,
    tonAmount: 50n * MILLI,
  });
  const notAdmin = only(s.send(s.alice, [{ to: s.minter, value: 100n * MILLI, body: mint }]), s.minter);
  t.is(notAdmin.compute.exit_code, JETTON_EXIT.notAdmin);
  t.is(s.get(s.minter, "get_jetton_data").readBigNumber(), 0n);
  const ask = (value: bigint, owner: Address) =>
    only(
      s.send(s.alice, [
        {
          to: s.minter,
          value,
          body: encodeJettonProvideWalletAddress({
            kind: "jetton.provide_wallet_address",
            queryId: 9n,
            ownerAddress: owner,
            includeAddress: true,
          }),
        },
      ]),
      s.minter,
    );
  const answered = ask(50n * MILLI, s.bob);
  same(t, answered.out_msgs[0]!, {
    kind: "jetton.take_wallet_address",
    queryId: 9n,
    walletAddress: s.walletOf(s.bob),
    includesOwner: true,
    ownerAddress: s.bob,
  });
  t.is(answered.out_msgs[0]!.destination, raw(s.alice));
  t.is(answered.out_msgs[0]!.value, String(45n * MILLI));
  const master = Address.parseRaw(`-1:${"22".repeat(32)}`);
  alike(t, ask(50n * MILLI, master).out_msgs[0]!, { walletAddress: null, ownerAddress: master });
  t.is(ask(5n * MILLI, s.bob).compute.exit_code, JETTON_EXIT.discoveryGas);
});

test("a bounced mint is ignored by the minter (supply stays, like the reference)", (t) => {
  const s = setup();
  // forward_ton_amount above what the mint carries: the new wallet's action phase fails and it bounces.
  const body = jettonMintBody({
    queryId: 2n,
    to: s.alice,
    amount: 10n,
    responseAddress: null,
    forwardTonAmount: TON,
    tonAmount: 50n * MILLI,
  });
  const txs = s.send(s.admin, [{ to: s.minter, value: 100n * MILLI, body }]);
  const [minted, bounced] = on(txs, s.minter);
  t.deepEqual(ok(minted!), SUCCESS);
  t.is(bounced!.in_msg!.bounced, true);
  t.deepEqual(ok(bounced!), SUCCESS);
  t.is(s.chain.account(s.walletOf(s.alice)), undefined);
  t.is(s.get(s.minter, "get_jetton_data").readBigNumber(), 10n);
});

test("TEP-64 content: snake values, sha256 keys, decimals default 9", (t) => {
  const long = { symbol: "L", name: "x".repeat(300), decimals: 18, description: "d".repeat(500) };
  t.deepEqual(parseJettonMetadata(buildJettonContent(long)), long);
  t.deepEqual(parseJettonMetadata(buildJettonContent(META)), META);
  t.throws(() => parseJettonMetadata(beginCell().storeUint(1, 8).endCell()), { message: /on-chain/ });
  const noDecimals = buildJettonContent({ symbol: "A", name: "B", decimals: 9 });
  t.is(parseJettonMetadata(noDecimals).decimals, 9);
});
