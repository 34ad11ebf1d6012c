// pTON v2.1 anyone → minter `deploy_wallet` (both addresses must be wc 0).
// Source: shared/reference/contracts.md §3.11 ([pton-src]; [tongo] PtonDeployWalletMsgBody).
//
//   deploy_wallet#4f5f4313 query_id:uint64 owner:MsgAddress excesses:MsgAddress
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { PTON_V2_OP } from "./opcodes.ts";

const LAYOUT = { owner: "addr", excessesAddress: "addr" } as const satisfies Layout;

export type PtonV2DeployWallet = Msg<"pton.v2.deploy_wallet", typeof LAYOUT>;

export const ptonV2DeployWalletCodec = messageCodec(
  "pton.v2.deploy_wallet",
  PTON_V2_OP.deploy_wallet,
  LAYOUT,
  false,
);
export const decodePtonV2DeployWallet = ptonV2DeployWalletCodec.decode;
export const storePtonV2DeployWallet = ptonV2DeployWalletCodec.store;
export const encodePtonV2DeployWallet: (x: PtonV2DeployWallet) => Cell = encoder(ptonV2DeployWalletCodec);
