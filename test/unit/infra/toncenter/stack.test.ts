import { Address, beginCell, Cell, type TupleItem } from "@ton/core";
import test from "ava";
import {
  fromV3Stack,
  parseNum,
  StackFormatError,
  toV3ResultStack,
  toV3Stack,
  v3RunGetMethodResult,
} from "../../../../infra/toncenter/stack.ts";

const ROUTER_V1 = Address.parseRaw("0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E");

test("num values: hex as the API writes them (Go %#x), negatives, and plain decimals", (t) => {
  t.is(parseNum("0x12a"), 298n);
  t.is(parseNum("-0x1"), -1n);
  t.is(parseNum("0x0"), 0n);
  t.is(parseNum("-0xd"), -13n);
  t.is(parseNum("1000"), 1000n);
  t.throws(() => parseNum("0xZZ"), { instanceOf: StackFormatError, message: /not a number/ });
  t.throws(() => parseNum(""), { instanceOf: StackFormatError });
});

test("arguments: slice as a base64 BOC, num as hex; a tuple argument is refused by name", (t) => {
  const slice = beginCell().storeAddress(ROUTER_V1).endCell();
  const [a, b] = toV3Stack([
    { type: "slice", cell: slice },
    { type: "int", value: -5n },
  ]);
  t.deepEqual(b, { type: "num", value: "-0x5" });
  t.is(a?.type, "slice");
  t.true(Cell.fromBase64(a?.value as string).equals(slice));
  t.throws(() => toV3Stack([{ type: "tuple", items: [] }]), { message: /argument 0: .*not tuple/ });
});

test("a result stack round-trips through the wire shape, tuples included", (t) => {
  const items: TupleItem[] = [
    { type: "int", value: 609828329992n },
    { type: "slice", cell: beginCell().storeAddress(ROUTER_V1).endCell() },
    { type: "cell", cell: beginCell().storeUint(1, 8).endCell() },
    { type: "tuple", items: [{ type: "int", value: -1n }] },
  ];
  const wire = v3RunGetMethodResult.parse(
    JSON.parse(JSON.stringify({ gas_used: 1234, exit_code: 0, stack: toV3ResultStack(items) })),
  );
  const back = fromV3Stack(wire.stack);
  t.is(back.length, 4);
  t.deepEqual(back[0], { type: "int", value: 609828329992n });
  t.true(back[1]?.type === "slice" && back[1].cell.equals((items[1] as { cell: Cell }).cell));
  t.true(back[2]?.type === "cell" && back[2].cell.equals((items[2] as { cell: Cell }).cell));
  t.deepEqual(back[3], { type: "tuple", items: [{ type: "int", value: -1n }] });
});

test("a bad BOC names the stack item", (t) => {
  t.throws(
    () =>
      fromV3Stack([
        { type: "num", value: "0x1" },
        { type: "cell", value: "bm90IGEgYm9j" },
      ]),
    {
      instanceOf: StackFormatError,
      message: /stack item 1 \(cell\): not a one-root base64 BOC/,
    },
  );
});

test("the result schema refuses an unknown entry type", (t) => {
  const r = v3RunGetMethodResult.safeParse({
    gas_used: 0,
    exit_code: 0,
    stack: [{ type: "null", value: null }],
  });
  t.false(r.success);
});
