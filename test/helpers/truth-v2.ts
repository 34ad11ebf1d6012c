/**
 * A devnet world for the STON.fi v2 contract tests (ingest/devnet/contracts/stonfi-v2): jettons A, B, C,
 * pTON v2.1, one v2 router of a given type and build, and users who act only through the real
 * `@ston-fi/sdk` (opened on the chain with `openOnChain`). Every trace is checked the same way:
 * (a) every message decodes, (b) pool state read back through `dex/chain-state.ts` is compared by the
 * tests with the `dex/amm` result, (c) `classify` agrees with the contracts' ground truth (./truth.ts).
 */
import { DEX, pTON } from "@ston-fi/sdk";
import type { Address, Cell, SenderArguments } from "@ton/core";
import type { ExecutionContext } from "ava";
import { type PoolState, poolState } from "../../dex/amm/index.ts";
import { type ChainState, createChainState } from "../../dex/chain-state.ts";
import { classify } from "../../dex/classify/index.ts";
import type { PoolParams } from "../../dex/codecs/index.ts";
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
} from "../../ingest/devnet/chain/index.ts";
import {
  jettonMintBody,
  jettonMinterInit,
  jettonWalletAddress,
  registerJettons,
} from "../../ingest/devnet/contracts/jetton/index.ts";
import {
  ptonV2MinterInit,
  ptonV2WalletInit,
  registerPton,
} from "../../ingest/devnet/contracts/pton/index.ts";
import {
  registerStonfiV2,
  type V2Minor,
  type V2RouterType,
  v2PoolAddress,
  v2RouterInit,
  v2SetParamsBody,
} from "../../ingest/devnet/contracts/stonfi-v2/index.ts";
import { runTrace, type Trace, truthMismatches, undecodedMessages } from "./truth.ts";

export const TON = 1_000_000_000n;
export const MILLI = TON / 1000n;
const E18 = 10n ** 18n;

const SDK_CLASS = {
  constant_product: "CPI",
  stableswap: "Stable",
  weighted_const_product: "WCPI",
  weighted_stableswap: "WStable",
} as const;

export type World = ReturnType<typeof createWorld>;

/**
 * Genesis: an admin, users alice (trader, LP), bob (receiver), carol (referrer) and a protocol-fee wallet;
 * jetton minters A, B, C; the pTON v2.1 minter and the router's pTON wallet; the router itself.
 */
function genesis(type: V2RouterType, minor: V2Minor) {
  const registry = registerStonfiV2(registerPton(registerJettons(registerWallet(new CodeRegistry()))));
  const chain = new Chain({ registry });
  const [admin, alice, bob, carol, protocol] = [1n, 2n, 3n, 4n, 5n].map((id) =>
    chain.deployGenesis(walletInit(id), 1_000_000n * TON),
  ) as [Address, Address, Address, Address, Address];
  const jetton = (symbol: string) =>
    chain.deployGenesis(jettonMinterInit({ admin, metadata: { symbol, name: symbol, decimals: 9 } }), TON);
  const [A, B, C] = [jetton("AAA"), jetton("BBB"), jetton("CCC")];
  const ptonMinter = chain.deployGenesis(ptonV2MinterInit(), TON);
  const router = chain.deployGenesis(v2RouterInit({ id: 7n, type, minor, admin }), TON);
  const routerPton = chain.deployGenesis(ptonV2WalletInit(router, ptonMinter), TON);
  return { type, minor, chain, admin, alice, bob, carol, protocol, A, B, C, ptonMinter, router, routerPton };
}

/** Sending from devnet wallets: every trace runs to its end and is appended to `history`. */
function sender(chain: Chain) {
  const history: Trace = { txs: [], truth: [] };
  const send = (from: Address, transfers: Transfer[]): Trace => {
    const { seqno } = stateOf(chain.account(from)!.contract!, walletHandler);
    const body = walletTransferBody(seqno, 0xffffffff, transfers);
    const trace = runTrace(chain, () => chain.sendExternal(from, body));
    history.txs.push(...trace.txs);
    history.truth.push(...trace.truth);
    return trace;
  };
  const sendSdk = (from: Address, args: SenderArguments): Trace =>
    send(from, [{ to: args.to, value: args.value, body: args.body ?? undefined }]);
  return { history, send, sendSdk };
}

/** The SDK wrappers of this router's build, opened on the devnet. */
function sdkOf(chain: Chain, type: V2RouterType, minor: V2Minor, router: Address) {
  const dex = minor === 1 ? DEX.v2_1 : DEX.v2_2;
  return {
    sdk: openOnChain(chain, new dex.Router[SDK_CLASS[type]](router)),
    pool: (address: Address) => openOnChain(chain, new dex.Pool[SDK_CLASS[type]](address)),
    lpAccount: (address: Address) => openOnChain(chain, new dex.LpAccount(address)),
    vault: (address: Address) => openOnChain(chain, new dex.Vault(address)),
  };
}

