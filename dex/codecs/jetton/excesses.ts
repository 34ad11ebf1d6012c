// TEP-74 `excesses` (returns unused TON to the response address).
// Source: shared/reference/contracts.md §2.3, §3.6; TEP-74.
//
//   excesses#d53276db query_id:uint64
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../layout.ts";
import { JETTON_OP } from "./opcodes.ts";

const LAYOUT = {} as const satisfies Layout;

export type JettonExcesses = Msg<"jetton.excesses", typeof LAYOUT>;

export const jettonExcessesCodec = messageCodec("jetton.excesses", JETTON_OP.excesses, LAYOUT, false);
export const decodeJettonExcesses = jettonExcessesCodec.decode;
export const storeJettonExcesses = jettonExcessesCodec.store;
export const encodeJettonExcesses: (x: JettonExcesses) => Cell = encoder(jettonExcessesCodec);
