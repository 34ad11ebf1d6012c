/**
 * v2 referral vaults (contracts.md §3.6): deposits are anchored on the vault's transaction for
 * `deposit_ref_fee` (router → vault; referrer and token come from the pool's `pay_vault` the router
 * executed); withdrawals on the vault's transaction that sends `vault_pay_to` (after `withdraw_fee`),
 * followed through the router's payout transfer.
 */
import type { AssetResolver } from "./assets.ts";
import { type DecodedBatch, type DecodedTx, parentTx } from "./decode.ts";
import { descendants } from "./graph.ts";
import { followPayout } from "./payout.ts";
import type { VaultDeposit, VaultWithdrawal } from "./types.ts";
import { raw } from "./util.ts";

export type VaultOps = { deposits: VaultDeposit[]; withdrawals: VaultWithdrawal[]; consumed: string[] };

function deposit(batch: DecodedBatch, assets: AssetResolver, vault: DecodedTx): VaultDeposit | null {
  const msg = vault.in;
  if (msg?.body.kind !== "stonfi.v2.vault.deposit_ref_fee") return null;
  const router = parentTx(batch, vault);
  const payVault = router?.in?.body.kind === "stonfi.v2.pay_vault" ? router.in.body : null;
  const token = payVault ? (payVault.amount0Out > 0n ? raw(payVault.token0) : raw(payVault.token1)) : null;
  return {
    type: "vault_deposit",
    id: `${vault.tx.hash}:vault_deposit`,
    tx_hash: vault.tx.hash,
    lt: vault.lt,
    now: vault.tx.now,
    tx_hashes: [...(router ? [router.tx.hash] : []), ...descendants(batch, vault).map((n) => n.tx.hash)],
    dex: "v2",
    router: msg.raw.source,
    pool: router?.in?.raw.source ?? null,
    vault: vault.tx.account,
    referrer: payVault ? raw(payVault.owner) : null,
    asset: assets.assetOf(token),
    amount: msg.body.amount,
    query_id: msg.body.queryId,
    msg_hash: msg.raw.hash,
    success: vault.ok,
  };
}

function withdrawal(batch: DecodedBatch, assets: AssetResolver, vault: DecodedTx): VaultWithdrawal | null {
  const msg = vault.outs.find((o) => o.body.kind === "stonfi.v2.vault.vault_pay_to");
  if (msg?.body.kind !== "stonfi.v2.vault.vault_pay_to") return null;
  const p = msg.body;
  const wallet = raw(p.token);
  const followed = followPayout(batch, { request: msg, to: raw(p.to), amount: p.amountOut, wallet });
  const queryId = vault.in?.body.kind === "stonfi.v2.vault.withdraw_fee" ? vault.in.body.queryId : 0n;
  return {
    type: "vault_withdrawal",
    id: `${vault.tx.hash}:vault_withdrawal`,
    tx_hash: vault.tx.hash,
    lt: vault.lt,
    now: vault.tx.now,
    tx_hashes: [vault.tx.hash, ...followed.txs.map((t) => t.tx.hash)],
    dex: "v2",
    router: msg.raw.destination,
    vault: vault.tx.account,
    owner: raw(p.to),
    asset: assets.assetOf(wallet),
    amount: p.amountOut,
    query_id: queryId,
    success: vault.ok ? followed.payout.delivered : false,
    payout: followed.payout,
  };
}

export function assembleVaultOps(batch: DecodedBatch, assets: AssetResolver): VaultOps {
  const out: VaultOps = { deposits: [], withdrawals: [], consumed: [] };
  for (const t of batch.txs) {
    const d = deposit(batch, assets, t);
    if (d) {
      out.deposits.push(d);
      if (d.msg_hash) out.consumed.push(d.msg_hash);
    }
    const w = withdrawal(batch, assets, t);
    if (w) {
      out.withdrawals.push(w);
      out.consumed.push(
        ...t.outs.filter((o) => o.body.kind === "stonfi.v2.vault.vault_pay_to").map((o) => o.raw.hash),
      );
      if (t.in?.body.kind === "stonfi.v2.vault.withdraw_fee") out.consumed.push(t.in.raw.hash);
    }
  }
  return out;
}
