// schemas/api/wire.ts ADDRESS_PATTERN and addressIn: the pattern the OpenAPI publishes accepts exactly the
// address texts the parser accepts, except those whose user-friendly CRC16 is wrong (no regular expression
// can check it). Addresses are drawn from every form @ton/core writes, plus texts @ton/core's own
// Address.parse reads but the API refuses.
import { Address, crc16 } from "@ton/core";
import test from "ava";
import fc from "fast-check";
import { ADDRESS_PATTERN, addressIn, parseAddressText } from "../../../../schemas/api/wire.ts";

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b));
const address = fc.record({ wc: fc.constantFrom(0, -1), hash }).map(({ wc, hash }) => new Address(wc, hash));
const forms = fc.record({
  address,
  bounceable: fc.boolean(),
  testOnly: fc.boolean(),
  urlSafe: fc.boolean(),
});

test("every form of every workchain 0 / -1 address matches the pattern and parses to its raw form", (t) => {
  fc.assert(
    fc.property(forms, ({ address: a, ...flags }) => {
      // The canonical raw form (schemas/ton.ts toRawAddress) is upper-case hex; either case is read.
      const raw = `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
      for (const text of [a.toString(flags), raw, raw.toLowerCase()]) {
        if (!ADDRESS_PATTERN.test(text) || parseAddressText(text) !== raw) return false;
        const parsed = addressIn.safeParse(text);
        if (!parsed.success || parsed.data !== raw) return false;
      }
      return true;
    }),
    { seed: 19, numRuns: 2000 },
  );
  t.pass();
});

/** 36 user-friendly bytes: tag, workchain byte, hash, CRC16 (right or wrong). */
function friendly(tag: number, wc: number, h: Buffer, goodCrc: boolean, urlSafe: boolean): string {
  const body = Buffer.concat([Buffer.from([tag, wc]), h]);
  const crc = crc16(body);
  if (!goodCrc) crc[0] = (crc[0] as number) ^ 1;
  const b64 = Buffer.concat([body, crc]).toString("base64");
  return urlSafe ? b64.replace(/\+/g, "-").replace(/\//g, "_") : b64;
}

test("a text matching the pattern is refused only for its checksum; the pattern rules out every other byte", (t) => {
  const bytes = fc.record({
    tag: fc.integer({ min: 0, max: 255 }),
    wc: fc.integer({ min: 0, max: 255 }),
    hash,
    goodCrc: fc.boolean(),
    urlSafe: fc.boolean(),
  });
  fc.assert(
    fc.property(bytes, ({ tag, wc, hash: h, goodCrc, urlSafe }) => {
      const text = friendly(tag, wc, h, goodCrc, urlSafe);
      const knownTag = [0x11, 0x51, 0x91, 0xd1].includes(tag);
      const knownWc = wc === 0 || wc === 0xff;
      const matches = ADDRESS_PATTERN.test(text);
      const parsed = parseAddressText(text) !== null;
      return matches === (knownTag && knownWc) && parsed === (matches && goodCrc);
    }),
    { seed: 19, numRuns: 5000 },
  );
  t.pass();
});

test("texts @ton/core's Address.parse reads but the API refuses, with the reason named", (t) => {
  const h = "ab".repeat(32);
  const refused = [
    `0abc:${h}`, // parseFloat reads the workchain as 0
    `0:${h}:extra`,
    `0.0:${h}`,
    `+0:${h}`,
    `1:${h}`,
    `00:${h}`,
    `0:${h.slice(2)}zz`, // the hash check is not anchored
    friendly(0x11, 0x01, Buffer.alloc(32, 7), true, true), // workchain 1
    friendly(0x22, 0x00, Buffer.alloc(32, 7), true, true), // no such tag
  ];
  for (const text of refused) {
    t.is(parseAddressText(text), null, text);
    const r = addressIn.safeParse(text);
    t.false(r.success, text);
    if (!r.success)
      t.is(r.error.issues[0]?.message, "expected a TON address (raw wc:hex or user-friendly base64)");
  }
  const badCrc = friendly(0x11, 0x00, Buffer.alloc(32, 7), false, true);
  const r = addressIn.safeParse(badCrc);
  t.false(r.success);
  if (!r.success) t.regex(r.error.issues[0]?.message ?? "", /checksum mismatch/);
});

test("real mainnet addresses (test/vectors/mainnet-traces) in every form the API accepts", (t) => {
  // The STON.fi v1 router, as the traces record it (raw) and as explorers write it.
  const raw = "0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E";
  for (const text of [
    raw,
    raw.toLowerCase(),
    "EQB3ncyBUTjZUA5EnFKR5_EnOMI9V1tTEAAPaiU71gc4TiUt",
    "UQB3ncyBUTjZUA5EnFKR5_EnOMI9V1tTEAAPaiU71gc4Tnjo",
    "EQB3ncyBUTjZUA5EnFKR5/EnOMI9V1tTEAAPaiU71gc4TiUt",
  ]) {
    t.true(ADDRESS_PATTERN.test(text), text);
    t.is(parseAddressText(text), raw, text);
  }
});
