/**
 * Exactness end to end, over real devnet data (test/helpers/api-devnet.ts):
 *
 * 1. for every devnet pool (every pool type, v1 and v2) and three sizes and both directions, with and
 *    without a referrer, `/v1/swap/simulate?pool_address=…` equals dex/amm `swap` on the pool's state read
 *    through ChainState at that moment (ask_units, fee_units = the same swap with every fee 0 minus
 *    ask_units, min_ask_units), and `/v1/reverse_swap/simulate` of that output equals dex/amm `reverseSwap`;
 * 2. that very swap is then built with the SDK (`devnet.actions.swap`, min output = the simulation's
 *    `min_ask_units`), sent from a trader's wallet and executed by the devnet with nothing else trading
 *    (drain blocks only), the blocks go through the pipeline, and the indexed swap — the `swaps` fact, the
 *    trader's wallet operation, `/v1/swap/status` — has the simulated output and fees;
 * 3. swap status `Found` with the exit code name for a swap and a refunded swap, `NotFound` for an
 *    unknown query id, and the action tree of a two-hop v2 cross swap lists both hops with their status.
 *
 * How the new blocks reach the pipeline: the pipeline runs over a `PushSource` (the helper) for the whole
 * test, like `tondex start` over a live chain; the test pushes every block the devnet produces and waits
 * until the pipeline has stored and cached all of them. The alternative — run the devnet first and replay
 * — cannot check the simulation "at that moment": the API's pool state is the index's, so the index must be
 * at the block before each swap when the simulation is asked.
 */
import { Address } from "@ton/core";
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import { type PoolState, reverseSwap, SWAP_EXIT, type SwapRequest, swap } from "../../dex/amm/index.ts";
import { selectFacts } from "../../infra/store/facts-reader.ts";
import type { TruthRecord } from "../../ingest/devnet/chain/truth.ts";
import { TON_SYMBOL } from "../../ingest/devnet/sim/catalog.ts";
import { type PoolHandle, readPool } from "../../ingest/devnet/sim/pools.ts";
import { type Actor, send } from "../../ingest/devnet/sim/world.ts";
import { swapSimulateResponse } from "../../schemas/api/simulate.ts";
import { actionTreeResponse, swapStatusResponse } from "../../schemas/api/transactions.ts";
import { operationsResponse } from "../../schemas/api/wallets.ts";
import {
  type ApiDevnet,
  apiTime,
  assetAddress,
  fr,
  poolLabel,
  rawOf,
  startApiDevnet,
  truthField,
  walletTxOf,
} from "../helpers/api-devnet.ts";
import { request } from "../unit/api/harness.ts";

const test = anyTest as TestFn<{ env: ApiDevnet }>;

test.before(async (t) => {
  t.context = { env: await startApiDevnet({ seed: 5, marketBlocks: 30 }) };
});
test.after.always((t) => t.context.env?.close());

/** Input sizes per round, as parts per million of the pool's input reserve. */
const ROUND_PPM = [500n, 3_000n, 12_000n] as const;
const SLIPPAGE = "0.01";
let nextQueryId = 5_000_000_000n;
/** Referral swaps whose fact carries the protocol fee derived from the messages, and those left null. */
const derivedProtocolFees = { derived: 0, null: 0 };

type Env = ApiDevnet;

type Plan = {
  pool: PoolHandle;
  trader: Actor;
  offer: string;
  ask: string;
  amount: bigint;
  referrer?: Actor;
  /** v2 referral bps sent to both the API and the SDK; undefined = both defaults (10). */
  referralBps?: number;
  queryId: bigint;
  state: PoolState;
  request: SwapRequest;
};

/** The API's simulation path of a plan (`pool_address` forces the pool). */
function simulatePath(env: Env, p: Plan, mode: "swap" | "reverse_swap", units: bigint): string {
  const { devnet } = env;
  const q = new URLSearchParams({
    offer_address: assetAddress(devnet, p.offer),
    ask_address: assetAddress(devnet, p.ask),
    units: `${units}`,
    slippage_tolerance: SLIPPAGE,
    pool_address: fr(p.pool.address),
  });
  if (p.referrer) q.set("referral_address", fr(p.referrer.address));
  if (p.referrer && p.referralBps !== undefined) q.set("referral_fee_bps", `${p.referralBps}`);
  return `/v1/${mode}/simulate?${q}`;
}

