import { createHash } from "node:crypto";
import { Address } from "@ton/core";
import test from "ava";
import { friendly } from "../../../../api/mappers/common.ts";

const tonCore = (raw: string) =>
  Address.parseRaw(raw).toString({ bounceable: true, urlSafe: true, testOnly: false });

test("friendly: the same text as @ton/core's bounceable URL-safe mainnet form, for 5,000 addresses", (t) => {
  // Hashes drawn from SHA-256 of a counter (deterministic), on the basechain and the masterchain.
  for (let i = 0; i < 5_000; i++) {
    const hash = createHash("sha256").update(String(i)).digest("hex");
    const raw = `${i % 4 === 0 ? -1 : 0}:${i % 2 === 0 ? hash : hash.toUpperCase()}`;
    t.is(friendly(raw), tonCore(raw), raw);
  }
});

test("friendly: known addresses (TON's zero address, the all-ones masterchain address)", (t) => {
  t.is(friendly(`0:${"0".repeat(64)}`), "EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c");
  t.is(friendly(`-1:${"F".repeat(64)}`), tonCore(`-1:${"f".repeat(64)}`));
});

test("friendly: a malformed raw address is refused, not encoded", (t) => {
  t.throws(() => friendly("0:abc"));
  t.throws(() => friendly(`0:${"g".repeat(64)}`));
  t.throws(() => friendly("EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c"));
});
