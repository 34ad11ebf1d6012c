// Jetton minter admin `mint` (the TEP-74 reference minter's layout; not part of TEP-74 itself).
// Source: ton-blockchain/token-contract `ft/jetton-minter.fc` (op::mint = 21) and the common
// "jetton-minter" op 0x642b7d07 used by the later reference code; both with this layout:
//
//   mint#642b7d07 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell
//
// `master_msg` is the `internal_transfer` the minter forwards to the recipient's wallet.
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../layout.ts";
import { JETTON_OP } from "./opcodes.ts";

const LAYOUT = {
  toAddress: "addr",
  tonAmount: "coins",
  masterMsg: "ref",
} as const satisfies Layout;

export type JettonMint = Msg<"jetton.mint", typeof LAYOUT>;

export const jettonMintCodec = messageCodec("jetton.mint", JETTON_OP.mint, LAYOUT, false);
export const decodeJettonMint = jettonMintCodec.decode;
export const storeJettonMint = jettonMintCodec.store;
export const encodeJettonMint: (x: JettonMint) => Cell = encoder(jettonMintCodec);
