/**
 * The market simulator: each block it moves every asset's fair price (geometric random walk), then queues a
 * seeded number of user actions drawn from a configurable mix: swaps (with and without referral,
 * multi-hop, slippage failures, expired deadlines), arbitrage towards the fair prices, liquidity of every
 * kind, burns, LpAccount refunds, vault withdrawals and fee changes. Trade sizes come from the pools' live
 * state (ChainState → dex/amm), so failures happen only where they are meant to.
 */
import type { Address } from "@ton/core";
import { type PoolState, swap } from "../../../dex/amm/index.ts";
import type { ChainState } from "../../../dex/chain-state.ts";
import { jettonWalletAddress } from "../contracts/jetton/index.ts";
import type { UserActions } from "./actions.ts";
import { assetSpec, TON_SYMBOL } from "./catalog.ts";
import { type PoolHandle, PoolReader } from "./pools.ts";
import type { Prng } from "./prng.ts";
import type { UserMessage } from "./types.ts";
import { type Actor, send, type World } from "./world.ts";

export const ACTION_KINDS = [
  "swap",
  "swap_referral",
  "multi_hop",
  "slippage_fail",
  "expired",
  "arbitrage",
  "provide",
  "provide_single",
  "provide_then_refund",
  "burn",
  "vault_withdraw",
  "fee_change",
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** Relative weights; a weight of 0 turns a kind off. */
export const DEFAULT_MIX: Readonly<Record<ActionKind, number>> = {
  swap: 40,
  swap_referral: 12,
  multi_hop: 5,
  slippage_fail: 4,
  expired: 2,
  arbitrage: 14,
  provide: 7,
  provide_single: 3,
  provide_then_refund: 2,
  burn: 5,
  vault_withdraw: 3,
  fee_change: 0.5,
};

export type MarketOptions = {
  /** Mean user actions per block. */
  actionsPerBlock: number;
  mix: Readonly<Record<ActionKind, number>>;
  blockSeconds: number;
};

/** Hooks for admin messages the contracts define (fee changes). */
export type AdminMessages = {
  setFees(pool: PoolHandle, fees: { lp: number; protocol: number; ref: number }): UserMessage;
};

type Counters = Record<ActionKind | "skipped", number>;

export class Market {
  readonly counts: Counters = Object.fromEntries([...ACTION_KINDS, "skipped"].map((k) => [k, 0])) as Counters;
  readonly #fair = new Map<string, number>();
  readonly #refunds: { due: number; user: Actor; pool: PoolHandle }[] = [];
  readonly #vaults: { referrer: Actor; pool: PoolHandle; symbol: string }[] = [];
  readonly #pools: PoolReader;
  #queryId = 1n;
  #block = 0;

  constructor(
    private readonly world: World,
    private readonly actions: UserActions,
    private readonly state: ChainState,
    private readonly pools: readonly PoolHandle[],
    private readonly rng: Prng,
    private readonly options: MarketOptions,
    private readonly admin: AdminMessages,
  ) {
    this.#pools = new PoolReader(world.chain, state);
    for (const pool of pools) {
      for (const s of [pool.token0, pool.token1]) this.#fair.set(s, assetSpec(s).usd);
    }
  }

  /** Queues this block's actions (to be executed by the next `produceBlock`). */
  async step(): Promise<void> {
    this.#block++;
    this.#walkPrices();
    const weights = ACTION_KINDS.map((k) => this.options.mix[k]);
    const n = this.rng.int(2 * this.options.actionsPerBlock + 1);
    for (let i = 0; i < n; i++) {
      const kind = ACTION_KINDS[this.rng.weighted(weights)]!;
      const done = await this.#act(kind);
      this.counts[done ? kind : "skipped"]++;
    }
    for (const r of this.#refunds.filter((x) => x.due <= this.#block)) {
      this.#refunds.splice(this.#refunds.indexOf(r), 1);
      await this.#refund(r.user, r.pool);
    }
  }

  #walkPrices(): void {
    const scale = Math.sqrt(this.options.blockSeconds / 86_400);
    for (const [symbol, price] of this.#fair) {
      this.#fair.set(symbol, price * Math.exp(assetSpec(symbol).vol * scale * this.rng.normal()));
    }
  }

  #nextQueryId(): bigint {
    return this.#queryId++;
  }

  #now(): number {
    return this.world.chain.utime + this.options.blockSeconds;
  }

  /** 15 minutes ahead, or 10 blocks when blocks are slower (a request crosses ~5 blocks to its pool). */
  #deadline(): number {
    return this.#now() + Math.max(900, 10 * this.options.blockSeconds);
  }

  async #act(kind: ActionKind): Promise<boolean> {
    switch (kind) {
      case "swap":
      case "swap_referral":
      case "slippage_fail":
      case "expired":
        return this.#swap(kind);
      case "multi_hop":
        return this.#multiHop();
      case "arbitrage":
        return this.#arbitrage();
      case "provide":
      case "provide_single":
      case "provide_then_refund":
        return this.#provide(kind);
      case "burn":
        return this.#burn();
      case "vault_withdraw":
        return this.#withdrawVault();
      case "fee_change":
        return this.#feeChange();
    }
  }

  async #live(pool: PoolHandle): Promise<PoolState | null> {
    const s = await this.#pools.read(pool);
    return s !== null && s.reserve0 > 0n && s.reserve1 > 0n ? s : null;
  }

  async #balance(owner: Address, symbol: string): Promise<bigint> {
    if (symbol === TON_SYMBOL) return this.world.chain.account(owner)?.balance ?? 0n;
    const data = await this.state.getJettonWalletData(
      jettonWalletAddress(owner, this.actions.master(symbol)),
    );
    return data?.balance ?? 0n;
  }

  /** A fraction of the input reserve, capped by what the user holds (keeping 50 TON for gas). */
  async #size(user: Actor, symbol: string, reserveIn: bigint, lo: number, hi: number): Promise<bigint> {
    const ppm = BigInt(Math.floor((lo + (hi - lo) * this.rng.next()) * 1_000_000));
    let amount = (reserveIn * ppm) / 1_000_000n;
    const held = await this.#balance(user.address, symbol);
    const spendable = symbol === TON_SYMBOL ? held - 50n * 10n ** 9n : held;
    if (amount > spendable) amount = spendable / 2n;
    return amount > 0n ? amount : 0n;
  }

  async #swap(kind: "swap" | "swap_referral" | "slippage_fail" | "expired"): Promise<boolean> {
    const pool = this.rng.pick(this.pools);
    if (kind === "expired" && pool.router === "v1") return false; // v1 payloads carry no deadline
    const state = await this.#live(pool);
    if (state === null) return false;
    const user = this.rng.pick(this.world.traders);
    const zeroToOne = this.rng.chance(0.5);
    const [offer, ask] = zeroToOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    const amount = await this.#size(user, offer, zeroToOne ? state.reserve0 : state.reserve1, 0.0002, 0.01);
    if (amount === 0n) return false;
    const referral = kind === "swap_referral";
    const referrer = referral ? this.rng.pick(this.world.referrers) : undefined;
    const referralBps = pool.router === "v1" ? undefined : referral ? 1 + this.rng.int(100) : 0;
    const expected = swap(state, {
      direction: zeroToOne ? "0to1" : "1to0",
      amountIn: amount,
      hasReferral: referral,
      refFeeBps: BigInt(referralBps ?? 0),
    });
    if (expected.status !== "ok") return false;
    const minOut =
      kind === "slippage_fail"
        ? expected.amountOut + 1n + expected.amountOut / 50n
        : (expected.amountOut * BigInt(970 + this.rng.int(25))) / 1000n;
    const deadline = kind === "expired" ? this.world.chain.utime - 60 : this.#deadline();
    const msg = await this.actions.swap({
      user: user.address,
      router: pool.router,
      offer,
      ask,
      amount,
      minOut,
      queryId: this.#nextQueryId(),
      deadline,
      ...(referrer ? { referrer: referrer.address } : {}),
      ...(referralBps !== undefined ? { referralBps } : {}),
    });
    send(this.world, user, [msg]);
    if (referrer && pool.router !== "v1") this.#vaults.push({ referrer, pool, symbol: ask });
    return true;
  }

  /** Two hops through one v2 router: offer → shared asset → ask. */
  async #multiHop(): Promise<boolean> {
    const first = this.rng.pick(this.pools);
    if (first.router === "v1") return false;
    const mid = this.rng.chance(0.5) ? first.token0 : first.token1;
    const offer = mid === first.token0 ? first.token1 : first.token0;
    const seconds = this.pools.filter(
      (p) =>
        p !== first &&
        p.router === first.router &&
        (p.token0 === mid || p.token1 === mid) &&
        p.token0 !== offer &&
        p.token1 !== offer,
    );
    if (seconds.length === 0) return false;
    const second = this.rng.pick(seconds);
    const ask = second.token0 === mid ? second.token1 : second.token0;
    const s1 = await this.#live(first);
    if (s1 === null || (await this.#live(second)) === null) return false;
    const user = this.rng.pick(this.world.traders);
    const amount = await this.#size(
      user,
      offer,
      offer === first.token0 ? s1.reserve0 : s1.reserve1,
      0.0002,
      0.005,
    );
    if (amount === 0n) return false;
    const msg = await this.actions.swap({
      user: user.address,
      router: first.router,
      offer,
      ask: mid,
      amount,
      minOut: 1n,
      queryId: this.#nextQueryId(),
      deadline: this.#deadline(),
      next: [{ ask, minOut: 1n }],
    });
    send(this.world, user, [msg]);
    return true;
  }

  /** Swap the pool's price halfway back towards the fair price, when it is off by more than 0.5 %. */
  async #arbitrage(): Promise<boolean> {
    const pool = this.rng.pick(this.pools);
    const state = await this.#live(pool);
    if (state === null) return false;
    const d0 = 10 ** assetSpec(pool.token0).decimals;
    const d1 = 10 ** assetSpec(pool.token1).decimals;
    const probe = state.reserve0 / 1_000_000n;
    if (probe === 0n) return false;
    const out = swap(state, { direction: "0to1", amountIn: probe });
    if (out.status !== "ok" || out.amountOut === 0n) return false;
    const poolRate = Number(out.amountOut) / d1 / (Number(probe) / d0);
    const fairRate = this.#fair.get(pool.token0)! / this.#fair.get(pool.token1)!;
    const gap = Math.log(poolRate / fairRate);
    if (Math.abs(gap) < 0.005) return false;
    const user = this.rng.pick(this.world.traders);
    const zeroToOne = gap > 0; // token1 is cheap in the pool: sell token0 for it
    const [offer, ask] = zeroToOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    const share = Math.min(0.05, Math.abs(gap) / 2);
    const amount = await this.#size(
      user,
      offer,
      zeroToOne ? state.reserve0 : state.reserve1,
      share * 0.9,
      share,
    );
    if (amount === 0n) return false;
    const msg = await this.actions.swap({
      user: user.address,
      router: pool.router,
      offer,
      ask,
      amount,
      minOut: 1n,
      queryId: this.#nextQueryId(),
      deadline: this.#deadline(),
    });
    send(this.world, user, [msg]);
    return true;
  }

  async #provide(kind: "provide" | "provide_single" | "provide_then_refund"): Promise<boolean> {
    const pool = this.rng.pick(this.pools);
    if (kind === "provide_single" && pool.router === "v1") return false;
    const state = await this.#live(pool);
    if (state === null) return false;
    const user = this.rng.pick(this.world.lps);
    const share = 0.001 + 0.02 * this.rng.next();
    const ppm = BigInt(Math.floor(share * 1_000_000));
    const amount0 = (state.reserve0 * ppm) / 1_000_000n;
    const amount1 = (state.reserve1 * ppm) / 1_000_000n;
    if (amount0 === 0n || amount1 === 0n) return false;
    if ((await this.#balance(user.address, pool.token0)) < amount0) return false;
    if ((await this.#balance(user.address, pool.token1)) < amount1) return false;
    const base = { user: user.address, router: pool.router, minLpOut: 1n, deadline: this.#deadline() };
    const leg = (send: string, other: string, amount: bigint, singleSide = false) =>
      this.actions.provide({ ...base, send, other, amount, queryId: this.#nextQueryId(), singleSide });
    if (kind === "provide") {
      const messages = [
        await leg(pool.token0, pool.token1, amount0),
        await leg(pool.token1, pool.token0, amount1),
      ];
      send(this.world, user, messages);
      return true;
    }
    const first = this.rng.chance(0.5);
    const [sym, other, amount] = first
      ? [pool.token0, pool.token1, amount0]
      : [pool.token1, pool.token0, amount1];
    send(this.world, user, [await leg(sym, other, amount, kind === "provide_single")]);
    if (kind === "provide_then_refund") this.#refunds.push({ due: this.#block + 3, user, pool });
    return true;
  }

  async #refund(user: Actor, pool: PoolHandle): Promise<void> {
    const lpAccount = await this.state.getLpAccountAddress(pool.address, user.address);
    const data = await this.state.getLpAccountData(lpAccount);
    if (data === null || (data.amount0 === 0n && data.amount1 === 0n)) return;
    send(this.world, user, [
      await this.actions.refund({ router: pool.router, lpAccount, queryId: this.#nextQueryId() }),
    ]);
  }

  async #burn(): Promise<boolean> {
    const pool = this.rng.pick(this.pools);
    const user = this.rng.pick(this.world.lps);
    const wallet = await this.state.getJettonWalletAddress(pool.address, user.address);
    const data = await this.state.getJettonWalletData(wallet);
    if (data === null || data.balance === 0n) return false;
    const lpAmount = (data.balance * BigInt(10 + this.rng.int(91))) / 100n;
    if (lpAmount === 0n) return false;
    const queryId = this.#nextQueryId();
    send(this.world, user, [
      await this.actions.burn({
        user: user.address,
        router: pool.router,
        pool: pool.address,
        lpAmount,
        queryId,
      }),
    ]);
    return true;
  }

  async #withdrawVault(): Promise<boolean> {
    if (this.#vaults.length === 0) return false;
    const pick = this.#vaults.splice(this.rng.int(this.#vaults.length), 1)[0]!;
    const router = this.actions.handle(pick.pool.router).address;
    const tokenWallet = this.actions.routerWallet(pick.pool.router, pick.symbol);
    const vault = await this.state.getVaultAddress(router, pick.referrer.address, tokenWallet);
    const data = await this.state.getVaultData(vault);
    if (data === null || data.depositedAmount === 0n) return false;
    send(this.world, pick.referrer, [
      await this.actions.withdrawFee({ vault, queryId: this.#nextQueryId() }),
    ]);
    return true;
  }

  async #feeChange(): Promise<boolean> {
    const pool = this.rng.pick(this.pools);
    if ((await this.#live(pool)) === null) return false;
    const fees = { lp: 10 + this.rng.int(41), protocol: this.rng.int(21), ref: this.rng.int(11) };
    send(this.world, this.world.admin, [this.admin.setFees(pool, fees)]);
    return true;
  }
}
