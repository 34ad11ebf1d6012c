/** The pure parts of the rollups: which buckets a batch touches, and how a window is cut into levels. */
import test from "ava";
import {
  DAY,
  dirtyBuckets,
  HOUR,
  isClean,
  MINUTE,
  partialHours,
  piecesParams,
  wholeHours,
  windowPieces,
} from "../../../../infra/store/rollups.ts";

const D = 1_763_683_200; // a day start (2025-11-21T00:00:00Z)

test("dirty buckets: the minutes of swaps, and of fees and withdrawals, sorted and unique", (t) => {
  const at = (utime: number, pool: string | null = "0:P") => ({ utime, pool }) as never;
  t.deepEqual(
    dirtyBuckets({
      swaps: [at(D + 61), at(D + 119, "0:Q"), at(D + 5), at(D + 7, null)],
      referral_fees: [at(D + 3600)],
      vault_withdrawals: [at(D + 3659), at(D - 1)],
    }),
    { pool: [D, D + 60], referral: [D - 60, D + 3600], pools: ["0:P", "0:Q"] },
  );
  t.deepEqual(dirtyBuckets({ blocks: [] }), { pool: [], referral: [], pools: [] });
  // Pool states: their minutes, pools and the earliest state's time (the state rollups and snapshots; a
  // batch of states alone is not clean).
  const state = (utime: number, pool: string) => ({ utime, pool }) as never;
  const dirty = dirtyBuckets({
    pool_states: [state(D + 59, "0:B"), state(D + 3600, "0:A"), state(D + 7, "0:B")],
  });
  t.deepEqual(dirty, {
    pool: [],
    referral: [],
    pools: [],
    state: [D, D + 3600],
    statePools: ["0:A", "0:B"],
    stateFrom: D + 7,
  });
  t.false(isClean(dirty));
  t.true(isClean(dirtyBuckets({ blocks: [] })));
});

/** Every second of [since, until] is covered by exactly one piece, each piece aligned to its level. */
function covers(t: import("ava").ExecutionContext, since: number, until: number) {
  const w = windowPieces(since, until);
  const ranges: [number, number, number][] = [
    ...w.raw.map(([a, b]) => [a, b, 1] as [number, number, number]),
    ...w.minute.map(([a, b]) => [a, b, MINUTE] as [number, number, number]),
    ...w.hour.map(([a, b]) => [a, b, HOUR] as [number, number, number]),
    [w.day[0], w.day[1], DAY],
  ];
  const used = ranges.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let at = since;
  for (const [a, b, step] of used) {
    t.is(a, at, `contiguous at ${a}`);
    t.is(a % step, 0, `aligned ${a} to ${step}`);
    t.is(b % step === 0 || b === until + 1, true, `end ${b} aligned to ${step} or the window's end`);
    at = b;
  }
  t.is(at, until + 1);
  return w;
}

test("windows: raw edges, minutes, hours and days, inclusive of both bounds", (t) => {
  const w = covers(t, D + 3 * HOUR + 17, D + 2 * DAY + 5 * HOUR + 41);
  t.deepEqual(w.raw, [
    [D + 3 * HOUR + 17, D + 3 * HOUR + 60],
    [D + 2 * DAY + 5 * HOUR, D + 2 * DAY + 5 * HOUR + 42],
  ]);
  t.deepEqual(w.minute, [
    [D + 3 * HOUR + 60, D + 4 * HOUR],
    [D + 2 * DAY + 5 * HOUR, D + 2 * DAY + 5 * HOUR],
  ]);
  t.deepEqual(w.hour, [
    [D + 4 * HOUR, D + DAY],
    [D + 2 * DAY, D + 2 * DAY + 5 * HOUR],
  ]);
  t.deepEqual(w.day, [D + DAY, D + 2 * DAY]);
  // Whole days from midnight to 23:59:59 are read from day rows only.
  t.deepEqual(covers(t, D, D + 3 * DAY - 1).day, [D, D + 3 * DAY]);
  t.deepEqual(covers(t, D + 10, D + 20).raw, [
    [D + 10, D + 21],
    [0, 0],
  ]);
  covers(t, D + 59, D + 60);
  covers(t, D, D);
  covers(t, D + 1, D + HOUR + 1);
  t.deepEqual(windowPieces(D + 1, D), windowPieces(0, -1), "an empty window reads nothing");
  const p = piecesParams(windowPieces(D, D + 3 * DAY - 1));
  t.like(p, { d0: D, d1: D + 3 * DAY });
  t.is(p.r0, p.r1, "no raw edge");
});

test("partial hours: the raw edges and the minute pieces of a window together", (t) => {
  t.deepEqual(partialHours(D + 3 * HOUR + 17, D + 2 * DAY + 5 * HOUR + 41), [
    [D + 3 * HOUR + 17, D + 4 * HOUR],
    [D + 2 * DAY + 5 * HOUR, D + 2 * DAY + 5 * HOUR + 42],
  ]);
  // No whole hour: the whole window, from the facts.
  t.deepEqual(partialHours(D + 10, D + HOUR + 20), [
    [D + 10, D + HOUR + 21],
    [0, 0],
  ]);
  t.deepEqual(partialHours(D, D + HOUR - 1), [
    [D, D],
    [D + HOUR, D + HOUR],
  ]);
  t.deepEqual(partialHours(D + 1, D), [
    [0, 0],
    [0, 0],
  ]);
  // Whatever the window, its seconds outside the hour and day pieces are exactly the partial hours.
  const seconds = (ranges: readonly (readonly [number, number])[]) =>
    ranges.reduce((n, [a, b]) => n + (b - a), 0);
  for (const [since, until] of [
    [D + 3 * HOUR + 17, D + 2 * DAY + 5 * HOUR + 41],
    [D + 59, D + 60],
    [D + 1, D + HOUR + 1],
    [D + 1, D + 2 * HOUR + 1],
    [D + 7, D + 30 * DAY - 5],
  ] as const) {
    const w = windowPieces(since, until);
    const edges = partialHours(since, until);
    t.is(seconds(edges), seconds([...w.raw, ...w.minute]), `${since}..${until}`);
    const inner = [...w.hour, w.day].filter(([a, b]) => a < b);
    for (const [a, b] of edges) {
      for (const [c, d] of inner) t.true(b <= c || d <= a, "the partial hours overlap no hour or day piece");
    }
  }
});

test("whole hours: the window less its partial hours, [first boundary, last boundary)", (t) => {
  t.deepEqual(wholeHours(D + 3 * HOUR + 17, D + 2 * DAY + 5 * HOUR + 41), [
    D + 4 * HOUR,
    D + 2 * DAY + 5 * HOUR,
  ]);
  t.deepEqual(wholeHours(D, D + HOUR - 1), [D, D + HOUR]);
  t.is(wholeHours(D + 10, D + HOUR + 20), null);
  t.is(wholeHours(D + 1, D), null);
  // With the partial hours, every second of the window once.
  for (const [since, until] of [
    [D + 3 * HOUR + 17, D + 2 * DAY + 5 * HOUR + 41],
    [D + 1, D + 2 * HOUR + 1],
    [D, D + 30 * DAY - 1],
    [D + 7, D + 30 * DAY - 5],
  ] as const) {
    const whole = wholeHours(since, until);
    const [head, tail] = partialHours(since, until);
    t.truthy(whole);
    if (whole === null) continue;
    t.deepEqual([head[1], tail[0]], whole, `${since}..${until}`);
    t.deepEqual([head[0], tail[1]], [since, until + 1]);
  }
});
