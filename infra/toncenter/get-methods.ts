/**
 * `GetMethodRunner` over toncenter's index API v3 (public or a self-hosted ton-indexer): get-methods through
 * `POST /api/v3/runGetMethod` (wire format: ./stack.ts), TON balances through `GET /api/v3/addressInformation`
 * (`V2AddressInformation { balance, status, … }`, ton-index-go main.go `GetV2AddressInformation`). Every
 * request goes through the injected HTTP client, which owns rate limiting and retries, so chain-state reads
 * share the source's request budget.
 *
 * Answers are cached in the hot cache as the API's own JSON (text in, text out: Redis fits as well as the
 * in-process LRU), keyed by account, method and arguments. What a contract derives from its code and fixed
 * data (addresses, a pool's type) is kept for `fixedTtlMs`; balances and contract state for `ttlMs`. Failures
 * are never cached; identical reads in flight share one request.
 *
 * An account's last transaction (`lastTransaction`, read to pair a state with the lt it is as of) comes from
 * `GET /api/v3/transactions?account=…&limit=1&sort=desc` (`TransactionsResponse { transactions, address_book }`,
 * each `Transaction { hash, lt, now, mc_block_seqno, … }`, ton-index-go `index/models`), never cached;
 * `uncached()` is a runner whose get-methods are read now too (no cache, no shared in-flight read).
 *
 * An account's data and last transaction together (`accountState`): ONE `GET /api/v3/addressInformation
 * ?use_v2=false` (`V2AddressInformation { code, data, last_transaction_lt, last_transaction_hash, status }`,
 * answered from the indexer's own account state, the store its transactions come from), so the data cell is
 * exactly the state that transaction left; the block and time of that transaction are then read by hash
 * (`GET /api/v3/transactions?hash=`). runGetMethod, by contrast, runs on a liteserver's newest state, which
 * can be ahead of or behind the indexer: a state read that must pair with an lt uses `accountState`.
 *
 * A missing or uninitialised account: toncenter runs the method and answers exit code -13 (as a liteserver
 * does; seen through @ton/ton's TonClient in ton-org/ton#66), which `createChainState` reads as "not
 * deployed" (`ACCOUNT_NOT_ACTIVE`).
 */
import { createHash } from "node:crypto";
import { type Address, Cell, type TupleItem } from "@ton/core";
import { z } from "zod";
import {
  type AccountSnapshot,
  ChainStateError,
  type GetMethodRun,
  type GetMethodRunner,
  type LastTransaction,
} from "../../dex/chain-state.ts";
import { base64ToHex } from "../../schemas/trace-file.ts";
import { createMemoryCache } from "../cache/memory.ts";
import { type CacheNamespace, cacheNamespace, type HotCache } from "../cache/types.ts";
import {
  fromV3Stack,
  RUN_GET_METHOD_PATH,
  StackFormatError,
  toV3Stack,
  type V3RunGetMethodRequest,
  type V3RunGetMethodResult,
  v3RunGetMethodResult,
} from "./stack.ts";

/** The part of the toncenter HTTP client (./client.ts `ToncenterClient`) these reads need. */
export type ToncenterHttp = {
  get<S extends z.ZodTypeAny>(
    path: string,
    query: Readonly<Record<string, string>>,
    schema: S,
  ): Promise<z.output<S>>;
  post<S extends z.ZodTypeAny>(path: string, body: unknown, schema: S): Promise<z.output<S>>;
};

export const ADDRESS_INFORMATION_PATH = "/api/v3/addressInformation";

const addressInformation = z.object({ balance: z.string().regex(/^\d+$/), status: z.string() });

const ACCOUNT_STATUSES = ["active", "uninit", "frozen", "nonexist"] as const;

