// pTON v2.1 minter → new wallet `internal_deploy` (with StateInit).
// Source: shared/reference/contracts.md §3.11 ([pton-src]; [tongo] PtonInternalDeployMsgBody).
//
//   internal_deploy#6540cf85 query_id:uint64 excesses:MsgAddress
//
// Closed layout: the sending contract builds exactly these fields, so trailing data is an error.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { PTON_V2_OP } from "./opcodes.ts";

const LAYOUT = { excessesAddress: "addr" } as const satisfies Layout;

export type PtonV2InternalDeploy = Msg<"pton.v2.internal_deploy", typeof LAYOUT>;

export const ptonV2InternalDeployCodec = messageCodec(
  "pton.v2.internal_deploy",
  PTON_V2_OP.internal_deploy,
  LAYOUT,
  true,
);
export const decodePtonV2InternalDeploy = ptonV2InternalDeployCodec.decode;
export const storePtonV2InternalDeploy = ptonV2InternalDeployCodec.store;
export const encodePtonV2InternalDeploy: (x: PtonV2InternalDeploy) => Cell =
  encoder(ptonV2InternalDeployCodec);
