/** Routers, markets and the jetton-wallet lookup (api.md §5.1, §5.2, §5.6). */
import { z } from "zod";
import { routerInfo } from "./objects.ts";
import { addressIn, addressOut, boolIn } from "./wire.ts";

/** `dex_v2` defaults to true (api.md §1.5): absent means "include DEX v2". */
export const dexV2Query = z.object({ dex_v2: boolIn.optional() });

export const addressParams = z.object({ address: addressIn });

export const routerListResponse = z.object({ router_list: z.array(routerInfo) }).strict();
export const routerResponse = z.object({ router: routerInfo }).strict();

export const marketsResponse = z.object({ pairs: z.array(z.tuple([addressOut, addressOut])) }).strict();

export const jettonAddressQuery = z.object({ owner_address: addressIn });
export const jettonAddressResponse = z.object({ address: addressOut }).strict();