async function balanceOf(env: Env, owner: Address, symbol: string): Promise<bigint> {
  const { devnet } = env;
  if (symbol === TON_SYMBOL) return (await devnet.state.getBalance(owner)) - 100n * 10n ** 9n;
  const wallet = await devnet.state.getJettonWalletAddress(devnet.actions.master(symbol), owner);
  return (await devnet.state.getJettonWalletData(wallet))?.balance ?? 0n;
}

/** One swap per pool for this round: size, direction, trader and referral vary with the pool and round. */
async function plan(env: Env, round: number): Promise<Plan[]> {
  const { devnet } = env;
  const { traders, referrers } = devnet.world;
  const plans: Plan[] = [];
  for (const [i, pool] of devnet.pools.entries()) {
    const state = (await readPool(devnet.state, pool))!;
    const zeroToOne = (i + round) % 2 === 0;
    const [offer, ask] = zeroToOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
    const trader = traders[(i + round * 11) % traders.length]!;
    const reserveIn = zeroToOne ? state.reserve0 : state.reserve1;
    let amount = (reserveIn * ROUND_PPM[round]!) / 1_000_000n;
    const spendable = (await balanceOf(env, trader.address, offer)) / 3n;
    if (amount > spendable) amount = spendable;
    if (amount <= 0n) continue;
    const v2 = pool.router !== "v1";
    // Round 0: no referrer; round 1: a referrer with explicit bps; round 2: a referrer, default bps.
    const referrer = round === 0 ? undefined : referrers[i % referrers.length]!;
    const referralBps = round === 1 && v2 ? 1 + ((i * 7) % 100) : undefined;
    const request: SwapRequest = {
      direction: zeroToOne ? "0to1" : "1to0",
      amountIn: amount,
      hasReferral: referrer !== undefined,
      ...(v2 && referrer ? { refFeeBps: BigInt(referralBps ?? 10) } : {}),
    };
    plans.push({
      pool,
      trader,
      offer,
      ask,
      amount,
      referrer,
      referralBps,
      queryId: nextQueryId++,
      state,
      request,
    });
  }
  return plans;
}

const feeless = (s: PoolState): PoolState => ({ ...s, lpFeeBps: 0n, protocolFeeBps: 0n, refFeeBps: 0n });

type Executed = Plan & {
  askUnits: bigint;
  feeUnits: bigint;
  minAsk: bigint;
  protocolFee: bigint;
  referralFee: bigint;
};

