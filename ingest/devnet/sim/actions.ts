/**
 * Every user-side message of the simulator is built here by the real @ston-fi/sdk wrappers (v1, v2_1,
 * v2_2), opened on the devnet so their get-method reads (jetton wallets, pools, LpAccounts, vaults) hit the
 * emulated contracts: the bytes equal what real wallets send. Query ids and deadlines are always passed
 * explicitly (the SDK's default v2 deadline reads the wall clock).
 */
import { DEX, pTON } from "@ston-fi/sdk";
import type { Address, Cell } from "@ton/core";
import { addressArg } from "../../../dex/chain-state.ts";
import { openOnChain } from "../chain/provider.ts";
import { TON_SYMBOL } from "./catalog.ts";
import type { RouterKey, UserMessage } from "./types.ts";
import type { RouterHandle, World } from "./world.ts";

type SenderArgs = { to: Address; value: bigint; body?: Cell | null };

function message(args: SenderArgs): UserMessage {
  if (!args.body) throw new TypeError("the SDK returned a message without a body");
  return { to: args.to, value: args.value, body: args.body };
}

const V2_SDK = {
  cpi_v2_1: DEX.v2_1.Router.CPI,
  cpi_v2_2: DEX.v2_2.Router.CPI,
  stable_v2_2: DEX.v2_2.Router.Stable,
  wcpi_v2_2: DEX.v2_2.Router.WCPI,
  wstable_v2_2: DEX.v2_2.Router.WStable,
} as const;

export type SwapArgs = {
  user: Address;
  router: RouterKey;
  offer: string;
  ask: string;
  amount: bigint;
  minOut: bigint;
  queryId: bigint;
  /** Unix seconds; v2 only. */
  deadline: number;
  referrer?: Address;
  /** v2 only: 0..100 bps (the SDK's default is 10). */
  referralBps?: number;
  /** v2 multi-hop: the next legs (same router), each with its own minimum output. */
  next?: { ask: string; minOut: number | bigint }[];
};

export type ProvideArgs = {
  user: Address;
  router: RouterKey;
  send: string;
  other: string;
  amount: bigint;
  minLpOut: bigint;
  queryId: bigint;
  deadline: number;
  /** v2 only: mint at once from one side. */
  singleSide?: boolean;
};

export class UserActions {
  readonly #world: World;
  readonly #routers = new Map<RouterKey, ReturnType<UserActions["openRouter"]>>();

  constructor(world: World) {
    this.#world = world;
  }

  private openRouter(handle: RouterHandle) {
    const chain = this.#world.chain;
    if (handle.key === "v1") return { v1: openOnChain(chain, new DEX.v1.Router(handle.address)), v2: null };
    return { v1: null, v2: openOnChain(chain, V2_SDK[handle.key].create(handle.address)) };
  }

