// TEP-89 `provide_wallet_address` (anyone → minter; v1 pools are LP minters and answer it).
// Source: shared/reference/contracts.md §2.3; TEP-89.
//
//   provide_wallet_address#2c76b973 query_id:uint64 owner_address:MsgAddress include_address:Bool
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../layout.ts";
import { JETTON_OP } from "./opcodes.ts";

const LAYOUT = { ownerAddress: "addr", includeAddress: "bool" } as const satisfies Layout;

export type JettonProvideWalletAddress = Msg<"jetton.provide_wallet_address", typeof LAYOUT>;

export const jettonProvideWalletAddressCodec = messageCodec(
  "jetton.provide_wallet_address",
  JETTON_OP.provide_wallet_address,
  LAYOUT,
  false,
);
export const decodeJettonProvideWalletAddress = jettonProvideWalletAddressCodec.decode;
export const storeJettonProvideWalletAddress = jettonProvideWalletAddressCodec.store;
export const encodeJettonProvideWalletAddress: (x: JettonProvideWalletAddress) => Cell = encoder(
  jettonProvideWalletAddressCodec,
);
