// STON.fi v1 pool → router `pay_to` (sent non-bounceable; the router pays each non-zero amount out).
// Source: shared/reference/contracts.md §2.6 ([v1-src] pool/utils.func call_pay_to; [tongo]
// stonfi_payment_request). Exit codes: contracts.md §2.3, dex/exit-codes.ts.
//
//   pay_to#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32
//     1:uint1                                   // always 1; the router just loads the ref
//     ^[ amount0_out:Coins token0:MsgAddress amount1_out:Coins token1:MsgAddress ]
//
// Closed layout (the pool builds it); a 0 in the constant bit is reported as malformed.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { CodecError, defineCodec, end, loadHead, storeHead, storeInRef, toCell } from "../../common.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

export type StonfiV1PayTo = {
  kind: "stonfi.v1.pay_to";
  queryId: bigint;
  owner: Address | null;
  exitCode: number;
  amount0Out: bigint;
  token0: Address | null;
  amount1Out: bigint;
  token1: Address | null;
};

const KIND = "stonfi.v1.pay_to";

export function decodeStonfiV1PayTo(s: Slice): StonfiV1PayTo {
  const queryId = loadHead(s, STONFI_V1_OP.pay_to, KIND);
  const owner = s.loadMaybeAddress();
  const exitCode = s.loadUint(32);
  if (!s.loadBit()) throw new CodecError(`${KIND}: the constant bit before the amounts ref is 0`);
  const r = s.loadRef().beginParse();
  end(s, KIND);
  const rec: StonfiV1PayTo = {
    kind: KIND,
    queryId,
    owner,
    exitCode,
    amount0Out: r.loadCoins(),
    token0: r.loadMaybeAddress(),
    amount1Out: r.loadCoins(),
    token1: r.loadMaybeAddress(),
  };
  end(r, KIND);
  return rec;
}

export const storeStonfiV1PayTo = (x: StonfiV1PayTo) => (b: Builder) => {
  storeHead(b, STONFI_V1_OP.pay_to, x.queryId).storeAddress(x.owner).storeUint(x.exitCode, 32).storeBit(true);
  storeInRef(b, (r) => {
    r.storeCoins(x.amount0Out).storeAddress(x.token0).storeCoins(x.amount1Out).storeAddress(x.token1);
  });
};

export const encodeStonfiV1PayTo = (x: StonfiV1PayTo): Cell => toCell(storeStonfiV1PayTo(x));

export const stonfiV1PayToCodec = defineCodec(
  KIND,
  STONFI_V1_OP.pay_to,
  decodeStonfiV1PayTo,
  storeStonfiV1PayTo,
);
