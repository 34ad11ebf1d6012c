/**
 * PoolTracker on the real mainnet traces (test/vectors/mainnet-traces). Every pool there was trading long
 * before its recorded transaction (`orig_status: active`), although a v2 router attaches the pool's
 * StateInit to every message it sends it. From the protocol:
 * - an active account's StateInit is not a deployment: the state is unknown, never guessed, so the tracker
 *   writes no state row and reports no mismatch (a guess would predict a refund where the pool paid);
 * - the pool's identity is still known: its router is the sender of the router → pool op, its two token
 *   wallets are jetton wallets that router owns (the recording indexer's interfaces), and the row claims no
 *   deployment (`created_*` null).
 */
import test from "ava";
import { PoolTracker } from "../../../processors/core/pool-state.ts";
import { pools as poolsTable } from "../../../schemas/facts.ts";
import type { RawTransaction } from "../../../schemas/raw-transaction.ts";
import { loadAllTraces } from "../../helpers/traces.ts";

const traces = loadAllTraces();

/** Router → pool ops (contracts.md §2.3, §3.3) and the pools' `pay_to` back to the router. */
const ROUTER_TO_POOL = new Map<number, "v1" | "v2">([
  [0x25938561, "v1"], // swap
  [0xfcf9e58f, "v1"], // provide_lp
  [0x6664de2a, "v2"], // swap
  [0x37c096df, "v2"], // provide_lp
]);
const PAY_TO = new Set([0xf93bb43f, 0x657b54f5]);

/** pool → its router and DEX generation: accounts that take a router → pool op and answer with `pay_to`. */
function poolsOf(txs: readonly RawTransaction[]): Map<string, { router: string; dex: "v1" | "v2" }> {
  const out = new Map<string, { router: string; dex: "v1" | "v2" }>();
  for (const tx of txs) {
    const m = tx.in_msg;
    const dex = m?.opcode == null ? undefined : ROUTER_TO_POOL.get(m.opcode);
    if (m === null || m.source === null || dex === undefined) continue;
    const paid = tx.out_msgs.some(
      (o) => o.opcode !== null && PAY_TO.has(o.opcode) && o.destination === m.source,
    );
    if (paid) out.set(tx.account, { router: m.source, dex });
  }
  return out;
}

/** Jetton wallet → its owner, as the recording indexer knew them. */
function walletOwners(): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file } of traces) {
    for (const [address, value] of Object.entries(file.interfaces ?? {})) {
      const w = (value as { JettonWallet?: { owner?: string } }).JettonWallet;
      if (w?.owner !== undefined) out.set(address.toUpperCase(), w.owner.toUpperCase());
    }
  }
  return out;
}

test("an active pool's StateInit is never its state: unknown, no guess, no mismatch; its identity is read", (t) => {
  const txs = traces.flatMap((tr) => tr.txs).sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : 1));
  const pools = poolsOf(txs);
  t.true(pools.size >= 6, `pools: ${pools.size}`);
  // Even with the curve known (as a chain lookup states it; every v2 pool here runs constant product), an
  // active pool's StateInit must not be taken for its state.
  const tracker = new PoolTracker(() => "v2_constant_product");
  const r = tracker.applyBatch(txs);
  t.deepEqual(r.poolStates, [], "no state is known for a pool first seen active");
  t.deepEqual(
    r.reports.filter((x) => x.kind !== "unknown_pool"),
    [],
    "no mismatch: nothing was predicted from a guessed state",
  );
  t.deepEqual(new Set(r.reports.map((x) => x.pool)), new Set(pools.keys()));
  for (const x of r.reports) t.true(x.kind === "unknown_pool" && x.reason.includes("active"), x.pool);
  const owners = walletOwners();
  const last = new Map(r.pools.map((row) => [row.pool, row]));
  t.deepEqual(new Set(last.keys()), new Set(pools.keys()));
  let walletsChecked = 0;
  for (const [pool, { router, dex }] of pools) {
    const row = last.get(pool)!;
    poolsTable.schema.parse(row);
    t.is(row.router, router, pool);
    t.like(row, { created_lt: null, created_utime: null }, pool);
    t.not(row.token0_wallet, null, `${pool}: pay_to names the pool's wallets`);
    t.not(row.token0_wallet, row.token1_wallet, pool);
    for (const w of [row.token0_wallet, row.token1_wallet]) {
      const owner = w === null ? undefined : owners.get(w);
      if (owner === undefined) continue;
      t.is(owner, router, `${pool}: ${w} is a wallet of the pool's router`);
      walletsChecked++;
    }
    t.is(row.dex, dex, pool);
    // v1 has one curve; a v2 curve is not in any message of these traces (the layout may leave it open).
    if (dex === "v1") t.is(row.pool_type, "v1_constant_product", pool);
  }
  t.true(walletsChecked > 0, "the interfaces know some of the wallets");
});
