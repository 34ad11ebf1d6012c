/**
 * Swap and reverse-swap simulation (api.md §6.1, §6.2): pure functions of (pool state, router, request)
 * → the response DTO, with all math from dex/amm. Output fields:
 *
 * - `ask_units`: `swap(state, {direction, amountIn: offer_units, hasReferral, refFeeBps}).amountOut` —
 *   exactly what the pool pays the receiver (after LP, protocol and referral fees).
 * - referral: v1 pools charge their own stored `ref_fee` when a referrer is named; v2 pools charge
 *   `referral_fee_bps` (0..100, default 10 as the SDK's `referralValue`) when a referrer is named.
 * - `min_ask_units` = floor(ask_units · (1 − slippage_tolerance)).
 * - `fee_address` = the ask asset (protocol and referral fees leave on the ask side, the LP fee stays in
 *   the pool); `fee_units` = out_without_fees − ask_units, where out_without_fees is the same swap on the
 *   same pool with LP, protocol and referral fees all 0; `fee_percent` = fee_units / out_without_fees.
 * - `price_impact` = dex/amm `priceImpact`: 1 − out_without_fees / (offer_units · spot price), fees excluded.
 * - `swap_rate` = ask_units / offer_units in whole tokens (scaled by 10^(offer decimals − ask decimals)).
 * - `recommended_slippage_tolerance` = max(0.001, 2 · price_impact), at most 1: enough for one competing
 *   trade of the same size landing first, never less than 0.1 %. Rendered with 6 digits rounded up;
 *   `recommended_min_ask_units` applies the rendered value like `min_ask_units`.
 * - `gas_params`: ./gas.ts.
 * Reverse swap: `offer_units` = dex/amm `minimalInput(...).amountIn` (`reverseSwap`'s: the smallest input
 * that pays at least the wanted units), and every other field is the forward simulation of that input.
 */
import {
  type Direction,
  dexVersionOf,
  isAmmInputError,
  isTvmExit,
  minimalInput,
  outputWithoutFees,
  type PoolState,
  priceImpact,
  type Ratio,
  ratio,
  type SwapResult,
  swap,
  swapRate,
} from "../../dex/amm/index.ts";
import { ceilDiv } from "../../dex/amm/math.ts";
import type { SwapSimulationDto } from "../../schemas/api/simulate.ts";
import type { Fraction } from "../../schemas/api/wire.ts";
import { dec, friendly, ratioText, TON_RAW } from "../mappers/common.ts";
import { routerDto } from "../mappers/reference.ts";
import type { KnownPoolRecord, RawAddress, RouterRecord } from "../read-model.ts";
import { swapGas } from "./gas.ts";

export type SwapInput = {
  pool: KnownPoolRecord;
  state: PoolState;
  router: RouterRecord;
  offer: RawAddress;
  ask: RawAddress;
  /** Unknown decimals leave swap_rate in raw units. */
  offerDecimals?: number;
  askDecimals?: number;
  slippage: Fraction;
  referral?: RawAddress;
  referralFeeBps?: bigint;
};

/**
 * A pool's answer: the amounts alone (what choosing the best pool needs), with `describe` to render the
 * full response. Rendering costs more than the swap itself, so only the chosen pool is rendered.
 */
export type SwapQuote =
  | { ok: true; offerUnits: bigint; askUnits: bigint; describe(): SwapDescription }
  | { ok: false; reason: string };

/** The response as an object (for Koa) or directly as its JSON text: `JSON.stringify(dto())`. */
export type SwapAnswer = { dto(): SwapSimulationDto; json(): string };

export type SwapDescription = { ok: true; answer: SwapAnswer } | { ok: false; reason: string };

/** Digits of rendered ratios (rates, impact, fee share). */
const DIGITS = 18;
const DEFAULT_V2_REFERRAL_BPS = 10n;
const MIN_RECOMMENDED: Ratio = ratio(1n, 1000n);

export const directionOf = (pool: KnownPoolRecord, offer: RawAddress): Direction =>
  offer === pool.token0 ? "0to1" : "1to0";

/** floor(amount · (1 − f)) */
export const lessFraction = (amount: bigint, f: Fraction): bigint => (amount * (f.den - f.num)) / f.den;

/** r · 10^shift as an exact ratio. */
function shifted(r: Ratio, shift: number): Ratio {
  const p = 10n ** BigInt(Math.abs(shift));
  return shift >= 0 ? ratio(r.num * p, r.den) : ratio(r.num, r.den * p);
}

function decimalsShift(offerDecimals?: number, askDecimals?: number): number {
  return offerDecimals === undefined || askDecimals === undefined ? 0 : offerDecimals - askDecimals;
}