test.serial(
  "swap simulations equal dex/amm on the chain state, and the executed swaps are indexed as simulated",
  async (t) => {
    const { env } = t.context;
    const { devnet } = env;
    const typesSeen = new Set<string>();
    let executedCount = 0;
    for (let round = 0; round < ROUND_PPM.length; round++) {
      const since = devnet.world.chain.utime;
      const plans = await plan(env, round);
      const executed: Executed[] = [];
      for (const p of plans) {
        const label = `round ${round}, ${poolLabel(p.pool)} ${p.offer}→${p.ask} ${p.amount}`;
        const expected = swap(p.state, p.request);
        const res = await request(env.api, "POST", simulatePath(env, p, "swap", p.amount));
        if (expected.status !== "ok") {
          // The pool would refund (e.g. an output rounding to 0): no pool can execute the simulation.
          t.is(res.status, 422, `${label}: ${res.text}`);
          continue;
        }
        t.is(res.status, 200, `${label}: ${res.text}`);
        const sim = swapSimulateResponse.parse(res.json);
        const noFees = swap(feeless(p.state), { direction: p.request.direction, amountIn: p.amount });
        const askUnits = expected.amountOut;
        const feeUnits = noFees.amountOut - askUnits;
        const minAsk = (askUnits * 99n) / 100n;
        const offerIs0 = p.request.direction === "0to1";
        t.like(
          sim,
          {
            pool_address: fr(p.pool.address),
            router_address: fr(devnet.actions.handle(p.pool.router).address),
            offer_address: assetAddress(devnet, p.offer),
            ask_address: assetAddress(devnet, p.ask),
            offer_jetton_wallet: fr(offerIs0 ? p.pool.wallet0 : p.pool.wallet1),
            ask_jetton_wallet: fr(offerIs0 ? p.pool.wallet1 : p.pool.wallet0),
            offer_units: `${p.amount}`,
            ask_units: `${askUnits}`,
            fee_address: assetAddress(devnet, p.ask),
            fee_units: `${feeUnits}`,
            min_ask_units: `${minAsk}`,
          },
          label,
        );
        // Reverse: the least input that buys this output, as dex/amm computes it.
        const rev = reverseSwap(p.state, { ...p.request, targetOut: askUnits });
        const revRes = await request(env.api, "POST", simulatePath(env, p, "reverse_swap", askUnits));
        t.is(revRes.status, 200, `${label} (reverse): ${revRes.text}`);
        const revSim = swapSimulateResponse.parse(revRes.json);
        t.is(revSim.offer_units, `${rev.amountIn}`, `${label} (reverse)`);
        t.is(revSim.ask_units, `${swap(p.state, { ...p.request, amountIn: rev.amountIn }).amountOut}`, label);
        t.true(rev.amountIn <= p.amount, label);
        // Execute that very swap: the SDK's message, min output = the simulation's min_ask_units.
        const msg = await devnet.actions.swap({
          user: p.trader.address,
          router: p.pool.router,
          offer: p.offer,
          ask: p.ask,
          amount: p.amount,
          minOut: BigInt(sim.min_ask_units),
          queryId: p.queryId,
          deadline: devnet.world.chain.utime + 900,
          ...(p.referrer ? { referrer: p.referrer.address } : {}),
          ...(p.referralBps !== undefined ? { referralBps: p.referralBps } : {}),
        });
        send(devnet.world, p.trader, [msg]);
        executed.push({
          ...p,
          askUnits,
          feeUnits,
          minAsk,
          protocolFee: expected.protocolFeeOut,
          referralFee: expected.referralFeeOut,
        });
        typesSeen.add(p.state.type);
      }
      await env.settle();
      const until = devnet.world.chain.utime + 1;
      for (const e of executed) await checkIndexed(t, env, e, since, until, round);
      executedCount += executed.length;
    }
    t.deepEqual(
      [...typesSeen].sort(),
      [
        "v1_constant_product",
        "v2_constant_product",
        "v2_stableswap",
        "v2_weighted_const_product",
        "v2_weighted_stableswap",
      ],
      "every pool type executed",
    );
    t.true(executedCount >= 90, `only ${executedCount} swaps executed`);
    t.log(`${executedCount} swaps simulated, executed and checked`);
    t.log("referral swaps' protocol fee from their messages:", derivedProtocolFees);
  },
);

