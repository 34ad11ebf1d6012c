import test from "ava";
import {
  ConfigError,
  isAppError,
  isRetryable,
  NonRetryableError,
  RetryableError,
} from "../../../infra/errors.ts";
import { stringifyJson } from "../../../infra/json.ts";
import { redactUrl } from "../../../infra/redact.ts";

test("errors are classified by brand, so copies of the module still agree", (t) => {
  const cause = new Error("ECONNREFUSED");
  const r = new RetryableError("store down", { cause, context: { table: "swaps" } });
  t.true(isRetryable(r));
  t.true(isAppError(r));
  t.is(r.cause, cause);
  t.deepEqual(r.context, { table: "swaps" });
  t.is(r.name, "RetryableError");
  t.false(isRetryable(new NonRetryableError("bad")));
  t.false(isRetryable(new Error("plain")));
  t.false(isAppError("text"));
  // A structurally identical error from another copy of the module:
  t.true(isRetryable(Object.assign(new Error("x"), { tondexError: "retryable" })));
  const c = new ConfigError(["A is required", "B must be a number"]);
  t.is(c.message, "invalid configuration: A is required; B must be a number");
  t.false(isRetryable(c));
});

test("JSON: bigints become decimal strings without touching BigInt.prototype", (t) => {
  t.is(
    stringifyJson({ a: 2n ** 200n + 1n, b: [1n, 2], c: "x" }),
    `{"a":"${2n ** 200n + 1n}","b":["1",2],"c":"x"}`,
  );
  t.false("toJSON" in BigInt.prototype);
});

test("URL passwords are masked wherever they appear", (t) => {
  t.is(redactUrl("http://user:pw@host:8123/db"), "http://user:***@host:8123/db");
  t.is(redactUrl("a redis://:pw@r:6379 and https://x:y@z"), "a redis://:***@r:6379 and https://x:***@z");
  t.is(redactUrl("http://host:8123/db"), "http://host:8123/db");
  t.is(redactUrl("user@example.com"), "user@example.com");
});
