// STON.fi v2 admin → router `set_params` (non-CPI routers; unmasked CRC32 op). Three layouts share the op:
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/pools/*/ext_admin.fc).
//
//   stableswap: set_params#2b8b3b62 query_id:uint64 new_amp:uint32
//                 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress excesses:MsgAddress
//   WCPI:       set_params#2b8b3b62 query_id:uint64 new_w:uint128 side_wallet:MsgAddress
//                 ^[ jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress excesses:MsgAddress ]
//   WStable:    set_params#2b8b3b62 query_id:uint64 new_amp:uint128 new_rate:uint128 new_w:uint128
//                 side_wallet:MsgAddress new_setter:MsgAddress
//                 ^[ jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress excesses:MsgAddress ]
//
// Which layout: no ref → stableswap; with a ref, WCPI when exactly 130 or 395 bits follow query_id
// (uint128 + addr_none / addr_std), else WStable (388, 653 or 918 bits). The counts never overlap. Closed.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { defineCodec, end, loadHead, loadInRef, storeHead, storeInRef, toCell } from "../../common.ts";
import { STONFI_V2_OP } from "./opcodes.ts";
import type { PoolParams } from "./pool-params.ts";

export type StonfiV2SetParams = {
  kind: "stonfi.v2.set_params";
  queryId: bigint;
  params: PoolParams;
  jettonWallet0: Address | null;
  jettonWallet1: Address | null;
  excessesAddress: Address | null;
};

const KIND = "stonfi.v2.set_params";
type Pool = Pick<StonfiV2SetParams, "jettonWallet0" | "jettonWallet1" | "excessesAddress">;

function loadPool(s: Slice): Pool {
  return {
    jettonWallet0: s.loadMaybeAddress(),
    jettonWallet1: s.loadMaybeAddress(),
    excessesAddress: s.loadMaybeAddress(),
  };
}

function loadParams(s: Slice): { params: PoolParams; pool: Pool } {
  if (s.remainingRefs === 0)
    return { params: { poolType: "stableswap", amp: s.loadUint(32) }, pool: loadPool(s) };
  // uint128 + addr_none = 130 bits, uint128 + addr_std = 395; WStable needs at least 388 and is never 395.
  if (s.remainingBits === 130 || s.remainingBits === 395) {
    const params: PoolParams = {
      poolType: "weighted_const_product",
      w: s.loadUintBig(128),
      sideWallet: s.loadMaybeAddress(),
    };
    return { params, pool: loadInRef(s, KIND, loadPool) };
  }
  const params: PoolParams = {
    poolType: "weighted_stableswap",
    amp: s.loadUintBig(128),
    rate: s.loadUintBig(128),
    w: s.loadUintBig(128),
    sideWallet: s.loadMaybeAddress(),
    rateSetter: s.loadMaybeAddress(),
  };
  return { params, pool: loadInRef(s, KIND, loadPool) };
}

export function decodeStonfiV2SetParams(s: Slice): StonfiV2SetParams {
  const queryId = loadHead(s, STONFI_V2_OP.set_params, KIND);
  const { params, pool } = loadParams(s);
  end(s, KIND);
  return { kind: KIND, queryId, params, ...pool };
}

const storePool = (x: Pool) => (b: Builder) => {
  b.storeAddress(x.jettonWallet0).storeAddress(x.jettonWallet1).storeAddress(x.excessesAddress);
};

export const storeStonfiV2SetParams = (x: StonfiV2SetParams) => (b: Builder) => {
  storeHead(b, STONFI_V2_OP.set_params, x.queryId);
  const p = x.params;
  if (p.poolType === "stableswap") {
    b.storeUint(p.amp, 32).store(storePool(x));
  } else if (p.poolType === "weighted_const_product") {
    b.storeUint(p.w, 128).storeAddress(p.sideWallet);
    storeInRef(b, storePool(x));
  } else {
    b.storeUint(p.amp, 128).storeUint(p.rate, 128).storeUint(p.w, 128);
    b.storeAddress(p.sideWallet).storeAddress(p.rateSetter);
    storeInRef(b, storePool(x));
  }
};

export const encodeStonfiV2SetParams = (x: StonfiV2SetParams): Cell => toCell(storeStonfiV2SetParams(x));

export const stonfiV2SetParamsCodec = defineCodec(
  KIND,
  STONFI_V2_OP.set_params,
  decodeStonfiV2SetParams,
  storeStonfiV2SetParams,
);
