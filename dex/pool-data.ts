/**
 * A pool's persistent data cell (the `data` of its StateInit, or of its account) → the AMM engine's
 * `PoolState` plus the addresses the pool is keyed by. Pure; no I/O.
 *
 * v1 (contracts.md §2.2, [v1-src] `pool/storage.func`):
 *   router:MsgAddress lp_fee:uint8 protocol_fee:uint8 ref_fee:uint8 token0:MsgAddress token1:MsgAddress
 *   total_supply_lp:Coins
 *   ^[ collected0:Coins collected1:Coins protocol_fee_address:MsgAddress reserve0:Coins reserve1:Coins ]
 *   ^lp_wallet_code ^lp_account_code
 *
 * v2 (contracts.md §3.2, [v2-src] `pool/pools/<type>/storage.fc`):
 *   is_locked:Bool reserve0:Coins reserve1:Coins total_supply_lp:Coins collected0:Coins collected1:Coins
 *   protocol_fee_address:MsgAddress lp_fee:uint16 protocol_fee:uint16
 *     [stableswap: amp:uint32] [weighted_const_product: w0:uint64]
 *     [weighted_stableswap: ^[ amp:uint128 rate:uint128 w0:uint128 rate_setter:MsgAddress ]]
 *   ^[ router:MsgAddress token0:MsgAddress token1:MsgAddress ^lp_wallet_code ^lp_account_code ]
 *
 * The v2 pool type is not stored: constant_product and constant_sum share a layout, so the caller names
 * the type (from `get_pool_type` or the router) and `poolLayoutsOf` checks that the cell fits it.
 */
import type { Address, Cell, Slice } from "@ton/core";
import { POOL_TYPES, type PoolState, type PoolType, poolState } from "./amm/types.ts";

export type V2PoolType = Exclude<PoolType, "v1_constant_product">;

/** What a pool's data cell says: its router, its two router jetton wallets (stored order) and its state. */
export type PoolData = {
  router: Address;
  token0Wallet: Address;
  token1Wallet: Address;
  /** v1 stores addr_std 0:000…0 ("HOLE") until set; v2 stores addr_none (null). */
  protocolFeeAddress: Address | null;
  state: PoolState;
};

/** Thrown when a cell does not have the layout asked for (short, extra bits or refs, bad address). */
export class PoolDataError extends Error {
  override readonly name = "PoolDataError";
  readonly isPoolDataError = true;
}

function closed(s: Slice, where: string): void {
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new PoolDataError(`${where}: ${s.remainingBits} bits and ${s.remainingRefs} refs left over`);
  }
}

/** `loadAddress` refuses addr_none: router and token wallets are always addr_std. */
function wrap<T>(where: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof PoolDataError) throw e;
    throw new PoolDataError(`${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** v1 pool data (contracts.md §2.2). v1 pools have no lock and no curve parameters. */
export function parseV1PoolData(data: Cell): PoolData {
  return wrap("v1 pool data", () => {
    const s = data.beginParse();
    const router = s.loadAddress();
    const lpFeeBps = BigInt(s.loadUint(8));
    const protocolFeeBps = BigInt(s.loadUint(8));
    const refFeeBps = BigInt(s.loadUint(8));
    const token0Wallet = s.loadAddress();
    const token1Wallet = s.loadAddress();
    const lpSupply = s.loadCoins();
    const inner = s.loadRef().beginParse();
    s.loadRef(); // lp_wallet_code
    s.loadRef(); // lp_account_code
    closed(s, "v1 pool data");
    const collectedProtocolFee0 = inner.loadCoins();
    const collectedProtocolFee1 = inner.loadCoins();
    const protocolFeeAddress = inner.loadMaybeAddress();
    const reserve0 = inner.loadCoins();
    const reserve1 = inner.loadCoins();
    closed(inner, "v1 pool data ^[collected, reserves]");
    const state = poolState({
      type: "v1_constant_product",
      reserve0,
      reserve1,
      lpSupply,
      lpFeeBps,
      protocolFeeBps,
      refFeeBps,
      collectedProtocolFee0,
      collectedProtocolFee1,
    });
    return { router, token0Wallet, token1Wallet, protocolFeeAddress, state };
  });
}

type Curve = Pick<PoolState, "amp" | "rate" | "w0">;

/** The type-specific fields between the fees and the `^static` ref (contracts.md §3.2). */
function loadCurve(s: Slice, type: V2PoolType): Curve {
  const none = { amp: 0n, rate: 0n, w0: 0n };
  if (type === "v2_stableswap") return { ...none, amp: s.loadUintBig(32) };
  if (type === "v2_weighted_const_product") return { ...none, w0: s.loadUintBig(64) };
  if (type !== "v2_weighted_stableswap") return none;
  const r = s.loadRef().beginParse();
  const curve = { amp: r.loadUintBig(128), rate: r.loadUintBig(128), w0: r.loadUintBig(128) };
  r.loadMaybeAddress(); // rate_setter: not part of the math
  closed(r, "v2 weighted_stableswap ^[amp rate w0 rate_setter]");
  return curve;
}

/** v2 pool data of the given type (contracts.md §3.2). Throws `PoolDataError` if the cell does not fit. */
export function parseV2PoolData(data: Cell, type: V2PoolType): PoolData {
  return wrap(`v2 pool data (${type})`, () => {
    const s = data.beginParse();
    const isLocked = s.loadBit();
    const reserve0 = s.loadCoins();
    const reserve1 = s.loadCoins();
    const lpSupply = s.loadCoins();
    const collectedProtocolFee0 = s.loadCoins();
    const collectedProtocolFee1 = s.loadCoins();
    const protocolFeeAddress = s.loadMaybeAddress();
    const lpFeeBps = BigInt(s.loadUint(16));
    const protocolFeeBps = BigInt(s.loadUint(16));
    const curve = loadCurve(s, type);
    const statics = s.loadRef().beginParse();
    closed(s, `v2 pool data (${type})`);
    const router = statics.loadAddress();
    const token0Wallet = statics.loadAddress();
    const token1Wallet = statics.loadAddress();
    statics.loadRef(); // lp_wallet_code
    statics.loadRef(); // lp_account_code
    closed(statics, "v2 pool data ^static");
    const state = poolState({
      type,
      reserve0,
      reserve1,
      lpSupply,
      lpFeeBps,
      protocolFeeBps,
      // v2 takes the referral fee per swap; the pool stores none (§3.9.1)
      refFeeBps: 0n,
      collectedProtocolFee0,
      collectedProtocolFee1,
      isLocked,
      ...curve,
    });
    return { router, token0Wallet, token1Wallet, protocolFeeAddress, state };
  });
}

/** Any pool type: v1 or the v2 layout of `type`. */
export function parsePoolData(data: Cell, type: PoolType): PoolData {
  return type === "v1_constant_product" ? parseV1PoolData(data) : parseV2PoolData(data, type);
}

function fits(data: Cell, type: PoolType): boolean {
  try {
    parsePoolData(data, type);
    return true;
  } catch (e) {
    if (e instanceof PoolDataError) return false;
    throw e;
  }
}

/**
 * Every pool type whose layout the cell parses as, exactly (no bits or refs left over). A consistency
 * check for a type learned elsewhere: v2 constant_product and constant_sum always come together.
 */
export function poolLayoutsOf(data: Cell): PoolType[] {
  return POOL_TYPES.filter((t) => fits(data, t));
}

/** The v2 layouts only (see `poolLayoutsOf`). */
export function v2LayoutsOf(data: Cell): V2PoolType[] {
  return poolLayoutsOf(data).filter((t): t is V2PoolType => t !== "v1_constant_product");
}
