/** Pool routes (api.md §5.4). `/v1/pools/query` reuses the catalogue query encodings of ./assets.ts. */
import { z } from "zod";
import { poolInfo } from "./objects.ts";
import { addressIn } from "./wire.ts";

export const byMarketParams = z.object({ asset0: addressIn, asset1: addressIn });

export const poolListResponse = z.object({ pool_list: z.array(poolInfo) }).strict();
export const poolResponse = z.object({ pool: poolInfo }).strict();
