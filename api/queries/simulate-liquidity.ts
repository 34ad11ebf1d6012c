/**
 * Liquidity provision simulation (api.md §6.3): a pure function of (pool state, router, request) → DTO,
 * with the math of dex/amm `provide` (the LpAccount's decision and the pool's mint, bit-exact). Fields:
 *
 * - `token_a_units` / `token_b_units`: what the user sends (Balanced fills the missing side as
 *   ceil(given · reserve_other / reserve_given), the current pool ratio rounded toward the pool).
 * - The deposit joins what the wallet's LpAccount already holds: `provide` sees deposit + LpAccount balance.
 *   v2 single-sided (one side 0 and nothing of the other side waiting) sends `both_positive = false`.
 * - `estimated_lp_units`: LP minted to the user (0 when the LpAccount keeps the deposit waiting, when the
 *   pool would refund it, and for a v1 first deposit, whose LP goes to addr_none).
 * - `estimated_token_*_units`: the amounts that end up in the reserves (sent + LpAccount − protocol fee):
 *   the LpAccount forwards everything it holds with the deposit (contracts.md §2.7, §3.8).
 * - `min_lp_units` = floor(estimated_lp_units · (1 − slippage)), at least 1 when LP is minted: both
 *   LpAccounts ignore a provision whose `min_lp_out` is 0 (they store it and never call the pool).
 * - `min_token_*_units`: floor(own · (1 − slippage)), where own is this request's part of
 *   `estimated_token_*_units`, floor(estimated · sent / (sent + LpAccount)): what the LpAccount already
 *   held is reported in `lp_account_token_*_balance`, so a minimum never exceeds `token_*_units`.
 * - Initial: a first deposit that would mint nothing to the user is a 422 `below_minimum_liquidity`
 *   naming the amounts (`initialNotMinted`); a v1 first deposit that does reach the pool mints to
 *   addr_none, so its `estimated_lp_units` is 0 by contract.
 * - `estimated_token_a_rate`: token_b per token_a at the pool's spot price after the provision, in whole
 *   tokens; `estimated_token_b_rate` the reverse. `price_impact` = |spot_after / spot_before − 1| (a → b),
 *   0 for a new pool. `lp_total_supply`: the LP supply after the provision.
 */
import {
  dexVersionOf,
  isAmmInputError,
  isTvmExit,
  type PoolState,
  type ProvideResult,
  provide,
  type Ratio,
  ratio,
  spotPrice,
  V2_LOCKED_LP,
} from "../../dex/amm/index.ts";
import { V1_MIN_SIDE } from "../../dex/amm/liquidity.ts";
import type { LiquiditySimulationDto } from "../../schemas/api/simulate.ts";
import type { Fraction } from "../../schemas/api/wire.ts";
import { UnprocessableError } from "../errors.ts";
import { dec, friendly, ratioText } from "../mappers/common.ts";
import { routerDto } from "../mappers/reference.ts";
import type { RawAddress, RouterRecord } from "../read-model.ts";
import { lessFraction } from "./simulate.ts";

export type ProvisionType = "Initial" | "Balanced" | "Arbitrary";

export type ProvisionInput = {
  type: ProvisionType;
  router: RouterRecord;
  /** The pool, or its predicted address for Initial. */
  poolAddress: RawAddress;
  token0: RawAddress;
  token1: RawAddress;
  state: PoolState;
  tokenA: RawAddress;
  tokenB: RawAddress;
  unitsA: bigint;
  unitsB: bigint;
  decimalsA?: number;
  decimalsB?: number;
  slippage: Fraction;
  /** The wallet's LpAccount and what it holds, in pool order (token0, token1). */
  lpAccount?: { address: RawAddress; amount0: bigint; amount1: bigint };
};

const DIGITS = 18;

/** Spot price of a in b (whole tokens), or null when the pool has no price (empty, or math out of range). */
function spotAB(state: PoolState, aIs0: boolean, shift: number): Ratio | null {
  try {
    const r = spotPrice(state, aIs0 ? "0to1" : "1to0");
    const p = 10n ** BigInt(Math.abs(shift));
    return shift >= 0 ? ratio(r.num * p, r.den) : ratio(r.num, r.den * p);
  } catch (e) {
    if (isAmmInputError(e) || isTvmExit(e)) return null;
    throw e;
  }
}

const inverse = (r: Ratio | null): Ratio | null => (r === null || r.num === 0n ? null : ratio(r.den, r.num));
const rateText = (r: Ratio | null): string => (r === null ? "0" : ratioText(r, DIGITS, "floor"));

function impactOf(before: Ratio | null, after: Ratio | null): string {
  if (before === null || after === null || before.num === 0n) return "0";
  const diff = after.num * before.den - before.num * after.den;
  return ratioText(ratio(diff < 0n ? -diff : diff, before.num * after.den), DIGITS, "ceil");
}

/** The pool-order amounts `provide` sees, and what it returns. */
function runProvide(input: ProvisionInput, aIs0: boolean) {
  const deposit = aIs0 ? [input.unitsA, input.unitsB] : [input.unitsB, input.unitsA];
  const amount0 = (deposit[0] ?? 0n) + (input.lpAccount?.amount0 ?? 0n);
  const amount1 = (deposit[1] ?? 0n) + (input.lpAccount?.amount1 ?? 0n);
  const singleSided = dexVersionOf(input.state.type) === "v2" && (amount0 === 0n || amount1 === 0n);
  return provide(input.state, { amount0, amount1, minLpOut: 1n, bothPositive: !singleSided });
}

