/**
 * The embedded store's inserts, written by a worker thread (./insert-thread.mjs) so the JS thread is free
 * while the engine writes. chdb runs an insert on a libuv thread, but each insert of a batch (one per
 * table, then the cursor) is started by a continuation on the JS thread: a processor busy with the next
 * batch held up every one of them until it yielded. The worker starts them one after another itself.
 *
 * Rows are cloned into the thread and encoded there with the same `jsonEachRow` as the direct insert
 * (cloning costs this thread about a third of encoding); rows a clone would not carry faithfully are
 * encoded by the caller and sent as bytes. Requests run in the order they were made, and a request stops
 * at its first failing insert, so the inserts after it (the cursor) are never sent. A worker that cannot start or dies is reported as `InsertThreadGone`,
 * for the caller to write on its own thread instead (the writes are idempotent).
 */
import { Worker } from "node:worker_threads";

/** An insert as rows (encoded by the thread) or as its JSONEachRow bytes (encoded by the caller). */
export type ThreadInsert =
  | { readonly table: string; readonly rows: readonly object[]; readonly values?: undefined }
  | { readonly table: string; readonly values: Buffer; readonly rows?: undefined };

/** Insert `index` of a request failed with `error` (rebuilt from the worker's report). */
export class InsertFailed extends Error {
  constructor(
    readonly index: number,
    readonly error: Error,
  ) {
    super(error.message, { cause: error });
    this.name = "InsertFailed";
  }
}

/** The worker is not running (it failed to start, crashed or was closed); nothing says what it wrote. */
export class InsertThreadGone extends Error {
  constructor(cause: unknown) {
    super("the insert thread is not running", { cause });
    this.name = "InsertThreadGone";
  }
}

export type InsertWorker = {
  /** Runs the inserts in order; rejects with InsertFailed (the first failure) or InsertThreadGone. */
  run(inserts: readonly ThreadInsert[]): Promise<void>;
  /** Waits for the requests already made, closes the worker's connection, and ends the thread. */
  close(): Promise<void>;
};

type Reply = { id: number; failed?: number; error?: Record<string, unknown> } | { closed: true };
type Pending = { resolve: () => void; reject: (error: Error) => void };

/** An Error with the fields ./errors.ts classifies by (code, type, clickhouseCode). */
function rebuild(report: Record<string, unknown> | undefined): Error {
  const error = new Error(typeof report?.message === "string" ? report.message : "insert failed");
  for (const [key, value] of Object.entries(report ?? {})) {
    if (key !== "message" && value !== undefined) (error as unknown as Record<string, unknown>)[key] = value;
  }
  return error;
}

/** `settings` go with every insert (the store's INSERT_SETTINGS). */
export function startInsertWorker(path: string, settings: Readonly<Record<string, unknown>>): InsertWorker {
  // No inherited execArgv: the thread registers its own loader, and profiler flags stay with this thread.
  const worker = new Worker(new URL("./insert-thread.mjs", import.meta.url), {
    workerData: { path },
    execArgv: [],
  });
  // Only a request in flight keeps the process alive.
  worker.unref();
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let gone: InsertThreadGone | null = null;
  const fail = (cause: unknown) => {
    gone ??= new InsertThreadGone(cause);
    for (const p of pending.values()) p.reject(gone);
    pending.clear();
  };
  worker.on("message", (reply: Reply) => {
    if ("closed" in reply) return;
    const p = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (p === undefined) return;
    if (reply.failed === undefined) p.resolve();
    else p.reject(new InsertFailed(reply.failed, rebuild(reply.error)));
  });
  worker.on("error", fail);
  const exited = new Promise<void>((resolve) =>
    worker.once("exit", (code) => {
      fail(new Error(`insert thread exited with code ${code}`));
      resolve();
    }),
  );
  return {
    run(inserts) {
      if (gone !== null) return Promise.reject(gone);
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        // Rows and bytes are copied into the thread (structured clone; no transfer: a Buffer may share
        // its memory). A row that cannot be cloned makes postMessage throw, before anything is sent.
        try {
          worker.postMessage({ id, inserts, settings });
        } catch (error) {
          pending.delete(id);
          if (pending.size === 0) worker.unref();
          reject(error);
        }
      });
    },
    async close() {
      if (gone === null) {
        worker.ref();
        worker.postMessage({ close: true });
      }
      await exited;
    },
  };
}
