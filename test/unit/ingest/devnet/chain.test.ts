/**
 * The devnet chain core with two tiny contracts: `echo` (chain/echo.ts) sends the body back to the sender
 * with mode 64, `thrower` (defined here) always throws 77. Every trace starts with an external message to a devnet wallet.
 */
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  loadTransaction,
  type Message,
  storeMessage,
} from "@ton/core";
import test from "ava";
import {
  Chain,
  COMPUTE_FEE,
  CodeRegistry,
  type ContractHandler,
  ContractThrow,
  DEVNET_SHARD,
  type DevnetBlock,
  type EchoState,
  echoHandler,
  echoInit,
  FORWARD_FEE,
  instantiate,
  markerCode,
  registerEcho,
  registerWallet,
  stateOf,
  type Transfer,
  walletHandler,
  walletInit,
  walletTransferBody,
} from "../../../../ingest/devnet/chain/index.ts";
import { rawTransactionFromTonCore } from "../../../../schemas/from-ton-core.ts";
import { parseRawTransaction, type RawTransaction } from "../../../../schemas/raw-transaction.ts";

const TON = 1_000_000_000n;

const thrower: ContractHandler<null> = {
  kind: "thrower",
  receiveInternal() {
    throw new ContractThrow(77);
  },
};

const THROWER_CODE = markerCode("thrower");
const body = beginCell().storeUint(0x12345678, 32).storeUint(42n, 64).storeRef(Cell.EMPTY).endCell();
const nowhere = Address.parseRaw(`0:${"ab".repeat(32)}`);

function setup() {
  const registry = registerEcho(registerWallet(new CodeRegistry())).register(THROWER_CODE, () =>
    instantiate(thrower, null),
  );
  const chain = new Chain({ registry });
  const wallet = chain.deployGenesis(walletInit(1n), 10n * TON);
  const echoAddr = chain.deployGenesis(echoInit(0), TON);
  const throwerAddr = chain.deployGenesis({ code: THROWER_CODE, data: Cell.EMPTY }, TON);
  const send = (transfers: Transfer[]): void => {
    const { seqno } = stateOf(chain.account(wallet)!.contract!, walletHandler);
    chain.sendExternal(wallet, walletTransferBody(seqno, 0xffffffff, transfers));
  };
  const run = (blocks: number): DevnetBlock[] => Array.from({ length: blocks }, () => chain.produceBlock());
  return { chain, wallet, echoAddr, throwerAddr, send, run };
}

const txsOf = (blocks: DevnetBlock[]): RawTransaction[] => blocks.flatMap((b) => b.transactions);
const raw = (a: Address): string => a.toRawString().toUpperCase();
const msgHash = (m: Message): string => beginCell().store(storeMessage(m)).endCell().hash().toString("hex");

/** A busy scenario: an echo round trip, a bounce, a deploy, a transfer to nowhere, all in one block. */
function scenario(): DevnetBlock[] {
  const s = setup();
  s.send([
    { to: s.echoAddr, value: TON, body },
    { to: s.throwerAddr, value: TON, body },
    { to: contractAddress(0, echoInit(7)), value: TON, body, init: echoInit(7) },
    { to: nowhere, value: TON / 2n, bounce: false },
  ]);
  s.send([]); // same seqno again: rejected, no transaction
  return s.run(4);
}

test("a 3-hop trace spans 3 blocks, linked by message hashes", (t) => {
  const s = setup();
  s.send([{ to: s.echoAddr, value: TON, body }]);
  const [b1, b2, b3, b4] = s.run(4);
  t.deepEqual(
    [b1, b2, b3, b4].map((b) => b!.transactions.length),
    [1, 1, 1, 0],
  );
  t.deepEqual(
    [b1, b2, b3, b4].map((b) => b!.utime),
    [1_700_000_005, 1_700_000_010, 1_700_000_015, 1_700_000_020],
  );
  const [ext, atEcho, back] = [b1!.transactions[0]!, b2!.transactions[0]!, b3!.transactions[0]!];
  t.is(ext.in_msg!.source, null);
  t.is(ext.account, raw(s.wallet));
  t.is(atEcho.account, raw(s.echoAddr));
  t.is(atEcho.in_msg!.hash, ext.out_msgs[0]!.hash);
  t.is(back.in_msg!.hash, atEcho.out_msgs[0]!.hash);
  t.is(back.account, raw(s.wallet));
  // Mode 3 pays the forward fee on top; mode 64 carries the inbound value minus compute and forward fees.
  t.is(atEcho.in_msg!.value, TON.toString());
  t.is(back.in_msg!.value, (TON - COMPUTE_FEE - FORWARD_FEE).toString());
  t.is(s.chain.account(s.wallet)!.balance, 10n * TON - 3n * COMPUTE_FEE - 2n * FORWARD_FEE);
  t.is(s.chain.account(s.echoAddr)!.balance, TON);
  t.is(stateOf(s.chain.account(s.echoAddr)!.contract!, echoHandler).count, 1);
  t.is(s.chain.pending, 0);
});

