/**
 * The bulk store's market, generated block by block from a seed (pure: no I/O): fact rows exactly as the
 * processor writes them (schemas/facts.ts), for ./store.ts to write through infra/store/facts-writer.ts.
 *
 * - 3 routers (v1, v2.1, v2.2) with pTON; 420 jettons (decimals 9, USD₮-like 6, a few 18) and TON;
 *   `pools` pools, 60 % TON/jetton, 25 % USD₮/jetton, 15 % jetton/jetton, v1 or v2.
 * - Masterchain blocks every 2.8 s (about mainnet's 31,000 a day) over `days`; user operations per block
 *   Poisson with a daily cycle; pools drawn Zipf(1.1) (a few pools take most of the volume), wallets
 *   Zipf(1.0) over `wallets`; 12 % of operations are two-hop routes through TON (two legs, route rows);
 *   3 % of swaps are refunded (no output); a mint (with its two provides) or a burn at 1 in 25 operations.
 * - Constant-product reserves in bigint, a pool_states row per pool transaction, and the export feed's
 *   columns (maker, reserves after) as the processor stores them.
 * - Two deep TON/USD₮ pools (the first two, so the most traded, as on mainnet), and every swap leg priced
 *   in USD by the processor's own pricer (processors/core/swap-usd.ts) under `bulkPricing`, in chain
 *   order: the USD columns, the VWAP trades and the USD statistics are what the processor would store.
 * - The transaction log (transactions, messages) only for the last `traceBlocks` blocks: each pool
 *   transaction's trace up from the user's wallet (external message → wallet → jetton wallet → router
 *   jetton wallet → router → pool), so the feed's store walk can be measured over the same range.
 */
import {
  DEFAULT_THRESHOLDS,
  MAINNET_PRICING,
  type PricingConfig,
  TON_ADDRESS,
} from "../../dex/pricing/index.ts";
import { SwapPricer } from "../../processors/core/swap-usd.ts";
import type {
  AssetRow,
  BlockRow,
  FactRows,
  LiquidityRow,
  MessageRow,
  PoolRow,
  PoolStateRow,
  RouterRow,
  SwapRouteRow,
  SwapRow,
  TransactionRow,
} from "../../schemas/facts.ts";

export type WorldOptions = {
  seed: number;
  days: number;
  pools: number;
  wallets: number;
  /** Expected swap legs in total (the generator draws around it). */
  swaps: number;
  traceBlocks: number;
  endUtime: number;
  firstSeqno: number;
};

export const BLOCK_SECONDS = 2.8;
const JETTONS = 420;
/** The USD₮-like jetton's symbol: the world's USD anchor. */
export const BULK_USD_SYMBOL = "USD₮";

/**
 * The bulk world's pricing: mainnet's rules and thresholds with the world's own anchors (its USD₮-like
 * jetton; TON and the routers' pTON masters as TON). The generator prices with it; the benchmarks read the
 * anchors back from the store (bench/analytics.ts) and value with the same configuration.
 */
export function bulkPricing(
  usd: { address: string; decimals: number },
  ptonMasters: readonly string[],
): PricingConfig {
  return {
    ...MAINNET_PRICING,
    ...DEFAULT_THRESHOLDS,
    usdAnchors: [usd],
    tonAliases: [TON_ADDRESS, ...ptonMasters],
  };
}

