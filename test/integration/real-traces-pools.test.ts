/**
 * Pools, routers and markets a user sees for real mainnet traces (test/vectors/mainnet-traces replayed
 * through `tondex replay`, no chain access). The expectations come from the protocol and the trace files,
 * for any trace:
 * - a pool is an account that receives a router → pool `swap` / `provide_lp` (contracts.md §2.3, §3.3) and
 *   answers its router with `pay_to`; its router is the sender of that message; the op codes say the DEX
 *   generation;
 * - every such pool and router is listed and answered (200), whatever else is unknown;
 * - a pool that was already active when its first transaction was recorded (`orig_status: active`) has an
 *   unknown state: reserves, LP supply and fees are null, never "0", and a simulation on it is refused with
 *   422 `pool_state_unknown`, never quoted from invented reserves;
 * - a token is null or the jetton master of the pool's router wallet (the recording indexer's interfaces;
 *   the pTON side is TON); a market is a pair of two known tokens;
 * - without chain access, an address the store does not know is a 404, never a 503.
 */
import { Address } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { z } from "zod";
import { poolListResponse, poolResponse } from "../../schemas/api/pools.ts";
import { marketsResponse, routerListResponse, routerResponse } from "../../schemas/api/reference.ts";
import { getJson, type ReplayedTraces, replayTraces } from "../helpers/replayed-traces.ts";
import type { LoadedTrace } from "../helpers/traces.ts";
import { f, request } from "../unit/api/harness.ts";

const test = anyTest as TestFn<ReplayedTraces>;
test.before(async (t) => {
  t.context = await replayTraces();
});
test.after.always((t) => t.context.close?.());

const TON = "EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c";

/** Router → pool ops and the pool's answer, per DEX generation (contracts.md §2.3, §3.3). */
const ROUTER_TO_POOL: Record<string, "v1" | "v2"> = {
  "0x25938561": "v1", // swap
  "0xfcf9e58f": "v1", // provide_lp
  "0x6664de2a": "v2", // swap
  "0x37c096df": "v2", // provide_lp
};
const PAY_TO = new Set(["0xf93bb43f", "0x657b54f5"]);

type Seen = { pool: string; router: string; dex: "v1" | "v2"; activeBefore: boolean };

/** Every pool of the traces: receives a router → pool op and sends `pay_to` back to that router. */
function poolsOf(traces: readonly LoadedTrace[]): Map<string, Seen> {
  const out = new Map<string, Seen>();
  for (const { file } of traces) {
    for (const tx of file.transactions) {
      const m = tx.in_msg;
      const dex = ROUTER_TO_POOL[m?.opcode ?? ""];
      if (m === null || dex === undefined || m.source === null) continue;
      const answered = tx.out_msgs.some((o) => PAY_TO.has(o.opcode ?? "") && o.destination === m.source);
      if (!answered) continue;
      const first = out.get(tx.account);
      if (first !== undefined) continue;
      out.set(tx.account, {
        pool: tx.account,
        router: m.source,
        dex,
        activeBefore: tx.orig_status === "active",
      });
    }
  }
  return out;
}

/** Jetton wallet → master over all traces (the recording indexer's interfaces). */
function mastersOf(traces: readonly LoadedTrace[]): Map<string, string> {
  const all = new Map<string, string>();
  for (const t of traces) for (const [w, m] of t.masters) all.set(w, m);
  return all;
}

const fr = (raw: string) => f(raw);
const get = getJson;