test("lt: tx lt > in_msg created_lt and > the account's previous lt; out msgs get lt+1, lt+2, …", (t) => {
  const blocks = scenario();
  const lastEnd = new Map<string, bigint>();
  for (const block of blocks) {
    const lts = block.transactions.map((tx) => BigInt(tx.lt));
    t.deepEqual(
      lts,
      [...lts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    for (const tx of block.transactions) {
      const lt = BigInt(tx.lt);
      t.true(lt >= BigInt(block.mc_seqno) * 1_000_000n);
      if (tx.in_msg?.created_lt) t.true(lt > BigInt(tx.in_msg.created_lt));
      t.true(lt >= (lastEnd.get(tx.account) ?? 0n));
      tx.out_msgs.forEach((m, i) => {
        t.is(m.created_lt, (lt + 1n + BigInt(i)).toString());
        t.is(m.created_at, tx.now);
      });
      lastEnd.set(tx.account, lt + BigInt(tx.out_msgs.length) + 1n);
      const loaded = loadTransaction(Cell.fromBase64(tx.boc!).beginParse());
      t.is(loaded.prevTransactionLt < lt, true);
    }
  }
});

test("message and transaction hashes are cell hashes of the @ton/core objects", (t) => {
  const all = txsOf(scenario());
  t.true(all.length >= 8);
  for (const tx of all) {
    const cell = Cell.fromBase64(tx.boc!);
    t.is(cell.hash().toString("hex"), tx.hash);
    const loaded = loadTransaction(cell.beginParse());
    t.is(loaded.hash().toString("hex"), tx.hash);
    t.is(msgHash(loaded.inMessage!), tx.in_msg!.hash);
    t.deepEqual(
      [...loaded.outMessages.values()].map(msgHash),
      tx.out_msgs.map((m) => m.hash),
    );
  }
});

test("a bounceable message to a throwing contract bounces value minus fees, body 0xffffffff + original", (t) => {
  const s = setup();
  s.send([{ to: s.throwerAddr, value: TON, body }]);
  const [, b2, b3] = s.run(3);
  const failed = b2!.transactions[0]!;
  t.deepEqual(failed.compute, { success: false, exit_code: 77 });
  t.true(failed.aborted);
  t.is(failed.action, null);
  t.is(failed.out_msgs.length, 1);
  const bounced = failed.out_msgs[0]!;
  t.deepEqual([bounced.bounced, bounced.bounce, bounced.destination], [true, false, raw(s.wallet)]);
  t.is(bounced.value, (TON - COMPUTE_FEE - FORWARD_FEE).toString());
  t.is(bounced.opcode, 0xffffffff);
  const expected = beginCell().storeUint(0xffffffff, 32).storeBits(body.bits).endCell();
  t.true(Cell.fromBase64(bounced.body_boc).equals(expected));
  t.is(s.chain.account(s.throwerAddr)!.balance, TON);
  t.is(b3!.transactions[0]!.in_msg!.hash, bounced.hash);
  t.is(s.chain.account(s.wallet)!.balance, 10n * TON - 3n * COMPUTE_FEE - 2n * FORWARD_FEE);
});

test("to nowhere: non-bounceable value is kept as an uninit balance, bounceable comes back", (t) => {
  const s = setup();
  const other = Address.parseRaw(`0:${"cd".repeat(32)}`);
  s.send([
    { to: nowhere, value: TON / 2n, bounce: false },
    { to: other, value: TON / 2n, bounce: true },
  ]);
  const [, b2] = s.run(3);
  const [kept, back] = [nowhere, other].map((a) => b2!.transactions.find((tx) => tx.account === raw(a))!);
  t.deepEqual(kept!.compute, { success: false, exit_code: null });
  t.is(kept!.out_msgs.length, 0);
  const account = s.chain.account(nowhere)!;
  t.true(account.address.equals(nowhere));
  const { balance, status, contract, lastTxLt, lastTxHash } = account;
  t.deepEqual(
    { balance, status, contract, lastTxLt, lastTxHash },
    {
      balance: TON / 2n,
      status: "uninitialized",
      contract: null,
      lastTxLt: BigInt(kept!.lt),
      lastTxHash: BigInt(`0x${kept!.hash}`),
    },
  );
  t.is(back!.out_msgs[0]!.value, (TON / 2n - FORWARD_FEE).toString());
  t.is(s.chain.account(other), undefined);
  const loaded = loadTransaction(Cell.fromBase64(back!.boc!).beginParse());
  t.deepEqual([loaded.oldStatus, loaded.endStatus], ["non-existing", "non-existing"]);
});

test("a message with a StateInit deploys the registered contract, which then runs", (t) => {
  const s = setup();
  const target = contractAddress(0, echoInit(7));
  s.send([{ to: target, value: TON, body, init: echoInit(7) }]);
  const [, b2, b3] = s.run(3);
  const deploy = b2!.transactions[0]!;
  t.is(deploy.account, raw(target));
  t.true(deploy.compute.success);
  t.is(deploy.in_msg!.init_boc !== undefined, true);
  const loaded = loadTransaction(Cell.fromBase64(deploy.boc!).beginParse());
  t.deepEqual([loaded.oldStatus, loaded.endStatus], ["non-existing", "active"]);
  const d = loaded.description;
  t.true(d.type === "generic" && d.computePhase.type === "vm" && d.computePhase.accountActivated);
  t.is(s.chain.account(target)!.contract!.kind, "echo");
  t.is(b3!.transactions[0]!.account, raw(s.wallet));
});

test("an external the wallet rejects (replayed seqno) leaves no transaction", (t) => {
  const s = setup();
  s.send([]);
  s.send([]);
  const [b1] = s.run(1);
  t.is(b1!.transactions.length, 1);
  t.is(s.chain.droppedExternals, 1);
});

test("same inputs give byte-identical blocks", (t) => {
  t.is(JSON.stringify(scenario()), JSON.stringify(scenario()));
});

test("every produced record passes parseRawTransaction", (t) => {
  const all = txsOf(scenario());
  for (const tx of all) {
    const parsed = parseRawTransaction(JSON.parse(JSON.stringify(tx)));
    t.true(parsed.ok, parsed.ok ? "" : parsed.errors.join("; "));
    t.is(tx.shard, "0:8000000000000000");
  }
});

test("each record equals the reference mapper applied to the transaction's own BOC", (t) => {
  const blocks = scenario();
  t.true(blocks.some((b) => b.transactions.length > 0));
  for (const block of blocks) {
    for (const tx of block.transactions) {
      const loaded = loadTransaction(Cell.fromBase64(tx.boc!).beginParse());
      const ids = {
        mc_seqno: block.mc_seqno,
        workchain: 0,
        shard: DEVNET_SHARD,
        block_seqno: block.mc_seqno,
      };
      t.deepEqual(rawTransactionFromTonCore(loaded, ids), tx);
    }
  }
});

test("an action phase that cannot pay fails with 37, keeps the state and bounces", (t) => {
  const s = setup();
  const greedy: ContractHandler<EchoState> = {
    kind: "greedy",
    receiveInternal: (state, msg) => ({
      exitCode: 0,
      outMessages: [{ to: msg.source, value: 100n * TON, bounce: false, body: Cell.EMPTY }],
      state: { count: state.count + 1 },
    }),
  };
  const greedyAddr = Address.parseRaw(`0:${"ef".repeat(32)}`);
  s.chain.addAccount(greedyAddr, TON, instantiate(greedy, { count: 0 }));
  s.send([{ to: greedyAddr, value: TON, body }]);
  const [, b2] = s.run(3);
  const tx = b2!.transactions[0]!;
  t.deepEqual(
    [tx.compute, tx.action, tx.aborted],
    [{ success: true, exit_code: 0 }, { success: false, result_code: 37 }, true],
  );
  t.true(tx.out_msgs[0]!.bounced);
  t.is(stateOf(s.chain.account(greedyAddr)!.contract!, greedy).count, 0);
  t.is(s.chain.account(greedyAddr)!.balance, TON);
});
