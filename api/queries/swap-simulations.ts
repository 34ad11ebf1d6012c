/**
 * The I/O around the pure simulations: choose and load pools, routers and decimals, then call
 * ./simulate.ts. Without `pool_address` every pool of the pair whose DEX version is allowed (`dex_v2`,
 * `dex_version`) is simulated and the best one wins: the largest `ask_units` for a swap, the smallest
 * `offer_units` for a reverse swap (ties keep the store's order). A pool whose state is not known (active
 * before the first transaction indexed, no chain access) is never quoted: a 422 naming it, never a quote
 * computed from reserves the service does not have.
 */
import type { PoolState } from "../../dex/amm/index.ts";
import type { SwapSimulateQuery, SwapSimulationDto } from "../../schemas/api/simulate.ts";
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, NotFoundError, UnprocessableError } from "../errors.ts";
import { friendly } from "../mappers/common.ts";
import {
  type AssetRecord,
  decimalsOf,
  isKnownPool,
  type KnownPoolRecord,
  type PoolRecord,
  type RawAddress,
  type ReferenceNow,
  type RouterRecord,
} from "../read-model.ts";
import { currentState, currentStateNow, findPool, lookupsNow, poolStateUnknown } from "./pool-state.ts";
import { includesV2 } from "./reference.ts";
import { quoteReverseSwap, quoteSwap, type SwapAnswer, type SwapInput, type SwapQuote } from "./simulate.ts";

export type Mode = "swap" | "reverse";

function versionAllowed(pool: PoolRecord, q: SwapSimulateQuery): boolean {
  const major = pool.dex === "v1" ? 1 : 2;
  if (major === 2 && !includesV2(q.dex_v2)) return false;
  return q.dex_version === undefined || q.dex_version.length === 0 || q.dex_version.includes(major);
}

const tradesPair = (p: PoolRecord, a: RawAddress, b: RawAddress) =>
  (p.token0 === a && p.token1 === b) || (p.token0 === b && p.token1 === a);

/** `pool_address`'s pool, when it may quote the query: the only candidate. */
function namedPool(pool: PoolRecord | null, q: SwapSimulateQuery): PoolRecord[] {
  if (pool === null) throw new NotFoundError("pool", [{ field: "pool_address", message: "unknown pool" }]);
  if (!tradesPair(pool, q.offer_address, q.ask_address)) {
    throw new BadRequestError("pool_address", "the pool does not trade offer_address for ask_address");
  }
  if (!versionAllowed(pool, q)) throw new BadRequestError("pool_address", "excluded by dex_v2 / dex_version");
  if (!isKnownPool(pool)) throw poolStateUnknown(pool);
  return [pool];
}

/** No allowed pool trades the pair: name the parameter at fault, given which of the two assets are known. */
function noPool(q: SwapSimulateQuery, assets: readonly AssetRecord[]): NotFoundError {
  const known = new Set(assets.map((a) => a.address));
  const field = !known.has(q.offer_address)
    ? "offer_address"
    : !known.has(q.ask_address)
      ? "ask_address"
      : null;
  return new NotFoundError(
    "pool for this asset pair",
    field === null
      ? [{ field: "ask_address", message: "no pool trades offer_address for ask_address" }]
      : [{ field, message: "unknown asset: no indexed pool trades it" }],
  );
}

async function candidatePools(deps: ApiDeps, q: SwapSimulateQuery): Promise<PoolRecord[]> {
  if (q.pool_address !== undefined) return namedPool(await findPool(deps, q.pool_address), q);
  const pools = (await deps.data.getPoolsByAssets(q.offer_address, q.ask_address)).filter((p) =>
    versionAllowed(p, q),
  );
  if (pools.length === 0) throw noPool(q, await deps.data.getAssets([q.offer_address, q.ask_address]));
  return pools;
}

/** `candidatePools` from lookups in memory; undefined: `pool_address` is not in the store (a chain read). */
function candidatePoolsNow(ref: ReferenceNow, q: SwapSimulateQuery): PoolRecord[] | undefined {
  if (q.pool_address !== undefined) {
    const pool = ref.getPool(q.pool_address);
    return pool === null ? undefined : namedPool(pool, q);
  }
  const pools = ref.getPoolsByAssets(q.offer_address, q.ask_address).filter((p) => versionAllowed(p, q));
  if (pools.length === 0) throw noPool(q, ref.getAssets([q.offer_address, q.ask_address]));
  return pools;
}

type Quoted = SwapQuote & { ok: true };

const better = (mode: Mode, a: Quoted, b: Quoted): boolean =>
  mode === "swap"
    ? a.askUnits > b.askUnits
    : a.offerUnits < b.offerUnits || (a.offerUnits === b.offerUnits && a.askUnits > b.askUnits);

export async function simulateSwapRequest(
  deps: ApiDeps,
  q: SwapSimulateQuery,
  mode: Mode,
): Promise<SwapSimulationDto> {
  return (await bestSwapAnswer(deps, q, mode)).dto();
}