/**
 * The answer with the wallet's LpAccount named, after `token_b_units` (where the route has always put it).
 * Only simulations with `wallet_address` take this path.
 */
function withLpAccount(dto: LiquiditySimulationDto, address: RawAddress): LiquiditySimulationDto {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dto)) {
    out[key] = value;
    if (key === "token_b_units") out.lp_account_address = friendly(address);
  }
  return out as LiquiditySimulationDto;
}

/**
 * Why an Initial provision mints nothing to the user, as a 422 naming the amounts (contracts.md §2.7,
 * §2.9, §3.8, §3.9.8). v1: the LpAccount keeps the amounts unless both exceed 1000. v2: the pool mints
 * I − 1001 (1001 LP stay locked in the supply) and refunds when that is below min_lp_out ≥ 1, so
 * I ≥ 1002; for a constant-product pool I = isqrt(a·b), i.e. a·b ≥ 1002² = 1004004.
 */
function initialNotMinted(input: ProvisionInput, r: ProvideResult): UnprocessableError {
  const fields = ["token_a_units", "token_b_units"] as const;
  if (dexVersionOf(input.state.type) === "v1" && r.status === "stored") {
    const rule = `must be greater than ${V1_MIN_SIDE}: the v1 LpAccount forwards a deposit to the pool only when both amounts exceed ${V1_MIN_SIDE}`;
    const small = [input.unitsA, input.unitsB].map((u, i) => (u <= V1_MIN_SIDE ? fields[i] : null));
    return new UnprocessableError(
      "below_minimum_liquidity",
      "below the minimum liquidity: the deposit would wait in the LpAccount",
      small.filter((f) => f !== null).map((field) => ({ field, message: rule })),
    );
  }
  const locked = V2_LOCKED_LP;
  const rule = input.state.type.endsWith("constant_product")
    ? `token_a_units · token_b_units must be at least ${(locked + 1n) ** 2n} (${locked + 1n}²): the first deposit mints isqrt(token_a_units · token_b_units) − ${locked} LP`
    : `the pool's initial invariant for these amounts must be at least ${locked + 1n}: the first deposit mints it less ${locked} LP`;
  return new UnprocessableError(
    "below_minimum_liquidity",
    `below the minimum liquidity: the pool keeps ${locked} LP units of the first deposit locked and would refund this one`,
    fields.map((field) => ({ field, message: rule })),
  );
}

/** This request's part of what joins one side: floor(joined · sent / (sent + held)); all of it when nothing was held. */
function ownPart(joined: bigint, sent: bigint, held: bigint): bigint {
  if (held === 0n) return joined;
  return (joined * sent) / (sent + held);
}

export function simulateProvision(input: ProvisionInput): LiquiditySimulationDto {
  const { slippage } = input;
  const aIs0 = input.tokenA === input.token0;
  const r = runProvide(input, aIs0);
  if (input.type === "Initial" && r.status !== "minted") throw initialNotMinted(input, r);
  const minted = r.status === "minted" && r.lpMintedTo === "user" ? r.lpMinted : 0n;
  const joined =
    r.status === "minted" && r.poolReceived
      ? [r.poolReceived[0] - r.protocolFeeCharged[0], r.poolReceived[1] - r.protocolFeeCharged[1]]
      : [0n, 0n];
  const [joinedA = 0n, joinedB = 0n] = aIs0 ? joined : [joined[1], joined[0]];
  const held = [input.lpAccount?.amount0 ?? 0n, input.lpAccount?.amount1 ?? 0n];
  const [heldA = 0n, heldB = 0n] = aIs0 ? held : [held[1], held[0]];
  const ownA = ownPart(joinedA, input.unitsA, heldA);
  const ownB = ownPart(joinedB, input.unitsB, heldB);
  const minLp = minted > 0n ? lessFraction(minted, slippage) : 0n;
  const shift = (input.decimalsA ?? 0) - (input.decimalsB ?? 0);
  const before = input.type === "Initial" ? null : spotAB(input.state, aIs0, shift);
  const after = spotAB(r.pool, aIs0, shift);
  // One object literal, every key in wire order: spreading the request's echo into the answer made a
  // copy that cost ~20 µs and that the collector promoted to the old generation (~7 KB a simulation: a
  // full collection every few seconds under load).
  const dto: LiquiditySimulationDto = {
    provision_type: input.type,
    router_address: friendly(input.router.address),
    router: routerDto(input.router),
    pool_address: friendly(input.poolAddress),
    token_a: friendly(input.tokenA),
    token_b: friendly(input.tokenB),
    token_a_units: dec(input.unitsA),
    token_b_units: dec(input.unitsB),
    lp_account_token_a_balance: dec(heldA),
    lp_account_token_b_balance: dec(heldB),
    estimated_lp_units: dec(minted),
    min_lp_units: dec(minted > 0n && minLp < 1n ? 1n : minLp),
    min_token_a_units: dec(lessFraction(ownA, slippage)),
    min_token_b_units: dec(lessFraction(ownB, slippage)),
    estimated_token_a_rate: rateText(after),
    estimated_token_b_rate: rateText(inverse(after)),
    estimated_token_a_units: dec(joinedA),
    estimated_token_b_units: dec(joinedB),
    lp_total_supply: dec(r.pool.lpSupply),
    price_impact: impactOf(before, after),
  };
  return input.lpAccount === undefined ? dto : withLpAccount(dto, input.lpAccount.address);
}
