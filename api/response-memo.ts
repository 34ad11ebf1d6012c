/**
 * The response memo: answers a repeated request from the bytes of the first answer while nothing it
 * depends on has changed. Trading bots and wallets ask for the same quote again and again (a UI re-quotes
 * every second); between two committed batches the answer cannot differ, so recomputing it is waste.
 *
 * Which requests: routes declared with `memo` (api/route.ts) — responses that are a function of the
 * request and the indexed data alone (swap and reverse-swap simulation, and liquidity simulation without
 * `wallet_address`; not the clock, not live wallet balances). Only bodiless requests (these routes take
 * the query string) without an Origin (CORS is Koa's), only 200 answers; these routes are never
 * compressed (api/http-policy.ts), so an answer kept for one client is right for every other.
 *
 * When an entry is served: its data version is still current and it is younger than `ttlMs`.
 * - `version()` is bumped by the pipeline after every committed batch and pool-state cache update
 *   (bin/pipeline.ts `dataVersion`). An entry records the version read when its request *started*, so an
 *   answer computed across a commit is never served: its version is already stale when it is stored.
 * - `ttlMs` (API_CACHE_TTL_MS) bounds what the version does not see: the read model's reference lists are
 *   themselves reused for that long (api/read-model-cached.ts), and a pool not yet indexed falls back to a
 *   live chain read. So a memoized answer is never older than an uncached one could be.
 *
 * Two halves: `listener(next)` sits in front of Koa and writes a hit directly (status, the headers Koa
 * sent, body); on a miss it marks the request and hands it to Koa, whose `capture()` middleware renders
 * the JSON once, sends it, and keeps it.
 *
 * Where answers are kept. Most quotes are asked for once (bots and wallets quote a new amount each time),
 * and keeping each of them for long made the garbage collector promote every one to the old generation
 * (at 10,000 distinct quotes a second: young collections 0.4 → 2.5 ms, ~10 µs of CPU per quote). So:
 * - a new answer joins the `recentEntries` newest ones (the oldest leaves), few enough to die young; an
 *   answer asked for again while there moves to the main memory, bounded by `maxEntries` (cleared when
 *   full). The newest ones are a ring of fixed arrays, not a Map: a long-lived Map that gains and loses
 *   an entry per request rebuilds its table every few dozen requests, and V8 allocates the new table in
 *   the old generation beside the Map; a table it has left keeps pointing at the answers it held, and
 *   until the next full collection those pointers keep them alive. Measured with a Map: ~1.8 KB of old
 *   generation per distinct quote (every answer promoted), a full collection every few seconds under
 *   load; with the ring, ~10 bytes (bench/api.ts prints it);
 * - the keys of the `seenKeys` newest answers are remembered as 31-bit hashes in fixed typed arrays
 *   (./hash-window.ts: nothing for the collector to copy or promote), and an answer whose key was seen there goes to the main memory at once:
 *   a request repeated later than `recentEntries` others but within `seenKeys` is computed twice, then
 *   answered from memory. A hash collision only keeps one answer in the main memory it did not need.
 *
 * Single flight: while a miss is being answered, identical requests of the same version wait for its
 * answer instead of computing it again (when an entry expires under load, every open connection would
 * otherwise miss at once). If that answer is not kept (an error, a non-200), each waiter is handed to
 * Koa and answered on its own. A miss answered before its listener returns (the quote lane computes most
 * quotes at once) never takes off: no other request can arrive meanwhile, and the flights Map is left
 * alone (the same table churn as above).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { Context, Middleware, Next } from "koa";
import { hashWindow } from "./hash-window.ts";

export type ResponseMemoOptions = {
  /**
   * Exact paths whose responses may be memoized, each with the query parameters whose presence makes a
   * request of it not memoizable (api/route.ts `memoizablePaths`).
   */
  readonly paths: ReadonlyMap<string, readonly string[]>;
  /** The indexed data's version; any change invalidates every entry. */
  readonly version: () => number;
  readonly ttlMs: number;
  readonly clock: () => number;
  readonly maxEntries?: number;
  /** How many of the newest answers wait for a repeat (see the module comment). */
  readonly recentEntries?: number;
  /** How many of the newest answers' keys are remembered (as hashes) to spot a later repeat. */
  readonly seenKeys?: number;
};

export type ResponseMemoStats = {
  hits: number;
  misses: number;
  /** Requests answered by an identical request's computation they waited for. */
  shared: number;
  stored: number;
  entries: number;
};

