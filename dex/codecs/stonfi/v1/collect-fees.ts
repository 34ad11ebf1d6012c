// STON.fi v1 admin → router `collect_fees` (the router then sends op+query_id `collect_fees` to the pool,
// decoded as `stonfi.v1.collect_fees_pool`).
// Source: shared/reference/contracts.md §2.8 ([v1-src] router/admin-calls.func).
//
//   collect_fees#1fcb7d3d query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { jettonWallet0: "addr", jettonWallet1: "addr" } as const satisfies Layout;

export type StonfiV1CollectFees = Msg<"stonfi.v1.collect_fees", typeof LAYOUT>;

export const stonfiV1CollectFeesCodec = messageCodec(
  "stonfi.v1.collect_fees",
  STONFI_V1_OP.collect_fees,
  LAYOUT,
  false,
);
export const decodeStonfiV1CollectFees = stonfiV1CollectFeesCodec.decode;
export const storeStonfiV1CollectFees = stonfiV1CollectFeesCodec.store;
export const encodeStonfiV1CollectFees: (x: StonfiV1CollectFees) => Cell = encoder(stonfiV1CollectFeesCodec);
