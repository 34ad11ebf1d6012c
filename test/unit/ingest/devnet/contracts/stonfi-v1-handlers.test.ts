/**
 * The devnet STON.fi DEX v1 handlers called directly (no chain): storage round trips, address derivation,
 * the router's checks on `transfer_notification` and `pay_to` (contracts.md §2.4, §2.6), the pool's
 * governance and public `collect_fees` (§2.8), the admin-upgrade timelock, exit-code names and purity.
 * End-to-end flows through the SDK live in ./stonfi-v1.test.ts.
 */
import { Address, beginCell, type Cell, contractAddress, type StateInit, TupleReader } from "@ton/core";
import test, { type ExecutionContext } from "ava";
import {
  type Decoded,
  decodeBody,
  decodeForwardPayload,
  encodeBody,
  encodeJettonTransferNotification,
  encodeStonfiV1PayTo,
  encodeStonfiV1SetFeesPool,
  encodeStonfiV1SwapPayload,
} from "../../../../../dex/codecs/index.ts";
import { STONFI_EXIT_CODE, V1_EXIT_CODES } from "../../../../../dex/exit-codes.ts";
import {
  CodeRegistry,
  type ContractInstance,
  type ContractRun,
  ContractThrow,
  GAS_PRICE,
  type InboundInternal,
} from "../../../../../ingest/devnet/chain/index.ts";
import {
  HOLE_ADDRESS,
  registerStonfiV1,
  V1_ADMIN_UPGRADE_DELAY,
  V1_LP_ACCOUNT_CODE,
  V1_LP_WALLET_CODE,
  V1_LP_WALLET_THROW,
  V1_POOL_CODE,
  V1_THROW,
  type V1PoolState,
  v1InitAdminUpgradeBody,
  v1LockBody,
  v1PoolAddress,
  v1PoolHandler,
  v1PoolInit,
  v1RouterInit,
} from "../../../../../ingest/devnet/contracts/stonfi-v1/index.ts";

const TON = 1_000_000_000n;
const NOW = 1_700_000_000;
const addr = (byte: number) => Address.parseRaw(`0:${byte.toString(16).padStart(2, "0").repeat(32)}`);
const [admin, user, walletA, walletB, stranger] = [1, 2, 3, 4, 5].map(addr) as [
  Address,
  Address,
  Address,
  Address,
  Address,
];
const registry = registerStonfiV1(new CodeRegistry());

function deploy(init: StateInit): { address: Address; contract: ContractInstance } {
  const address = contractAddress(0, init);
  const contract = registry.factory(init.code!)({ code: init.code!, data: init.data ?? null, address });
  return { address, contract };
}

function call(c: { address: Address; contract: ContractInstance }, source: Address, body: Cell, value = TON) {
  const msg: InboundInternal = { source, value, bounce: true, bounced: false, body };
  return c.contract.receiveInternal(msg, {
    now: NOW,
    lt: 1n,
    address: c.address,
    balance: 10n * TON + value,
  });
}

const exitOf = (t: ExecutionContext, f: () => unknown) =>
  t.throws(f, { instanceOf: ContractThrow })?.exitCode;
const bodies = (run: Pick<ContractRun, "outMessages">): Decoded[] =>
  run.outMessages.map((m) => decodeBody(m.body, { dex: "v1" }));

const router = deploy(v1RouterInit({ admin }));
const routerInit = {
  poolCode: V1_POOL_CODE,
  lpWalletCode: V1_LP_WALLET_CODE,
  lpAccountCode: V1_LP_ACCOUNT_CODE,
};
const poolInit = v1PoolInit({ ...routerInit, address: router.address }, walletA, walletB);

function notification(amount: bigint, payload: Cell, inRef = true): Cell {
  return encodeJettonTransferNotification({
    kind: "jetton.transfer_notification",
    queryId: 9n,
    amount,
    sender: user,
    forwardPayload: { inRef, payload },
  });
}

const swapPayload = (ask: Address | null) =>
  encodeStonfiV1SwapPayload({
    kind: "stonfi.v1.swap_payload",
    tokenWallet1: ask,
    minOut: 5n,
    toAddress: user,
    hasRef: false,
    refAddress: null,
  });

test("every code cell deploys a handler whose state re-serialises to the deployed data", (t) => {
  const pool = deploy(poolInit);
  t.true(pool.address.equals(v1PoolAddress(router.address, walletA, walletB)));
  t.true(pool.address.equals(v1PoolAddress(router.address, walletB, walletA)), "either order");
  t.true(router.contract.stateCell()?.equals(v1RouterInit({ admin }).data!));
  t.true(pool.contract.stateCell()?.equals(poolInit.data!));
});

