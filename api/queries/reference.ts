/** Routers, markets and jetton wallet addresses (api.md §5.1, §5.2, §5.6). */
import { Address } from "@ton/core";
import { ChainStateError } from "../../dex/chain-state.ts";
import { toRawAddress } from "../../schemas/api/wire.ts";
import type { ApiDeps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import type { PoolRecord, RawAddress, RouterRecord } from "../read-model.ts";

/** `dex_v2` absent means true (api.md §1.5): v1 items are always included, v2 ones unless dex_v2=false. */
export const includesV2 = (dexV2: boolean | undefined): boolean => dexV2 !== false;

export const poolAllowed = (p: PoolRecord, dexV2: boolean | undefined): boolean =>
  includesV2(dexV2) || p.dex === "v1";

export async function listRouters(deps: ApiDeps, dexV2?: boolean): Promise<RouterRecord[]> {
  const routers = await deps.data.listRouters();
  return routers.filter((r) => includesV2(dexV2) || r.majorVersion === 1);
}

export async function getRouter(deps: ApiDeps, address: RawAddress): Promise<RouterRecord> {
  const router = await deps.data.getRouter(address);
  if (router === null) throw new NotFoundError("router", [{ field: "address", message: "unknown router" }]);
  return router;
}

/** Distinct asset pairs that some allowed pool trades, in the pools' stored order (both tokens known). */
export async function markets(deps: ApiDeps, dexV2?: boolean): Promise<[RawAddress, RawAddress][]> {
  const pools = (await deps.data.listPools()).filter((p) => poolAllowed(p, dexV2));
  const seen = new Map<string, [RawAddress, RawAddress]>();
  for (const { token0, token1 } of pools) {
    if (token0 === null || token1 === null) continue;
    const key = [token0, token1].sort().join("|");
    if (!seen.has(key)) seen.set(key, [token0, token1]);
  }
  return [...seen.values()];
}

/** The owner's jetton wallet, by the master's own `get_wallet_address` (404 when it is not a jetton master). */
export async function jettonWalletAddress(
  deps: ApiDeps,
  master: RawAddress,
  owner: RawAddress,
): Promise<RawAddress> {
  try {
    const wallet = await deps.chain.getJettonWalletAddress(Address.parseRaw(master), Address.parseRaw(owner));
    return toRawAddress(wallet);
  } catch (e) {
    if (e instanceof ChainStateError) {
      throw new NotFoundError("jetton master", [
        { field: "address", message: "not an active jetton master" },
      ]);
    }
    throw e;
  }
}
