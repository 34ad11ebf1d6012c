// STON.fi v2 `swap` forward payload (user → router) and `cross_swap` payload (same layout, op 0x69cf1a5b,
// found in a swap's custom_payload / a pay_to's custom_payload to chain the next hop on the same router).
// Source: shared/reference/contracts.md §3.4 ([v2-src] pool/msgs/router.fc, which end_parses both cells;
// [sdk] BaseRouterV2_1.createSwapBody; [sbx] swapPayloadV2).
//
//   swap#6664de2a (or cross_swap#69cf1a5b)
//     token_wallet1:MsgAddress       // router's jetton wallet of the ASK token
//     refund_address:MsgAddress excesses_address:MsgAddress
//     tx_deadline:uint64             // unix seconds
//     ^[ min_out:Coins
//        receiver:MsgAddress         // addr_none ⇒ from_user
//        fwd_gas:Coins custom_payload:(Maybe ^Cell)
//        refund_fwd_gas:Coins refund_payload:(Maybe ^Cell)
//        ref_fee:uint16              // bps, 0..100
//        ref_address:MsgAddress ]    // addr_none ⇒ no referral
//
// Closed layout.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type PayloadMsg, payloadCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = {
  tokenWallet1: "addr",
  refundAddress: "addr",
  excessesAddress: "addr",
  txDeadline: "u64",
  body: {
    ref: {
      minOut: "coins",
      receiver: "addr",
      fwdGas: "coins",
      customPayload: "maybeRef",
      refundFwdGas: "coins",
      refundPayload: "maybeRef",
      refFee: "u16",
      refAddress: "addr",
    },
  },
} as const satisfies Layout;

export type StonfiV2SwapPayload = PayloadMsg<"stonfi.v2.swap_payload", typeof LAYOUT>;
export type StonfiV2CrossSwapPayload = PayloadMsg<"stonfi.v2.cross_swap_payload", typeof LAYOUT>;

export const stonfiV2SwapPayloadCodec = payloadCodec(
  "stonfi.v2.swap_payload",
  STONFI_V2_OP.swap,
  LAYOUT,
  true,
);
export const decodeStonfiV2SwapPayload = stonfiV2SwapPayloadCodec.decode;
export const storeStonfiV2SwapPayload = stonfiV2SwapPayloadCodec.store;
export const encodeStonfiV2SwapPayload: (x: StonfiV2SwapPayload) => Cell = encoder(stonfiV2SwapPayloadCodec);

export const stonfiV2CrossSwapPayloadCodec = payloadCodec(
  "stonfi.v2.cross_swap_payload",
  STONFI_V2_OP.cross_swap,
  LAYOUT,
  true,
);
export const decodeStonfiV2CrossSwapPayload = stonfiV2CrossSwapPayloadCodec.decode;
export const storeStonfiV2CrossSwapPayload = stonfiV2CrossSwapPayloadCodec.store;
export const encodeStonfiV2CrossSwapPayload: (x: StonfiV2CrossSwapPayload) => Cell = encoder(
  stonfiV2CrossSwapPayloadCodec,
);