function checkQuery(q: SwapSimulateQuery): void {
  if (q.offer_address === q.ask_address)
    throw new BadRequestError("ask_address", "must differ from offer_address");
  if (q.referral_fee_bps !== undefined && q.referral_address === undefined) {
    throw new BadRequestError("referral_fee_bps", "requires referral_address: the fee is paid to a referrer");
  }
}

/** The pools' routers, each once, in order of first use. */
function routersOf(pools: readonly KnownPoolRecord[]): RawAddress[] {
  const out: RawAddress[] = [];
  for (const p of pools) if (!out.includes(p.router)) out.push(p.router);
  return out;
}

/** `simulateSwapRequest`'s answer, also as its JSON text (`SwapAnswer.json`). */
export async function bestSwapAnswer(deps: ApiDeps, q: SwapSimulateQuery, mode: Mode): Promise<SwapAnswer> {
  checkQuery(q);
  const candidates = await candidatePools(deps, q);
  const pools = candidates.filter(isKnownPool);
  // One wait for everything the quotes read: the assets' decimals, the routers, the pools' states.
  const [assets, routers, states] = await Promise.all([
    deps.data.getAssets([q.offer_address, q.ask_address]),
    Promise.all(routersOf(pools).map((r) => deps.data.getRouter(r))),
    Promise.all(pools.map((p) => currentState(deps, p))),
  ]);
  return answerOf(q, mode, { candidates, pools, assets, routers, states });
}

/**
 * `bestSwapAnswer` without waiting, when everything it reads is in this process's memory (the read
 * model's lookups, `referenceNow`, and the pool-state cache, `getPoolStateNow`): the same reads, the same
 * answer or error. undefined: something has to be read (the caller awaits `bestSwapAnswer`).
 */
export function bestSwapAnswerNow(deps: ApiDeps, q: SwapSimulateQuery, mode: Mode): SwapAnswer | undefined {
  checkQuery(q);
  const ref = lookupsNow(deps);
  if (ref === undefined) return undefined;
  const candidates = candidatePoolsNow(ref, q);
  if (candidates === undefined) return undefined;
  const pools = candidates.filter(isKnownPool);
  return answerOf(q, mode, {
    candidates,
    pools,
    assets: ref.getAssets([q.offer_address, q.ask_address]),
    routers: routersOf(pools).map((r) => ref.getRouter(r)),
    states: pools.map((p) => currentStateNow(deps, p)),
  });
}

/** Everything a quote reads besides its query. */
type QuoteReads = {
  candidates: readonly PoolRecord[];
  /** The candidates whose state the store knows. */
  pools: readonly KnownPoolRecord[];
  assets: readonly AssetRecord[];
  /** Per router of `pools` (`routersOf`). */
  routers: readonly (RouterRecord | null)[];
  /** Per pool of `pools`. */
  states: readonly (PoolState | null)[];
};

/** As `decimalsOf`: a list of one or two searched, the last of an address counting. */
function routerOf(routers: QuoteReads["routers"], address: RawAddress): RouterRecord | undefined {
  return routers.findLast((r) => r?.address === address) ?? undefined;
}

function answerOf(q: SwapSimulateQuery, mode: Mode, reads: QuoteReads): SwapAnswer {
  const { candidates, pools, assets, routers, states } = reads;
  const quotes: { pool: KnownPoolRecord; quote: SwapQuote & { ok: true } }[] = [];
  const refusals: { pool: string; reason: string }[] = candidates
    .filter((p) => !isKnownPool(p))
    .map((p) => ({ pool: friendly(p.address), reason: "the pool's state is not known" }));
  for (const [i, pool] of pools.entries()) {
    const router = routerOf(routers, pool.router);
    const state = states[i] ?? null;
    if (router === undefined || state === null) continue;
    const input: SwapInput = {
      pool,
      state,
      router,
      offer: q.offer_address,
      ask: q.ask_address,
      offerDecimals: decimalsOf(assets, q.offer_address),
      askDecimals: decimalsOf(assets, q.ask_address),
      slippage: q.slippage_tolerance,
      referral: q.referral_address,
      referralFeeBps: q.referral_fee_bps,
    };
    const quote = mode === "swap" ? quoteSwap(input, q.units) : quoteReverseSwap(input, q.units);
    if (!quote.ok) refusals.push({ pool: friendly(pool.address), reason: quote.reason });
    else quotes.push({ pool, quote });
  }
  // Best first; the sort is stable, so ties keep the store's order. A pool whose response cannot be
  // rendered (the math refuses a derived figure) counts as refusing, and the next best answers.
  if (quotes.length > 1)
    quotes.sort((a, b) => (better(mode, a.quote, b.quote) ? -1 : better(mode, b.quote, a.quote) ? 1 : 0));
  for (const { pool, quote } of quotes) {
    const described = quote.describe();
    if (described.ok) return described.answer;
    refusals.push({ pool: friendly(pool.address), reason: described.reason });
  }
  throw new UnprocessableError("swap_not_possible", "no pool can execute this swap", refusals);
}
