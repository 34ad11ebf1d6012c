// STON.fi v2 protocol_fee_address → pool `collect_fees`.
// Source: shared/reference/contracts.md §3.8 (§8.3: the SDK body omits both Maybe bits and fails on chain with exit 9).
//
//   collect_fees#1ee4911e query_id:uint64 payload0:(Maybe ^Cell) payload1:(Maybe ^Cell)
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { payload0: "maybeRef", payload1: "maybeRef" } as const satisfies Layout;

export type StonfiV2CollectFees = Msg<"stonfi.v2.collect_fees", typeof LAYOUT>;

export const stonfiV2CollectFeesCodec = messageCodec(
  "stonfi.v2.collect_fees",
  STONFI_V2_OP.collect_fees,
  LAYOUT,
  false,
);
export const decodeStonfiV2CollectFees = stonfiV2CollectFeesCodec.decode;
export const storeStonfiV2CollectFees = stonfiV2CollectFeesCodec.store;
export const encodeStonfiV2CollectFees: (x: StonfiV2CollectFees) => Cell = encoder(stonfiV2CollectFeesCodec);