function swapRequest(input: SwapInput, direction: Direction, amountIn: bigint) {
  const hasReferral = input.referral !== undefined;
  const v2 = dexVersionOf(input.state.type) === "v2";
  return {
    direction,
    amountIn,
    hasReferral,
    refFeeBps: v2 && hasReferral ? (input.referralFeeBps ?? DEFAULT_V2_REFERRAL_BPS) : undefined,
  };
}

/** 10^6: the recommended slippage is a whole number of millionths. */
const MILLIONTHS = 1_000_000n;

/** Twice the price impact, at least 0.1 %, at most 100 %, rounded up to millionths (never understated). */
function recommendedSlippage(impact: Ratio): Fraction {
  const twice = ratio(2n * impact.num, impact.den);
  const pick = twice.num * MIN_RECOMMENDED.den > MIN_RECOMMENDED.num * twice.den ? twice : MIN_RECOMMENDED;
  const capped = pick.num > pick.den ? ratio(1n, 1n) : pick;
  return { num: ceilDiv(capped.num * MILLIONTHS, capped.den), den: MILLIONTHS };
}

const fractionText = (f: Fraction): string => ratioText(ratio(f.num, f.den), 18, "floor");

/** A request the math rejects (AmmInputError) or a TVM exception is "this pool cannot quote it". */
function refusal(e: unknown): { ok: false; reason: string } {
  if (isAmmInputError(e) || isTvmExit(e)) return { ok: false, reason: e.message };
  throw e;
}

export function quoteSwap(input: SwapInput, offerUnits: bigint): SwapQuote {
  try {
    return forwardQuote(input, offerUnits);
  } catch (e) {
    return refusal(e);
  }
}

/** Who is involved: assets, the router's wallets for them, router and pool. */
function parties(input: SwapInput, direction: Direction) {
  const { pool, router } = input;
  const [offerWallet, askWallet] =
    direction === "0to1" ? [pool.token0Wallet, pool.token1Wallet] : [pool.token1Wallet, pool.token0Wallet];
  return {
    offer_address: friendly(input.offer),
    ask_address: friendly(input.ask),
    offer_jetton_wallet: friendly(offerWallet),
    ask_jetton_wallet: friendly(askWallet),
    router_address: friendly(router.address),
    router: routerDto(router),
    pool_address: friendly(pool.address),
  };
}

function gasParamsDto(input: SwapInput) {
  const gas = swapGas(
    input.router,
    input.offer === TON_RAW,
    input.ask === TON_RAW,
    input.referral !== undefined,
  );
  return {
    ...(gas.gasBudget !== undefined ? { gas_budget: dec(gas.gasBudget) } : {}),
    forward_gas: dec(gas.forwardGas),
    estimated_gas_consumption: dec(gas.estimatedGasConsumption),
  };
}

/**
 * Everything in a quote's answer that does not depend on the amount: addresses, router and gas, also as
 * the JSON text around the amounts: `head` is the parties' object without its closing brace, `tail` the
 * gas parameters and the answer's closing brace.
 */
type FixedParts = {
  readonly router: RouterRecord;
  readonly parties: ReturnType<typeof parties>;
  readonly feeAddress: string;
  readonly gas: ReturnType<typeof gasParamsDto>;
  readonly head: string;
  readonly tail: string;
};

/**
 * Fixed parts per pool record, direction and whether a referrer is named (the request's other inputs do
 * not change them), kept while the record lives and rebuilt when the pool's router record is another.
 */
const fixedParts = new WeakMap<KnownPoolRecord, Map<string, FixedParts>>();

function fixedPartsOf(input: SwapInput, direction: Direction): FixedParts {
  let perPool = fixedParts.get(input.pool);
  if (perPool === undefined) {
    perPool = new Map();
    fixedParts.set(input.pool, perPool);
  }
  const key = input.referral === undefined ? direction : `${direction} referral`;
  let fixed = perPool.get(key);
  if (fixed === undefined || fixed.router !== input.router) {
    // Shared by every answer built from them: frozen, so no answer can change another's.
    const all = parties(input, direction);
    const p = Object.freeze({ ...all, router: Object.freeze(all.router) });
    const gas = Object.freeze(gasParamsDto(input));
    fixed = {
      router: input.router,
      parties: p,
      feeAddress: friendly(input.ask),
      gas,
      head: JSON.stringify(p).slice(0, -1),
      tail: `,"gas_params":${JSON.stringify(gas)}}`,
    };
    perPool.set(key, fixed);
  }
  return fixed;
}

function forwardQuote(input: SwapInput, offerUnits: bigint): SwapQuote {
  const direction = directionOf(input.pool, input.offer);
  return quoteOf(input, direction, offerUnits, swap(input.state, swapRequest(input, direction, offerUnits)));
}

/** The quote of `offerUnits`, given its forward swap (`swap` of `swapRequest(input, direction, offerUnits)`). */
function quoteOf(input: SwapInput, direction: Direction, offerUnits: bigint, result: SwapResult): SwapQuote {
  if (result.status !== "ok")
    return { ok: false, reason: `the pool would refund (exit code ${result.exitCode})` };
  return new PoolQuote(input, direction, offerUnits, result.amountOut, result.baseOut);
}