/** sfc32: a small seeded generator (uniform in [0, 1)). */
function rng(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

/** Zipf(s) over 0..n−1 by inverse CDF (binary search over a precomputed table). */
function zipf(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1) ** s;
    cdf[i] = sum;
  }
  return () => {
    const u = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

type Router = {
  address: string;
  dex: "v1" | "v2";
  /** The curve of the pools it deploys (constant product). */
  curve: Pool["type"];
  ptonMaster: string;
  ptonWallet: string;
  row: RouterRow;
};
type Token = { master: string; decimals: number; ton: boolean };
type Pool = {
  address: string;
  router: Router;
  tokens: [Token, Token];
  wallets: [string, string];
  reserves: [bigint, bigint];
  lp: bigint;
  type: PoolRow["pool_type"] & string;
};

/** One batch of rows, mutable while it is generated. */
export type BatchRows = {
  blocks: BlockRow[];
  swaps: SwapRow[];
  swap_routes: SwapRouteRow[];
  liquidity: LiquidityRow[];
  pool_states: PoolStateRow[];
  transactions: TransactionRow[];
  messages: MessageRow[];
  swapLegs: number;
};

export type World = {
  options: WorldOptions;
  blocks: number;
  reference: Pick<FactRows, "assets" | "routers" | "pools">;
  /** Rows of blocks `from..to−1` (block indexes, 0-based), in order; call with consecutive ranges. */
  rows(from: number, to: number): BatchRows;
};

export function createWorld(options: WorldOptions): World {
  const random = rng(options.seed);
  const hex = (n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += ((random() * 16) | 0).toString(16);
    return s;
  };
  const address = () => `0:${hex(64).toUpperCase()}`;
  const routers: Router[] = (["v1", "v2", "v2"] as const).map((dex, i) => {
    const curve = dex === "v1" ? "v1_constant_product" : "v2_constant_product";
    const r = { address: address(), dex, curve, ptonMaster: address(), ptonWallet: address() } as const;
    const row: RouterRow = {
      address: r.address,
      dex,
      pool_type: curve,
      major: dex === "v1" ? 1 : 2,
      minor: dex === "v1" ? 0 : i,
      development: "release",
      pton_master: r.ptonMaster,
      pton_wallet: r.ptonWallet,
      is_locked: false,
      admin: address(),
      version: 1n,
    };
    return { ...r, row };
  });
  const jettons: Token[] = Array.from({ length: JETTONS }, (_, i) => ({
    master: address(),
    decimals: i === 0 ? 6 : i % 20 === 7 ? 18 : 9,
    ton: false,
  }));
  const usdt = jettons[0] as Token;
  const ton: Token = { master: TON_ADDRESS, decimals: 9, ton: true };
  const assets: AssetRow[] = jettons.map((j, i) => ({
    address: j.master,
    kind: "jetton",
    symbol: i === 0 ? BULK_USD_SYMBOL : `J${i}`,
    name: i === 0 ? "Tether USD" : `Jetton ${i}`,
    decimals: j.decimals,
    image: null,
    description: null,
    metadata_uri: null,
    total_supply: 10n ** BigInt(j.decimals + 9),
    version: 1n,
  }));
  const pickJetton = zipf(JETTONS - 1, 0.8, random);
  const pools: Pool[] = Array.from({ length: options.pools }, (_, i) => {
    const router = routers[i % 10 < 3 ? 0 : 1 + (i % 2)] as Router;
    const u = random();
    const a = jettons[1 + pickJetton()] as Token;
    const other =
      u < 0.6 ? ton : u < 0.85 ? usdt : (jettons[1 + ((pickJetton() + 1) % (JETTONS - 1))] as Token);
    const tokens: [Token, Token] = random() < 0.5 ? [a, other] : [other, a];
    const walletOf = (t: Token) => (t.ton ? router.ptonWallet : address());
    const scale = (t: Token) => 10n ** BigInt(t.decimals) * BigInt(1000 + Math.floor(random() * 5_000_000));
    return {
      address: address(),
      router,
      tokens,
      wallets: [walletOf(tokens[0]), walletOf(tokens[1])],
      reserves: [scale(tokens[0]), scale(tokens[1])],
      lp: 10n ** 12n,
      type: router.curve,
    };
  });
  // The deep TON/USD₮ pools TON's USD price comes from (analytics.md §7.2): 30M TON against 90M USD₮.
  for (const i of [0, 1]) {
    const p = pools[i] as Pool;
    const router = routers[i] as Router;
    pools[i] = {
      ...p,
      router,
      tokens: [ton, usdt],
      wallets: [router.ptonWallet, address()],
      reserves: [30_000_000n * 10n ** 9n, 90_000_000n * 10n ** 6n],
      type: router.curve,
    };
  }
  const masterOf = (p: Pool, side: 0 | 1) =>
    p.tokens[side].ton ? p.router.ptonMaster : p.tokens[side].master;
  const poolRows: PoolRow[] = pools.map((p) => ({
    pool: p.address,
    router: p.router.address,
    dex: p.router.dex,
    pool_type: p.type,
    token0_wallet: p.wallets[0],
    token1_wallet: p.wallets[1],
    token0_master: masterOf(p, 0),
    token1_master: masterOf(p, 1),
    created_lt: null,
    created_utime: null,
    version: 1n,
  }));
  const tonPools = pools.filter((p) => p.tokens[0].ton || p.tokens[1].ton);
  const pickPool = zipf(pools.length, 1.1, random);
  const pickTonPool = zipf(tonPools.length, 1.1, random);
  const walletAddresses = Array.from({ length: options.wallets }, address);
  const pickWallet = zipf(options.wallets, 1.0, random);

  const blocks = Math.floor((options.days * 86_400) / BLOCK_SECONDS);
  const startUtime = options.endUtime - Math.floor(blocks * BLOCK_SECONDS);
  const pricer = new SwapPricer(
    bulkPricing(
      { address: usdt.master, decimals: usdt.decimals },
      routers.map((r) => r.ptonMaster),
    ),
  );
  for (const r of poolRows) pricer.learnPool(r.pool, r.token0_master, r.token1_master);
  // Every pool's reserves before the first block: the pricer's base states.
  pricer.restoreHistory(
    pools.map((p) => stateRow(p, 0n, "", { mc: options.firstSeqno - 1, utime: startUtime })),
    options.firstSeqno - 1,
  );
  // Operations per block: legs ≈ ops × (1 + 12 % routes) × 24/25 swaps of all operations.
  const lambda = options.swaps / blocks / (1.12 * (24 / 25));

  return {
    options,
    blocks,
    reference: { assets, routers: routers.map((r) => r.row), pools: poolRows },
    rows(from, to) {
      const out: BatchRows = {
        blocks: [],
        swaps: [],
        swap_routes: [],
        liquidity: [],
        pool_states: [],
        transactions: [],
        messages: [],
        swapLegs: 0,
      };
      for (let b = from; b < to; b++) block(b, out);
      return out;
    },
  };

  function poisson(l: number): number {
    const limit = Math.exp(-l);
    let k = 0;
    let p = random();
    while (p > limit) {
      k++;
      p *= random();
    }
    return k;
  }

  function block(b: number, out: BatchRows) {
    const mc = options.firstSeqno + b;
    const utime = startUtime + Math.floor(b * BLOCK_SECONDS);
    const daily = 1 + 0.5 * Math.sin((2 * Math.PI * (utime % 86_400)) / 86_400);
    const ops = poisson(lambda * daily);
    const traced = b >= blocks - options.traceBlocks;
    let lt = 60_000_000_000_000n + BigInt(b) * 1_000_000n;
    let txCount = 0;
    const ctx = {
      mc,
      utime,
      traced,
      nextLt: () => {
        lt += 1_000n;
        txCount++;
        return lt;
      },
    };
    for (let i = 0; i < ops; i++) {
      const wallet = walletAddresses[pickWallet()] as string;
      const u = random();
      if (u < 1 / 25) liquidityOp(wallet, ctx, out);
      else if (u < 1 / 25 + 0.12) route(wallet, ctx, out);
      else swap(pools[pickPool()] as Pool, random() < 0.5 ? 0 : 1, wallet, null, ctx, out, null);
    }
    out.blocks.push({ mc_seqno: mc, utime, tx_count: txCount, shard_blocks: [] });
    // Every swap of the block is priced: its states fold into one base per pool.
    pricer.prune(mc);
  }

  type Ctx = { mc: number; utime: number; traced: boolean; nextLt: () => bigint };
  type Out = BatchRows;

  /** The trace above a pool transaction (see the header); returns the pool transaction's inbound message. */
  function trace(wallet: string, p: Pool, ctx: Ctx, out: Out, parent: TransactionRow | null): string {
    const accounts = parent === null ? [wallet, address(), address(), p.router.address] : [p.router.address];
    let prev = parent;
    let inMsg: string | null = null;
    for (const account of accounts) {
      const tx = transaction(account, ctx, out, prev, inMsg);
      inMsg = tx.out_msg_hashes[0] as string;
      prev = tx;
    }
    return inMsg as string;
  }

  function transaction(
    account: string,
    ctx: Ctx,
    out: Out,
    parent: TransactionRow | null,
    inMsg: string | null,
    hash = hex(64),
  ): TransactionRow {
    const lt = ctx.nextLt();
    const inHash = inMsg ?? hex(64);
    const outHash = hex(64);
    const tx: TransactionRow = {
      hash,
      lt,
      account,
      mc_seqno: ctx.mc,
      shard: "0:8000000000000000",
      block_seqno: ctx.mc,
      utime: ctx.utime,
      aborted: false,
      compute_success: true,
      compute_exit_code: 0,
      action_success: true,
      action_result_code: 0,
      in_msg_hash: inHash,
      out_msg_hashes: [outHash],
      orig_status: "active",
      end_status: "active",
      prev_trans_hash: null,
      prev_trans_lt: null,
    };
    out.transactions.push(tx);
    const message = (m: string, direction: "in" | "out", source: string | null): MessageRow => ({
      msg_hash: m,
      direction,
      tx_hash: hash,
      tx_lt: lt,
      msg_index: direction === "in" ? 0 : 1,
      mc_seqno: ctx.mc,
      utime: ctx.utime,
      source,
      destination: direction === "in" ? account : null,
      opcode: null,
      value: source === null ? null : 100_000_000n,
      fwd_fee: source === null ? null : 1_000_000n,
      bounce: source === null ? null : true,
      bounced: source === null ? null : false,
      created_lt: source === null ? null : lt,
      created_at: source === null ? null : ctx.utime,
      body_boc: "",
      init_boc: null,
    });
    out.messages.push(message(inHash, "in", parent?.account ?? null), message(outHash, "out", account));
    return tx;
  }

  function state(p: Pool, lt: bigint, hash: string, ctx: Ctx, out: Out) {
    const row = stateRow(p, lt, hash, ctx);
    out.pool_states.push(row);
    pricer.record([row]);
  }

  function stateRow(p: Pool, lt: bigint, hash: string, ctx: { mc: number; utime: number }): PoolStateRow {
    return {
      pool: p.address,
      lt,
      tx_hash: hash,
      mc_seqno: ctx.mc,
      utime: ctx.utime,
      pool_type: p.type,
      reserve0: p.reserves[0],
      reserve1: p.reserves[1],
      lp_supply: p.lp,
      lp_fee_bps: 20,
      protocol_fee_bps: 10,
      ref_fee_bps: p.router.dex === "v1" ? 10 : 0,
      collected_protocol_fee0: 0n,
      collected_protocol_fee1: 0n,
      is_locked: false,
      amp: 0n,
      rate: 0n,
      w0: 0n,
    };
  }

  /** The pool transaction of an operation: its trace (when traced), hash and lt. */
  function poolTx(wallet: string, p: Pool, ctx: Ctx, out: Out, parent: TransactionRow | null) {
    if (!ctx.traced) return { hash: hex(64), lt: ctx.nextLt(), tx: null };
    const inMsg = trace(wallet, p, ctx, out, parent);
    const tx = transaction(p.address, ctx, out, out.transactions.at(-1) ?? null, inMsg);
    return { hash: tx.hash, lt: tx.lt, tx };
  }

  function asset(p: Pool, side: 0 | 1) {
    return {
      kind: p.tokens[side].ton ? ("ton" as const) : ("jetton" as const),
      master: p.tokens[side].ton ? p.router.ptonMaster : p.tokens[side].master,
      wallet: p.wallets[side],
    };
  }

  function swap(
    p: Pool,
    sideIn: 0 | 1,
    wallet: string,
    route: { id: string; amountIn: bigint; parent: TransactionRow | null } | null,
    ctx: Ctx,
    out: Out,
    routeOf: { id: string; sender: string } | null,
  ): { amountOut: bigint | null; tx: TransactionRow | null } {
    const sideOut = (1 - sideIn) as 0 | 1;
    const rIn = p.reserves[sideIn];
    const rOut = p.reserves[sideOut];
    // 1e-6 .. 1e-2 of the input reserve, log-uniform.
    const amountIn = route?.amountIn ?? (rIn * BigInt(Math.floor(10 ** (random() * 4) * 100))) / 100_000_000n;
    const refunded = route === null && random() < 0.03;
    const fee = amountIn * 30n;
    // Constant product with a 0.3 % fee; floor the output (the pool keeps the remainder).
    const amountOut =
      refunded || amountIn === 0n
        ? null
        : (rOut * (amountIn * 10_000n - fee)) / (rIn * 10_000n + amountIn * 10_000n - fee);
    const pt = poolTx(wallet, p, ctx, out, route?.parent ?? null);
    if (amountOut !== null && amountOut > 0n) {
      p.reserves[sideIn] = rIn + amountIn;
      p.reserves[sideOut] = rOut - amountOut;
    }
    state(p, pt.lt, pt.hash, ctx, out);
    const a = asset(p, sideIn);
    const b = asset(p, sideOut);
    // A later hop is sent by the router (cross swap); the route's user is on every hop.
    const sender = route === null ? wallet : p.router.address;
    // Priced as the processor prices it: with every pool's state before this transaction.
    out.swaps.push(
      pricer.priceSwap({
        id: `${pt.hash}:swap`,
        tx_hash: pt.hash,
        lt: pt.lt,
        mc_seqno: ctx.mc,
        utime: ctx.utime,
        tx_hashes: [pt.hash],
        dex: p.router.dex,
        router: p.router.address,
        pool: p.address,
        query_id: BigInt(Math.floor(random() * 2 ** 40)),
        sender,
        sender_wallet: null,
        receiver: wallet,
        offer_kind: a.kind,
        offer_master: a.master,
        offer_router_wallet: a.wallet,
        ask_kind: b.kind,
        ask_master: b.master,
        ask_router_wallet: b.wallet,
        amount_in: amountIn,
        amount_out: amountOut,
        min_out: 0n,
        protocol_fee: amountOut === null ? null : amountOut / 1000n,
        referral_fee: null,
        referrer: null,
        exit_code: amountOut === null ? 0x5ffe1295 : 0xc64370e5,
        exit_name: amountOut === null ? "swap_refund_reserve_err" : "swap_ok",
        success: amountOut !== null,
        payout_to: wallet,
        payout_amount: amountOut ?? amountIn,
        payout_router_wallet: amountOut === null ? a.wallet : b.wallet,
        payout_receiver_wallet: null,
        payout_delivered: true,
        payout_tx_hash: null,
        continues_as_cross_swap: routeOf !== null && route === null,
        route_id: routeOf?.id ?? null,
        route_sender: routeOf?.sender ?? null,
        route_receiver: routeOf === null ? null : wallet,
        maker: wallet,
        reserve0_after: p.reserves[0],
        reserve1_after: p.reserves[1],
        volume_usd: null,
        untracked_volume_usd: null,
        lp_fee_usd: null,
      }),
    );
    out.swapLegs++;
    return { amountOut, tx: pt.tx };
  }

  function route(wallet: string, ctx: Ctx, out: Out) {
    const first = tonPools[pickTonPool()] as Pool;
    let second = tonPools[pickTonPool()] as Pool;
    if (second === first) second = tonPools[(tonPools.indexOf(first) + 1) % tonPools.length] as Pool;
    const tonSide = (p: Pool) => (p.tokens[0].ton ? 0 : 1);
    const id = `${hex(64)}:route`;
    const routeOf = { id, sender: wallet };
    const leg1 = swap(first, (1 - tonSide(first)) as 0 | 1, wallet, null, ctx, out, routeOf);
    if (leg1.amountOut === null || leg1.amountOut === 0n) return;
    const leg2 = swap(
      second,
      tonSide(second),
      wallet,
      { id, amountIn: leg1.amountOut, parent: leg1.tx },
      ctx,
      out,
      routeOf,
    );
    const [l1, l2] = out.swaps.slice(-2) as [SwapRow, SwapRow];
    out.swap_routes.push({
      id,
      tx_hash: l1.tx_hash,
      lt: l1.lt,
      mc_seqno: ctx.mc,
      utime: ctx.utime,
      tx_hashes: [l1.tx_hash, l2.tx_hash],
      dex: first.router.dex,
      legs: [l1.id, l2.id],
      sender: wallet,
      receiver: wallet,
      offer_kind: l1.offer_kind,
      offer_master: l1.offer_master,
      offer_router_wallet: l1.offer_router_wallet,
      ask_kind: l2.ask_kind,
      ask_master: l2.ask_master,
      ask_router_wallet: l2.ask_router_wallet,
      amount_in: l1.amount_in,
      amount_out: leg2.amountOut,
      status: leg2.amountOut === null ? "partial" : "success",
      success: leg2.amountOut !== null,
    });
  }

  function liquidityOp(wallet: string, ctx: Ctx, out: Out) {
    const p = pools[pickPool()] as Pool;
    const mint = random() < 0.72;
    // 0.01 % .. 1 % of the pool, proportional to its reserves.
    const part = BigInt(1 + Math.floor(random() * 100));
    const a0 = (p.reserves[0] * part) / 10_000n;
    const a1 = (p.reserves[1] * part) / 10_000n;
    const lp = (p.lp * part) / 10_000n;
    if (a0 === 0n || a1 === 0n) return;
    const base = (
      kind: LiquidityRow["kind"],
      hash: string,
      lt: bigint,
      amount0: bigint,
      amount1: bigint,
    ) => ({
      id: `${hash}:${kind}`,
      tx_hash: hash,
      lt,
      mc_seqno: ctx.mc,
      utime: ctx.utime,
      tx_hashes: [hash],
      kind,
      dex: p.router.dex,
      pool: p.address,
      owner: wallet,
      amount0,
      amount1,
      query_id: BigInt(Math.floor(random() * 2 ** 40)),
      maker: wallet,
    });
    const none = { asset0_kind: null, asset0_master: null, asset0_router_wallet: null };
    const none1 = { asset1_kind: null, asset1_master: null, asset1_router_wallet: null };
    if (mint) {
      for (const side of [0, 1] as const) {
        const provide = { hash: hex(64), lt: ctx.nextLt() };
        const a = asset(p, side);
        out.liquidity.push({
          ...base("provide", provide.hash, provide.lt, side === 0 ? a0 : 0n, side === 1 ? a1 : 0n),
          router: p.router.address,
          receiver: null,
          lp_account: address(),
          withdraw_kind: null,
          asset0_kind: side === 0 ? a.kind : null,
          asset0_master: side === 0 ? a.master : null,
          asset0_router_wallet: side === 0 ? a.wallet : null,
          asset1_kind: side === 1 ? a.kind : null,
          asset1_master: side === 1 ? a.master : null,
          asset1_router_wallet: side === 1 ? a.wallet : null,
          lp_amount: null,
          min_lp_out: 0n,
          exit_code: 0,
          exit_name: "ok",
          success: true,
          outcome: "minted",
          reserve0_after: null,
          reserve1_after: null,
        });
      }
    }
    const pt = poolTx(wallet, p, ctx, out, null);
    p.reserves = mint ? [p.reserves[0] + a0, p.reserves[1] + a1] : [p.reserves[0] - a0, p.reserves[1] - a1];
    p.lp = mint ? p.lp + lp : p.lp - lp;
    state(p, pt.lt, pt.hash, ctx, out);
    out.liquidity.push({
      ...base(mint ? "mint" : "withdraw", pt.hash, pt.lt, a0, a1),
      router: null,
      receiver: mint ? wallet : null,
      lp_account: null,
      withdraw_kind: mint ? null : "burn",
      ...none,
      ...none1,
      lp_amount: lp,
      min_lp_out: null,
      exit_code: null,
      exit_name: null,
      success: true,
      outcome: null,
      reserve0_after: p.reserves[0],
      reserve1_after: p.reserves[1],
    });
  }
}
