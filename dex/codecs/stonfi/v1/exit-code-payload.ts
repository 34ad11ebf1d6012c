// STON.fi v1 "exit code" forward payload: what the v1 router appends inline (Either bit 0) to every payout
// and refund transfer: swap_ok, swap_ok_ref, swap_refund_*, burn_ok, refund_ok, transfer_bounce_*, 0.
// Source: shared/reference/contracts.md §2.6 ([v1-src] common/jetton-utils.func; [tongo] swap_success).
//
//   forward_payload = 0:uint1 exit_code:uint32      (the Either bit belongs to the transfer)
//
// This codec reads the payload cell after the Either bit: exactly 32 bits, no refs (closed).
import type { Builder, Cell, Slice } from "@ton/core";
import { defineCodec, end, toCell } from "../../common.ts";

export type StonfiV1ExitCodePayload = { kind: "stonfi.v1.exit_code_payload"; exitCode: number };

const KIND = "stonfi.v1.exit_code_payload";

export function decodeStonfiV1ExitCodePayload(s: Slice): StonfiV1ExitCodePayload {
  const exitCode = s.loadUint(32);
  end(s, KIND);
  return { kind: KIND, exitCode };
}

export const storeStonfiV1ExitCodePayload = (x: StonfiV1ExitCodePayload) => (b: Builder) => {
  b.storeUint(x.exitCode, 32);
};

export const encodeStonfiV1ExitCodePayload = (x: StonfiV1ExitCodePayload): Cell =>
  toCell(storeStonfiV1ExitCodePayload(x));

// `op` is meaningless here (there is no op field); -1 marks "matched by shape, not by op".
export const stonfiV1ExitCodePayloadCodec = defineCodec(
  KIND,
  -1,
  decodeStonfiV1ExitCodePayload,
  storeStonfiV1ExitCodePayload,
);
