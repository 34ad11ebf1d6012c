/**
 * Wallet operations, last transactions and fee vaults (api.md §8). Wallet assets and pools live with the
 * catalogue queries (./assets.ts, ./pools.ts).
 */
import type { ApiDeps } from "../deps.ts";
import { BadRequestError } from "../errors.ts";
import { TON_RAW } from "../mappers/common.ts";
import type {
  AssetRecord,
  FeeVaultRecord,
  OperationRecord,
  OperationType,
  RawAddress,
  WalletTransactions,
} from "../read-model.ts";
import type { OperationView } from "../views.ts";
import { includesV2 } from "./reference.ts";

export type OperationsQuery = {
  since: number;
  until: number;
  types?: readonly OperationType[];
  dexV2?: boolean;
};

/**
 * Stand-in for an asset the catalogue does not list (operation rows always carry both asset infos): its
 * symbol and decimals are not known (null), never guessed.
 */
function unlistedAsset(address: RawAddress): AssetRecord {
  return {
    address,
    kind: address === TON_RAW ? "Ton" : "Jetton",
    symbol: null,
    decimals: null,
    priority: 0,
    deprecated: false,
    community: true,
    blacklisted: false,
    defaultSymbol: false,
    taxable: false,
    tags: [],
  };
}

export async function walletOperations(
  deps: ApiDeps,
  wallet: RawAddress,
  q: OperationsQuery,
): Promise<OperationView[]> {
  if (q.until < q.since) throw new BadRequestError("until", "must not be earlier than since");
  const ops = await deps.data.getWalletOperations(wallet, {
    since: q.since,
    until: q.until,
    types: q.types,
    dexV2: includesV2(q.dexV2),
  });
  return operationViews(deps, ops);
}

/** Operations with both asset infos (an asset the catalogue does not list: symbol and decimals null). */
export async function operationViews(
  deps: ApiDeps,
  ops: readonly OperationRecord[],
): Promise<OperationView[]> {
  const addresses = [...new Set(ops.flatMap((o) => [o.asset0, o.asset1]))];
  const assets = new Map((await deps.data.getAssets(addresses)).map((a) => [a.address, a]));
  const info = (a: RawAddress) => assets.get(a) ?? unlistedAsset(a);
  return ops.map((op) => ({ op, asset0: info(op.asset0), asset1: info(op.asset1) }));
}

/** Default number of transactions of `transactions/last` (the Python client's default). */
const DEFAULT_LAST_TXS = 10;

export function walletLastTransactions(
  deps: ApiDeps,
  wallet: RawAddress,
  q: { limit?: number; since?: number },
): Promise<WalletTransactions> {
  return deps.data.getWalletTransactions(wallet, { limit: q.limit ?? DEFAULT_LAST_TXS, since: q.since });
}

export function walletFeeVaults(deps: ApiDeps, wallet: RawAddress): Promise<FeeVaultRecord[]> {
  return deps.data.getFeeVaults(wallet);
}
