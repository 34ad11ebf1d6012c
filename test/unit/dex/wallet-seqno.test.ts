// dex/wallet-seqno.ts on the external messages that start the recorded mainnet traces (wallets v4 and v5),
// and on bodies that are not a standard wallet's.
import { beginCell, Cell } from "@ton/core";
import test from "ava";
import { acceptedWalletExternal, walletExternalOf } from "../../../dex/wallet-seqno.ts";
import { loadAllTraces } from "../../helpers/traces.ts";

const roots = loadAllTraces().flatMap((trace) =>
  trace.txs.filter((tx) => tx.in_msg?.source === null).map((tx) => ({ name: trace.name, tx })),
);

test("every trace starts with a standard wallet's external message", (t) => {
  t.true(roots.length >= 7);
  for (const { name, tx } of roots) {
    const body = Cell.fromBase64(tx.in_msg!.body_boc);
    const ext = walletExternalOf(body);
    t.not(ext, null, name);
    // Read independently of the module, per wallet layout: v5 puts the "sign" prefix first and the
    // signature last; v3/v4 start with the 512-bit signature.
    const s = body.beginParse();
    const v5 = s.preloadUint(32) === 0x7369676e;
    s.skip(v5 ? 64 : 512 + 32);
    const validUntil = s.loadUint(32);
    t.deepEqual(ext, { version: v5 ? "v5" : "v3/v4", validUntil, seqno: s.loadUint(32) }, name);
    // A wallet only accepts a message that has not expired; wallets sign for a few minutes ahead.
    t.true(validUntil >= tx.now && validUntil <= tx.now + 3600, name);
    t.deepEqual(acceptedWalletExternal(body, tx.now), ext, name);
  }
});

test("an expired message, a highload wallet's body or a jetton transfer is not a standard wallet's", (t) => {
  const root = roots[0]!.tx;
  const body = Cell.fromBase64(root.in_msg!.body_boc);
  const validUntil = walletExternalOf(body)!.validUntil;
  t.is(acceptedWalletExternal(body, validUntil + 1), null);
  const signature = Buffer.alloc(64, 7);
  // highload v2: signature, subwallet_id:32, query_id:64, then a dictionary bit.
  const highload = beginCell()
    .storeBuffer(signature)
    .storeUint(1, 32)
    .storeUint(5n, 64)
    .storeBit(0)
    .endCell();
  t.is(walletExternalOf(highload), null);
  const transfer = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1n, 64).storeCoins(5n).endCell();
  t.is(walletExternalOf(transfer), null);
  t.is(walletExternalOf(beginCell().endCell()), null);
});
