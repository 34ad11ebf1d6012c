// STON.fi v2 router → pool `internal_set_params` (0xf163444a; the docs' 0x7163444a is wrong, §8.1).
// Source: shared/reference/contracts.md §3.8 ([v2-src] pool/pools/*/ext_router.fc).
//
//   stableswap: internal_set_params#f163444a query_id:uint64 excesses:MsgAddress amp:uint32
//   WCPI:       internal_set_params#f163444a query_id:uint64 excesses:MsgAddress side:MsgAddress w:uint128
//   WStable:    internal_set_params#f163444a query_id:uint64 excesses:MsgAddress side:MsgAddress
//                 amp:uint128 rate:uint128 w:uint128 ^[ setter:MsgAddress ]
//
// Which layout: a ref → WStable; otherwise exactly 32 bits after `excesses` → stableswap, else WCPI.
// Closed layouts (the router builds them).
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { defineCodec, end, loadHead, loadInRef, storeHead, storeInRef, toCell } from "../../common.ts";
import { STONFI_V2_OP } from "./opcodes.ts";
import type { PoolParams } from "./pool-params.ts";

export type StonfiV2InternalSetParams = {
  kind: "stonfi.v2.internal_set_params";
  queryId: bigint;
  excessesAddress: Address | null;
  params: PoolParams;
};

const KIND = "stonfi.v2.internal_set_params";

function loadParams(s: Slice): PoolParams {
  if (s.remainingRefs === 0 && s.remainingBits === 32) return { poolType: "stableswap", amp: s.loadUint(32) };
  const sideWallet = s.loadMaybeAddress();
  if (s.remainingRefs === 0) return { poolType: "weighted_const_product", sideWallet, w: s.loadUintBig(128) };
  const amp = s.loadUintBig(128);
  const rate = s.loadUintBig(128);
  const w = s.loadUintBig(128);
  const rateSetter = loadInRef(s, KIND, (r) => r.loadMaybeAddress());
  return { poolType: "weighted_stableswap", amp, rate, w, sideWallet, rateSetter };
}

export function decodeStonfiV2InternalSetParams(s: Slice): StonfiV2InternalSetParams {
  const queryId = loadHead(s, STONFI_V2_OP.internal_set_params, KIND);
  const excessesAddress = s.loadMaybeAddress();
  const params = loadParams(s);
  end(s, KIND);
  return { kind: KIND, queryId, excessesAddress, params };
}

export const storeStonfiV2InternalSetParams = (x: StonfiV2InternalSetParams) => (b: Builder) => {
  storeHead(b, STONFI_V2_OP.internal_set_params, x.queryId).storeAddress(x.excessesAddress);
  const p = x.params;
  if (p.poolType === "stableswap") {
    b.storeUint(p.amp, 32);
  } else if (p.poolType === "weighted_const_product") {
    b.storeAddress(p.sideWallet).storeUint(p.w, 128);
  } else {
    b.storeAddress(p.sideWallet).storeUint(p.amp, 128).storeUint(p.rate, 128).storeUint(p.w, 128);
    storeInRef(b, (r) => r.storeAddress(p.rateSetter));
  }
};

export const encodeStonfiV2InternalSetParams = (x: StonfiV2InternalSetParams): Cell =>
  toCell(storeStonfiV2InternalSetParams(x));

export const stonfiV2InternalSetParamsCodec = defineCodec(
  KIND,
  STONFI_V2_OP.internal_set_params,
  decodeStonfiV2InternalSetParams,
  storeStonfiV2InternalSetParams,
);
