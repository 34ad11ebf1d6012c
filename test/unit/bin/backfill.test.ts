import test from "ava";
import { parseRange } from "../../../bin/commands/backfill.ts";

test("backfill range: --from/--to in both flag forms, the rest left as configuration", (t) => {
  t.deepEqual(parseRange(["--from", "10", "--to=20", "--data-dir", "/x"]), {
    range: { from: 10, to: 20 },
    rest: ["--data-dir", "/x"],
    problems: [],
  });
});

test("backfill range: every problem named", (t) => {
  t.deepEqual(parseRange([]).problems, ["--from is required", "--to is required"]);
  t.deepEqual(parseRange(["--from", "x", "--to", "0"]).problems, [
    "--from must be a masterchain seqno (a positive integer), got 'x'",
    "--to must be a masterchain seqno (a positive integer), got '0'",
  ]);
  t.deepEqual(parseRange(["--from", "9", "--to", "5"]).problems, ["--to (5) must not be below --from (9)"]);
});
