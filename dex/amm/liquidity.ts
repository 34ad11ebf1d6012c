/**
 * Adding and removing liquidity, including the LpAccount's decision to call the pool
 * (v1: contracts.md §2.7, §2.9; v2: §3.8, §3.9.8, §3.9.9).
 */
import { CURVES } from "./curves/index.ts";
import { AmmInputError, negativeAmount, zeroAmount } from "./errors.ts";
import { BURN_EXIT } from "./exit-codes.ts";
import { abs, ceilDiv, FEE_DIVIDER, floorDiv, isTvmExit, MAX_COINS, min, mulDiv } from "./math.ts";
import { assertValidPool } from "./pool.ts";
import { dexVersionOf, type PoolState } from "./types.ts";

/** v2 never mints the first 1001 LP units of a pool: they stay in the supply, owned by nobody. */
export const V2_LOCKED_LP = 1001n;
/** v1's LpAccount calls the pool only when both sides hold more than this (strict). */
export const V1_MIN_SIDE = 1000n;

export type ProvideRequest = {
  amount0: bigint;
  amount1: bigint;
  /** Minimum LP to mint; the LpAccounts never ask for a mint with 0. */
  minLpOut: bigint;
  /** v2: true waits for both sides; false mints a single side at once. Ignored by v1. Default true. */
  bothPositive?: boolean;
};

export type ProvideResult = {
  /** minted: LP issued; refunded: the pool sent both amounts back to the LpAccount; stored: kept in the LpAccount. */
  status: "minted" | "refunded" | "stored";
  lpMinted: bigint;
  /** v1's first deposit mints to the addr_none wallet: the depositor receives nothing. */
  lpMintedTo: "user" | "addr_none" | null;
  /** Amounts the LpAccount sent to the pool (`cb_add_liquidity`), or null when it never called it. */
  poolReceived: readonly [bigint, bigint] | null;
  refunded: readonly [bigint, bigint] | null;
  /** The depositor's LpAccount balances after the whole flow. */
  lpAccount: readonly [bigint, bigint];
  protocolFeeCharged: readonly [bigint, bigint];
  pool: PoolState;
};

type Mint = { liquidity: bigint; minted: bigint; fees: readonly [bigint, bigint]; next: PoolState };

/** v2 "max LP mint" for a live pool: imbalance pays ceil(L/2) bps plus the protocol fee (§3.9.8). */
function liveMintV2(
  pool: PoolState,
  t0: bigint,
  t1: bigint,
): { liquidity: bigint; fees: readonly [bigint, bigint] } {
  const curve = CURVES[pool.type];
  const r = [pool.reserve0, pool.reserve1] as const;
  const v0 = curve.invariant(pool, r[0], r[1]);
  const n = [r[0] + t0, r[1] + t1];
  const v1 = curve.invariant(pool, n[0]!, n[1]!);
  if (v1 <= v0) return { liquidity: 0n, fees: [0n, 0n] };
  const halfLpFee = ceilDiv(pool.lpFeeBps, 2n);
  const fees: [bigint, bigint] = [0n, 0n];
  for (const i of [0, 1] as const) {
    const ideal = mulDiv(r[i], v1, v0); // floor
    const diff = abs(n[i]! - ideal);
    fees[i] = n[i]! > ideal ? floorDiv(diff * pool.protocolFeeBps, FEE_DIVIDER) : 0n; // floor, over-supplied side only
    n[i] = n[i]! - floorDiv(diff * halfLpFee, FEE_DIVIDER) - fees[i]; // floor
  }
  const v2 = curve.invariant(pool, n[0]!, n[1]!);
  if (v2 <= v0) return { liquidity: 0n, fees: [0n, 0n] };
  return { liquidity: mulDiv(v2 - v0, pool.lpSupply, v0), fees }; // floor
}

function mintV2(pool: PoolState, t0: bigint, t1: bigint): Mint {
  if (pool.lpSupply === 0n) {
    if (t0 <= 0n || t1 <= 0n) return { liquidity: 0n, minted: 0n, fees: [0n, 0n], next: pool };
    const { supply, rate } = CURVES[pool.type].initialSupply(pool, t0, t1);
    const next = { ...pool, reserve0: t0, reserve1: t1, lpSupply: supply, rate: rate ?? pool.rate };
    return { liquidity: supply, minted: supply - V2_LOCKED_LP, fees: [0n, 0n], next };
  }
  const { liquidity, fees } = liveMintV2(pool, t0, t1);
  const next = {
    ...pool,
    reserve0: pool.reserve0 + t0 - fees[0],
    reserve1: pool.reserve1 + t1 - fees[1],
    lpSupply: pool.lpSupply + liquidity,
    collectedProtocolFee0: pool.collectedProtocolFee0 + fees[0],
    collectedProtocolFee1: pool.collectedProtocolFee1 + fees[1],
  };
  return { liquidity, minted: liquidity, fees, next };
}

function mintV1(pool: PoolState, t0: bigint, t1: bigint): Mint {
  const next = { ...pool, reserve0: pool.reserve0 + t0, reserve1: pool.reserve1 + t1 };
  if (pool.lpSupply === 0n) {
    const { supply } = CURVES[pool.type].initialSupply(pool, t0, t1);
    return { liquidity: supply, minted: supply, fees: [0n, 0n], next: { ...next, lpSupply: supply } };
  }
  // min(floor(a0·S/r0), floor(a1·S/r1)); the whole deposit joins the reserves.
  const liquidity = min(mulDiv(t0, pool.lpSupply, pool.reserve0), mulDiv(t1, pool.lpSupply, pool.reserve1));
  return {
    liquidity,
    minted: liquidity,
    fees: [0n, 0n],
    next: { ...next, lpSupply: pool.lpSupply + liquidity },
  };
}

