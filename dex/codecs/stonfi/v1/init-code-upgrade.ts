// STON.fi v1 admin → router `init_code_upgrade` (7-day timelock).
// Source: shared/reference/contracts.md §2.8 ([v1-src] router/admin-calls.func).
//
//   init_code_upgrade#df1e233d query_id:uint64 ^new_code
//
// Open layout: the receiving contract ignores trailing data, so the decoder does too (a re-encode drops it).
import type { Cell } from "@ton/core";
import { encoder, type Layout, type Msg, messageCodec } from "../../layout.ts";
import { STONFI_V1_OP } from "./opcodes.ts";

const LAYOUT = { newCode: "ref" } as const satisfies Layout;

export type StonfiV1InitCodeUpgrade = Msg<"stonfi.v1.init_code_upgrade", typeof LAYOUT>;

export const stonfiV1InitCodeUpgradeCodec = messageCodec(
  "stonfi.v1.init_code_upgrade",
  STONFI_V1_OP.init_code_upgrade,
  LAYOUT,
  false,
);
export const decodeStonfiV1InitCodeUpgrade = stonfiV1InitCodeUpgradeCodec.decode;
export const storeStonfiV1InitCodeUpgrade = stonfiV1InitCodeUpgradeCodec.store;
export const encodeStonfiV1InitCodeUpgrade: (x: StonfiV1InitCodeUpgrade) => Cell = encoder(
  stonfiV1InitCodeUpgradeCodec,
);
