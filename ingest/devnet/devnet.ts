/**
 * `Devnet`: the emulated chain, its contracts and the seeded market, driven one block at a time.
 *
 * Block 1 carries the admin's mints to every LP and trader; once they settle, the genesis LP provides the
 * first liquidity of every catalogue pool (and the admin sets the pool parameters the v2 types need); then
 * the market runs. Everything is a message built by the SDK or the project's encoders, so the bootstrap
 * is ordinary traffic in the output too. Same seed and options ⇒ byte-identical blocks.
 */
import { type ChainState, createChainState, type GetMethodRunner } from "../../dex/chain-state.ts";
import { DevnetTupleReader } from "./chain/cell-reader.ts";
import { DEFAULT_BLOCK_SECONDS, type DevnetBlock } from "./chain/chain.ts";
import { jettonMintBody } from "./contracts/jetton/index.ts";
import { UserActions } from "./sim/actions.ts";
import { type Admin, adminMessages } from "./sim/admin.ts";
import { ASSETS, assetSpec, POOLS, TON_SYMBOL } from "./sim/catalog.ts";
import { DEFAULT_MIX, Market, type MarketOptions } from "./sim/market.ts";
import { type PoolHandle, resolvePools } from "./sim/pools.ts";
import { Prng } from "./sim/prng.ts";
import type { UserMessage } from "./sim/types.ts";
import { type Actor, createWorld, send, type World } from "./sim/world.ts";

const TON = 1_000_000_000n;

export type DevnetOptions = {
  seed: number;
  /** Mean user actions per block once the market runs. */
  actionsPerBlock?: number;
  mix?: Partial<MarketOptions["mix"]>;
  traders?: number;
  lps?: number;
  referrers?: number;
  /**
   * Chain seconds between masterchain blocks (default 5, as TON). A larger value spans days of chain
   * time in few blocks (analytics tests); request deadlines scale with it, so nothing expires in flight.
   */
  blockSeconds?: number;
};

type Phase = "mint" | "settle-mints" | "settle-params" | "settle-liquidity" | "market";

/** A `GetMethodRunner` over the chain: the devnet side of `ChainState`. */
export function chainRunner(world: World): GetMethodRunner {
  return {
    runGetMethod: async (address, method, args) => world.chain.runGetMethod(address, method, args),
    getBalance: async (address) => world.chain.account(address)?.balance ?? 0n,
    readStack: (stack) => new DevnetTupleReader(stack),
  };
}

export class Devnet {
  readonly world: World;
  readonly state: ChainState;
  readonly actions: UserActions;
  readonly options: Required<Omit<DevnetOptions, "mix">> & { mix: MarketOptions["mix"] };
  #phase: Phase = "mint";
  #pools: PoolHandle[] = [];
  #market: Market | null = null;
  #admin: Admin | null = null;
  readonly #rng: Prng;

  constructor(options: DevnetOptions) {
    this.options = {
      seed: options.seed,
      actionsPerBlock: options.actionsPerBlock ?? 24,
      traders: options.traders ?? 64,
      lps: options.lps ?? 8,
      referrers: options.referrers ?? 6,
      blockSeconds: options.blockSeconds ?? DEFAULT_BLOCK_SECONDS,
      mix: { ...DEFAULT_MIX, ...options.mix },
    };
    this.#rng = new Prng(options.seed);
    this.world = createWorld({ ...this.options, chain: { blockSeconds: this.options.blockSeconds } });
    this.state = createChainState(chainRunner(this.world));
    this.actions = new UserActions(this.world);
  }

  get mcSeqno(): number {
    return this.world.chain.mcSeqno;
  }

  get pools(): readonly PoolHandle[] {
    return this.#pools;
  }

  get market(): Market | null {
    return this.#market;
  }

  /** Produces a block without queueing new user actions: lets in-flight traces finish. */
  drainBlock(): DevnetBlock {
    return this.world.chain.produceBlock();
  }

  /** Messages still in flight. */
  get pending(): number {
    return this.world.chain.pending;
  }

