/**
 * Code cells, build-time template defaults and gas figures of the devnet STON.fi DEX v2 contracts.
 * Sources: shared/reference/contracts.md §3.1 (roles, one router per pool type), §3.2 (template defaults
 * 20/10 bps, unlocked), §3.5 (router gas thresholds `7F + G_swap`, `6F + G_provide`), §3.6 (pay_vault value,
 * cross_swap reserve, payout fwd check), §3.8 (LpAccount, burn, vault thresholds), §3.12 (v2.1 vs v2.2).
 *
 * `F` is 1.5 × the inbound message's forward fee; on the devnet every message pays the flat FORWARD_FEE,
 * so F is a constant here. The constant parts are the contracts' own figures.
 */
import type { Cell } from "@ton/core";
import { FORWARD_FEE } from "../../chain/fees.ts";
import { markerCode } from "../../chain/registry.ts";

export const V2_ROUTER_TYPES = [
  "constant_product",
  "stableswap",
  "weighted_const_product",
  "weighted_stableswap",
] as const;
/** The four router (= pool) types deployed on mainnet (constant_sum has no mainnet router, §3.1). */
export type V2RouterType = (typeof V2_ROUTER_TYPES)[number];
/** v2.1 and v2.2 builds differ only in `get_router_version` on the devnet (§3.12). */
export type V2Minor = 1 | 2;

/** Router code per type and build: the code cell fixes the router's type and version. */
export const V2_ROUTER_CODE: Readonly<Record<V2RouterType, Readonly<Record<V2Minor, Cell>>>> =
  Object.fromEntries(
    V2_ROUTER_TYPES.map((t) => [
      t,
      { 1: markerCode(`stonfi-v2/router/${t}/v2.1`), 2: markerCode(`stonfi-v2/router/${t}/v2.2`) },
    ]),
  ) as Record<V2RouterType, Record<V2Minor, Cell>>;

/** Pool code per type (the real templates compile one pool per type, §3.1). */
export const V2_POOL_CODE: Readonly<Record<V2RouterType, Cell>> = Object.fromEntries(
  V2_ROUTER_TYPES.map((t) => [t, markerCode(`stonfi-v2/pool/${t}`)]),
) as Record<V2RouterType, Cell>;

export const V2_LP_ACCOUNT_CODE = markerCode("stonfi-v2/lp_account");
export const V2_LP_WALLET_CODE = markerCode("stonfi-v2/lp_wallet");
export const V2_VAULT_CODE = markerCode("stonfi-v2/vault");

/** Template defaults compiled into every devnet router's pool StateInit (§3.2). */
export const DEFAULT_LP_FEE = 20;
export const DEFAULT_PROTOCOL_FEE = 10;
/** Fees accepted by `set_fees` (throw 94 otherwise, §3.8). */
export const MAX_FEE_BPS = 100;

/** 18-decimal fixed point (weights, WStable amp and rate). */
export const FP_ONE = 10n ** 18n;
/** Initial WStable amp (1e18) and the largest amp `set_params` accepts (2000e18), §3.2, §3.8. */
export const WSTABLE_MAX_AMP = 2000n * FP_ONE;
export const STABLE_MAX_AMP = 2000n;

const milliTon = (n: bigint): bigint => n * 1_000_000n;

/** 1.5 × the inbound forward fee (funcbox `ctx::init`), a constant on the flat-fee devnet. */
export const F = (FORWARD_FEE * 3n) / 2n;

/** Constant parts of the contracts' gas thresholds per type (§3.5 table), nanoton. */
export const TYPE_GAS: Readonly<Record<V2RouterType, { swap: bigint; provide: bigint; burn: bigint }>> = {
  constant_product: { swap: milliTon(189n), provide: milliTon(116n), burn: milliTon(233n) },
  stableswap: { swap: milliTon(218n), provide: milliTon(119n), burn: milliTon(242n) },
  weighted_const_product: { swap: milliTon(208n), provide: milliTon(189n), burn: milliTon(237n) },
  weighted_stableswap: { swap: milliTon(368n), provide: milliTon(189n), burn: milliTon(242n) },
};

/** Router: swap needs `7F + G_swap`, provide `6F + G_provide` of available gas (§3.5). */
export const swapGasMin = (type: V2RouterType): bigint => 7n * F + TYPE_GAS[type].swap;
export const provideGasMin = (type: V2RouterType): bigint => 6n * F + TYPE_GAS[type].provide;
/** Pool: a burn needs more than `7F + burn_min` (§3.8). */
export const burnGasMin = (type: V2RouterType): bigint => 7n * F + TYPE_GAS[type].burn;

/** Value of a pool → router `pay_vault` (§3.6). */
export const PAY_VAULT_VALUE = 3n * F + milliTon(31n);
/** A `pay_to` chains a cross_swap only above this value, which it keeps for itself (§3.6). */
export const CROSS_SWAP_RESERVE = F + milliTon(16n);
/** Router payout: fwd_ton_amount is dropped when the rest cannot pay it (§3.6). */
export const PAYOUT_KEEP = F + milliTon(16n) + milliTon(10n) + milliTon(70n) + 2n * F;
/**
 * Pool mint: fwd_amount is dropped when the rest cannot pay it (§3.8). The cb_add_liquidity gas constant
 * is public only for CPI (0.027 TON, from `0.069 + 4F` of direct_add_liquidity); the devnet uses it for all.
 */
export const CB_ADD_GAS = milliTon(27n);
export const MINT_KEEP = F + CB_ADD_GAS + milliTon(10n) + milliTon(70n) + 2n * F;
/** LpAccount `direct_add_liquidity` needs more than `4F + 0.042 + cb_gas` (§3.8). */
export const DIRECT_ADD_MIN = 4n * F + milliTon(42n) + CB_ADD_GAS;
/** LpAccount `refund_me` needs more than `7F + 0.221` (§3.8). */
export const REFUND_ME_MIN = 7n * F + milliTon(221n);
/** Vault `withdraw_fee` needs a balance above `5F + 0.12` (§3.6). */
export const WITHDRAW_MIN = 5n * F + milliTon(120n);
/** Pool `collect_fees` needs more than `7F + 0.232` (§3.8). */
export const COLLECT_FEES_MIN = 7n * F + milliTon(232n);
/** LP wallet `burn` needs more than `2(F + 0.01)` (§3.8). */
export const LP_BURN_MIN = 2n * (F + milliTon(10n));
/** What an LpAccount keeps when it only stores a deposit (§3.8: reserve 0.001 TON). */
export const LP_ACCOUNT_KEEP = milliTon(1n);

/** Throw codes of the v2 contracts ([v2-src] `common/errors.fc`, §3.3) plus TVM's cell underflow. */
export const V2_ERROR = {
  cell_underflow: 9,
  no_liquidity: 80,
  zero_output: 81,
  invalid_caller: 82,
  insufficient_gas: 83,
  wrong_workchain: 85,
  wrong_address: 86,
  invalid_amount: 92,
  invalid_call: 93,
  fee_out_range: 94,
  empty_not_allowed: 96,
  wrong_op: 0xffff,
} as const;

/** LP wallet throw codes (as v1's, §3.3). */
export const LP_WALLET_ERROR = {
  not_owner: 705,
  insufficient_balance: 706,
  wrong_sender_or_gas: 707,
  no_forward_payload: 708,
  insufficient_gas: 709,
} as const;

/**
 * What a destroyed LpAccount or Vault answers (a get-method, or a message without its StateInit): the exit
 * code a liteserver reports for a missing account (−13), since the devnet chain does not model mode +32.
 */
export const ACCOUNT_GONE = -13;
