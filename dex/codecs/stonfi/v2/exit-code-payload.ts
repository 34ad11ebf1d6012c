// STON.fi v2 router refund forward payload: when the router rejects a payload (§3.5 steps 2–3) it sends the
// jettons back with `forward_payload = bit 0 + exit_code:uint32`, where exit_code is a transfer_bounce_* CRC
// or a raw error number (9, 85, ...). v2 payouts never append an exit code (§3.6, §8.11).
// Source: shared/reference/contracts.md §3.5 ([v2-src] router/dex.fc), codes §3.3 and dex/exit-codes.ts.
//
//   forward_payload = 0:uint1 exit_code:uint32      (the Either bit belongs to the transfer)
//
// This codec reads the payload cell after the Either bit: exactly 32 bits, no refs (closed).
import type { Builder, Cell, Slice } from "@ton/core";
import { defineCodec, end, toCell } from "../../common.ts";

export type StonfiV2ExitCodePayload = { kind: "stonfi.v2.exit_code_payload"; exitCode: number };

const KIND = "stonfi.v2.exit_code_payload";

export function decodeStonfiV2ExitCodePayload(s: Slice): StonfiV2ExitCodePayload {
  const exitCode = s.loadUint(32);
  end(s, KIND);
  return { kind: KIND, exitCode };
}

export const storeStonfiV2ExitCodePayload = (x: StonfiV2ExitCodePayload) => (b: Builder) => {
  b.storeUint(x.exitCode, 32);
};

export const encodeStonfiV2ExitCodePayload = (x: StonfiV2ExitCodePayload): Cell =>
  toCell(storeStonfiV2ExitCodePayload(x));

// `op` is meaningless here (there is no op field); -1 marks "matched by shape, not by op".
export const stonfiV2ExitCodePayloadCodec = defineCodec(
  KIND,
  -1,
  decodeStonfiV2ExitCodePayload,
  storeStonfiV2ExitCodePayload,
);
