// STON.fi v1 `provide_lp` forward payload (user → router, inside a jetton transfer).
// Source: shared/reference/contracts.md §2.4 ([v1-src] router.func; [sdk] RouterV1).
//
//   provide_lp#fcf9e58f token_wallet1:MsgAddress min_lp_out:Coins
//   // token_wallet1 = router's jetton wallet of the OTHER token of the pair (no query_id in a payload)
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type PayloadMsg, payloadCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { tokenWallet1: "addr", minLpOut: "coins" } as const satisfies Layout;

export type StonfiV1ProvideLpPayload = PayloadMsg<"stonfi.v1.provide_lp_payload", typeof LAYOUT>;

export const stonfiV1ProvideLpPayloadCodec = payloadCodec(
  "stonfi.v1.provide_lp_payload",
  STONFI_V1_OP.provide_lp,
  LAYOUT,
  false,
);
export const decodeStonfiV1ProvideLpPayload = stonfiV1ProvideLpPayloadCodec.decode;
export const storeStonfiV1ProvideLpPayload = stonfiV1ProvideLpPayloadCodec.store;
export const encodeStonfiV1ProvideLpPayload: (x: StonfiV1ProvideLpPayload) => Cell = encoder(
  stonfiV1ProvideLpPayloadCodec,
);