/**
 * A pool's successful quote. Quotes and answers are classes rather than objects of closures: one is made
 * per pool and request, and a class shares its methods instead of making (and naming) new functions.
 */
class PoolQuote {
  readonly ok = true;
  constructor(
    private readonly input: SwapInput,
    private readonly direction: Direction,
    readonly offerUnits: bigint,
    readonly askUnits: bigint,
    private readonly baseOut: bigint,
  ) {}

  describe(): SwapDescription {
    try {
      const { input, direction, offerUnits, askUnits, baseOut } = this;
      return { ok: true, answer: describeSwap(input, direction, offerUnits, askUnits, baseOut) };
    } catch (e) {
      return refusal(e);
    }
  }
}

/** The fields of an answer that depend on the amount, in the answer's order (between parties and gas). */
type AmountFields = Omit<SwapSimulationDto, keyof FixedParts["parties"] | "gas_params">;

/**
 * The answer from its fixed parts and amount fields. The JSON text is the object's (`JSON.stringify` of
 * `{...parties, ...fields, gas_params}` is the parties' members, a comma, the fields' members, then
 * `gas_params`), without building the object or rendering the fixed parts again.
 */
class PartsAnswer implements SwapAnswer {
  constructor(
    private readonly fixed: FixedParts,
    private readonly fields: AmountFields,
  ) {}

  dto(): SwapSimulationDto {
    return { ...this.fixed.parties, ...this.fields, gas_params: this.fixed.gas };
  }

  json(): string {
    // The fields' members as JSON.stringify writes them, in the object's order: every value is a
    // decimal or a user-friendly address (digits, '.', '-', base64url), which JSON needs no escape for.
    const f = this.fields;
    return (
      `${this.fixed.head},"offer_units":"${f.offer_units}","ask_units":"${f.ask_units}",` +
      `"slippage_tolerance":"${f.slippage_tolerance}","min_ask_units":"${f.min_ask_units}",` +
      `"recommended_slippage_tolerance":"${f.recommended_slippage_tolerance}",` +
      `"recommended_min_ask_units":"${f.recommended_min_ask_units}","swap_rate":"${f.swap_rate}",` +
      `"price_impact":"${f.price_impact}","fee_address":"${f.fee_address}","fee_units":"${f.fee_units}",` +
      `"fee_percent":"${f.fee_percent}"${this.fixed.tail}`
    );
  }
}

function describeSwap(
  input: SwapInput,
  direction: Direction,
  offerUnits: bigint,
  askUnits: bigint,
  baseOut: bigint,
): SwapAnswer {
  const { state } = input;
  // The output the same swap would have with every fee at 0: the curve's output without the LP fee (the
  // other fees come off that output), never below the swap's own base output.
  const curveOut = outputWithoutFees(state, direction, offerUnits);
  const noFees = curveOut >= baseOut ? curveOut : baseOut;
  const feeUnits = noFees - askUnits;
  const impact = priceImpact(state, direction, offerUnits, curveOut);
  const recommended = recommendedSlippage(impact);
  const rate = shifted(swapRate(offerUnits, askUnits), decimalsShift(input.offerDecimals, input.askDecimals));
  const fixed = fixedPartsOf(input, direction);
  return new PartsAnswer(fixed, {
    offer_units: dec(offerUnits),
    ask_units: dec(askUnits),
    slippage_tolerance: fractionText(input.slippage),
    min_ask_units: dec(lessFraction(askUnits, input.slippage)),
    recommended_slippage_tolerance: fractionText(recommended),
    recommended_min_ask_units: dec(lessFraction(askUnits, recommended)),
    // Rates are never overstated (floor); impact and fee share are never understated (ceil).
    swap_rate: ratioText(rate, DIGITS, "floor"),
    price_impact: ratioText(impact, DIGITS, "ceil"),
    fee_address: fixed.feeAddress,
    fee_units: dec(feeUnits),
    fee_percent: noFees === 0n ? "0" : ratioText(ratio(feeUnits, noFees), DIGITS, "ceil"),
  });
}

export function quoteReverseSwap(input: SwapInput, askUnits: bigint): SwapQuote {
  const direction = directionOf(input.pool, input.offer);
  const { hasReferral, refFeeBps } = swapRequest(input, direction, 1n);
  try {
    // The minimal input's forward swap is the one `swapRequest` makes for it: the same pool, direction,
    // referral and fee (a minimum output of 0 is the default), so it is not run a second time.
    const r = minimalInput(input.state, { direction, targetOut: askUnits, hasReferral, refFeeBps });
    return quoteOf(input, direction, r.amountIn, r.swap);
  } catch (e) {
    return refusal(e);
  }
}