/** The executed swap as the devnet recorded it, the `swaps` fact, the wallet operation and the swap status. */
async function checkIndexed(
  t: ExecutionContext<unknown>,
  env: Env,
  e: Executed,
  since: number,
  until: number,
  round: number,
): Promise<void> {
  const { devnet } = env;
  const label = `round ${round}, ${poolLabel(e.pool)} ${e.offer}→${e.ask} ${e.amount}`;
  const truth = env.truth.find(
    (r) =>
      r.type === "swap" && r.fields.query_id === e.queryId && truthField(r, "pool") === rawOf(e.pool.address),
  ) as TruthRecord;
  t.truthy(truth, `${label}: the devnet executed it`);
  t.is(truth.fields.exit_code, SWAP_EXIT.swap_ok, label);
  t.is(truth.fields.amount_out, e.askUnits, `${label}: the pool paid the simulated output`);
  // The swaps fact.
  const rows = (await selectFacts(env.pipeline.store, "swaps", { where: { query_id: e.queryId } })).filter(
    (r) => r.pool === rawOf(e.pool.address),
  );
  t.is(rows.length, 1, label);
  t.like(
    rows[0],
    {
      tx_hash: truth.tx_hash,
      amount_in: e.amount,
      amount_out: e.askUnits,
      min_out: e.minAsk,
      exit_name: "swap_ok",
      success: true,
    },
    label,
  );
  // The pools' messages do not state the protocol fee: the fact leaves it null (the API derives it from the
  // pool states) unless a referral fee paid pins it down (dex/amm/protocol-fee.ts), then it is the pool's.
  t.true(
    rows[0]?.protocol_fee === null || (e.referralFee > 0n && rows[0]?.protocol_fee === e.protocolFee),
    `${label}: protocol fee ${rows[0]?.protocol_fee}`,
  );
  if (e.referralFee > 0n) derivedProtocolFees[rows[0]?.protocol_fee === null ? "null" : "derived"]++;
  t.is(rows[0]?.referral_fee ?? 0n, e.referralFee, `${label}: referral fee`);
  // The trader's wallet operation: output and fees (LP fee in ask units + protocol + referral = fee_units).
  const ops = await request(
    env.api,
    "GET",
    `/v1/wallets/${fr(e.trader.address)}/operations?since=${apiTime(since)}&until=${apiTime(until)}&op_type=Swap`,
  );
  t.is(ops.status, 200, `${label}: ${ops.text}`);
  const mine = operationsResponse
    .parse(ops.json)
    .operations.filter((o) => o.operation.pool_tx_hash === truth.tx_hash);
  t.is(mine.length, 1, `${label}: one operation`);
  const op = mine[0]!.operation;
  const offerIs0 = e.request.direction === "0to1";
  t.like(
    op,
    {
      pool_address: fr(e.pool.address),
      pool_tx_lt: Number(truth.lt),
      success: true,
      exit_code: "swap_ok",
      asset0_amount: `${offerIs0 ? e.amount : e.askUnits}`,
      asset1_amount: `${offerIs0 ? e.askUnits : e.amount}`,
      fee_asset_address: assetAddress(devnet, e.ask),
      protocol_fee_amount: `${e.protocolFee}`,
      referral_fee_amount: `${e.referralFee}`,
      ...(e.referrer ? { referral_address: fr(e.referrer.address) } : {}),
    },
    label,
  );
  // The devnet's pools are tracked from their deployment: every fee is known (never null).
  t.not(op.lp_fee_amount, null, label);
  t.not(op.protocol_fee_amount, null, label);
  t.is(
    BigInt(op.lp_fee_amount ?? "") + BigInt(op.protocol_fee_amount ?? "") + BigInt(op.referral_fee_amount),
    e.feeUnits,
    `${label}: fees = simulated fee_units`,
  );
  // The wallet transaction is the trader's wallet transaction that started the swap.
  const started = walletTxOf(env.blocks, e.trader.address, e.queryId);
  t.is(op.wallet_tx_hash, started?.hash ?? "(not found)", `${label}: wallet_tx_hash`);
  t.is(op.wallet_tx_lt, started?.lt ?? "(not found)", `${label}: wallet_tx_lt`);
  // Swap status.
  const status = await request(
    env.api,
    "GET",
    `/v1/swap/status?router_address=${fr(devnet.actions.handle(e.pool.router).address)}&owner_address=${fr(e.trader.address)}&query_id=${e.queryId}`,
  );
  t.is(status.status, 200, label);
  t.like(
    swapStatusResponse.parse(status.json),
    {
      "@type": "Found",
      address: fr(e.trader.address),
      query_id: `${e.queryId}`,
      exit_code: "swap_ok",
      coins: `${e.askUnits}`,
      logical_time: `${truth.lt}`,
      tx_hash: truth.tx_hash,
      balance_deltas: JSON.stringify({
        [assetAddress(devnet, e.offer)]: `-${e.amount}`,
        [assetAddress(devnet, e.ask)]: `${e.askUnits}`,
      }),
    },
    label,
  );
}

test.serial(
  "swap status: a refunded swap is Found with its exit code name; an unknown query id is NotFound",
  async (t) => {
    const { env } = t.context;
    const { devnet } = env;
    const pool = devnet.pools.find((p) => p.router === "stable_v2_2")!;
    const trader = devnet.world.traders[60]!;
    const state = (await readPool(devnet.state, pool))!;
    const amount = state.reserve0 / 1000n;
    const expected = swap(state, { direction: "0to1", amountIn: amount });
    const queryId = nextQueryId++;
    const router = fr(devnet.actions.handle(pool.router).address);
    const statusPath = (q: bigint) =>
      `/v1/swap/status?router_address=${router}&owner_address=${fr(trader.address)}&query_id=${q}`;
    t.deepEqual((await request(env.api, "GET", statusPath(queryId))).json, { "@type": "NotFound" });
    // One unit more than the pool can pay: the pool refunds with swap_refund_slippage.
    send(devnet.world, trader, [
      await devnet.actions.swap({
        user: trader.address,
        router: pool.router,
        offer: pool.token0,
        ask: pool.token1,
        amount,
        minOut: expected.amountOut + 1n,
        queryId,
        deadline: devnet.world.chain.utime + 900,
      }),
    ]);
    await env.settle();
    const truth = env.truth.find((r) => r.type === "swap" && r.fields.query_id === queryId)!;
    t.is(truth.fields.exit_code, SWAP_EXIT.swap_refund_slippage);
    const status = await request(env.api, "GET", statusPath(queryId));
    t.deepEqual(status.json, {
      "@type": "Found",
      address: fr(trader.address),
      query_id: `${queryId}`,
      exit_code: "swap_refund_slippage",
      coins: `${amount}`,
      logical_time: `${truth.lt}`,
      tx_hash: truth.tx_hash,
      // The offer came back in full: no change.
      balance_deltas: JSON.stringify({ [assetAddress(devnet, pool.token0)]: "0" }),
    });
    t.deepEqual((await request(env.api, "GET", statusPath(nextQueryId++))).json, { "@type": "NotFound" });
    // The same query id through another router is another swap: not found.
    const other = fr(devnet.actions.handle("cpi_v2_2").address);
    t.deepEqual(
      (
        await request(
          env.api,
          "GET",
          `/v1/swap/status?router_address=${other}&owner_address=${fr(trader.address)}&query_id=${queryId}`,
        )
      ).json,
      { "@type": "NotFound" },
    );
  },
);

