/**
 * The I/O around the liquidity simulation (api.md §6.3): checks which amounts each provision type needs
 * (naming the field), finds the pool (or, for Initial, the router and the predicted pool address), reads
 * the wallet's LpAccount from the chain, then calls the pure ./simulate-liquidity.ts.
 */
import { Address, beginCell } from "@ton/core";
import { type PoolState, poolState } from "../../dex/amm/index.ts";
import { ceilDiv } from "../../dex/amm/math.ts";
import { ChainStateError } from "../../dex/chain-state.ts";
import type { LiquiditySimulateQuery, LiquiditySimulationDto } from "../../schemas/api/simulate.ts";
import { toRawAddress } from "../../schemas/api/wire.ts";
import type { ApiDeps } from "../deps.ts";
import { BadRequestError, NotFoundError, UnprocessableError } from "../errors.ts";
import { TON_RAW } from "../mappers/common.ts";
import {
  type AssetRecord,
  decimalsOf,
  isKnownPool,
  type KnownPoolRecord,
  type PoolRecord,
  type RawAddress,
  type RouterRecord,
} from "../read-model.ts";
import { currentState, currentStateNow, findPool, lookupsNow, poolStateUnknown } from "./pool-state.ts";
import { type ProvisionInput, simulateProvision } from "./simulate-liquidity.ts";

type Target = Pick<ProvisionInput, "router" | "poolAddress" | "token0" | "token1" | "state">;

const missing = (field: string) => new BadRequestError(field, "required for this provision_type");

async function chainOr404<T>(field: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof ChainStateError)
      throw new NotFoundError("jetton master", [{ field, message: e.message }]);
    throw e;
  }
}

/** Routers that create new pools: constant-product only (other types need parameters the request lacks). */
function creationRouter(routers: readonly RouterRecord[]): RouterRecord | null {
  const open = routers.filter((r) => r.poolCreationEnabled === true && r.routerType === "ConstantProduct");
  open.sort((a, b) => b.majorVersion - a.majorVersion || (b.minorVersion ?? 0) - (a.minorVersion ?? 0));
  return open[0] ?? null;
}

/** The router's pTON wallet, where TON is sent; a 422 while no TON operation of the router revealed it. */
function ptonWalletOf(router: RouterRecord, field: string): RawAddress {
  if (router.ptonWallet !== null) return router.ptonWallet;
  throw new UnprocessableError("pton_unknown", "the router's pTON wallet is not known", [
    { field, message: "no TON operation of the router indexed yet" },
  ]);
}

/** Pool order (contracts.md §1.2): the router wallet whose address cell has the larger hash is token0. */
function isToken0(walletA: Address, walletB: Address): boolean {
  const hash = (a: Address) => BigInt(`0x${beginCell().storeAddress(a).endCell().hash().toString("hex")}`);
  return hash(walletA) > hash(walletB);
}

async function initialTarget(deps: ApiDeps, q: LiquiditySimulateQuery): Promise<Target> {
  const router = creationRouter(await deps.data.listRouters());
  if (router === null) throw new UnprocessableError("no_router", "no router accepts new pools");
  const routerAddress = Address.parseRaw(router.address);
  const walletOf = (asset: RawAddress, field: string) =>
    asset === TON_RAW
      ? Promise.resolve(Address.parseRaw(ptonWalletOf(router, field)))
      : chainOr404(field, () => deps.chain.getJettonWalletAddress(Address.parseRaw(asset), routerAddress));
  const [wa, wb] = [await walletOf(q.token_a, "token_a"), await walletOf(q.token_b, "token_b")];
  const poolAddress = toRawAddress(
    await chainOr404("token_a", () => deps.chain.getPoolAddress(routerAddress, wa, wb)),
  );
  const existing = await deps.data.getPool(poolAddress);
  if (existing !== null && existing.state === null) throw poolStateUnknown(existing);
  if (existing !== null && existing.state !== null && existing.state.lpSupply > 0n) {
    throw new UnprocessableError("pool_exists", "the pool already exists; use Balanced or Arbitrary");
  }
  const aFirst = isToken0(wa, wb);
  const type = router.majorVersion === 1 ? "v1_constant_product" : "v2_constant_product";
  const state: PoolState = existing?.state ?? poolState({ type });
  return {
    router,
    poolAddress,
    token0: aFirst ? q.token_a : q.token_b,
    token1: aFirst ? q.token_b : q.token_a,
    state,
  };
}

/** A pool's checks, naming the field: the pool is known, with a state, and holds both tokens. */
function checkedPool(q: LiquiditySimulateQuery, pool: PoolRecord | null): KnownPoolRecord {
  if (pool === null) throw new NotFoundError("pool", [{ field: "pool_address", message: "unknown pool" }]);
  if (!isKnownPool(pool)) throw poolStateUnknown(pool);
  const tokens = [pool.token0, pool.token1];
  if (!tokens.includes(q.token_a)) throw new BadRequestError("token_a", "not an asset of the pool");
  if (!tokens.includes(q.token_b)) throw new BadRequestError("token_b", "not an asset of the pool");
  return pool;
}

const targetOf = (pool: KnownPoolRecord, router: RouterRecord, state: PoolState): Target => ({
  router,
  poolAddress: pool.address,
  token0: pool.token0,
  token1: pool.token1,
  state,
});

async function existingTarget(deps: ApiDeps, q: LiquiditySimulateQuery): Promise<Target> {
  if (q.pool_address === undefined) throw missing("pool_address");
  const pool = checkedPool(q, await findPool(deps, q.pool_address));
  const router = await deps.data.getRouter(pool.router);
  if (router === null) throw new NotFoundError("router of the pool");
  return targetOf(pool, router, (await currentState(deps, pool)) ?? pool.state);
}