/** Math exceptions inside `cb_add_liquidity` are swallowed into "liquidity 0" (contracts.md §11.1). */
function tryMint(pool: PoolState, t0: bigint, t1: bigint): Mint {
  try {
    return dexVersionOf(pool.type) === "v1" ? mintV1(pool, t0, t1) : mintV2(pool, t0, t1);
  } catch (e) {
    if (isTvmExit(e)) return { liquidity: 0n, minted: 0n, fees: [0n, 0n], next: pool };
    throw e;
  }
}

const inRange = (p: PoolState) =>
  p.reserve0 <= MAX_COINS && p.reserve1 <= MAX_COINS && p.lpSupply <= MAX_COINS;

/** Whether the LpAccount, holding (a0, a1) after this deposit, asks the pool to mint. */
function lpAccountCallsPool(pool: PoolState, req: ProvideRequest): boolean {
  const { amount0: a0, amount1: a1, minLpOut } = req;
  if (minLpOut === 0n) return false;
  if (dexVersionOf(pool.type) === "v1") return a0 > V1_MIN_SIDE && a1 > V1_MIN_SIDE;
  return req.bothPositive === false ? a0 + a1 > 0n : a0 > 0n && a1 > 0n;
}

function validateProvide(pool: PoolState, req: ProvideRequest): void {
  assertValidPool(pool);
  if (req.amount0 < 0n) throw negativeAmount("amount0");
  if (req.amount1 < 0n) throw negativeAmount("amount1");
  if (req.minLpOut < 0n) throw negativeAmount("min_lp_out");
  if (req.amount0 === 0n && req.amount1 === 0n) throw zeroAmount("amount0 + amount1");
  if (
    dexVersionOf(pool.type) === "v2" &&
    req.bothPositive === false &&
    req.amount0 > 0n &&
    req.amount1 > 0n
  ) {
    // Each side is its own provide_lp; with both_positive = 0 the first to arrive mints alone.
    throw new AmmInputError(
      "single_side_both_amounts",
      "a single-sided provide takes exactly one non-zero side",
      "both_positive",
    );
  }
}

/** One deposit into an empty LpAccount, as the router → pool → LpAccount → pool flow executes it. */
export function provide(pool: PoolState, req: ProvideRequest): ProvideResult {
  validateProvide(pool, req);
  const { amount0: t0, amount1: t1 } = req;
  const none = [0n, 0n] as const;
  if (!lpAccountCallsPool(pool, req)) {
    return {
      status: "stored",
      lpMinted: 0n,
      lpMintedTo: null,
      poolReceived: null,
      refunded: null,
      lpAccount: [t0, t1],
      protocolFeeCharged: none,
      pool,
    };
  }
  const m = pool.isLocked ? null : tryMint(pool, t0, t1);
  if (m === null || m.minted < req.minLpOut || m.minted <= 0n || !inRange(m.next)) {
    // The pool sends both amounts back to the LpAccount with min_lp_out 0, which stores them.
    return {
      status: "refunded",
      lpMinted: 0n,
      lpMintedTo: null,
      poolReceived: [t0, t1],
      refunded: [t0, t1],
      lpAccount: [t0, t1],
      protocolFeeCharged: none,
      pool,
    };
  }
  const firstV1 = dexVersionOf(pool.type) === "v1" && pool.lpSupply === 0n;
  return {
    status: "minted",
    lpMinted: m.minted,
    lpMintedTo: firstV1 ? "addr_none" : "user",
    poolReceived: [t0, t1],
    refunded: null,
    lpAccount: none,
    protocolFeeCharged: m.fees,
    pool: m.next,
  };
}

export type BurnResult = {
  status: "ok" | "tx_failed";
  /** 0 when ok, else the pool's throw code (81 zero output, 92 would empty the pool, 93 locked). */
  exitCode: number;
  amount0Out: bigint;
  amount1Out: bigint;
  /** v1 pays both sides in one `pay_to`, v2 in two. */
  payoutMessages: number;
  pool: PoolState;
};

/** Burn `lpAmount` LP: `floor(lp·r_i/S)` of each reserve (contracts.md §2.9, §3.9.9). */
export function burn(pool: PoolState, lpAmount: bigint): BurnResult {
  assertValidPool(pool);
  if (lpAmount <= 0n) throw zeroAmount("lp_amount");
  if (lpAmount > pool.lpSupply)
    throw new AmmInputError("lp_exceeds_supply", "lp_amount exceeds the LP supply", "lp_amount");
  const v2 = dexVersionOf(pool.type) === "v2";
  const fail = (exitCode: number): BurnResult => ({
    status: "tx_failed",
    exitCode,
    amount0Out: 0n,
    amount1Out: 0n,
    payoutMessages: 0,
    pool,
  });
  if (v2 && pool.isLocked) return fail(BURN_EXIT.invalid_call);
  const out0 = mulDiv(lpAmount, pool.reserve0, pool.lpSupply); // floor
  const out1 = mulDiv(lpAmount, pool.reserve1, pool.lpSupply); // floor
  if (out0 <= 0n || out1 <= 0n) return fail(BURN_EXIT.zero_output);
  const next = {
    ...pool,
    reserve0: pool.reserve0 - out0,
    reserve1: pool.reserve1 - out1,
    lpSupply: pool.lpSupply - lpAmount,
  };
  if (v2 && (next.reserve0 <= 0n || next.reserve1 <= 0n || next.lpSupply <= 0n))
    return fail(BURN_EXIT.invalid_amount);
  return {
    status: "ok",
    exitCode: BURN_EXIT.ok,
    amount0Out: out0,
    amount1Out: out1,
    payoutMessages: v2 ? 2 : 1,
    pool: next,
  };
}