test("every pool and router the traces name is listed and answered; unknown state is null, never 0", async (t) => {
  const seen = poolsOf(t.context.traces);
  t.true(seen.size >= 6, `pools in the traces: ${seen.size}`);
  const masters = mastersOf(t.context.traces);
  const tokenMasters = new Set([...masters.values()].map(fr));
  const { pool_list } = await get(t, "/v1/pools", poolListResponse);
  const listed = new Map(pool_list.map((p) => [p.address, p]));
  for (const s of seen.values()) {
    const p = listed.get(fr(s.pool));
    if (p === undefined) {
      t.fail(`${fr(s.pool)} is not listed`);
      continue;
    }
    t.is(p.router_address, fr(s.router), `${p.address}: router`);
    for (const token of [p.token0_address, p.token1_address]) {
      t.true(token === null || token === TON || tokenMasters.has(token), `${p.address}: token ${token}`);
    }
    if (s.activeBefore) {
      t.like(
        p,
        {
          reserve0: null,
          reserve1: null,
          lp_total_supply: null,
          lp_fee: null,
          protocol_fee: null,
          ref_fee: null,
          collected_token0_protocol_fee: null,
          collected_token1_protocol_fee: null,
          protocol_fee_address: null,
        },
        `${p.address} was active before its first recorded transaction: its state is unknown`,
      );
    }
    const one = await get(t, `/v1/pools/${fr(s.pool)}`, poolResponse);
    t.deepEqual(one.pool, p, `${p.address}: the pool answers as listed`);
  }
  const v1Only = await get(t, "/v1/pools?dex_v2=false", poolListResponse);
  t.deepEqual(
    v1Only.pool_list.map((p) => p.address).sort(),
    [...seen.values()]
      .filter((s) => s.dex === "v1")
      .map((s) => fr(s.pool))
      .sort(),
  );
});

test("every router is listed and answered with its DEX generation; what the chain would say is null", async (t) => {
  const seen = poolsOf(t.context.traces);
  const routers = new Map([...seen.values()].map((s) => [fr(s.router), s.dex]));
  t.true(routers.size >= 5, `routers in the traces: ${routers.size}`);
  const { router_list } = await get(t, "/v1/routers", routerListResponse);
  t.deepEqual(router_list.map((r) => r.address).sort(), [...routers.keys()].sort());
  for (const [address, dex] of routers) {
    const { router } = await get(t, `/v1/routers/${address}`, routerResponse);
    t.is(router.major_version, dex === "v1" ? 1 : 2, address);
    // Whether pool creation is open is the router's lock flag, a get-method value: not in any message.
    t.is(router.pool_creation_enabled, null, `${address}: lock flag unknown without chain access`);
    if (dex === "v2") t.is(router.minor_version, null, `${address}: v2 minor version needs the chain`);
  }
});

test("markets are the pairs of pools whose two tokens are known", async (t) => {
  const { pool_list } = await get(t, "/v1/pools", poolListResponse);
  const key = (a: string, b: string) => [a, b].sort().join("|");
  const want = new Set(
    pool_list.flatMap((p) =>
      p.token0_address === null || p.token1_address === null ? [] : [key(p.token0_address, p.token1_address)],
    ),
  );
  const { pairs } = await get(t, "/v1/markets", marketsResponse);
  t.deepEqual(new Set(pairs.map(([a, b]) => key(a, b))), want);
  t.true(want.size > 0);
});

test("a simulation on a pool of unknown state is a 422 naming it; an unknown address is a 404, never a 503", async (t) => {
  const seen = [...poolsOf(t.context.traces).values()].filter((s) => s.activeBefore);
  t.true(seen.length > 0);
  const { pool_list } = await get(t, "/v1/pools", poolListResponse);
  for (const s of seen) {
    const p = pool_list.find((x) => x.address === fr(s.pool))!;
    if (p.token0_address === null || p.token1_address === null) continue;
    const q = new URLSearchParams({
      offer_address: p.token0_address,
      ask_address: p.token1_address,
      units: "1000000",
      slippage_tolerance: "0.01",
      pool_address: p.address,
    });
    const res = await request(t.context.api, "POST", `/v1/swap/simulate?${q}`);
    t.is(res.status, 422, `${p.address}: ${res.text}`);
    const { error } = z
      .object({
        error: z.object({
          code: z.string(),
          details: z.array(z.object({ field: z.string() }).passthrough()),
        }),
      })
      .parse(res.json);
    t.is(error.code, "pool_state_unknown");
    t.is(error.details[0]?.field, "pool_address");
  }
  // An address no operation named (the zero hash): unknown to the store, no chain to ask.
  const nobody = Address.parseRaw(`0:${"1".repeat(64)}`).toString();
  for (const path of [`/v1/pools/${nobody}`, `/v1/routers/${nobody}`]) {
    const res = await request(t.context.api, "GET", path);
    t.is(res.status, 404, `${path}: ${res.text}`);
  }
});
