import test from "ava";
import { NonRetryableError, RetryableError } from "../../../infra/errors.ts";
import { backoffDelayMs, RETRY_TEST_DEFAULTS, retry } from "../../../infra/retry.ts";

const opts = { retries: 3, initialDelayMs: 100, maxDelayMs: 250, factor: 2 };

test("delays grow exponentially, are capped, and jitter into [50%, 100%]", (t) => {
  t.deepEqual(
    [1, 2, 3, 4].map((a) => backoffDelayMs(opts, a, () => 1)),
    [100, 200, 250, 250],
  );
  t.deepEqual(
    [1, 2, 3].map((a) => backoffDelayMs(opts, a, () => 0)),
    [50, 100, 125],
  );
});

test("retryable errors are retried until success, with the computed delays", async (t) => {
  const slept: number[] = [];
  let calls = 0;
  const result = await retry(
    async () => {
      calls++;
      if (calls < 3) throw new RetryableError("down");
      return "ok";
    },
    { ...opts, random: () => 1, sleep: async (ms) => void slept.push(ms) },
  );
  t.is(result, "ok");
  t.is(calls, 3);
  t.deepEqual(slept, [100, 200]);
});

test("gives up after `retries`, at once on non-retryable errors, and on bail", async (t) => {
  let calls = 0;
  const noSleep = { ...RETRY_TEST_DEFAULTS, sleep: async () => {} };
  await t.throwsAsync(
    retry(async () => {
      calls++;
      throw new RetryableError("still down");
    }, noSleep),
    { message: "still down" },
  );
  t.is(calls, RETRY_TEST_DEFAULTS.retries + 1);

  calls = 0;
  await t.throwsAsync(
    retry(async () => {
      calls++;
      throw new NonRetryableError("bad sql");
    }, noSleep),
    { message: "bad sql" },
  );
  t.is(calls, 1);

  calls = 0;
  await t.throwsAsync(
    retry(async (_attempt, bail) => {
      calls++;
      bail(new Error("stop now"));
    }, noSleep),
    { message: "stop now" },
  );
  t.is(calls, 1);
});