export function createWorld(type: V2RouterType, minor: V2Minor) {
  const g = genesis(type, minor);
  const { chain, router, ptonMinter, routerPton } = g;
  const io = sender(chain);
  for (const minter of [g.A, g.B, g.C]) {
    const amount = 1_000_000_000n * TON;
    const body = jettonMintBody({
      queryId: 1n,
      to: g.alice,
      amount,
      responseAddress: g.admin,
      tonAmount: 50n * MILLI,
    });
    io.send(g.admin, [{ to: minter, value: 100n * MILLI, body }]);
  }
  // the genesis mints are not DEX traffic (and their admin op is not a STON.fi message)
  io.history.txs.length = 0;
  io.history.truth.length = 0;
  const routerWallet = (minter: Address): Address =>
    minter.equals(ptonMinter) ? routerPton : jettonWalletAddress(router, minter);
  return {
    ...g,
    ...io,
    ...sdkOf(chain, type, minor, router),
    routerWallet,
    poolOf: (x: Address, y: Address) => v2PoolAddress(router, routerWallet(x), routerWallet(y), type),
    state: createChainState({
      runGetMethod: async (address, method, args) => chain.runGetMethod(address, method, args),
      getBalance: async (address) => chain.account(address)?.balance ?? 0n,
    }) as ChainState,
    proxyTon: new pTON.v2_1(ptonMinter),
    /** A deadline well ahead of the chain's clock (the SDK's default reads Date.now). */
    deadline: (): number => chain.utime + 3600,
  };
}

/** The pool as the engine sees it, read through the ChainState get-method layer. */
export async function readPool(w: World, pool: Address): Promise<PoolState> {
  const d = await w.state.getV2PoolData(pool);
  if (d === null) throw new Error(`no pool at ${pool.toRawString()}`);
  return poolState({
    type: `v2_${d.poolType}`,
    reserve0: d.reserve0,
    reserve1: d.reserve1,
    lpSupply: d.totalSupplyLp,
    lpFeeBps: BigInt(d.lpFee),
    protocolFeeBps: BigInt(d.protocolFee),
    refFeeBps: 0n,
    collectedProtocolFee0: d.collectedToken0ProtocolFee,
    collectedProtocolFee1: d.collectedToken1ProtocolFee,
    isLocked: d.isLocked,
    amp: d.amp ?? 0n,
    rate: d.rate ?? 0n,
    w0: d.w0 ?? 0n,
  });
}

/** The pool's state, or the fresh state of a pool nobody deployed yet (template defaults, §3.2). */
export async function poolOrFresh(w: World, pool: Address): Promise<PoolState> {
  if ((await w.state.getV2PoolData(pool)) !== null) return readPool(w, pool);
  const amp = w.type === "stableswap" ? 1n : w.type === "weighted_stableswap" ? E18 : 0n;
  return poolState({ type: `v2_${w.type}`, amp, refFeeBps: 0n });
}

/** A jetton balance (0 for a wallet not deployed yet). */
export async function balanceOf(w: World, owner: Address, minter: Address): Promise<bigint> {
  return (await w.state.getJettonWalletData(jettonWalletAddress(owner, minter)))?.balance ?? 0n;
}

/** Checks (a) and (c) on one trace: every message decodes, and the classifier agrees with the truth. */
export function checkTrace(t: ExecutionContext, trace: Trace): void {
  t.deepEqual(undecodedMessages(trace.txs), [], "every message decodes");
  t.deepEqual(truthMismatches(classify(trace.txs), trace.truth), [], "classifier = truth");
}

/** Check (c) over every DEX transaction of the world so far, classified as one batch. */
export function checkHistory(t: ExecutionContext, w: World): void {
  t.deepEqual(
    truthMismatches(classify(w.history.txs), w.history.truth),
    [],
    "whole history: classifier = truth",
  );
}

/** Whether `wallet` is the pool's token0 (the engine's "0to1" direction when it is offered). */
export async function isToken0(w: World, pool: Address, wallet: Address): Promise<boolean> {
  const d = await w.state.getV2PoolData(pool);
  return d?.token0Wallet.equals(wallet) ?? false;
}

/** The pool parameters an admin sets before the first deposit (none for constant_product). */
export function paramsFor(w: World, x: Address): PoolParams | null {
  const side = w.routerWallet(x);
  if (w.type === "stableswap") return { poolType: "stableswap", amp: 200 };
  if (w.type === "weighted_const_product")
    return { poolType: "weighted_const_product", w: (6n * E18) / 10n, sideWallet: side };
  if (w.type === "weighted_stableswap") {
    return {
      poolType: "weighted_stableswap",
      amp: 100n * E18,
      rate: 0n,
      w: E18 / 2n,
      sideWallet: side,
      rateSetter: w.admin,
    };
  }
  return null;
}