test.serial(
  "a two-hop v2 cross swap: the action tree lists both hops with their status; swap status Found",
  async (t) => {
    const { env } = t.context;
    const { devnet } = env;
    const hop = (a: string, b: string) =>
      devnet.pools.find(
        (p) => p.router === "cpi_v2_2" && [p.token0, p.token1].sort().join() === [a, b].sort().join(),
      )!;
    const first = hop(TON_SYMBOL, "dNOT");
    const second = hop("dNOT", "dDOGS");
    const trader = devnet.world.traders[61]!;
    const s1 = (await readPool(devnet.state, first))!;
    const s2 = (await readPool(devnet.state, second))!;
    const amount = (first.token0 === TON_SYMBOL ? s1.reserve0 : s1.reserve1) / 500n;
    const dir = (p: PoolHandle, offer: string) => (p.token0 === offer ? "0to1" : "1to0") as "0to1" | "1to0";
    // Each hop simulated by the API on its own pool equals dex/amm; the second hop sells the first's output.
    const leg1 = swap(s1, { direction: dir(first, TON_SYMBOL), amountIn: amount });
    const leg2 = swap(s2, { direction: dir(second, "dNOT"), amountIn: leg1.amountOut });
    const sim = async (offer: string, ask: string, pool: PoolHandle, units: bigint) => {
      const q = `offer_address=${assetAddress(devnet, offer)}&ask_address=${assetAddress(devnet, ask)}&units=${units}&slippage_tolerance=${SLIPPAGE}&pool_address=${fr(pool.address)}`;
      const res = await request(env.api, "POST", `/v1/swap/simulate?${q}`);
      t.is(res.status, 200, res.text);
      return swapSimulateResponse.parse(res.json);
    };
    const sim1 = await sim(TON_SYMBOL, "dNOT", first, amount);
    const sim2 = await sim("dNOT", "dDOGS", second, BigInt(sim1.ask_units));
    t.is(sim1.ask_units, `${leg1.amountOut}`);
    t.is(sim2.ask_units, `${leg2.amountOut}`);
    const queryId = nextQueryId++;
    send(devnet.world, trader, [
      await devnet.actions.swap({
        user: trader.address,
        router: "cpi_v2_2",
        offer: TON_SYMBOL,
        ask: "dNOT",
        amount,
        minOut: BigInt(sim1.min_ask_units),
        queryId,
        deadline: devnet.world.chain.utime + 900,
        next: [{ ask: "dDOGS", minOut: BigInt(sim2.min_ask_units) }],
      }),
    ]);
    await env.settle();
    const legs = env.truth.filter((r) => r.type === "swap" && r.fields.query_id === queryId);
    t.deepEqual(
      legs.map((r) => [truthField(r, "pool"), r.fields.amount_in, r.fields.amount_out, r.fields.exit_code]),
      [
        [rawOf(first.address), amount, leg1.amountOut, SWAP_EXIT.swap_ok],
        [rawOf(second.address), leg1.amountOut, leg2.amountOut, SWAP_EXIT.swap_ok],
      ],
    );
    const walletTx = walletTxOf(env.blocks, trader.address, queryId)!;
    const res = await request(env.api, "GET", `/v1/transactions/${walletTx.hash}/action_tree`);
    t.is(res.status, 200, res.text);
    const tree = actionTreeResponse.parse(res.json);
    t.true(tree.tx_chain_completed);
    t.deepEqual(tree.initial_tx_id, {
      lt: Number(walletTx.lt),
      hash: walletTx.hash,
      contract_address: fr(trader.address),
    });
    const swaps = tree.actions.filter((a) => a["@type"] === "swap");
    t.is(swaps.length, 2);
    t.is(tree.actions.length, 2, JSON.stringify(tree.actions.map((a) => a["@type"])));
    const wallet = (p: PoolHandle, symbol: string) => fr(p.token0 === symbol ? p.wallet0 : p.wallet1);
    const completed = (r: TruthRecord, pool: PoolHandle, offer: string, ask: string) => ({
      "@type": "completed",
      success: true,
      exit_code: "swap_ok",
      tx_id: { lt: Number(r.lt), hash: r.tx_hash, contract_address: fr(pool.address) },
      offer_jetton_wallet: wallet(pool, offer),
      offer_jetton_amount: `${r.fields.amount_in}`,
      ask_jetton_wallet: wallet(pool, ask),
      ask_jetton_amount: `${r.fields.amount_out}`,
    });
    t.like(tree.actions[0], {
      "@type": "swap",
      contract_major_version: "v2",
      destination: fr(first.address),
      tx_payload: { query_id: Number(queryId), min_ask_amount: sim1.min_ask_units },
      status: completed(legs[0]!, first, TON_SYMBOL, "dNOT"),
    });
    t.is(tree.actions[0]!.prev_index, undefined);
    t.like(tree.actions[1], {
      "@type": "swap",
      contract_major_version: "v2",
      destination: fr(second.address),
      prev_index: 0,
      tx_payload: { query_id: Number(queryId), min_ask_amount: sim2.min_ask_units },
      status: completed(legs[1]!, second, "dNOT", "dDOGS"),
    });
    // The route's outcome is its last hop; the wallet gave TON and got dDOGS.
    const status = await request(
      env.api,
      "GET",
      `/v1/swap/status?router_address=${fr(devnet.actions.handle("cpi_v2_2").address)}&owner_address=${fr(trader.address)}&query_id=${queryId}`,
    );
    t.deepEqual(status.json, {
      "@type": "Found",
      address: fr(trader.address),
      query_id: `${queryId}`,
      exit_code: "swap_ok",
      coins: `${leg2.amountOut}`,
      logical_time: `${legs[1]!.lt}`,
      tx_hash: legs[1]!.tx_hash,
      balance_deltas: JSON.stringify({
        [assetAddress(devnet, TON_SYMBOL)]: `-${amount}`,
        [assetAddress(devnet, "dDOGS")]: `${leg2.amountOut}`,
      }),
    });
  },
);

