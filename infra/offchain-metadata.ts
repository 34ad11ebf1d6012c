/**
 * Fetches the JSON behind a jetton's off-chain metadata URI (TEP-64 `offchain#01 uri` or a semi-chain `uri`
 * key). The URI is written by whoever deployed the jetton, so every answer is bounded: one timeout for the
 * whole exchange (headers and body), a size limit enforced while reading (a lying or absent Content-Length
 * changes nothing), http(s) only (`ipfs://` through a gateway), at most three redirects, each hop checked like the URI, and
 * by default no loopback, private or link-local literal hosts. Any failure is `null` (the metadata stays
 * unknown), never an exception. Answers are cached in the hot cache; failures for a shorter time, so a dead
 * host is not asked again on every lookup.
 */
import { createMemoryCache } from "./cache/memory.ts";
import { cacheNamespace, type HotCache } from "./cache/types.ts";

export type OffchainMetadataOptions = {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** How long a fetched JSON is reused. */
  readonly ttlMs: number;
  /** How long a failure is remembered (default a minute). */
  readonly failureTtlMs?: number;
  /** The hot cache; absent: an in-process LRU. */
  readonly cache?: HotCache;
  /** `ipfs://<cid>/<path>` becomes `<gateway><cid>/<path>` (default https://ipfs.io/ipfs/). */
  readonly ipfsGateway?: string;
  /** Tests serve metadata from 127.0.0.1; a deployment never should. */
  readonly allowPrivateHosts?: boolean;
  readonly fetch?: typeof fetch;
  /** Why a URI gave nothing (logged by the caller). */
  readonly onFailure?: (uri: string, reason: string) => void;
};

export type OffchainMetadataFetcher = (uri: string) => Promise<Record<string, unknown> | null>;

const PRIVATE_HOST =
  /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|0\.0\.0\.0|\[::1?\]|\[f[cd][0-9a-f:]*\]|\[fe80:[0-9a-f:]*\])$/i;

class FetchRefused extends Error {}

const MAX_REDIRECTS = 3;

/** The URL to fetch for a metadata URI, or a reason it is refused. */
export function metadataUrl(uri: string, gateway: string, allowPrivate: boolean): URL {
  const trimmed = uri.trim();
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(.+)$/i.exec(trimmed);
  let url: URL;
  try {
    url = new URL(ipfs ? `${gateway.replace(/\/?$/, "/")}${ipfs[1]}` : trimmed);
  } catch {
    throw new FetchRefused("not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new FetchRefused(`scheme ${url.protocol} is not fetched`);
  }
  if (!allowPrivate && PRIVATE_HOST.test(url.hostname)) {
    throw new FetchRefused(`host ${url.hostname} is private`);
  }
  return url;
}

async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new FetchRefused(`larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function offchainMetadataFetcher(options: OffchainMetadataOptions): OffchainMetadataFetcher {
  const doFetch = options.fetch ?? fetch;
  const gateway = options.ipfsGateway ?? "https://ipfs.io/ipfs/";
  const cache = options.cache ?? createMemoryCache({ maxEntries: 10_000 });
  // A found JSON and a failure live apart: each with its own lifetime.
  const found = cacheNamespace<string>(cache, {
    name: "offchain_metadata",
    version: 1,
    ttlMs: options.ttlMs,
    codec: { encode: (v) => v, decode: (t) => t },
  });
  const failed = cacheNamespace<string>(cache, {
    name: "offchain_metadata_failed",
    version: 1,
    ttlMs: options.failureTtlMs ?? 60_000,
    codec: { encode: (v) => v, decode: (t) => t },
  });
  const inFlight = new Map<string, Promise<Record<string, unknown> | null>>();

  async function load(uri: string): Promise<Record<string, unknown> | null> {
    try {
      const allowPrivate = options.allowPrivateHosts ?? false;
      const signal = AbortSignal.timeout(options.timeoutMs);
      let url = metadataUrl(uri, gateway, allowPrivate);
      let response = await doFetch(url, {
        signal,
        redirect: "manual",
        headers: { accept: "application/json" },
      });
      // Redirects are followed by hand so that every hop passes the same checks as the URI itself.
      for (let hops = 0; response.status >= 300 && response.status < 400; hops++) {
        const location = response.headers.get("location");
        await response.body?.cancel().catch(() => undefined);
        if (location === null || hops >= MAX_REDIRECTS) throw new FetchRefused(`redirect ${response.status}`);
        url = metadataUrl(new URL(location, url).toString(), gateway, allowPrivate);
        response = await doFetch(url, {
          signal,
          redirect: "manual",
          headers: { accept: "application/json" },
        });
      }
      if (!response.ok || response.body === null) {
        await response.body?.cancel().catch(() => undefined);
        throw new FetchRefused(`HTTP ${response.status}`);
      }
      const declared = Number(response.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        await response.body.cancel().catch(() => undefined);
        throw new FetchRefused(`declares ${declared} bytes, more than ${options.maxBytes}`);
      }
      const text = (await readLimited(response.body, options.maxBytes)).toString("utf8");
      const json: unknown = JSON.parse(text);
      if (json === null || typeof json !== "object" || Array.isArray(json)) {
        throw new FetchRefused("not a JSON object");
      }
      await found.set(uri, text);
      return json as Record<string, unknown>;
    } catch (error) {
      const reason =
        error instanceof Error
          ? error.name === "TimeoutError"
            ? `no answer within ${options.timeoutMs} ms`
            : error.message
          : String(error);
      options.onFailure?.(uri, reason);
      await failed.set(uri, reason).catch(() => undefined);
      return null;
    }
  }

  return async (uri) => {
    const text = await found.get(uri).catch(() => undefined);
    if (text !== undefined) return JSON.parse(text) as Record<string, unknown>;
    if ((await failed.get(uri).catch(() => undefined)) !== undefined) return null;
    const running = inFlight.get(uri);
    if (running !== undefined) return running;
    const p = load(uri).finally(() => inFlight.delete(uri));
    inFlight.set(uri, p);
    return p;
  };
}
