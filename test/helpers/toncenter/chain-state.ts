/**
 * A local HTTP stand-in for toncenter's index API v3, as far as chain-state reads go: `POST
 * /api/v3/runGetMethod`, `GET /api/v3/addressInformation` and `GET /api/v3/transactions` (by account or
 * hash) in the real wire format (infra/toncenter/stack.ts
 * cites ton-index-go for it), answered from a table of accounts and their get-methods; plus plain files
 * (off-chain jetton metadata) with optional delay. An account the table does not have answers exit code -13,
 * a method an account does not have exit code 11 (TVM's "unknown method" from the get-method dispatcher), as
 * the real API does for a missing account and a missing method.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Address, type Cell, type TupleItem } from "@ton/core";
import { fromV3Stack, toV3ResultStack, type V3StackEntry } from "../../../infra/toncenter/stack.ts";

export type GetMethodAnswer = { exitCode?: number; stack: TupleItem[] };
export type GetMethodHandler = GetMethodAnswer | ((args: TupleItem[]) => GetMethodAnswer);
export type Account = {
  balance?: bigint;
  methods: Record<string, GetMethodHandler>;
  /** The persistent data cell (addressInformation's `data`). */
  data?: Cell;
  /** The last transaction (addressInformation's `last_transaction_*`, and `/api/v3/transactions`). */
  lastTransaction?: { lt: bigint; hashHex: string; utime: number; mcSeqno: number | null };
};
export type StaticFile = {
  status?: number;
  body: string | Buffer;
  headers?: Record<string, string>;
  /** Wait this long before answering (a stalled host). */
  delayMs?: number;
};

export type StandIn = {
  readonly url: string;
  readonly accounts: Map<string, Account>;
  readonly files: Map<string, StaticFile>;
  /** Every request seen: `POST /api/v3/runGetMethod <address> <method>`, `GET /path`. */
  readonly log: string[];
  close(): Promise<void>;
};

/** Raw `0:HEX` (upper case), whatever form the request used. */
const keyOf = (address: string) => Address.parse(address).toRawString().toUpperCase();

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export type ChainStateRoutes = {
  /** Answers the request when it is a chain-state read or a file; false: not one of these paths. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Stops delayed answers (call before closing the server). */
  stop(): void;
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

type RunGetMethodBody = { address: string; method: string; stack: V3StackEntry[] };

/** `V2RunGetMethodResult` for a request body: -13 for an unknown account, 11 for an unknown method. */
export function runGetMethodAnswer(accounts: Map<string, Account>, body: RunGetMethodBody): unknown {
  const account = accounts.get(keyOf(body.address));
  const handler = account?.methods[body.method];
  if (account === undefined) return { gas_used: 0, exit_code: -13, stack: [] };
  if (handler === undefined) return { gas_used: 0, exit_code: 11, stack: [] };
  const answer = typeof handler === "function" ? handler(fromV3Stack(body.stack)) : handler;
  return { gas_used: 2_000, exit_code: answer.exitCode ?? 0, stack: toV3ResultStack(answer.stack) };
}

const b64OfHex = (hex: string) => Buffer.from(hex, "hex").toString("base64");

/** `V2AddressInformation` for `?address=` (hashes in base64, as ton-index-go answers them). */
export function addressInformationAnswer(accounts: Map<string, Account>, query: URLSearchParams): unknown {
  const account = accounts.get(keyOf(query.get("address") ?? ""));
  const last = account?.lastTransaction;
  return {
    balance: `${account?.balance ?? 0n}`,
    code: null,
    data: account?.data?.toBoc().toString("base64") ?? null,
    last_transaction_lt: last === undefined ? null : `${last.lt}`,
    last_transaction_hash: last === undefined ? null : b64OfHex(last.hashHex),
    frozen_hash: null,
    status: account === undefined ? "uninit" : "active",
  };
}

/**
 * `TransactionsResponse` for `?account=…&sort=desc&limit=1` (its last transaction) or `?hash=` (the
 * transaction with that hash, base64 or hex): the fields the runner reads (hash, lt, now, mc_block_seqno).
 */
export function transactionsAnswer(accounts: Map<string, Account>, query: URLSearchParams): unknown {
  const wire = (account: string, t: NonNullable<Account["lastTransaction"]>) => ({
    account,
    hash: b64OfHex(t.hashHex),
    lt: `${t.lt}`,
    now: t.utime,
    mc_block_seqno: t.mcSeqno,
  });
  const hash = query.get("hash");
  const found: unknown[] = [];
  for (const [address, account] of accounts) {
    const t = account.lastTransaction;
    if (t === undefined) continue;
    const wanted =
      hash === null
        ? address === keyOf(query.get("account") ?? "")
        : hash.toLowerCase() === t.hashHex || hash === b64OfHex(t.hashHex);
    if (wanted) found.push(wire(address, t));
  }
  return { transactions: found.slice(0, 1), address_book: {} };
}

/** The same answers as handlers by path, for test/helpers/toncenter/blocks.ts's `routes`. */
export function chainStateHandlers(
  accounts: Map<string, Account>,
): Record<string, (request: { query: URLSearchParams; body: string }) => { status: number; body: unknown }> {
  return {
    "/api/v3/runGetMethod": ({ body }) => ({
      status: 200,
      body: runGetMethodAnswer(accounts, JSON.parse(body) as RunGetMethodBody),
    }),
    "/api/v3/addressInformation": ({ query }) => ({
      status: 200,
      body: addressInformationAnswer(accounts, query),
    }),
    "/api/v3/transactions": ({ query }) => ({ status: 200, body: transactionsAnswer(accounts, query) }),
  };
}

/** The routes alone, so a stand-in that also serves blocks can mount them. */
export function chainStateRoutes(
  accounts: Map<string, Account>,
  files: Map<string, StaticFile>,
  log: string[],
): ChainStateRoutes {
  const timers = new Set<NodeJS.Timeout>();
  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (req.method === "POST" && url.pathname === "/api/v3/runGetMethod") {
      readBody(req).then((text) => {
        const body = JSON.parse(text) as RunGetMethodBody;
        log.push(`POST ${url.pathname} ${body.address} ${body.method}`);
        json(res, 200, runGetMethodAnswer(accounts, body));
      });
      return true;
    }
    if (req.method === "GET" && url.pathname === "/api/v3/addressInformation") {
      log.push(`GET ${url.pathname}`);
      json(res, 200, addressInformationAnswer(accounts, url.searchParams));
      return true;
    }
    if (req.method === "GET" && url.pathname === "/api/v3/transactions") {
      log.push(`GET ${url.pathname}`);
      json(res, 200, transactionsAnswer(accounts, url.searchParams));
      return true;
    }
    const file = files.get(url.pathname);
    if (file === undefined) return false;
    log.push(`GET ${url.pathname}`);
    const send = () => {
      res.writeHead(file.status ?? 200, { "content-type": "application/json", ...file.headers });
      res.end(file.body);
    };
    if (file.delayMs === undefined) send();
    else {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) send();
      }, file.delayMs);
      timers.add(timer);
    }
    return true;
  };
  return {
    handle,
    stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

export async function startToncenterStandIn(
  accounts: Map<string, Account> = new Map(),
  files: Map<string, StaticFile> = new Map(),
): Promise<StandIn> {
  const log: string[] = [];
  const routes = chainStateRoutes(accounts, files, log);
  const server: Server = createServer((req, res) => {
    if (!routes.handle(req, res)) json(res, 404, { error: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accounts,
    files,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        routes.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
