/**
 * PoolInfo DTO (api.md §4.3). Fees are integer basis points; type parameters only where the type has them.
 * What the service does not know is null, never "0": the reserves, fees and LP supply of a pool whose state
 * is unknown (active before the first transaction indexed, without chain access), its router or tokens
 * while no operation revealed them, its protocol fee address unless read from the pool's data (the pool
 * states the processors track do not carry it).
 */
import type { PoolInfoDto } from "../../schemas/api/objects.ts";
import type { PoolRecord } from "../read-model.ts";
import type { PoolView } from "../views.ts";
import { compact, dec, decOrNull, friendly } from "./common.ts";

function typeParams(p: PoolRecord) {
  if (p.state === null) return {};
  const { type, amp, rate, w0 } = p.state;
  return {
    amp: type === "v2_stableswap" || type === "v2_weighted_stableswap" ? dec(amp) : undefined,
    rate: type === "v2_weighted_stableswap" ? dec(rate) : undefined,
    w0: type === "v2_weighted_const_product" || type === "v2_weighted_stableswap" ? dec(w0) : undefined,
  };
}

function positionFields(v: PoolView) {
  const p = v.position;
  if (p === undefined) return {};
  return {
    lp_wallet_address: p.lpWallet ? friendly(p.lpWallet) : undefined,
    lp_balance: dec(p.lpBalance),
    lp_account_address: p.lpAccount ? friendly(p.lpAccount) : undefined,
    token0_balance: dec(p.lpAccountAmount0),
    token1_balance: dec(p.lpAccountAmount1),
  };
}

const friendlyOrNull = (raw: string | null): string | null => (raw === null ? null : friendly(raw));

export function poolDto(view: PoolView | PoolRecord): PoolInfoDto {
  const v: PoolView = "pool" in view ? view : { pool: view };
  const { pool: p } = v;
  const s = p.state;
  return compact({
    address: friendly(p.address),
    router_address: friendlyOrNull(p.router),
    token0_address: friendlyOrNull(p.token0),
    token1_address: friendlyOrNull(p.token1),
    reserve0: decOrNull(s?.reserve0 ?? null),
    reserve1: decOrNull(s?.reserve1 ?? null),
    lp_total_supply: decOrNull(s?.lpSupply ?? null),
    lp_total_supply_usd: p.stats?.lpTotalSupplyUsd,
    lp_price_usd: p.stats?.lpPriceUsd,
    lp_fee: decOrNull(s?.lpFeeBps ?? null),
    protocol_fee: decOrNull(s?.protocolFeeBps ?? null),
    ref_fee: decOrNull(s?.refFeeBps ?? null),
    protocol_fee_address: friendlyOrNull(p.protocolFeeAddress),
    collected_token0_protocol_fee: decOrNull(s?.collectedProtocolFee0 ?? null),
    collected_token1_protocol_fee: decOrNull(s?.collectedProtocolFee1 ?? null),
    deprecated: p.deprecated,
    apy_1d: p.stats?.apy1d,
    apy_7d: p.stats?.apy7d,
    apy_30d: p.stats?.apy30d,
    volume_24h_usd: p.stats?.volume24hUsd,
    ...typeParams(p),
    ...positionFields(v),
  });
}
