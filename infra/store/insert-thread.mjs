// The embedded store's insert thread (./insert-worker.ts starts it). JavaScript, because a worker does not
// inherit the tsx loader `bin/tondex.mjs` registers in the main thread; it registers its own to encode
// rows with the store's own ./row-json.ts, the very function the direct insert uses.
//
// It opens its own chdb connection to the engine the main thread already runs (same data path: chdb lets
// connections to one path coexist), and runs each request's inserts one after another, in request order:
// rows (cloned into this thread) are encoded here, or arrive encoded. The first failing insert ends its
// request: later inserts of that request are not sent.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { jsonEachRow } = await import("./row-json.ts");
const require = createRequire(import.meta.url);
const { Session } = require("chdb");

/** @type {import("chdb").Session | null} */
let session = null;
/** Requests run strictly in order: each waits for the one before. */
let queue = Promise.resolve();

/** The fields of an error that ./errors.ts classifies by, which survive a postMessage. */
function describe(error) {
  const e = typeof error === "object" && error !== null ? error : { message: String(error) };
  const out = { message: typeof e.message === "string" ? e.message : String(error), name: e.name };
  for (const key of ["code", "type", "clickhouseCode"]) if (e[key] !== undefined) out[key] = e[key];
  return out;
}

async function run(request) {
  const { id, inserts, settings } = request;
  for (let i = 0; i < inserts.length; i++) {
    const { table, rows, values } = inserts[i];
    try {
      session ??= new Session(workerData.path);
      const payload =
        values === undefined
          ? jsonEachRow(rows)
          : Buffer.from(values.buffer, values.byteOffset, values.byteLength);
      await session.insert({ table, values: payload, format: "JSONEachRow", settings });
    } catch (error) {
      parentPort.postMessage({ id, failed: i, error: describe(error) });
      return;
    }
  }
  parentPort.postMessage({ id });
}

parentPort.on("message", (message) => {
  if (message.close) {
    queue = queue.then(() => {
      session?.close();
      session = null;
      parentPort.postMessage({ closed: true });
      parentPort.close();
    });
    return;
  }
  queue = queue.then(() => run(message));
});
