// schemas/api/wire.ts timestampIn: the API's time parameters (api.md §1.3) — only real calendar times the
// store can hold (ClickHouse DateTime: unsigned 32-bit seconds), never rolled over or wrapped around.
import test from "ava";
import { timestampIn } from "../../../../schemas/api/wire.ts";

const parse = (s: string) => timestampIn.safeParse(s);

test("the store's whole range, with its inclusive bounds", (t) => {
  t.deepEqual(parse("1970-01-01T00:00:00"), { success: true, data: 0 });
  t.deepEqual(parse("2106-02-07T06:28:15"), { success: true, data: 2 ** 32 - 1 });
  t.deepEqual(parse("2024-02-29 12:00:00.5Z"), { success: true, data: 1_709_208_000 });
});

test("outside the store's range: refused with the range, not wrapped", (t) => {
  for (const s of [
    "1969-12-31T23:59:59",
    "2106-02-07T06:28:16",
    "9999-12-31T23:59:59",
    "0000-01-01T00:00:00",
  ]) {
    const r = parse(s);
    t.false(r.success, s);
    if (!r.success)
      t.regex(r.error.issues[0]?.message ?? "", /between 1970-01-01T00:00:00 and 2106-02-07T06:28:15/);
  }
});

test("dates that do not exist are refused, not rolled over into the next month", (t) => {
  for (const s of [
    "2023-02-29T00:00:00",
    "2023-02-30T00:00:00",
    "2024-04-31T00:00:00",
    "2023-13-01T00:00:00",
    "2023-01-01T24:00:00",
  ]) {
    const r = parse(s);
    t.false(r.success, s);
    if (!r.success) t.is(r.error.issues[0]?.message, "not a valid date", s);
  }
});