const addressSnapshot = z.object({
  status: z.enum(ACCOUNT_STATUSES),
  data: z
    .string()
    .min(1)
    .nullish()
    .transform((boc, ctx) => {
      if (boc == null) return null;
      try {
        return Cell.fromBase64(boc);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `not a BOC: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  last_transaction_lt: z.string().regex(/^\d+$/).nullish(),
  last_transaction_hash: z.string().min(1).nullish(),
});

/** A transaction hash as v2/v3 answers carry it (base64, base64url or hex) → lower-case hex. */
function hashHex(hash: string): string {
  if (/^[0-9a-fA-F]{64}$/.test(hash)) return hash.toLowerCase();
  return base64ToHex(hash.replace(/-/g, "+").replace(/_/g, "/"));
}

export const TRANSACTIONS_PATH = "/api/v3/transactions";

const lastTransactions = z
  .object({
    transactions: z.array(
      z
        .object({
          hash: z.string().min(1),
          lt: z.string().regex(/^\d+$/),
          now: z.number().int(),
          mc_block_seqno: z.number().int().nullish(),
        })
        .passthrough(),
    ),
  })
  .passthrough();

/** Methods whose answer depends only on code and fixed data: cached for `fixedTtlMs`. */
const FIXED_METHODS: ReadonlySet<string> = new Set([
  "get_wallet_address",
  "get_pool_address",
  "get_vault_address",
  "get_lp_account_address",
  "get_pool_type",
]);

export type ToncenterRunnerOptions = {
  readonly http: ToncenterHttp;
  /** The hot cache; absent: an in-process LRU of `cacheMaxEntries`. */
  readonly cache?: HotCache;
  readonly cacheMaxEntries?: number;
  /** Contract state (reserves, balances, admin, lock): how long an answer is reused. */
  readonly ttlMs: number;
  /** Answers fixed by code and initial data (addresses, pool type). */
  readonly fixedTtlMs: number;
  /** Every get-method read now: no cache, no shared in-flight read (default false). */
  readonly uncached?: boolean;
};

type Cached = { exit_code: number; stack: V3RunGetMethodResult["stack"] };

const cachedRun = z.object({ exit_code: z.number().int(), stack: v3RunGetMethodResult.shape.stack });

function namespace(cache: HotCache, name: string, ttlMs: number): CacheNamespace<Cached> {
  return cacheNamespace<Cached>(cache, {
    name,
    version: 1,
    ttlMs,
    codec: { encode: (v) => JSON.stringify(v), decode: (t) => cachedRun.parse(JSON.parse(t)) },
  });
}

const rawOf = (a: Address) => a.toRawString().toUpperCase();

export function toncenterGetMethodRunner(options: ToncenterRunnerOptions): GetMethodRunner {
  const { http } = options;
  const cache = options.cache ?? createMemoryCache({ maxEntries: options.cacheMaxEntries ?? 10_000 });
  const state = namespace(cache, "get_method", options.ttlMs);
  const fixed = namespace(cache, "get_method_fixed", options.fixedTtlMs);
  const balances = cacheNamespace<string>(cache, {
    name: "ton_balance",
    version: 1,
    ttlMs: options.ttlMs,
    codec: { encode: (v) => v, decode: (t) => t },
  });
  const inFlight = new Map<string, Promise<unknown>>();

  /** One request per key at a time; the answer cached only when it arrived. */
  function shared<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = inFlight.get(key);
    if (running !== undefined) return running as Promise<T>;
    const p = load().finally(() => inFlight.delete(key));
    inFlight.set(key, p);
    return p;
  }

  async function run(address: Address, method: string, args: TupleItem[]): Promise<Cached> {
    const body: V3RunGetMethodRequest = { address: rawOf(address), method, stack: toV3Stack(args) };
    const argsKey =
      args.length === 0 ? "" : createHash("sha256").update(JSON.stringify(body.stack)).digest("hex");
    const id = `${body.address}:${method}${argsKey === "" ? "" : `:${argsKey}`}`;
    if (options.uncached === true) {
      const result = await http.post(RUN_GET_METHOD_PATH, body, v3RunGetMethodResult);
      return { exit_code: result.exit_code, stack: result.stack };
    }
    const ns = FIXED_METHODS.has(method) ? fixed : state;
    const hit = await ns.get(id);
    if (hit !== undefined) return hit;
    return shared(`run:${id}`, async () => {
      const result = await http.post(RUN_GET_METHOD_PATH, body, v3RunGetMethodResult);
      const value: Cached = { exit_code: result.exit_code, stack: result.stack };
      await ns.set(id, value);
      return value;
    });
  }

  async function firstTransaction(query: Record<string, string>): Promise<LastTransaction | null> {
    const [tx] = (await http.get(TRANSACTIONS_PATH, query, lastTransactions)).transactions;
    // a transaction no masterchain block has committed yet is not final: it cannot anchor a state
    if (tx === undefined || tx.mc_block_seqno == null) return null;
    return { lt: BigInt(tx.lt), hash: hashHex(tx.hash), utime: tx.now, mcSeqno: tx.mc_block_seqno };
  }

  return {
    uncached: () => toncenterGetMethodRunner({ ...options, uncached: true }),
    lastTransaction: (address) =>
      firstTransaction({ account: rawOf(address), limit: "1", offset: "0", sort: "desc" }),
    async accountState(address): Promise<AccountSnapshot | null> {
      const info = await http.get(
        ADDRESS_INFORMATION_PATH,
        { address: rawOf(address), use_v2: "false" },
        addressSnapshot,
      );
      const lt = info.last_transaction_lt;
      const hash = info.last_transaction_hash;
      const data = info.status === "active" ? info.data : null;
      if (lt == null || hash == null || BigInt(lt) === 0n) {
        return { status: info.status, data, lastTransaction: null };
      }
      // the block and time of that very transaction; an indexer that cannot show it yet cannot pair them
      const tx = await firstTransaction({ hash, limit: "1", offset: "0" });
      if (tx === null || tx.lt !== BigInt(lt) || tx.hash !== hashHex(hash)) return null;
      return { status: info.status, data, lastTransaction: tx };
    },
    async runGetMethod(address, method, args): Promise<GetMethodRun> {
      const { exit_code, stack } = await run(address, method, args);
      try {
        return { exitCode: exit_code, stack: fromV3Stack(stack) };
      } catch (error) {
        if (!(error instanceof StackFormatError)) throw error;
        throw new ChainStateError(address, method, exit_code, error.message);
      }
    },
    async getBalance(address) {
      const id = rawOf(address);
      const hit = await balances.get(id);
      if (hit !== undefined) return BigInt(hit);
      return shared(`balance:${id}`, async () => {
        const info = await http.get(
          ADDRESS_INFORMATION_PATH,
          { address: id, use_v2: "false" },
          addressInformation,
        );
        await balances.set(id, info.balance);
        return BigInt(info.balance);
      });
    },
  };
}