export type ResponseMemo = {
  listener(next: RequestListener): RequestListener;
  capture(): Middleware;
  /** Keeps a 200 answer sent for `req` without Koa (api/quote-lane.ts), as `capture()` keeps Koa's. */
  keep(req: IncomingMessage, headers: Record<string, string | number>, body: string): void;
  stats(): ResponseMemoStats;
};

type Entry = {
  readonly version: number;
  readonly at: number;
  readonly headers: Record<string, string | number | string[]>;
  /** Koa's bytes, or the quote lane's text (UTF-8 on the wire, as its content-length counts it). */
  readonly body: Buffer | string;
};

/**
 * Set on a missed request: where to keep its answer (key and its hash), the version and time when it
 * started, and its flight (null until it takes off: a miss answered at once never does).
 */
type Mark = {
  readonly key: string;
  readonly hash: number;
  readonly version: number;
  readonly at: number;
  flight: Flight | null;
  landed: boolean;
};

const MARK = Symbol("tondex.responseMemo");
type MarkedRequest = IncomingMessage & { [MARK]?: Mark };

/** The request carries no body (no length, or length 0, and not chunked). */
function bodiless(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined;
}

/** FNV-1a of a key's UTF-16 code units, kept to 31 bits (a small integer in V8). */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 1;
}

/** Whether the URL's query names one of `params` (decoded as Koa decodes it, whatever its value). */
function namesAny(url: string, params: readonly string[]): boolean {
  const q = url.indexOf("?");
  if (q < 0) return false;
  const query = parseQuery(url.slice(q + 1));
  return params.some((p) => Object.hasOwn(query, p));
}

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

type Waiter = { readonly req: IncomingMessage; readonly res: ServerResponse };
/**
 * A request being answered, by key; flights of one key with other versions (a commit landed while one
 * was answered) are chained, so a flight of an older version still lands and no request joins one of
 * another version. Keyed by the request alone: a key with the version in it is one more long string to
 * build and hash per request.
 */
type Flight = {
  readonly key: string;
  readonly version: number;
  /** Identical requests waiting for this one (null: none yet; most flights have none). */
  waiters: Waiter[] | null;
  next: Flight | null;
};

function send(res: ServerResponse, entry: Entry): void {
  res.writeHead(200, entry.headers);
  res.end(entry.body);
}