test("router: zero amount throws 87, an inline payload 9, a non-basechain ask wallet 85", (t) => {
  t.is(
    exitOf(t, () => call(router, walletA, notification(0n, swapPayload(walletB)))),
    V1_THROW.invalidAmount,
  );
  t.is(
    exitOf(t, () => call(router, walletA, notification(10n, swapPayload(walletB), false))),
    9,
  );
  const masterchain = Address.parseRaw(`-1:${"33".repeat(32)}`);
  t.is(
    exitOf(t, () => call(router, walletA, notification(10n, swapPayload(masterchain)))),
    85,
  );
});

test("router: an unknown payload op keeps the jettons; too little gas refunds them", (t) => {
  const unknown = beginCell().storeUint(0xdeadbeef, 32).storeAddress(walletB).endCell();
  const kept = call(router, walletA, notification(10n, unknown));
  t.deepEqual([kept.exitCode, kept.outMessages.length], [0, 0]);
  // 6 × the flat 0.001 TON forward fee is the minimum the router wants with a notification.
  const refund = call(router, walletA, notification(10n, swapPayload(walletB)), 5_000_000n);
  const [transfer] = bodies(refund);
  t.is(transfer?.kind, "jetton.transfer");
  if (transfer?.kind !== "jetton.transfer") return;
  t.true(refund.outMessages[0]!.to.equals(walletA), "back through the wallet that notified");
  t.deepEqual([transfer.amount, transfer.destination?.equals(user)], [10n, true]);
  const code = decodeForwardPayload(transfer.forwardPayload!.payload, { dex: "v1" });
  t.deepEqual(code, {
    kind: "stonfi.v1.exit_code_payload",
    exitCode: STONFI_EXIT_CODE.transfer_bounce_invalid_request,
  });
  t.is(refund.events[0]?.fields.pool, null, "a router-level refusal is recorded on the router");
});

test("router pay_to: gas_fee(20000) minimum, pools only, two payouts split the remaining value", (t) => {
  const pool = contractAddress(0, poolInit);
  const payTo = encodeStonfiV1PayTo({
    kind: "stonfi.v1.pay_to",
    queryId: 3n,
    owner: user,
    exitCode: STONFI_EXIT_CODE.burn_ok,
    amount0Out: 7n,
    token0: walletA,
    amount1Out: 8n,
    token1: walletB,
  });
  const gasFee = 20_000n * GAS_PRICE;
  t.is(
    exitOf(t, () => call(router, pool, payTo, gasFee)),
    V1_THROW.insufficientGas,
  );
  t.is(
    exitOf(t, () => call(router, stranger, payTo)),
    V1_THROW.invalidCaller,
  );
  const run = call(router, pool, payTo, TON);
  t.deepEqual(
    run.outMessages.map((m) => [m.to.toRawString(), m.value, m.mode]),
    [
      [walletA.toRawString(), (TON - gasFee) / 2n, 2],
      [walletB.toRawString(), (TON - gasFee) / 2n, 2],
    ],
  );
});

const livePool: V1PoolState = {
  router: router.address,
  lpFee: 20,
  protocolFee: 10,
  refFee: 10,
  token0: walletA,
  token1: walletB,
  totalSupply: 1_000_000n,
  collected0: 2_000_000n,
  collected1: 3_000_001n,
  protocolFeeAddress: HOLE_ADDRESS,
  reserve0: 10n ** 12n,
  reserve1: 10n ** 12n,
  lpWalletCode: V1_LP_WALLET_CODE,
  lpAccountCode: V1_LP_ACCOUNT_CODE,
};
const poolAddress = contractAddress(0, poolInit);
const poolCall = (state: V1PoolState, source: Address, body: Cell, value = TON) =>
  v1PoolHandler.receiveInternal(
    state,
    { source, value, bounce: true, bounced: false, body },
    {
      now: NOW,
      lt: 1n,
      address: poolAddress,
      balance: TON + value,
    },
  );

test("pool set_fees: router only, each fee 0..100 bps", (t) => {
  const body = (lpFee: number) =>
    encodeStonfiV1SetFeesPool({
      kind: "stonfi.v1.set_fees_pool",
      queryId: 1n,
      lpFee,
      protocolFee: 0,
      refFee: 100,
      protocolFeeAddress: stranger,
    });
  t.is(
    exitOf(t, () => poolCall(livePool, router.address, body(101))),
    V1_THROW.feeOutOfRange,
  );
  t.is(
    exitOf(t, () => poolCall(livePool, stranger, body(5))),
    V1_THROW.wrongOp,
  );
  const next = poolCall(livePool, router.address, body(5)).state;
  t.deepEqual([next.lpFee, next.protocolFee, next.refFee], [5, 0, 100]);
  t.true(next.protocolFeeAddress?.equals(stranger));
});

