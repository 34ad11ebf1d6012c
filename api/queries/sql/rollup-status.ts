/**
 * How far the dense hourly tables are written (infra/store/rollups.ts `advanceHours`: the state snapshots
 * and the running sums), as rollup_status records it: the last hour boundary written in full, 0 when none is.
 * It only grows, so a value read earlier is a boundary that is written too (a reader given an older one
 * takes more of the finer rows, never wrong ones): read once per store and name, then again in the
 * background once older than `maxAgeMs`, so a request does not pay a statement for it (~5 ms on the
 * embedded engine, as much as a boundary's rows). `maxAgeMs` 0: read now.
 */
import { z } from "zod";
import type { Store } from "../../../infra/store/client.ts";

const DONE_SQL = "SELECT toUInt32(max(value)) AS done FROM rollup_status WHERE name = {name:String}";
const doneRow = z.object({ done: z.coerce.number().int() });

/** How long a read is used before it is read again (ms). */
export const ROLLUP_DONE_TTL_MS = 10_000;

type DoneRead = { done: number; readAt: number; reading: Promise<void> | null };
const reads = new WeakMap<Store, Map<string, DoneRead>>();

export async function rollupDone(store: Store, name: string, maxAgeMs = ROLLUP_DONE_TTL_MS): Promise<number> {
  const read = async () => (await store.query(DONE_SQL, doneRow, { name }))[0]?.done ?? 0;
  let byName = reads.get(store);
  if (byName === undefined) {
    byName = new Map();
    reads.set(store, byName);
  }
  const known = byName.get(name);
  if (known === undefined || maxAgeMs === 0) {
    const done = await read();
    byName.set(name, { done: Math.max(done, known?.done ?? 0), readAt: Date.now(), reading: null });
    return done;
  }
  if (known.reading === null && Date.now() - known.readAt > maxAgeMs) {
    known.reading = read()
      .then((done) => {
        known.done = Math.max(known.done, done);
        known.readAt = Date.now();
      })
      .catch(() => {}) // read again at the next request
      .finally(() => {
        known.reading = null;
      });
  }
  return known.done;
}
