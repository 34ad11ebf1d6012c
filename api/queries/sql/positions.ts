/**
 * What a wallet holds in the DEX, as far as the DEX's own operations tell (the chain is authoritative:
 * LP tokens moved by plain jetton transfers, or LP wallets and LpAccount addresses, are get-method facts
 * the store does not have; the API derives missing addresses from the chain, api/queries/pools.ts).
 *
 * - LP position per pool (`liquidity FINAL`, bloom index on owner): LP balance = LP minted to the wallet
 *   − LP it burned; LpAccount balances = deposits that reached it − deposits minted − deposits refunded;
 *   the LpAccount address is the latest one its deposits named. Only decided operations (success) count.
 * - fee vaults (`referral_fees FINAL` + `vault_withdrawals FINAL`): per vault, v2 referral deposits to
 *   the wallet − its withdrawals.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";
import type { FeeVaultRecord, LpPositionRecord, RawAddress } from "../../read-model.ts";
import { assetAddress, big, max0, nstr, str } from "./common.ts";

const positionRow = z.object({
  pool: str,
  lp_account: nstr,
  minted: big,
  burned: big,
  provided0: big,
  provided1: big,
  used0: big,
  used1: big,
});

/** `success` is Nullable(Bool): undecided rows never count; an unknown LP amount counts as none. */
const POSITIONS_SQL = `SELECT pool,
  argMaxIf(lp_account, lt, kind = 'provide' AND lp_account IS NOT NULL) AS lp_account,
  sumIf(ifNull(lp_amount, toUInt256(0)), kind = 'mint' AND success AND receiver = {wallet:String}) AS minted,
  sumIf(ifNull(lp_amount, toUInt256(0)), kind = 'withdraw' AND withdraw_kind = 'burn' AND success AND owner = {wallet:String}) AS burned,
  sumIf(amount0, kind = 'provide' AND success AND owner = {wallet:String}) AS provided0,
  sumIf(amount1, kind = 'provide' AND success AND owner = {wallet:String}) AS provided1,
  sumIf(amount0, (kind = 'mint' OR withdraw_kind = 'lp_refund') AND success AND owner = {wallet:String}) AS used0,
  sumIf(amount1, (kind = 'mint' OR withdraw_kind = 'lp_refund') AND success AND owner = {wallet:String}) AS used1
FROM liquidity FINAL
WHERE owner = {wallet:String} OR receiver = {wallet:String}
GROUP BY pool
ORDER BY pool`;

/** Pools where the wallet holds LP or has deposits waiting; the LP wallet address is a chain fact (null). */
export async function selectLpPositions(store: Store, wallet: RawAddress): Promise<LpPositionRecord[]> {
  const rows = await store.query(POSITIONS_SQL, positionRow, { wallet });
  return rows.flatMap((r) => {
    const position: LpPositionRecord = {
      pool: r.pool,
      lpWallet: null,
      lpBalance: max0(r.minted - r.burned),
      lpAccount: r.lp_account,
      lpAccountAmount0: max0(r.provided0 - r.used0),
      lpAccountAmount1: max0(r.provided1 - r.used1),
    };
    const holds = position.lpBalance + position.lpAccountAmount0 + position.lpAccountAmount1 > 0n;
    return holds ? [position] : [];
  });
}

const vaultRow = z.object({
  vault: str,
  router: nstr,
  asset_kind: z.enum(["jetton", "ton"]).nullable(),
  asset_master: nstr,
  asset_router_wallet: nstr,
  deposited: big,
  withdrawn: big,
});

/** `any` skips NULLs, so a vault takes the first known router and asset of its rows. */
const VAULTS_SQL = `SELECT vault, any(router) AS router, any(asset_kind) AS asset_kind,
  any(asset_master) AS asset_master, any(asset_router_wallet) AS asset_router_wallet,
  sum(deposit) AS deposited, sum(withdrawal) AS withdrawn
FROM (
  SELECT vault, router, asset_kind, asset_master, asset_router_wallet,
    amount AS deposit, toUInt256(0) AS withdrawal
  FROM referral_fees FINAL
  WHERE referrer = {owner:String} AND kind = 'vault_deposit' AND vault IS NOT NULL AND success
  UNION ALL
  SELECT vault, router, asset_kind, asset_master, asset_router_wallet, toUInt256(0) AS deposit, amount AS withdrawal
  FROM vault_withdrawals FINAL
  WHERE owner = {owner:String} AND success
)
GROUP BY vault
ORDER BY vault`;

/** Every vault the owner was paid into, with what is left in it; vaults of unknown router are left out. */
export async function selectFeeVaults(store: Store, owner: RawAddress): Promise<FeeVaultRecord[]> {
  const rows = await store.query(VAULTS_SQL, vaultRow, { owner });
  return rows.flatMap((r) => {
    const asset = assetAddress({
      kind: r.asset_kind,
      master: r.asset_master,
      routerWallet: r.asset_router_wallet,
    });
    if (r.router === null || asset === null) return [];
    return [{ vault: r.vault, router: r.router, asset, balance: max0(r.deposited - r.withdrawn) }];
  });
}