test("pool collect_fees: 91 to the HOLE; the public call rewards the caller with 0.1%", (t) => {
  const collect = encodeBody({ kind: "stonfi.v1.collect_fees_pool", queryId: 2n });
  t.is(
    exitOf(t, () => poolCall(livePool, router.address, collect)),
    V1_THROW.invalidRecipient,
  );
  const withAddress = { ...livePool, protocolFeeAddress: admin };
  t.is(
    exitOf(t, () => poolCall(withAddress, stranger, collect, TON)),
    V1_THROW.insufficientGas,
  );
  const run = poolCall(withAddress, stranger, collect, 11n * (TON / 10n));
  const quarter = (11n * (TON / 10n) - 40_000n * GAS_PRICE) / 4n;
  t.deepEqual(
    run.outMessages.map((m) => m.value),
    [3n * quarter, quarter],
  );
  const [toProtocol, toCaller] = bodies(run);
  t.like(toCaller, { kind: "stonfi.v1.pay_to", amount0Out: 2_000n, amount1Out: 3_000n, exitCode: 0 });
  t.like(toProtocol, { kind: "stonfi.v1.pay_to", amount0Out: 1_998_000n, amount1Out: 2_997_001n });
  t.deepEqual([run.state.collected0, run.state.collected1], [0n, 0n]);
});

test("handlers never mutate the state they are given", (t) => {
  const frozen = Object.freeze({ ...livePool });
  const swap = encodeBody({
    kind: "stonfi.v1.swap",
    queryId: 4n,
    toAddress: user,
    senderWallet: walletA,
    jettonAmount: 1_000_000n,
    minOut: 0n,
    hasRef: true,
    fromUser: user,
    refAddress: stranger,
  });
  const run = poolCall(frozen, router.address, swap);
  t.is(frozen.reserve0, livePool.reserve0);
  t.is(run.state.reserve0, livePool.reserve0 + 1_000_000n);
  t.deepEqual(
    run.events?.map((e) => e.type),
    ["swap", "referral_payment"],
  );
});

test("admin upgrade: two-day timelock, then finalize_upgrades hands the router to the new admin", (t) => {
  const newAdmin = addr(6);
  let r = deploy(v1RouterInit({ admin }));
  const send = (source: Address, body: Cell, now: number) => {
    const msg = { source, value: TON, bounce: true, bounced: false, body };
    const run = r.contract.receiveInternal(msg, { now, lt: 1n, address: r.address, balance: 10n * TON });
    r = { ...r, contract: run.next };
  };
  const routerData = () =>
    new TupleReader(
      r.contract.runGetMethod("get_router_data", [], { address: r.address, balance: 0n, now: 0 })!,
    );
  const adminNow = () => {
    const reader = routerData();
    reader.readBigNumber();
    return reader.readAddress();
  };
  send(admin, v1InitAdminUpgradeBody(1n, newAdmin), NOW);
  t.is(
    exitOf(t, () => send(admin, v1InitAdminUpgradeBody(2n, newAdmin), NOW)),
    88,
    "one at a time",
  );
  const finalize = encodeBody({ kind: "stonfi.v1.finalize_upgrades", queryId: 3n });
  send(admin, finalize, NOW + Number(V1_ADMIN_UPGRADE_DELAY) - 1);
  t.true(adminNow().equals(admin), "still timelocked");
  send(admin, finalize, NOW + Number(V1_ADMIN_UPGRADE_DELAY));
  t.true(adminNow().equals(newAdmin));
  t.is(
    exitOf(t, () => send(admin, v1LockBody(4n, true), NOW)),
    V1_THROW.wrongOp,
    "the old admin is a stranger",
  );
  send(newAdmin, v1LockBody(5n, true), NOW);
  t.is(routerData().readBigNumber(), -1n, "get_router_data reports is_locked as a TVM true");
});

test("every v1 throw code has a name in dex/exit-codes.ts", (t) => {
  for (const [name, code] of Object.entries({ ...V1_THROW, ...V1_LP_WALLET_THROW })) {
    t.truthy(V1_EXIT_CODES.get(code), `${name} = ${code}`);
  }
});
