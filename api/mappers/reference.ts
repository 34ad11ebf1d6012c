/** Router and market DTOs (api.md §4.4, §5.2). What the service does not know about a router is null. */
import type { RouterInfoDto } from "../../schemas/api/objects.ts";
import type { RouterRecord } from "../read-model.ts";
import { friendly } from "./common.ts";

export function routerDto(r: RouterRecord): RouterInfoDto {
  return {
    address: friendly(r.address),
    major_version: r.majorVersion,
    minor_version: r.minorVersion,
    router_type: r.routerType,
    pool_creation_enabled: r.poolCreationEnabled,
    pton_master_address: r.ptonMaster === null ? null : friendly(r.ptonMaster),
    pton_version: r.ptonVersion,
    pton_wallet_address: r.ptonWallet === null ? null : friendly(r.ptonWallet),
  };
}

export function pairsDto(pairs: readonly (readonly [string, string])[]): [string, string][] {
  return pairs.map(([a, b]) => [friendly(a), friendly(b)]);
}
