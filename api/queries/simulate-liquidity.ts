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
 * - `min_lp_units` = floor(estimated_lp_units · (1 − slippage)); `min_token_*_units` likewise of
 *   `estimated_token_*_units`, the amounts that end up in the reserves (sent + LpAccount − protocol fee).
 * - `estimated_token_a_rate`: token_b per token_a at the pool's spot price after the provision, in whole
 *   tokens; `estimated_token_b_rate` the reverse. `price_impact` = |spot_after / spot_before − 1| (a → b),
 *   0 for a new pool. `lp_total_supply`: the LP supply after the provision.
 */
import {
  dexVersionOf,
  isAmmInputError,
  isTvmExit,
  type PoolState,
  provide,
  type Ratio,
  ratio,
  spotPrice,
} from "../../dex/amm/index.ts";
import type { LiquiditySimulationDto } from "../../schemas/api/simulate.ts";
import type { Fraction } from "../../schemas/api/wire.ts";
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

/** Request echo: router, pool, tokens, amounts and the LpAccount's balances (a/b order). */
function echo(input: ProvisionInput, aIs0: boolean) {
  const held = [input.lpAccount?.amount0 ?? 0n, input.lpAccount?.amount1 ?? 0n];
  const [balanceA, balanceB] = aIs0 ? held : [held[1], held[0]];
  return {
    provision_type: input.type,
    router_address: friendly(input.router.address),
    router: routerDto(input.router),
    pool_address: friendly(input.poolAddress),
    token_a: friendly(input.tokenA),
    token_b: friendly(input.tokenB),
    token_a_units: dec(input.unitsA),
    token_b_units: dec(input.unitsB),
    ...(input.lpAccount ? { lp_account_address: friendly(input.lpAccount.address) } : {}),
    lp_account_token_a_balance: dec(balanceA ?? 0n),
    lp_account_token_b_balance: dec(balanceB ?? 0n),
  };
}

export function simulateProvision(input: ProvisionInput): LiquiditySimulationDto {
  const { slippage } = input;
  const aIs0 = input.tokenA === input.token0;
  const r = runProvide(input, aIs0);
  const minted = r.status === "minted" && r.lpMintedTo === "user" ? r.lpMinted : 0n;
  const joined =
    r.status === "minted" && r.poolReceived
      ? [r.poolReceived[0] - r.protocolFeeCharged[0], r.poolReceived[1] - r.protocolFeeCharged[1]]
      : [0n, 0n];
  const [joinedA = 0n, joinedB = 0n] = aIs0 ? joined : [joined[1], joined[0]];
  const shift = (input.decimalsA ?? 0) - (input.decimalsB ?? 0);
  const before = input.type === "Initial" ? null : spotAB(input.state, aIs0, shift);
  const after = spotAB(r.pool, aIs0, shift);
  return {
    ...echo(input, aIs0),
    estimated_lp_units: dec(minted),
    min_lp_units: dec(lessFraction(minted, slippage)),
    min_token_a_units: dec(lessFraction(joinedA, slippage)),
    min_token_b_units: dec(lessFraction(joinedB, slippage)),
    estimated_token_a_rate: rateText(after),
    estimated_token_b_rate: rateText(inverse(after)),
    estimated_token_a_units: dec(joinedA),
    estimated_token_b_units: dec(joinedB),
    lp_total_supply: dec(r.pool.lpSupply),
    price_impact: impactOf(before, after),
  };
}
