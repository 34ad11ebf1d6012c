import { Writable } from "node:stream";
import test from "ava";
import { createLogger } from "../../../infra/log.ts";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { destination, lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

test("secrets are censored by key at any depth and URL passwords masked, in objects, messages and errors", async (t) => {
  const { destination, lines } = capture();
  const log = createLogger({ level: "info", name: "process", destination });
  const error = Object.assign(new Error("cannot reach http://u:pw3@h:8123"), {
    context: { password: "pw4" },
  });
  log.info(
    { config: { tonApiKey: "KEY1", clickhouseUrl: "http://u:pw1@h:8123/db", port: 8080 }, amount: 2n ** 70n },
    "connecting to %s",
    "redis://:pw2@r:6379",
  );
  log.error({ err: error }, "write failed");
  log.debug("not at info level");
  await new Promise((r) => setImmediate(r));
  const [first, second, ...rest] = lines();
  t.is(rest.length, 0);
  t.deepEqual(first?.config, {
    tonApiKey: "[redacted]",
    clickhouseUrl: "http://u:***@h:8123/db",
    port: 8080,
  });
  t.is(first?.amount, "1180591620717411303424");
  t.is(first?.msg, "connecting to redis://:***@r:6379");
  t.is(first?.name, "process");
  const err = second?.err as { type: string; message: string; stack: string; context: unknown };
  t.is(err.type, "Error");
  t.is(err.message, "cannot reach http://u:***@h:8123");
  t.deepEqual(err.context, { password: "[redacted]" });
  const raw = JSON.stringify(lines());
  for (const secret of ["KEY1", "pw1", "pw2", "pw3", "pw4"]) t.false(raw.includes(secret), secret);
});
