/**
 * Wallet balances read from the chain (the facts store only knows DEX operations, not every jetton
 * transfer): TON from the account balance, jettons from the owner's jetton wallet (TEP-74 get-methods).
 */
import { Address } from "@ton/core";
import { type ChainState, ChainStateError } from "../../dex/chain-state.ts";
import { ChainUnavailableError } from "../../dex/chain-state-unavailable.ts";
import { toRawAddress } from "../../schemas/api/wire.ts";
import { TON_RAW } from "../mappers/common.ts";
import type { AssetRecord, RawAddress } from "../read-model.ts";
import type { WalletBalance } from "../views.ts";

/** `balance` undefined: the chain could not tell (e.g. the master does not answer TEP-74). */
export type { WalletBalance };

/** Map with at most `limit` calls in flight: chain APIs are rate limited. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  f: (x: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Chain errors about one contract (missing, not a jetton) are "unknown", and so is everything when the
 * deployment has no chain access at all (a replay source: retrying never helps); outages propagate.
 */
async function tolerant<T>(f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof ChainStateError || e instanceof ChainUnavailableError) return undefined;
    throw e;
  }
}

export async function walletBalance(
  chain: ChainState,
  asset: AssetRecord,
  owner: RawAddress,
): Promise<WalletBalance> {
  const ownerAddress = Address.parseRaw(owner);
  if (asset.address === TON_RAW || asset.kind === "Ton") {
    return { balance: await tolerant(() => chain.getBalance(ownerAddress)) };
  }
  if (asset.kind === "NotAnAsset") return {};
  const wallet = await tolerant(() =>
    chain.getJettonWalletAddress(Address.parseRaw(asset.address), ownerAddress),
  );
  if (wallet === undefined) return {};
  const data = await tolerant(() => chain.getJettonWalletData(wallet));
  // An undeployed jetton wallet holds nothing (ChainState returns null for it).
  return {
    balance: data === undefined ? undefined : (data?.balance ?? 0n),
    jettonWallet: toRawAddress(wallet),
  };
}

export async function walletBalances(
  chain: ChainState,
  assets: readonly AssetRecord[],
  owner: RawAddress,
): Promise<Map<RawAddress, WalletBalance>> {
  const balances = await mapLimit(assets, 8, (a) => walletBalance(chain, a, owner));
  return new Map(assets.map((a, i) => [a.address, balances[i] ?? {}]));
}
