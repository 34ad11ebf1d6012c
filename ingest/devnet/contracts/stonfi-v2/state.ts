/**
 * The typed state of each devnet STON.fi v2 contract: the fields of its storage layout
 * (shared/reference/contracts.md §3.2), serialised by ./storage.ts.
 */
import type { Address } from "@ton/core";
import type { V2Minor, V2RouterType } from "./constants.ts";

export type V2RouterState = {
  readonly type: V2RouterType;
  readonly minor: V2Minor;
  readonly id: bigint;
  readonly isLocked: boolean;
  readonly admin: Address;
};

export type V2PoolState = {
  readonly type: V2RouterType;
  readonly router: Address;
  readonly token0: Address;
  readonly token1: Address;
  readonly isLocked: boolean;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  readonly totalSupplyLp: bigint;
  readonly collected0: bigint;
  readonly collected1: bigint;
  readonly protocolFeeAddress: Address | null;
  readonly lpFee: number;
  readonly protocolFee: number;
  /** stableswap: plain 1..2000 (stored uint32); weighted_stableswap: 18-decimal (uint128). Else 0. */
  readonly amp: bigint;
  /** weighted_stableswap only. */
  readonly rate: bigint;
  /** Weighted pools: token0 weight, 18-decimal; 0 = not set yet. */
  readonly w0: bigint;
  /** weighted_stableswap only. */
  readonly rateSetter: Address | null;
};

/**
 * `destroyed` models the mode 128+32 self-destruct (§3.1, §3.6, §3.8) that the devnet chain does not
 * model: the account keeps no TON and answers get-methods like a missing account; a message carrying the
 * StateInit redeploys it empty, any other message bounces as it would from a non-existing account.
 */
export type V2LpAccountState = {
  readonly user: Address;
  readonly pool: Address;
  readonly amount0: bigint;
  readonly amount1: bigint;
  readonly destroyed: boolean;
};

export type V2LpWalletState = { readonly balance: bigint; readonly owner: Address; readonly pool: Address };

export type V2VaultState = {
  readonly owner: Address;
  readonly token: Address;
  readonly router: Address;
  readonly deposited: bigint;
  readonly destroyed: boolean;
};
