// tongo-shaped views of decoded records, used by vectors.test.ts (not a test file).
import type { Cell } from "@ton/core";
import { type Decoded, type DecodedPayload, decodeForwardPayload } from "../../../../dex/codecs/index.ts";
import { raw } from "./_helpers.ts";

export const str = (n: bigint | number) => n.toString();

export function known<T>(x: { kind: string }, kind: string): T {
  if (x.kind !== kind) throw new Error(`expected ${kind}, got ${x.kind}`);
  return x as unknown as T;
}
export type Of<K extends string> = Extract<Decoded, { kind: K }>;
export type POf<K extends string> = Extract<DecodedPayload, { kind: K }>;
export const payload = <K extends DecodedPayload["kind"]>(c: Cell, kind: K) =>
  known<POf<K>>(decodeForwardPayload(c), kind);

export function v1SwapPayload(p: POf<"stonfi.v1.swap_payload">) {
  return {
    op_code: "630424929",
    token_wallet: raw(p.tokenWallet1),
    min_out: str(p.minOut),
    to_address: raw(p.toAddress),
    referral_address: raw(p.refAddress),
  };
}

export function v2SwapPayload(c: Cell) {
  const p = payload(c, "stonfi.v2.swap_payload");
  return {
    transferred_op: "1717886506",
    token_wallet1: raw(p.tokenWallet1),
    refund_address: raw(p.refundAddress),
    excesses_address: raw(p.excessesAddress),
    tx_deadline: str(p.txDeadline),
    swap_body: {
      min_out: str(p.minOut),
      receiver: raw(p.receiver),
      fwd_gas: str(p.fwdGas),
      custom_payload: p.customPayload,
      refund_fwd_gas: str(p.refundFwdGas),
      refund_payload: p.refundPayload,
      ref_fee: str(p.refFee),
      ref_address: raw(p.refAddress),
    },
  };
}

export function v2ProvidePayload(c: Cell) {
  const p = payload(c, "stonfi.v2.provide_lp_payload");
  return {
    transferred_op: "935368415",
    token_wallet1: raw(p.tokenWallet1),
    refund_address: raw(p.refundAddress),
    excesses_address: raw(p.excessesAddress),
    tx_deadline: str(p.txDeadline),
    provide_lp_body: {
      min_lp_out: str(p.minLpOut),
      to_address: raw(p.receiver),
      both_positive: p.bothPositive ? "1" : "0",
      fwd_amount: str(p.fwdGas),
      custom_payload: p.customPayload,
    },
  };
}

export function transfer(b: Decoded, fwd: (x: Of<"jetton.transfer">) => Record<string, unknown>) {
  const x = known<Of<"jetton.transfer">>(b, "jetton.transfer");
  return {
    query_id: str(x.queryId),
    amount: str(x.amount),
    destination: raw(x.destination),
    response_destination: raw(x.responseDestination),
    custom_payload: x.customPayload,
    forward_ton_amount: str(x.forwardTonAmount),
    forward_payload: { in_ref: x.forwardPayload?.inRef, ...fwd(x) },
  };
}
export const fwdCell = (x: { forwardPayload: { payload: Cell } | null }): Cell => {
  if (x.forwardPayload === null) throw new Error("no forward payload");
  return x.forwardPayload.payload;
};
