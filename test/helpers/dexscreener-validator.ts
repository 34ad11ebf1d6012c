/**
 * A validator of a DexScreener adapter feed, written from the rules (shared/reference/analytics.md §8,
 * api.md §10.2), not from tondex's implementation: it talks HTTP to the feed and returns every violation as
 * a sentence (an empty list: the feed keeps every rule it could check).
 *
 * What it cannot learn from the feed alone comes from the test as an oracle: each asset's decimals (for the
 * round trip), the chain order of transactions (lt), the raw amounts of a transaction when known, the
 * expected maker of a transaction, and addresses that must never be a maker (routers, pTON wallets, pools).
 */

export type FeedGet = (path: string) => Promise<{ status: number; text: string }>;

export type FeedOracle = {
  /** Decimals of an asset id as the feed names it. */
  decimals(assetId: string): number | undefined;
  /** Logical time of a transaction (txnId), for the chain order inside a block. */
  lt?(txnId: string): bigint | undefined;
  /** The user wallet that started the transaction's trace, as the feed should name it. */
  maker?(txnId: string): string | undefined;
  /** The chain's time of a masterchain block (gen_utime), when known: blockTimestamp is within 60 s of it. */
  blockTime?(blockNumber: number): number | undefined;
  /** Addresses that are never a user (routers, pTON wallets, pools, vaults). */
  notMakers?: ReadonlySet<string>;
  /** Relative tolerance of the ask-side reserve change of a swap (fees booked outside the reserves). */
  feeTolerance?: number;
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const DECIMAL = /^\d+(\.\d{1,50})?$/;
const INT32_MAX = 2 ** 31 - 1;

/** A decimal string as an exact fraction `num / 10^scale`. */
function fraction(text: string): { num: bigint; scale: number } {
  const [i, f = ""] = text.split(".");
  return { num: BigInt(`${i}${f}`), scale: f.length };
}
/** Compare a/b decimals exactly: a − b as a fraction over 10^s. */
function scaled(text: string, s: number): bigint {
  const { num, scale } = fraction(text);
  return num * 10n ** BigInt(s - scale);
}
function rawOf(text: string, decimals: number): bigint | null {
  const { num, scale } = fraction(text);
  return scale > decimals ? null : num * 10n ** BigInt(decimals - scale);
}

const SWAP_KEYS = ["amount0In", "amount1In", "amount0Out", "amount1Out"] as const;
const COMMON_KEYS = ["block", "eventType", "txnId", "txnIndex", "eventIndex", "maker", "pairId", "reserves"];
const ALLOWED: Record<string, readonly string[]> = {
  swap: [...COMMON_KEYS, ...SWAP_KEYS, "priceNative"],
  join: [...COMMON_KEYS, "amount0", "amount1"],
  exit: [...COMMON_KEYS, "amount0", "amount1"],
};

export type FeedReport = {
  violations: string[];
  events: Obj[];
  latest: number;
  counts: Record<string, number>;
};

/**
 * Validates `/latest-block`, `/events` over `from..to` (default: the whole served history up to the latest
 * block, in chunks of `chunk` blocks), and `/pair`, `/asset` of everything the events name.
 */
export async function validateFeed(
  get: FeedGet,
  base: string,
  oracle: FeedOracle,
  opts: { from?: number; to?: number; chunk?: number; ranges?: readonly (readonly [number, number])[] } = {},
): Promise<FeedReport> {
  const v: string[] = [];
  const json = async (path: string): Promise<{ status: number; body: unknown; text: string }> => {
    const r = await get(`${base}${path}`);
    let body: unknown = null;
    try {
      body = JSON.parse(r.text);
    } catch {
      v.push(`${path}: not JSON`);
    }
    return { status: r.status, body, text: r.text };
  };

  // 1. latest-block
  const lb = await json("/latest-block");
  const block = isObj(lb.body) && isObj(lb.body.block) ? lb.body.block : null;
  if (lb.status !== 200 || block === null) {
    v.push(`latest-block: status ${lb.status}, body ${lb.text}`);
    return { violations: v, events: [], latest: -1, counts: {} };
  }
  const latest = block.blockNumber as number;
  if (!Number.isInteger(latest) || latest < 0 || latest > INT32_MAX)
    v.push(`latest-block: blockNumber ${latest}`);
  const ts = block.blockTimestamp as number;
  if (!Number.isInteger(ts) || ts < 1_500_000_000 || ts > 4_000_000_000)
    v.push(`latest-block: blockTimestamp ${ts} is not unix seconds`);
  const genOfLatest = oracle.blockTime?.(latest);
  if (genOfLatest !== undefined && Math.abs(ts - genOfLatest) > 60)
    v.push(`latest-block: blockTimestamp ${ts}, the block's time is ${genOfLatest}`);
  const again = await json("/latest-block");
  const latest2 =
    isObj(again.body) && isObj(again.body.block) ? (again.body.block.blockNumber as number) : -1;
  if (latest2 < latest) v.push(`latest-block decreased: ${latest} → ${latest2}`);

  // 2. ranges
  const from = opts.from ?? 0;
  const to = opts.to ?? latest;
  const chunk = opts.chunk ?? 10_000;
  if (to >= 1) {
    const rev = await json(`/events?fromBlock=${to}&toBlock=${to - 1}`);
    if (rev.status !== 400) v.push(`fromBlock > toBlock answered ${rev.status}, not 400`);
  }
  const ahead = await json(`/events?fromBlock=${latest}&toBlock=${latest + 5}`);
  if (ahead.status === 200) {
    const evs = isObj(ahead.body) && Array.isArray(ahead.body.events) ? ahead.body.events : [];
    if (evs.some((e) => isObj(e) && isObj(e.block) && (e.block.blockNumber as number) > latest))
      v.push("events served beyond latest-block");
  } else if (ahead.status !== 400) v.push(`toBlock > latest answered ${ahead.status}, neither 200 nor 400`);
  const wide = await json(`/events?fromBlock=${Math.max(0, latest - 9_999)}&toBlock=${latest}`);
  if (wide.status !== 200) v.push(`a range of 10,000 blocks answered ${wide.status}`);
  for (const bad of ["fromBlock=x&toBlock=1", "toBlock=1", "fromBlock=-1&toBlock=1"]) {
    const r = await json(`/events?${bad}`);
    if (r.status !== 400) v.push(`/events?${bad} answered ${r.status}, not 400`);
  }

  // Events over from..to in chunks (or over the given ranges, ascending and disjoint); each re-queried
  // (4: byte-identical).
  const events: Obj[] = [];
  const chunks: [number, number][] = [];
  if (opts.ranges !== undefined) for (const [lo, hi] of opts.ranges) chunks.push([lo, Math.min(hi, latest)]);
  else for (let lo = from; lo <= to; lo += chunk) chunks.push([lo, Math.min(to, lo + chunk - 1)]);
  for (const [lo, hi] of chunks) {
    if (lo > hi) continue;
    const path = `/events?fromBlock=${lo}&toBlock=${hi}`;
    const r = await json(path);
    if (r.status !== 200 || !isObj(r.body) || !Array.isArray(r.body.events)) {
      v.push(`${path}: status ${r.status}`);
      continue;
    }
    const keys = Object.keys(r.body);
    if (keys.length !== 1) v.push(`${path}: top-level keys ${keys.join(",")}`);
    const second = await get(`${base}${path}`);
    if (second.text !== r.text) v.push(`${path}: re-query is not byte-identical`);
    for (const e of r.body.events as unknown[]) {
      if (!isObj(e)) v.push(`${path}: an event is not an object`);
      else {
        const bn = isObj(e.block) ? (e.block.blockNumber as number) : Number.NaN;
        if (!(bn >= lo && bn <= hi)) v.push(`${path}: event in block ${bn} outside the range`);
        events.push(e);
      }
    }
  }

  // 3. union of per-block queries = ranged query (for every block with events, and a few without).
  const byBlock = new Map<number, Obj[]>();
  for (const e of events) {
    const bn = (e.block as Obj).blockNumber as number;
    byBlock.set(bn, [...(byBlock.get(bn) ?? []), e]);
  }
  for (const [bn, evs] of byBlock) {
    const r = await json(`/events?fromBlock=${bn}&toBlock=${bn}`);
    const single = isObj(r.body) && Array.isArray(r.body.events) ? r.body.events : [];
    if (JSON.stringify(single) !== JSON.stringify(evs))
      v.push(`block ${bn}: its own query differs from the range's`);
  }

  // Pairs and assets (12, 13).
  const pairs = new Map<string, Obj | null>();
  const pairOf = async (id: string): Promise<Obj | null> => {
    if (pairs.has(id)) return pairs.get(id) ?? null;
    const r = await json(`/pair/${id}`);
    const p = isObj(r.body) && isObj(r.body.pair) ? r.body.pair : null;
    if (r.status !== 200 || p === null) v.push(`pair ${id} does not resolve (${r.status})`);
    else {
      if (p.id !== id) v.push(`pair ${id}: id ${String(p.id)}`);
      if (JSON.stringify((r.body as Obj).pool) !== JSON.stringify(p))
        v.push(`pair ${id}: pool ≠ pair wrapper`);
      if (typeof p.asset0Id !== "string" || typeof p.asset1Id !== "string" || p.asset0Id === p.asset1Id)
        v.push(`pair ${id}: assets ${String(p.asset0Id)} / ${String(p.asset1Id)}`);
      const r2 = await get(`${base}/pair/${id}`);
      if (r2.text !== r.text) v.push(`pair ${id}: not identical on a second call`);
      for (const a of [p.asset0Id, p.asset1Id]) if (typeof a === "string") await assetOf(a);
    }
    pairs.set(id, p);
    return p;
  };
  const assets = new Set<string>();
  const assetOf = async (id: string) => {
    if (assets.has(id)) return;
    assets.add(id);
    const r = await json(`/asset/${id}`);
    const a = isObj(r.body) && isObj(r.body.asset) ? r.body.asset : null;
    if (r.status !== 200 || a === null) return void v.push(`asset ${id} does not resolve (${r.status})`);
    if (a.id !== id) v.push(`asset ${id}: id ${String(a.id)}`);
    if (typeof a.name !== "string" || a.name === "") v.push(`asset ${id}: empty name`);
    if (typeof a.symbol !== "string" || a.symbol === "") v.push(`asset ${id}: empty symbol`);
    if (a.totalSupply !== null && (typeof a.totalSupply !== "string" || !DECIMAL.test(a.totalSupply)))
      v.push(`asset ${id}: totalSupply ${String(a.totalSupply)}`);
    const d = oracle.decimals(id);
    if (typeof a.totalSupply === "string" && d !== undefined && rawOf(a.totalSupply, d) === null)
      v.push(`asset ${id}: totalSupply ${a.totalSupply} has more than ${d} decimals`);
  };

  // 5, 6, 7, 8, 9, 11, 14: per event. 10: per pair, consecutive events.
  const seen = new Set<string>();
  const txIndexOf = new Map<string, number>();
  const counts: Record<string, number> = { swap: 0, join: 0, exit: 0, reserves: 0 };
  const lastOfPair = new Map<string, Obj>();
  let prevKey: [number, number, number] | null = null;
  const swapsOfTxPair = new Set<string>();
  for (const e of events) {
    const where = `event ${String(e.txnId)}#${String(e.eventIndex)}`;
    const type = e.eventType as string;
    const allowed = ALLOWED[type];
    if (allowed === undefined) {
      v.push(`${where}: eventType ${type}`);
      continue;
    }
    counts[type] = (counts[type] ?? 0) + 1;
    for (const k of Object.keys(e)) if (!allowed.includes(k)) v.push(`${where}: unexpected key ${k}`);
    const b = e.block as Obj;
    const bn = b.blockNumber as number;
    if (!Number.isInteger(b.blockTimestamp) || (b.blockTimestamp as number) > 4_000_000_000)
      v.push(`${where}: blockTimestamp ${String(b.blockTimestamp)}`);
    if (bn > latest2) v.push(`${where}: block ${bn} ahead of latest-block`);
    const gen = oracle.blockTime?.(bn);
    if (gen !== undefined && Math.abs((b.blockTimestamp as number) - gen) > 60)
      v.push(`${where}: blockTimestamp ${String(b.blockTimestamp)}, the block's time is ${gen}`);
    const ti = e.txnIndex as number;
    const ei = e.eventIndex as number;
    if (!Number.isInteger(ti) || ti < 0 || !Number.isInteger(ei) || ei < 0)
      v.push(`${where}: indexes ${ti}/${ei}`);
    const key = `${bn}/${ti}/${ei}`;
    if (seen.has(key)) v.push(`${where}: (block, txnIndex, eventIndex) ${key} repeated`);
    seen.add(key);
    const cur: [number, number, number] = [bn, ti, ei];
    if (
      prevKey !== null &&
      !(
        cur[0] > prevKey[0] ||
        (cur[0] === prevKey[0] && (cur[1] > prevKey[1] || (cur[1] === prevKey[1] && cur[2] > prevKey[2])))
      )
    )
      v.push(`${where}: out of order after ${prevKey.join("/")}`);
    prevKey = cur;
    const txKey = `${bn}/${String(e.txnId)}`;
    const known = txIndexOf.get(txKey);
    if (known !== undefined && known !== ti) v.push(`${where}: one transaction with two txnIndexes`);
    txIndexOf.set(txKey, ti);
    if (typeof e.txnId !== "string" || !/^[0-9a-f]{64}$/.test(e.txnId))
      v.push(`${where}: txnId ${String(e.txnId)}`);
    if (typeof e.maker !== "string" || e.maker === "") v.push(`${where}: empty maker`);
    else {
      if (oracle.notMakers?.has(e.maker)) v.push(`${where}: maker ${e.maker} is a contract, not the user`);
      const want = oracle.maker?.(e.txnId as string);
      if (want !== undefined && want !== e.maker)
        v.push(`${where}: maker ${e.maker}, the trace's user is ${want}`);
    }
    const pair = typeof e.pairId === "string" ? await pairOf(e.pairId) : null;
    if (pair === null) continue;
    const d0 = oracle.decimals(pair.asset0Id as string);
    const d1 = oracle.decimals(pair.asset1Id as string);
    const dec = (k: string, d: number | undefined): bigint | null => {
      const t = e[k];
      if (typeof t !== "string" || !DECIMAL.test(t)) {
        v.push(`${where}: ${k} ${String(t)} is not a plain decimal string`);
        return null;
      }
      if (d === undefined) return null;
      const raw = rawOf(t, d);
      if (raw === null) v.push(`${where}: ${k} ${t} has more than ${d} decimals (does not round-trip)`);
      return raw;
    };
    let delta0: bigint | null = null;
    let delta1: bigint | null = null;
    let outSide: 0 | 1 | null = null;
    if (type === "swap") {
      const present = SWAP_KEYS.filter((k) => e[k] !== undefined && e[k] !== null);
      const ins = present.filter((k) => k.endsWith("In"));
      const outs = present.filter((k) => k.endsWith("Out"));
      if (ins.length !== 1 || outs.length !== 1 || ins[0]?.[6] === outs[0]?.[6]) {
        v.push(`${where}: swap sides ${present.join(",")}`);
        continue;
      }
      const in0 = ins[0] === "amount0In";
      const a0 = dec(in0 ? "amount0In" : "amount0Out", d0);
      const a1 = dec(in0 ? "amount1Out" : "amount1In", d1);
      for (const k of present)
        if (typeof e[k] === "string" && scaled(e[k] as string, 60) <= 0n) v.push(`${where}: ${k} is 0`);
      const p = e.priceNative;
      if (typeof p !== "string" || !DECIMAL.test(p) || scaled(p, 60) <= 0n)
        v.push(`${where}: priceNative ${String(p)}`);
      else {
        // |p − amount1/amount0| ≤ 1e-9 · p, exactly: |p·a0 − a1| · 1e9 ≤ p·a0.
        const x0 = scaled(e[in0 ? "amount0In" : "amount0Out"] as string, 60);
        const x1 = scaled(e[in0 ? "amount1Out" : "amount1In"] as string, 60);
        const pp = scaled(p, 60);
        const diff = pp * x0 - x1 * 10n ** 60n;
        if ((diff < 0n ? -diff : diff) * 1_000_000_000n > pp * x0)
          v.push(`${where}: priceNative ${p} ≠ amount1/amount0`);
      }
      if (a0 !== null && a1 !== null) {
        delta0 = in0 ? a0 : -a0;
        delta1 = in0 ? -a1 : a1;
        outSide = in0 ? 1 : 0;
      }
      const hop = `${String(e.txnId)}/${String(e.pairId)}`;
      if (swapsOfTxPair.has(hop)) v.push(`${where}: two swaps of one pool in one transaction`);
      swapsOfTxPair.add(hop);
    } else {
      const a0 = dec("amount0", d0);
      const a1 = dec("amount1", d1);
      if (
        typeof e.amount0 === "string" &&
        typeof e.amount1 === "string" &&
        scaled(e.amount0, 60) === 0n &&
        scaled(e.amount1, 60) === 0n
      )
        v.push(`${where}: ${type} of nothing`);
      if (a0 !== null && a1 !== null) {
        delta0 = type === "join" ? a0 : -a0;
        delta1 = type === "join" ? a1 : -a1;
      }
    }
    // 10: reserves ≥ 0; after the previous event of the pair, ± this event's amounts.
    if (e.reserves !== undefined) {
      const r = e.reserves;
      if (!isObj(r)) v.push(`${where}: reserves ${String(r)}`);
      else {
        counts.reserves = (counts.reserves ?? 0) + 1;
        const x0 =
          typeof r.asset0 === "string" && DECIMAL.test(r.asset0) && d0 !== undefined
            ? rawOf(r.asset0, d0)
            : null;
        const x1 =
          typeof r.asset1 === "string" && DECIMAL.test(r.asset1) && d1 !== undefined
            ? rawOf(r.asset1, d1)
            : null;
        if (x0 === null || x1 === null)
          v.push(`${where}: reserves ${JSON.stringify(r)} are not decimalised amounts`);
        const prev = lastOfPair.get(e.pairId as string);
        const pr = prev !== undefined && isObj(prev.reserves) ? prev.reserves : null;
        if (
          pr !== null &&
          x0 !== null &&
          x1 !== null &&
          delta0 !== null &&
          delta1 !== null &&
          d0 !== undefined &&
          d1 !== undefined
        ) {
          const p0 = rawOf(pr.asset0 as string, d0);
          const p1 = rawOf(pr.asset1 as string, d1);
          if (p0 !== null && p1 !== null) {
            const tol = oracle.feeTolerance ?? 0.02;
            const check = (side: 0 | 1, prevR: bigint, next: bigint, delta: bigint) => {
              const expected = prevR + delta;
              if (side === outSide) {
                // The ask side also pays the protocol and referral fees, booked outside the reserves.
                const fees = expected - next;
                const limit =
                  (BigInt(Math.round(tol * 1e6)) * (delta < 0n ? -delta : delta)) / 1_000_000n + 1n;
                if (fees < 0n || fees > limit)
                  v.push(`${where}: reserve${side} ${next}, expected ${expected} less fees`);
              } else if (type === "join" && next <= expected && next >= prevR) {
                // A v2 mint keeps its protocol fee out of the reserves.
              } else if (next !== expected)
                v.push(`${where}: reserve${side} ${next}, expected ${prevR} ± ${delta}`);
            };
            check(0, p0, x0, delta0);
            check(1, p1, x1, delta1);
          }
        }
      }
    }
    lastOfPair.set(e.pairId as string, e);
  }

  // 5: chain order inside a block, from the oracle's logical times.
  if (oracle.lt !== undefined) {
    for (const [bn, evs] of byBlock) {
      const order = [...new Map(evs.map((e) => [e.txnId as string, e.txnIndex as number])).entries()];
      for (let i = 1; i < order.length; i++) {
        const a = oracle.lt(order[i - 1]?.[0] as string);
        const b = oracle.lt(order[i]?.[0] as string);
        if (a !== undefined && b !== undefined && !(a <= b))
          v.push(`block ${bn}: txnIndex order is not chain order`);
      }
    }
  }
  return { violations: v, events, latest, counts };
}
