import type { PoolType } from "../types.ts";
import { constantProductV1, constantProductV2 } from "./constant-product.ts";
import { constantSum } from "./constant-sum.ts";
import type { Curve } from "./curve.ts";
import { stableswap } from "./stableswap.ts";
import { weightedConstProduct } from "./weighted-const-product.ts";
import { weightedStableswap } from "./weighted-stableswap.ts";

export type { Curve } from "./curve.ts";

export const CURVES: Record<PoolType, Curve> = {
  v1_constant_product: constantProductV1,
  v2_constant_product: constantProductV2,
  v2_stableswap: stableswap,
  v2_weighted_const_product: weightedConstProduct,
  v2_weighted_stableswap: weightedStableswap,
  v2_constant_sum: constantSum,
};
