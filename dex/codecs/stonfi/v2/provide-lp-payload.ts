// STON.fi v2 `provide_lp` forward payload (user → router).
// Source: shared/reference/contracts.md §3.4 ([v2-src] pool/msgs/router.fc, which end_parses both cells; [sdk] createProvideLiquidityBody).
//
//   provide_lp#37c096df token_wallet1:MsgAddress refund_address:MsgAddress excesses_address:MsgAddress
//     tx_deadline:uint64
//     ^[ min_lp_out:Coins receiver:MsgAddress both_positive:uint1 fwd_gas:Coins custom_payload:(Maybe ^Cell) ]
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
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
      minLpOut: "coins",
      receiver: "addr",
      bothPositive: "bool",
      fwdGas: "coins",
      customPayload: "maybeRef",
    },
  },
} as const satisfies Layout;

export type StonfiV2ProvideLpPayload = PayloadMsg<"stonfi.v2.provide_lp_payload", typeof LAYOUT>;

export const stonfiV2ProvideLpPayloadCodec = payloadCodec(
  "stonfi.v2.provide_lp_payload",
  STONFI_V2_OP.provide_lp,
  LAYOUT,
  true,
);
export const decodeStonfiV2ProvideLpPayload = stonfiV2ProvideLpPayloadCodec.decode;
export const storeStonfiV2ProvideLpPayload = stonfiV2ProvideLpPayloadCodec.store;
export const encodeStonfiV2ProvideLpPayload: (x: StonfiV2ProvideLpPayload) => Cell = encoder(
  stonfiV2ProvideLpPayloadCodec,
);