  #router(key: RouterKey) {
    let opened = this.#routers.get(key);
    if (opened === undefined) {
      opened = this.openRouter(this.handle(key));
      this.#routers.set(key, opened);
    }
    return opened;
  }

  handle(key: RouterKey): RouterHandle {
    const handle = this.#world.routers.get(key);
    if (handle === undefined) throw new RangeError(`unknown devnet router ${key}`);
    return handle;
  }

  master(symbol: string): Address {
    const master = this.#world.masters.get(symbol);
    if (master === undefined) throw new RangeError(`unknown devnet jetton ${symbol}`);
    return master;
  }

  #pton(key: RouterKey) {
    const handle = this.handle(key);
    return handle.dex === "v1" ? new pTON.v1(handle.ptonMinter) : new pTON.v2_1(handle.ptonMinter);
  }

  async swap(a: SwapArgs): Promise<UserMessage> {
    const { v1, v2 } = this.#router(a.router);
    const tonIn = a.offer === TON_SYMBOL;
    const tonOut = a.ask === TON_SYMBOL;
    const common = {
      userWalletAddress: a.user,
      offerAmount: a.amount,
      minAskAmount: a.minOut,
      queryId: a.queryId,
      ...(a.referrer ? { referralAddress: a.referrer } : {}),
    };
    if (v1) {
      const proxyTon = this.#pton(a.router);
      if (tonIn)
        return message(
          await v1.getSwapTonToJettonTxParams({ ...common, proxyTon, askJettonAddress: this.master(a.ask) }),
        );
      if (tonOut)
        return message(
          await v1.getSwapJettonToTonTxParams({
            ...common,
            proxyTon,
            offerJettonAddress: this.master(a.offer),
          }),
        );
      return message(
        await v1.getSwapJettonToJettonTxParams({
          ...common,
          offerJettonAddress: this.master(a.offer),
          askJettonAddress: this.master(a.ask),
        }),
      );
    }
    const router = v2!;
    const v2common = {
      ...common,
      deadline: a.deadline,
      ...(a.referralBps !== undefined ? { referralValue: a.referralBps } : {}),
      ...(a.next?.length ? await this.#crossSwapPayload(a) : {}),
    };
    const proxyTon = this.#pton(a.router);
    if (tonIn)
      return message(
        await router.getSwapTonToJettonTxParams({
          ...v2common,
          proxyTon,
          askJettonAddress: this.master(a.ask),
        }),
      );
    if (tonOut)
      return message(
        await router.getSwapJettonToTonTxParams({
          ...v2common,
          proxyTon,
          offerJettonAddress: this.master(a.offer),
        }),
      );
    return message(
      await router.getSwapJettonToJettonTxParams({
        ...v2common,
        offerJettonAddress: this.master(a.offer),
        askJettonAddress: this.master(a.ask),
      }),
    );
  }

  /**
   * A v2 multi-hop swap: the first leg's `dex_custom_payload` is a `cross_swap` for the next leg (built by
   * the SDK's `createCrossSwapBody`), nested for further legs; every hop goes through the same router.
   */
  async #crossSwapPayload(
    a: SwapArgs,
  ): Promise<{ dexCustomPayload: Cell; dexCustomPayloadForwardGasAmount: bigint }> {
    const router = this.#router(a.router).v2!;
    const legs = a.next!;
    let payload: Cell | undefined;
    for (let i = legs.length - 1; i >= 0; i--) {
      const leg = legs[i]!;
      const askWallet = this.routerWallet(a.router, leg.ask);
      payload = await router.createCrossSwapBody({
        askJettonWalletAddress: askWallet,
        receiverAddress: a.user,
        minAskAmount: leg.minOut,
        refundAddress: a.user,
        deadline: a.deadline,
        ...(payload
          ? { dexCustomPayload: payload, dexCustomPayloadForwardGasAmount: CROSS_SWAP_FORWARD }
          : {}),
        ...(a.referrer ? { referralAddress: a.referrer } : {}),
        ...(a.referralBps !== undefined ? { referralValue: a.referralBps } : {}),
      });
    }
    return { dexCustomPayload: payload!, dexCustomPayloadForwardGasAmount: CROSS_SWAP_FORWARD };
  }

  readonly #routerWallets = new Map<string, Address>();

  /** The router's own wallet for an asset (its pTON wallet for TON), through the minter's get-method. */
  routerWallet(router: RouterKey, symbol: string): Address {
    const key = `${router}:${symbol}`;
    const cached = this.#routerWallets.get(key);
    if (cached !== undefined) return cached;
    const wallet = this.#readRouterWallet(router, symbol);
    // A router's wallet for a token never changes.
    this.#routerWallets.set(key, wallet);
    return wallet;
  }

  #readRouterWallet(router: RouterKey, symbol: string): Address {
    const handle = this.handle(router);
    const minter = symbol === TON_SYMBOL ? handle.ptonMinter : this.master(symbol);
    const { exitCode, stack } = this.#world.chain.runGetMethod(minter, "get_wallet_address", [
      addressArg(handle.address),
    ]);
    if (exitCode !== 0 || stack[0]?.type !== "slice")
      throw new Error(`get_wallet_address failed on ${symbol}`);
    return stack[0].cell.beginParse().loadAddress();
  }

  async provide(a: ProvideArgs): Promise<UserMessage> {
    const { v1, v2 } = this.#router(a.router);
    const tonIn = a.send === TON_SYMBOL;
    const other = a.other === TON_SYMBOL ? this.#pton(a.router).address : this.master(a.other);
    const common = {
      userWalletAddress: a.user,
      sendAmount: a.amount,
      minLpOut: a.minLpOut,
      queryId: a.queryId,
      otherTokenAddress: other,
    };
    if (v1) {
      if (tonIn)
        return message(
          await v1.getProvideLiquidityTonTxParams({ ...common, proxyTon: this.#pton(a.router) }),
        );
      return message(
        await v1.getProvideLiquidityJettonTxParams({ ...common, sendTokenAddress: this.master(a.send) }),
      );
    }
    const router = v2!;
    const v2common = { ...common, deadline: a.deadline };
    if (tonIn) {
      const proxyTon = this.#pton(a.router);
      return message(
        a.singleSide
          ? await router.getSingleSideProvideLiquidityTonTxParams({ ...v2common, proxyTon })
          : await router.getProvideLiquidityTonTxParams({ ...v2common, proxyTon }),
      );
    }
    const jetton = { ...v2common, sendTokenAddress: this.master(a.send) };
    return message(
      a.singleSide
        ? await router.getSingleSideProvideLiquidityJettonTxParams(jetton)
        : await router.getProvideLiquidityJettonTxParams(jetton),
    );
  }

  async burn(a: {
    user: Address;
    router: RouterKey;
    pool: Address;
    lpAmount: bigint;
    queryId: bigint;
  }): Promise<UserMessage> {
    const chain = this.#world.chain;
    if (this.handle(a.router).dex === "v1") {
      const pool = openOnChain(chain, new DEX.v1.Pool(a.pool));
      return message(
        await pool.getBurnTxParams({ amount: a.lpAmount, responseAddress: a.user, queryId: a.queryId }),
      );
    }
    const pool = openOnChain(chain, DEX.v2_2.Pool.create(a.pool));
    return message(
      await pool.getBurnTxParams({ amount: a.lpAmount, userWalletAddress: a.user, queryId: a.queryId }),
    );
  }

  async refund(a: { router: RouterKey; lpAccount: Address; queryId: bigint }): Promise<UserMessage> {
    const chain = this.#world.chain;
    if (this.handle(a.router).dex === "v1") {
      return message(
        await openOnChain(chain, new DEX.v1.LpAccount(a.lpAccount)).getRefundTxParams({ queryId: a.queryId }),
      );
    }
    return message(
      await openOnChain(chain, DEX.v2_2.LpAccount.create(a.lpAccount)).getRefundTxParams({
        queryId: a.queryId,
      }),
    );
  }

  async withdrawFee(a: { vault: Address; queryId: bigint }): Promise<UserMessage> {
    return message(
      await openOnChain(this.#world.chain, DEX.v2_2.Vault.create(a.vault)).getWithdrawFeeTxParams({
        queryId: a.queryId,
      }),
    );
  }
}

/** Forward TON for each nested cross-swap hop: the SDK's swap forward gas for a CPI router (§3.13). */
const CROSS_SWAP_FORWARD = 240_000_000n;
