/** Constant sum x + y = k, 1:1 (contracts.md §3.9.3). */
import { floorDiv } from "../math.ts";
import type { Curve } from "./curve.ts";
import { lpFeeAdjusted } from "./fees.ts";

export const constantSum: Curve = {
  baseOut: (pool, _direction, amountIn) => lpFeeAdjusted(pool, amountIn),
  // floor((x + y)/2)
  invariant: (_pool, r0, r1) => floorDiv(r0 + r1, 2n),
  initialSupply: (_pool, a0, a1) => ({ supply: floorDiv(a0 + a1, 2n) }),
};