/** The amounts to send: checked per provision type; Balanced completes the missing side at the pool ratio. */
function amounts(q: LiquiditySimulateQuery, t: Target): [bigint, bigint] {
  const { token_a_units: a, token_b_units: b } = q;
  if (q.provision_type === "Balanced") {
    if ((a === undefined) === (b === undefined)) {
      throw new BadRequestError(
        a === undefined ? "token_a_units" : "token_b_units",
        "Balanced takes exactly one amount",
      );
    }
    const [given, field] = a !== undefined ? [a, "token_a_units"] : [b as bigint, "token_b_units"];
    if (given === 0n) throw new BadRequestError(field, "must be greater than zero");
    const givenIs0 = (a !== undefined ? q.token_a : q.token_b) === t.token0;
    const [rGiven, rOther] = givenIs0
      ? [t.state.reserve0, t.state.reserve1]
      : [t.state.reserve1, t.state.reserve0];
    if (rGiven === 0n) throw new UnprocessableError("empty_pool", "the pool has no liquidity; use Initial");
    const other = ceilDiv(given * rOther, rGiven);
    return a !== undefined ? [a, other] : [other, given];
  }
  if (a === undefined) throw missing("token_a_units");
  if (b === undefined) throw missing("token_b_units");
  if (q.provision_type === "Initial" && (a === 0n || b === 0n)) {
    throw new BadRequestError(a === 0n ? "token_a_units" : "token_b_units", "Initial needs both amounts > 0");
  }
  if (a === 0n && b === 0n) throw new BadRequestError("token_a_units", "at least one amount must be > 0");
  return [a, b];
}

async function lpAccountOf(deps: ApiDeps, pool: RawAddress, wallet: RawAddress) {
  try {
    const address = await deps.chain.getLpAccountAddress(Address.parseRaw(pool), Address.parseRaw(wallet));
    const data = await deps.chain.getLpAccountData(address);
    return { address: toRawAddress(address), amount0: data?.amount0 ?? 0n, amount1: data?.amount1 ?? 0n };
  } catch (e) {
    // A pool the chain does not know (yet): no LpAccount to report.
    if (e instanceof ChainStateError) return undefined;
    throw e;
  }
}

/** The request's checks that come before any read. */
function checkRequest(q: LiquiditySimulateQuery): void {
  if (q.token_a === q.token_b) throw new BadRequestError("token_b", "must differ from token_a");
  if (q.provision_type === "Initial" && q.pool_address !== undefined) {
    throw new BadRequestError("pool_address", "not allowed for Initial (the pool does not exist yet)");
  }
}

export async function simulateLiquidityRequest(
  deps: ApiDeps,
  q: LiquiditySimulateQuery,
): Promise<LiquiditySimulationDto> {
  checkRequest(q);
  const target =
    q.provision_type === "Initial" ? await initialTarget(deps, q) : await existingTarget(deps, q);
  const amountsAB = amounts(q, target);
  const assets = await deps.data.getAssets([q.token_a, q.token_b]);
  const lpAccount =
    q.wallet_address !== undefined && q.provision_type !== "Initial"
      ? await lpAccountOf(deps, target.poolAddress, q.wallet_address)
      : undefined;
  return provisionOf(q, target, amountsAB, assets, lpAccount);
}

/**
 * `simulateLiquidityRequest` without waiting, when everything it reads is in this process's memory (the
 * read model's lookups, `referenceNow`, and the pool-state cache, `getPoolStateNow`): the same reads, the
 * same answer or error. undefined: something has to be read — an Initial provision (the chain predicts
 * the pool's address), a wallet's LpAccount (a chain read), a pool or router not in the lookups — and the
 * caller awaits `simulateLiquidityRequest`. A request answered at once leaves nothing pending behind it
 * (api/response-memo.ts: no flight to track per request).
 */
export function simulateLiquidityNow(
  deps: ApiDeps,
  q: LiquiditySimulateQuery,
): LiquiditySimulationDto | undefined {
  if (q.provision_type === "Initial" || q.wallet_address !== undefined) return undefined;
  const ref = lookupsNow(deps);
  if (ref === undefined) return undefined;
  checkRequest(q);
  if (q.pool_address === undefined) throw missing("pool_address");
  const found = ref.getPool(q.pool_address);
  // Not in the lookups: perhaps only on the chain yet (`findPool`).
  if (found === null) return undefined;
  const pool = checkedPool(q, found);
  const router = ref.getRouter(pool.router);
  if (router === null) return undefined;
  const target = targetOf(pool, router, currentStateNow(deps, pool));
  return provisionOf(q, target, amounts(q, target), ref.getAssets([q.token_a, q.token_b]), undefined);
}

function provisionOf(
  q: LiquiditySimulateQuery,
  target: Target,
  [unitsA, unitsB]: [bigint, bigint],
  assets: readonly AssetRecord[],
  lpAccount: ProvisionInput["lpAccount"],
): LiquiditySimulationDto {
  // Named field by field, not spread from the target: see simulateProvision's answer.
  return simulateProvision({
    type: q.provision_type,
    router: target.router,
    poolAddress: target.poolAddress,
    token0: target.token0,
    token1: target.token1,
    state: target.state,
    tokenA: q.token_a,
    tokenB: q.token_b,
    unitsA,
    unitsB,
    decimalsA: decimalsOf(assets, q.token_a),
    decimalsB: decimalsOf(assets, q.token_b),
    slippage: q.slippage_tolerance,
    lpAccount,
  });
}