export function createResponseMemo(options: ResponseMemoOptions): ResponseMemo {
  const maxEntries = options.maxEntries ?? 10_000;
  const recentEntries = options.recentEntries ?? 64;
  const seenKeys = options.seenKeys ?? 8192;
  /** Answers asked for again: served until stale, cleared when full. */
  const entries = new Map<string, Entry>();
  /** The newest answers not yet asked for again: a ring, `ringNext` the slot the next one takes. */
  const ringKeys: (string | null)[] = new Array<string | null>(recentEntries).fill(null);
  const ringEntries: (Entry | null)[] = new Array<Entry | null>(recentEntries).fill(null);
  /** The keys' hashes (-1: an empty slot), compared before the keys. */
  const ringHashes = new Int32Array(recentEntries).fill(-1);
  let ringNext = 0;
  /** The slot holding `key` among the newest answers, or -1. */
  const ringSlot = (key: string, hash: number): number => {
    for (let i = 0; i < recentEntries; i++) if (ringHashes[i] === hash && ringKeys[i] === key) return i;
    return -1;
  };
  const ringClear = (i: number) => {
    ringKeys[i] = null;
    ringEntries[i] = null;
    ringHashes[i] = -1;
  };
  /** Hashes of the newest stored keys. */
  const seen = hashWindow(seenKeys);
  const flights = new Map<string, Flight>();
  const flightOf = (key: string, version: number): Flight | undefined => {
    for (let f = flights.get(key) ?? null; f !== null; f = f.next) if (f.version === version) return f;
    return undefined;
  };
  const takeOff = (key: string, version: number): Flight => {
    const flight: Flight = { key, version, waiters: null, next: flights.get(key) ?? null };
    flights.set(key, flight);
    return flight;
  };
  /** Unchains a flight; whether it was still flying. */
  const touchDown = (flight: Flight): boolean => {
    let f = flights.get(flight.key) ?? null;
    if (f === flight) {
      if (flight.next === null) flights.delete(flight.key);
      else flights.set(flight.key, flight.next);
      return true;
    }
    for (; f !== null; f = f.next) {
      if (f.next === flight) {
        f.next = flight.next;
        return true;
      }
    }
    return false;
  };
  const counts = { hits: 0, misses: 0, shared: 0, stored: 0 };
  let next: RequestListener = () => {
    throw new Error("response memo: capture() ran before listener()");
  };

  const fresh = (entry: Entry, version: number) =>
    entry.version === version && options.clock() - entry.at < options.ttlMs;

  /** The fresh answer kept for `key`; one found among the recent ones moves to the main memory. */
  const lookup = (key: string, hash: number, version: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry !== undefined && fresh(entry, version)) return entry;
    const i = ringSlot(key, hash);
    const newer = i < 0 ? null : ringEntries[i];
    if (!newer || !fresh(newer, version)) return undefined;
    ringClear(i);
    keepLong(key, newer);
    return newer;
  };

  /** Keeps an answer in the main memory (cleared when full, unless it replaces an answer kept there). */
  const keepLong = (key: string, entry: Entry) => {
    if (!entries.has(key) && entries.size >= maxEntries) entries.clear();
    entries.set(key, entry);
  };

  /**
   * Keeps a new answer: among the newest ones, or in the main memory when its key was stored among the
   * last `seenKeys` answers (the key becomes the newest there either way).
   */
  const store = (key: string, hash: number, entry: Entry) => {
    counts.stored++;
    const repeated = seen.seenBefore(hash) || entries.has(key);
    const i = ringSlot(key, hash);
    if (i >= 0) ringClear(i);
    if (repeated) return keepLong(key, entry);
    if (recentEntries === 0) return;
    ringKeys[ringNext] = key;
    ringEntries[ringNext] = entry;
    ringHashes[ringNext] = hash;
    ringNext = (ringNext + 1) % recentEntries;
  };

  /** Ends a request's flight (if it took off): its waiters get `entry`, or (none kept) are answered by Koa. */
  const land = (mark: Mark, entry: Entry | null) => {
    mark.landed = true;
    const flight = mark.flight;
    if (flight === null || !touchDown(flight) || flight.waiters === null) return;
    for (const w of flight.waiters) {
      if (entry !== null) {
        counts.shared++;
        send(w.res, entry);
      } else next(w.req, w.res);
    }
  };

  return {
    listener(koa) {
      next = koa;
      return (req: MarkedRequest, res: ServerResponse) => {
        const url = req.url ?? "";
        const unless = options.paths.get(pathOf(url));
        // A cross-origin request (Origin) is Koa's: its CORS headers depend on the Origin, which the key
        // does not hold (api/http-policy.ts). Its answer is not kept either (it is not marked).
        if (
          (req.method !== "GET" && req.method !== "POST") ||
          unless === undefined ||
          !bodiless(req) ||
          req.headers.origin !== undefined ||
          (unless.length > 0 && namesAny(url, unless))
        )
          return koa(req, res);
        const key = `${req.method} ${url}`;
        const hash = keyHash(key);
        const version = options.version();
        const entry = lookup(key, hash, version);
        if (entry !== undefined) {
          counts.hits++;
          req.resume();
          send(res, entry);
          return;
        }
        const flight = flightOf(key, version);
        if (flight !== undefined) {
          req.resume();
          flight.waiters ??= [];
          flight.waiters.push({ req, res });
          return;
        }
        counts.misses++;
        const mark: Mark = { key, hash, version, at: options.clock(), flight: null, landed: false };
        req[MARK] = mark;
        koa(req, res);
        // Not answered yet: identical requests from now on wait for this one.
        if (!mark.landed) mark.flight = takeOff(key, version);
      };
    },

    capture() {
      return async (ctx: Context, next: Next) => {
        const mark = (ctx.req as MarkedRequest)[MARK];
        if (mark === undefined) return next();
        let kept: Entry | null = null;
        try {
          await next();
          const body: unknown = ctx.body;
          if (ctx.status !== 200 || body === null || typeof body !== "object") return;
          if (Buffer.isBuffer(body) || "pipe" in body) return;
          // What Koa would send for the object (JSON.stringify); the content type stays JSON.
          const bytes = Buffer.from(JSON.stringify(body));
          ctx.body = bytes;
          kept = {
            version: mark.version,
            at: mark.at,
            headers: { ...ctx.response.headers } as Entry["headers"],
            body: bytes,
          };
          store(mark.key, mark.hash, kept);
        } finally {
          land(mark, kept);
        }
      };
    },

    keep(req, headers, body) {
      const mark = (req as MarkedRequest)[MARK];
      if (mark === undefined) return;
      const kept: Entry = { version: mark.version, at: mark.at, headers: { ...headers }, body };
      store(mark.key, mark.hash, kept);
      land(mark, kept);
    },

    stats: () => ({ ...counts, entries: entries.size + ringHashes.filter((h) => h !== -1).length }),
  };
}
