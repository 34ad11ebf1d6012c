/**
 * Candle DTOs: prices of the described token in the unit token (whole units, so both decimals are needed,
 * else null), or in USD. Open and close are exact ratios of the first and last trade's amounts; high and
 * low come from Float64 prices (labelled approximate, analytics.md §7.7). USD candles price the unit token
 * at the interval's own rate (its tracked USD volume over its unit-token volume): null when a trade of the
 * interval has no USD value.
 */
import { ratio } from "../../dex/amm/index.ts";
import type { CandleView, OhlcvView } from "../views.ts";
import { friendly, ratioText } from "./common.ts";

const PRICE_DIGITS = 18;

/** A positive float as a plain decimal string (no exponent), about 17 significant digits. */
export function floatText(x: number | null): string | null {
  if (x === null || !Number.isFinite(x) || x < 0) return null;
  if (x === 0) return "0";
  const digits = Math.min(100, Math.max(0, 16 - Math.floor(Math.log10(x))));
  const text = x.toFixed(digits);
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

type Decimals = { x: number; y: number };

/** Unit-token price of one described token from a trade's (amount_a, amount_b), as an exact ratio. */
function tradePrice(c: CandleView, amounts: readonly [bigint, bigint], d: Decimals): string | null {
  const [x, y] = c.described === "a" ? amounts : [amounts[1], amounts[0]];
  if (x === 0n) return null;
  return ratioText(ratio(y * 10n ** BigInt(d.x), x * 10n ** BigInt(d.y)), PRICE_DIGITS, "half-up");
}

/** High and low (raw b per a floats) in whole units of the unit token per described token. */
function extremes(c: CandleView, d: Decimals): [number | null, number | null] {
  const scale = 10 ** (d.x - d.y);
  if (c.described === "a") return [c.hi === null ? null : c.hi * scale, c.lo === null ? null : c.lo * scale];
  return [c.lo ? scale / c.lo : null, c.hi ? scale / c.hi : null];
}

function candle(c: CandleView, view: OhlcvView, d: Decimals | null) {
  const nulls = [c.t, null, null, null, null, null] as const;
  if (d === null) return [...nulls];
  const open = tradePrice(c, c.first, d);
  const close = tradePrice(c, c.last, d);
  const [high, low] = extremes(c, d);
  const unitRaw = c.described === "a" ? c.vb : c.va;
  if (view.currency === "token") {
    const volume = ratioText(ratio(unitRaw, 10n ** BigInt(d.y)), d.y, "floor");
    return [c.t, open, floatText(high), floatText(low), close, volume] as const;
  }
  // USD per unit token over the interval; a filled gap has no trades and so no rate.
  const unitWhole = Number(unitRaw) / 10 ** d.y;
  if (c.empty || c.usd_unknown > 0 || unitWhole <= 0)
    return [c.t, null, null, null, null, c.empty ? "0" : null] as const;
  const usdPerUnit = c.usd / unitWhole;
  const usd = (p: string | null) => (p === null ? null : floatText(Number(p) * usdPerUnit));
  return [
    c.t,
    usd(open),
    floatText(high === null ? null : high * usdPerUnit),
    floatText(low === null ? null : low * usdPerUnit),
    usd(close),
    floatText(c.usd),
  ] as const;
}

export function ohlcvDto(v: OhlcvView) {
  const dx = v.described?.decimals ?? null;
  const dy = v.unit?.decimals ?? null;
  const d = dx === null || dy === null ? null : { x: dx, y: dy };
  return {
    pool_address: friendly(v.pool),
    timeframe: v.timeframe,
    aggregate: v.aggregate,
    currency: v.currency,
    token_address: v.describedAddress === null ? null : friendly(v.describedAddress),
    unit_address: v.unitAddress === null ? null : friendly(v.unitAddress),
    ohlcv_list: v.candles.map((c) => [...candle(c, v, d)] as [number, ...(string | null)[]]),
  };
}
