/** Statistics DTOs (api.md §9). Whole-unit figures need the asset's decimals: null when not known. */
import { ratio } from "../../dex/amm/index.ts";
import type { AssetRecord, OperationRecord } from "../read-model.ts";
import type { WithdrawalRow } from "../read-model-stats.ts";
import type { DexStatsView, FeeAssetView, PoolStatsListView, PoolStatsView } from "../views.ts";
import { compact, dec, friendly, ltNumber, ratioText, TON_RAW, timestamp } from "./common.ts";
import { operationDto } from "./wallets.ts";

/** Digits of a price (quote per base, whole units): beyond any token's 18 decimals. */
const PRICE_DIGITS = 18;

const whole = (units: bigint, asset: AssetRecord | null): string | null =>
  asset?.decimals == null
    ? null
    : ratioText(ratio(units, 10n ** BigInt(asset.decimals)), asset.decimals, "floor");

/** A USD figure (approximate by nature) with cents and up to 6 decimals, trailing zeros dropped. */
export const usdText = (usd: number | null): string | null =>
  usd === null || !Number.isFinite(usd)
    ? null
    : Math.max(0, usd)
        .toFixed(6)
        .replace(/\.?0+$/, "");

export function dexStatsDto(v: DexStatsView) {
  return {
    since: timestamp(v.since),
    until: timestamp(v.until),
    stats: {
      tvl: usdText(v.tvlUsd),
      volume_usd: usdText(v.volumeUsd),
      trades: v.trades,
      unique_wallets: v.uniqueWallets,
    },
  };
}

function lastPrice(v: PoolStatsView): string | null {
  const db = v.base?.decimals;
  const dq = v.quote?.decimals;
  if (v.last === null || v.last.base === 0n || db == null || dq == null) return null;
  // (quote / 10^dq) / (base / 10^db), rounded half-up at PRICE_DIGITS.
  const r = ratio(v.last.quote * 10n ** BigInt(db), v.last.base * 10n ** BigInt(dq));
  return ratioText(r, PRICE_DIGITS, "half-up");
}

function poolStatsDto(v: PoolStatsView) {
  const address = friendly(v.pool);
  const state = v.record?.state ?? null;
  return {
    pool_address: address,
    router_address: v.router === null ? null : friendly(v.router),
    url: `https://app.ston.fi/pools/${address}`,
    base_id: v.baseAddress === null ? null : friendly(v.baseAddress),
    base_name: v.base?.displayName ?? null,
    base_symbol: v.base?.symbol ?? null,
    quote_id: v.quoteAddress === null ? null : friendly(v.quoteAddress),
    quote_name: v.quote?.displayName ?? null,
    quote_symbol: v.quote?.symbol ?? null,
    last_price: lastPrice(v),
    base_volume: whole(v.baseVolume, v.base),
    quote_volume: whole(v.quoteVolume, v.quote),
    base_liquidity: state === null ? null : whole(state.reserve0, v.base),
    quote_liquidity: state === null ? null : whole(state.reserve1, v.quote),
    // Deprecated upstream with no stated unit: not invented. The USD price of one LP token is the pool's
    // current one (its newest state, as `*_liquidity`), as /v1/pools gives it; null when not known.
    lp_price: null,
    lp_price_usd: v.record?.stats?.lpPriceUsd ?? null,
    trades: v.trades,
    ...(v.uniqueWallets === null ? {} : { unique_wallets: v.uniqueWallets }),
    volume_usd: usdText(v.volumeUsd),
    base_volume_units: dec(v.baseVolume),
    quote_volume_units: dec(v.quoteVolume),
    protocol_fee_base_units: v.protocolFeeBase === null ? null : dec(v.protocolFeeBase),
    protocol_fee_quote_units: v.protocolFeeQuote === null ? null : dec(v.protocolFeeQuote),
    referral_fee_base_units: dec(v.referralFeeBase),
    referral_fee_quote_units: dec(v.referralFeeQuote),
  };
}

export function poolStatsListDto(v: PoolStatsListView) {
  return {
    since: timestamp(v.since),
    until: timestamp(v.until),
    unique_wallets_count: v.uniqueWallets,
    stats: v.pools.map(poolStatsDto),
  };
}

/**
 * Per listed asset and in total (every asset, also one whose address is not known): a USD sum is null when
 * an accrual or withdrawal in it has no USD value.
 */
export function feeStatsDto(v: { since: number; until: number; assets: FeeAssetView[] }) {
  const total = (pick: (a: FeeAssetView) => number | null) =>
    v.assets.reduce<number | null>((sum, a) => {
      const usd = pick(a);
      return sum === null || usd === null ? null : sum + usd;
    }, 0);
  return {
    assets_fee_stats: v.assets.flatMap((a) =>
      a.asset === null
        ? []
        : [
            {
              asset_address: friendly(a.asset),
              accrued: dec(a.accrued),
              accrued_usd: usdText(a.accruedUsd),
              withdrawn: dec(a.withdrawn),
              withdrawn_usd: usdText(a.withdrawnUsd),
            },
          ],
    ),
    since: timestamp(v.since),
    until: timestamp(v.until),
    total_accrued_usd: usdText(total((a) => a.accruedUsd)),
    total_withdrawn_usd: usdText(total((a) => a.withdrawnUsd)),
  };
}

/** The flat operation of the swap that paid the fee, with its DEX version (1 or 2). */
export function feeAccrualDto(op: OperationRecord) {
  const { operation } = operationDto({ op, asset0: NO_INFO, asset1: NO_INFO });
  return { ...operation, referral_address: friendly(op.referral ?? TON_RAW), dex_version: op.dexVersion };
}

/** operationDto needs asset infos for the wrapper this flat shape drops. */
const NO_INFO = {
  address: TON_RAW,
  kind: "Ton",
  symbol: null,
  decimals: null,
  priority: 0,
  deprecated: false,
  community: false,
  blacklisted: false,
  defaultSymbol: false,
  taxable: false,
  tags: [],
} satisfies AssetRecord;

export function feeWithdrawalDto(w: WithdrawalRow) {
  const asset = w.asset_kind === "ton" ? TON_RAW : w.asset_master;
  return compact({
    amount: dec(w.amount),
    asset_address: asset === null ? null : friendly(asset),
    exit_code: w.success === true ? "ok" : w.success === false ? "failed" : "unknown",
    operation_wallet_address: w.owner === null ? null : friendly(w.owner),
    router_address: w.router === null ? null : friendly(w.router),
    success: w.success === true,
    vault_address: friendly(w.vault),
    vault_tx_hash: w.tx_hash,
    vault_tx_lt: ltNumber(w.lt),
    vault_tx_timestamp: timestamp(w.utime),
  });
}
