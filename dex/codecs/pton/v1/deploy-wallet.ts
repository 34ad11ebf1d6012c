// pTON v1 user → minter `deploy_wallet`.
// Source: shared/reference/contracts.md §2.11 ([sdk] PtonV1).
//
//   deploy_wallet#6cc43573 query_id:uint64 owner:MsgAddress
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { PTON_V1_OP } from "./opcodes.ts";

const LAYOUT = { owner: "addr" } as const satisfies Layout;

export type PtonV1DeployWallet = Msg<"pton.v1.deploy_wallet", typeof LAYOUT>;

export const ptonV1DeployWalletCodec = messageCodec(
  "pton.v1.deploy_wallet",
  PTON_V1_OP.deploy_wallet,
  LAYOUT,
  false,
);
export const decodePtonV1DeployWallet = ptonV1DeployWalletCodec.decode;
export const storePtonV1DeployWallet = ptonV1DeployWalletCodec.store;
export const encodePtonV1DeployWallet: (x: PtonV1DeployWallet) => Cell = encoder(ptonV1DeployWalletCodec);
