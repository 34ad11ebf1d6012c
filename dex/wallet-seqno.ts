/**
 * The seqno a standard wallet's external message carries, read from the message body (pure, no I/O).
 *
 * Layouts (ton-blockchain wallet contracts; TL-B as the wallets' sources state them):
 *   v3 / v4:  signature:bits512 subwallet_id:uint32 valid_until:uint32 msg_seqno:uint32 ...
 *   v5:       prefix:#7369676e wallet_id:uint32 valid_until:uint32 msg_seqno:uint32 inner:(Maybe ^OutList)
 *             has_other_actions:(## 1) ... signature:bits512        (the signature comes last)
 * A wallet accepts an external message only when its msg_seqno equals the stored seqno and then stores
 * seqno + 1, so after a transaction that processed such a message the wallet's seqno is msg_seqno + 1.
 * Other wallets (highload, multisig, custom) are not recognised: null, never a guess.
 */
import type { Cell } from "@ton/core";

/** v5 `signed_external` prefix ("sign" in ASCII). */
const V5_EXTERNAL_PREFIX = 0x7369676e;
const SIGNATURE_BITS = 512;
/** v3/v4 body without the v4 op byte: signature + three 32-bit fields. */
const V3_MIN_BITS = SIGNATURE_BITS + 96;
/** v5 body: prefix, three 32-bit fields, two flag bits, signature. */
const V5_MIN_BITS = 32 + 96 + 2 + SIGNATURE_BITS;

export type WalletExternal = { version: "v3/v4" | "v5"; seqno: number; validUntil: number };

/**
 * The wallet fields of an external message body that a transaction at `now` accepted, or null. A wallet
 * refuses an expired message (valid_until ≤ now), so a body whose valid_until is already past was not read
 * right: another kind of contract.
 */
export function acceptedWalletExternal(body: Cell, now: number): WalletExternal | null {
  const ext = walletExternalOf(body);
  return ext !== null && ext.validUntil >= now ? ext : null;
}

export function walletExternalOf(body: Cell): WalletExternal | null {
  try {
    const s = body.beginParse();
    if (s.remainingBits >= V5_MIN_BITS && s.preloadUint(32) === V5_EXTERNAL_PREFIX) {
      s.skip(32 + 32);
      const validUntil = s.loadUint(32);
      return { version: "v5", seqno: s.loadUint(32), validUntil };
    }
    // v3: then (mode:uint8 ^Message) per ref; v4 simple send: op:uint8 = 0, then the same. Anything else
    // (a highload wallet's dictionary bit, another layout) is not a v3/v4 transfer.
    const extra = s.remainingBits - V3_MIN_BITS;
    if (extra < 0 || (extra !== 8 * s.remainingRefs && extra !== 8 + 8 * s.remainingRefs)) return null;
    s.skip(SIGNATURE_BITS + 32);
    const validUntil = s.loadUint(32);
    return { version: "v3/v4", seqno: s.loadUint(32), validUntil };
  } catch {
    return null;
  }
}
