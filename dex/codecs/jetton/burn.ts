// TEP-74 `burn` (user → own LP wallet in both DEX versions; v2 requires response_destination = addr_none).
// Source: shared/reference/contracts.md §2.7, §3.8; TEP-74.
//
//   burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress
//     custom_payload:(Maybe ^Cell)
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../layout.ts";
import { JETTON_OP } from "./opcodes.ts";

const LAYOUT = {
  amount: "coins",
  responseDestination: "addr",
  customPayload: "maybeRef",
} as const satisfies Layout;

export type JettonBurn = Msg<"jetton.burn", typeof LAYOUT>;

export const jettonBurnCodec = messageCodec("jetton.burn", JETTON_OP.burn, LAYOUT, false);
export const decodeJettonBurn = jettonBurnCodec.decode;
export const storeJettonBurn = jettonBurnCodec.store;
export const encodeJettonBurn: (x: JettonBurn) => Cell = encoder(jettonBurnCodec);