  /** Queues the next block's messages by phase, then produces the block. */
  async nextBlock(): Promise<DevnetBlock> {
    await this.#plan();
    return this.world.chain.produceBlock();
  }

  async #plan(): Promise<void> {
    const chain = this.world.chain;
    switch (this.#phase) {
      case "mint":
        this.#mintAll();
        this.#phase = "settle-mints";
        return;
      case "settle-mints":
        if (chain.pending > 0) return;
        this.#pools = await resolvePools(this.actions, this.state);
        this.#admin = adminMessages(this.world, this.actions);
        for (const m of this.#admin.poolParams(this.#pools)) send(this.world, this.world.admin, [m]);
        this.#phase = "settle-params";
        return;
      case "settle-params":
        if (chain.pending > 0) return;
        await this.#firstLiquidity();
        this.#phase = "settle-liquidity";
        return;
      case "settle-liquidity":
        if (chain.pending > 0) return;
        this.#market = new Market(
          this.world,
          this.actions,
          this.state,
          this.#pools,
          this.#rng,
          {
            actionsPerBlock: this.options.actionsPerBlock,
            mix: this.options.mix,
            blockSeconds: chain.blockSeconds,
          },
          this.#admin!,
        );
        this.#phase = "market";
        return;
      case "market":
        await this.#market!.step();
    }
  }

  /** Admin mints: the genesis LP gets 1.5× the catalogue's liquidity, other LPs and traders a working stock. */
  #mintAll(): void {
    const need = new Map<string, number>();
    for (const pool of POOLS) {
      for (const s of [pool.a, pool.b]) need.set(s, (need.get(s) ?? 0) + pool.tvlUsd / 2);
    }
    const batch: UserMessage[] = [];
    const mint = (to: Actor, symbol: string, usd: number) => {
      const spec = assetSpec(symbol);
      const amount = (BigInt(Math.round((usd / spec.usd) * 1e6)) * 10n ** BigInt(spec.decimals)) / 1_000_000n;
      const body = jettonMintBody({
        queryId: 0n,
        to: to.address,
        amount,
        responseAddress: this.world.admin.address,
        tonAmount: TON / 10n,
      });
      batch.push({ to: this.actions.master(symbol), value: TON / 5n, body });
    };
    const [genesisLp, ...lps] = this.world.lps;
    for (const asset of ASSETS) {
      if (asset.symbol === TON_SYMBOL) continue;
      mint(genesisLp!, asset.symbol, 1.5 * (need.get(asset.symbol) ?? 0) + 1_000_000);
      for (const lp of lps) mint(lp, asset.symbol, 400_000);
      for (const trader of this.world.traders) mint(trader, asset.symbol, 60_000);
    }
    for (let i = 0; i < batch.length; i += 4) send(this.world, this.world.admin, batch.slice(i, i + 4));
  }

  /** The genesis LP deposits both sides of every pool at the reference prices (pools deploy on the way). */
  async #firstLiquidity(): Promise<void> {
    const lp = this.world.lps[0]!;
    const messages: UserMessage[] = [];
    let queryId = 1_000_000n;
    for (const pool of this.#pools) {
      const half = pool.spec.tvlUsd / 2;
      for (const [send, other] of [
        [pool.token0, pool.token1],
        [pool.token1, pool.token0],
      ] as const) {
        const spec = assetSpec(send);
        const amount =
          (BigInt(Math.round((half / spec.usd) * 1e6)) * 10n ** BigInt(spec.decimals)) / 1_000_000n;
        messages.push(
          await this.actions.provide({
            user: lp.address,
            router: pool.router,
            send,
            other,
            amount,
            minLpOut: 1n,
            queryId: queryId++,
            deadline: this.world.chain.utime + Math.max(3600, 20 * this.options.blockSeconds),
          }),
        );
      }
    }
    for (let i = 0; i < messages.length; i += 4) send(this.world, lp, messages.slice(i, i + 4));
  }
}
