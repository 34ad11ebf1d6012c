/**
 * Trades of the aggregator feeds (CMC, CoinGecko: api/README "Export feeds") over `swaps` FINAL: executed
 * legs (a pool, an output paid, something offered: the feed's swap events), by the pool transaction's time
 * (`utime`, the sorting key's prefix, so a window reads only its granules). Amounts go to the pool's token
 * order by the rule of `aIsToken0` (./operation-records.ts), here in SQL: the offered wallet is token0's,
 * else the asked wallet is token1's, else (neither known) the offer is token0.
 */
import type { Store } from "../../../infra/store/client.ts";
import type { PoolMarketRecord, TradeFilter, TradeRecord } from "../../read-model.ts";
import { int, rowReader, text, unsigned, unsignedPair } from "./fast-row.ts";

const EXECUTED = `s.pool IS NOT NULL AND ifNull(s.amount_out > 0, false) AND s.amount_in > 0
  AND s.utime BETWEEN toDateTime({since:UInt32}) AND toDateTime({until:UInt32})`;

/** Legs with the amounts in token order: a0 (token0 was sold), amount0, amount1. */
const LEGS = `SELECT s.id AS id, s.tx_hash AS tx_hash, s.lt AS lt, s.mc_seqno AS mc_seqno,
    toUInt32(s.utime) AS utime, assumeNotNull(s.pool) AS pool,
    multiIf(s.offer_router_wallet IS NOT NULL AND p.token0_wallet IS NOT NULL, s.offer_router_wallet = p.token0_wallet,
      s.ask_router_wallet IS NOT NULL AND p.token1_wallet IS NOT NULL, s.ask_router_wallet = p.token1_wallet,
      true) AS a0,
    if(a0, s.amount_in, assumeNotNull(s.amount_out)) AS amount0,
    if(a0, assumeNotNull(s.amount_out), s.amount_in) AS amount1
  FROM swaps AS s FINAL
  LEFT JOIN (SELECT pool, token0_wallet, token1_wallet FROM pools FINAL) AS p ON p.pool = s.pool
  WHERE ${EXECUTED}`;

const TRADES_SQL = `SELECT id, tx_hash, lt, mc_seqno, utime, pool, toUInt8(a0) AS a0, amount0, amount1
FROM (${LEGS} AND ({pool:String} = '' OR s.pool = {pool:String}))
WHERE {sold:Int8} < 0 OR a0 = ({sold:Int8} = 0)
ORDER BY utime DESC, lt DESC, id DESC
LIMIT {limit:UInt32}
SETTINGS join_use_nulls = 1`;

const tradeRow = rowReader(
  (r): TradeRecord => ({
    id: text(r, "id"),
    txHash: text(r, "tx_hash"),
    lt: unsigned(r, "lt"),
    mcSeqno: int(r, "mc_seqno"),
    utime: int(r, "utime"),
    pool: text(r, "pool"),
    swapIn: int(r, "a0") === 1 ? 0 : 1,
    amount0: unsigned(r, "amount0"),
    amount1: unsigned(r, "amount1"),
  }),
);

export function selectTrades(store: Store, f: TradeFilter): Promise<TradeRecord[]> {
  return store.query(TRADES_SQL, tradeRow, {
    since: f.since,
    until: f.until,
    pool: f.pool ?? "",
    sold: f.swapIn ?? -1,
    limit: f.limit,
  });
}

// Prices of token0 in token1 compare as raw ratios (a pool's decimals are fixed), in Float64 only to pick
// the trade; the trade's exact amounts are returned.
const MARKETS_SQL = `SELECT pool, count() AS trades, sum(amount0) AS volume0, sum(amount1) AS volume1,
  argMax(tuple(amount0, amount1), tuple(mc_seqno, lt, id)) AS last,
  argMax(tuple(amount0, amount1), toFloat64(amount1) / toFloat64(amount0)) AS high,
  argMin(tuple(amount0, amount1), toFloat64(amount1) / toFloat64(amount0)) AS low
FROM (${LEGS})
GROUP BY pool
ORDER BY pool
SETTINGS join_use_nulls = 1`;

const marketRow = rowReader(
  (r): PoolMarketRecord => ({
    pool: text(r, "pool"),
    trades: int(r, "trades"),
    volume0: unsigned(r, "volume0"),
    volume1: unsigned(r, "volume1"),
    last: unsignedPair(r, "last"),
    high: unsignedPair(r, "high"),
    low: unsignedPair(r, "low"),
  }),
);

export function selectPoolMarkets(store: Store, since: number, until: number): Promise<PoolMarketRecord[]> {
  return store.query(MARKETS_SQL, marketRow, { since, until });
}