/** Admin → router `set_params` for the pool of (x, y); null for constant_product routers. */
export function setParams(w: World, x: Address, y: Address): Trace | null {
  const params = paramsFor(w, x);
  if (params === null) return null;
  const body = v2SetParamsBody({
    queryId: 5n,
    wallet0: w.routerWallet(x),
    wallet1: w.routerWallet(y),
    excesses: w.admin,
    params,
  });
  return w.send(w.admin, [{ to: w.router, value: 300n * MILLI, body }]);
}

export type ProvideOptions = { queryId: bigint; single?: boolean; minLpOut?: bigint; deadline?: number };

/** One side of a provide, built by the SDK (TON through pTON v2.1 when `x` is the pTON minter). */
export async function provideTx(
  w: World,
  from: Address,
  x: Address,
  amount: bigint,
  y: Address,
  o: ProvideOptions,
): Promise<SenderArguments> {
  const common = {
    userWalletAddress: from,
    sendAmount: amount,
    minLpOut: o.minLpOut ?? 1n,
    queryId: o.queryId,
    deadline: o.deadline ?? w.deadline(),
  };
  if (x.equals(w.ptonMinter)) {
    const p = { ...common, proxyTon: w.proxyTon, otherTokenAddress: y };
    return o.single
      ? w.sdk.getSingleSideProvideLiquidityTonTxParams(p)
      : w.sdk.getProvideLiquidityTonTxParams(p);
  }
  const p = { ...common, sendTokenAddress: x, otherTokenAddress: y };
  return o.single
    ? w.sdk.getSingleSideProvideLiquidityJettonTxParams(p)
    : w.sdk.getProvideLiquidityJettonTxParams(p);
}

export type SwapOptions = {
  queryId: bigint;
  minOut?: bigint;
  deadline?: number;
  referral?: { address: Address; bps: bigint };
  receiver?: Address;
  dexCustomPayload?: Cell;
  forwardGasAmount?: bigint;
  gasAmount?: bigint;
};

/** A swap built by the SDK: jetton→jetton, jetton→TON or TON→jetton (pTON v2.1) by the minters given. */
export async function swapTx(
  w: World,
  from: Address,
  offer: Address,
  amount: bigint,
  ask: Address,
  o: SwapOptions,
): Promise<SenderArguments> {
  const common = {
    userWalletAddress: from,
    receiverAddress: o.receiver,
    offerAmount: amount,
    minAskAmount: o.minOut ?? 1n,
    queryId: o.queryId,
    deadline: o.deadline ?? w.deadline(),
    referralAddress: o.referral?.address,
    referralValue: o.referral?.bps ?? 0n,
    dexCustomPayload: o.dexCustomPayload,
    forwardGasAmount: o.forwardGasAmount,
  };
  if (offer.equals(w.ptonMinter))
    return w.sdk.getSwapTonToJettonTxParams({ ...common, proxyTon: w.proxyTon, askJettonAddress: ask });
  if (ask.equals(w.ptonMinter)) {
    return w.sdk.getSwapJettonToTonTxParams({
      ...common,
      gasAmount: o.gasAmount,
      offerJettonAddress: offer,
      proxyTon: w.proxyTon,
    });
  }
  return w.sdk.getSwapJettonToJettonTxParams({
    ...common,
    gasAmount: o.gasAmount,
    offerJettonAddress: offer,
    askJettonAddress: ask,
  });
}

/** The genesis pools of every test: A/B (1e6 : 2e6), B/C (2e6 : 2e6) and pTON/A (1000 TON : 1000 A). */
export const SEED = [
  { x: "A", y: "B", ax: 1_000_000n * TON, ay: 2_000_000n * TON },
  { x: "B", y: "C", ax: 2_000_000n * TON, ay: 2_000_000n * TON },
  { x: "T", y: "A", ax: 1000n * TON, ay: 1000n * TON },
] as const;

export const minterOf = (w: World, name: "A" | "B" | "C" | "T"): Address =>
  name === "T" ? w.ptonMinter : w[name];

/** Sets the pool parameters and makes alice's initial deposit in every seed pool. */
export async function seed(w: World): Promise<void> {
  for (const [i, s] of SEED.entries()) {
    const [x, y] = [minterOf(w, s.x), minterOf(w, s.y)];
    setParams(w, x, y);
    w.sendSdk(w.alice, await provideTx(w, w.alice, x, s.ax, y, { queryId: 100n + BigInt(i) }));
    w.sendSdk(w.alice, await provideTx(w, w.alice, y, s.ay, x, { queryId: 200n + BigInt(i) }));
  }
}