/** api.md §6.6: the result fields of the liquidity actions and effects, by `type exit_code` (required, optional). */
const RESULT_FIELDS: Record<string, [string[], string[]?]> = {
  "provide_liquidity provide_liquidity_ok": [
    ["amount0_out", "amount1_out"],
    ["min_lp_out", "fwd_amount", "to_address", "refund_address", "excess_address"],
  ],
  "provide_liquidity bounce": [[]],
  "cb_add_liquidity add_liquidity_ok": [
    ["amount0_out", "amount1_out"],
    ["min_lp_out", "to_address", "fwd_amount", "refund_address", "excess_address"],
  ],
  "cb_add_liquidity mint_lp_ok": [["lp_out"]],
  "cb_add_liquidity bounce": [[]],
  "jetton_burn burn_ok": [["from_address", "amount0_out", "amount1_out"]],
  "jetton_burn bounce": [[]],
  "refund_liquidity refund_ok": [
    ["user_address", "amount0_out", "router_jetton0_address", "amount1_out", "router_jetton1_address"],
  ],
  "refund_liquidity bounce": [[]],
  "withdraw_fee ok": [["amount_out", "token_address", "to_address"]],
  "withdraw_fee bounce": [[]],
};

test.serial(
  "every wallet's operations (swaps, provides, mints, burns): wallet_tx_* is the wallet's transaction that started the trace; their action trees name results as api.md §6.6",
  async (t) => {
    const { env } = t.context;
    // The trace graph of everything the devnet executed: a transaction's parent sent its inbound message.
    const txs = env.blocks.flatMap((b) => b.transactions);
    const byHash = new Map(txs.map((tx) => [tx.hash, tx]));
    const sender = new Map(txs.flatMap((tx) => tx.out_msgs.map((m) => [m.hash, tx] as const)));
    const rootOf = (hash: string) => {
      let tx = byHash.get(hash);
      while (tx?.in_msg && tx.in_msg.source !== null) tx = sender.get(tx.in_msg.hash);
      return tx;
    };
    const wallets = new Set(txs.flatMap((tx) => (tx.in_msg?.source === null ? [tx.account] : [])));
    const byType = new Map<string, number>();
    const started = { named: 0, null: 0 };
    const liquidityRoots = new Set<string>();
    for (const wallet of wallets) {
      const res = await request(
        env.api,
        "GET",
        `/v1/wallets/${fr(Address.parse(wallet))}/operations?since=2000-01-01T00:00:00&until=2100-01-01T00:00:00`,
      );
      t.is(res.status, 200, res.text);
      for (const { operation: op } of operationsResponse.parse(res.json).operations) {
        const label = `${wallet} ${op.operation_type} ${op.pool_tx_hash}`;
        const root = rootOf(op.pool_tx_hash);
        t.truthy(root, `${label}: the devnet executed it`);
        // Every devnet trace starts at a wallet's external message, and the pipeline stored it.
        const expected = root?.account === rawOf(Address.parse(op.wallet_address)) ? root : undefined;
        t.deepEqual(
          [op.wallet_tx_hash, op.wallet_tx_lt],
          [expected?.hash ?? null, expected?.lt ?? null],
          label,
        );
        byType.set(op.operation_type, (byType.get(op.operation_type) ?? 0) + 1);
        if (op.operation_type !== "Swap" && root) liquidityRoots.add(root.hash);
        if (op.wallet_tx_hash === null) started.null++;
        else started.named++;
      }
    }
    t.log(Object.fromEntries(byType), started);
    t.true((byType.get("Swap") ?? 0) > 0 && byType.size >= 3, JSON.stringify(Object.fromEntries(byType)));
    // The action trees of the liquidity traces: every completed action and effect carries exactly the
    // result fields api.md §6.6 lists for its type and exit code (optional ones may be absent).
    const seen = new Set<string>();
    for (const hash of [...liquidityRoots].slice(0, 80)) {
      const res = await request(env.api, "GET", `/v1/transactions/${hash}/action_tree`);
      t.is(res.status, 200, res.text);
      const tree = actionTreeResponse.parse(res.json);
      for (const a of tree.actions.filter((x) => x["@type"] === "jetton_burn")) {
        // api.md §6.6: a burn's payload names opcode, query_id, amount and response_destination (absent
        // when the burn named none: the v2 SDK's burn leaves it addr_none).
        t.deepEqual(
          Object.keys(a.tx_payload)
            .filter((k) => k !== "response_destination")
            .sort(),
          ["amount", "opcode", "query_id"],
          `${hash}: jetton_burn payload`,
        );
        if (a.contract_major_version === "v1") t.truthy(a.tx_payload.response_destination, hash);
      }
      const statuses = tree.actions.flatMap((a) => [
        { type: a["@type"], status: a.status },
        ...(a.effects ?? []).map((e) => ({ type: e["@type"], status: e.status })),
      ]);
      for (const { type, status } of statuses) {
        if (status["@type"] !== "completed") continue;
        const { "@type": _, tx_id, success, exit_code, ...fields } = status as Record<string, unknown>;
        const names = RESULT_FIELDS[`${type} ${exit_code}`];
        seen.add(`${type} ${exit_code}`);
        if (names === undefined) {
          t.true(
            type === "swap" || type === "other",
            `${hash}: ${type} ${exit_code} is not an api.md result`,
          );
          continue;
        }
        const [required, optional = []] = names;
        t.deepEqual(
          Object.keys(fields)
            .filter((k) => !optional.includes(k))
            .sort(),
          [...required].sort(),
          `${hash}: ${type} ${exit_code}`,
        );
      }
    }
    t.log([...seen].sort());
    t.true(seen.has("provide_liquidity provide_liquidity_ok") && seen.has("cb_add_liquidity mint_lp_ok"));
  },
);

test.serial("the pipeline indexed every block without a pool-state mismatch", (t) => {
  t.deepEqual(
    t.context.env.warnings.map((w) => w.msg),
    [],
  );
});
