// STON.fi v2 admin → router `update_pool_code` (router sends its stored upgrade code to the pool).
// Source: shared/reference/contracts.md §3.8 ([v2-src] router/msgs/admin.fc, which end_parses).
//
//   update_pool_code#68e89380 query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V2_OP } from "./opcodes.ts";

const LAYOUT = { jettonWallet0: "addr", jettonWallet1: "addr" } as const satisfies Layout;

export type StonfiV2UpdatePoolCode = Msg<"stonfi.v2.update_pool_code", typeof LAYOUT>;

export const stonfiV2UpdatePoolCodeCodec = messageCodec(
  "stonfi.v2.update_pool_code",
  STONFI_V2_OP.update_pool_code,
  LAYOUT,
  true,
);
export const decodeStonfiV2UpdatePoolCode = stonfiV2UpdatePoolCodeCodec.decode;
export const storeStonfiV2UpdatePoolCode = stonfiV2UpdatePoolCodeCodec.store;
export const encodeStonfiV2UpdatePoolCode: (x: StonfiV2UpdatePoolCode) => Cell =
  encoder(stonfiV2UpdatePoolCodeCodec);
