/**
 * Paced load for bench/load.mjs: request k is due at `start + k / rate`, spread evenly over the run, and
 * goes out on a free keep-alive connection (else on the first one that frees up). Two latencies per
 * request:
 * - `latency`: from when it was due, except that a request which found a connection free leaves when the
 *   timer wakes (at most once a millisecond), and that lateness is the load generator's, so it counts from
 *   when it left. A server that stalls is charged for every request that waited behind the stall for a
 *   connection (no coordinated omission);
 * - `latencyFromDue`: always from when it was due (the timer's lateness included).
 * The first `warmupSeconds` run at the same rate and are not recorded: the load generator's own code is
 * cold at first (the first ~200 ms of a cold run queue up behind its compilation).
 *
 * A bodiless request per path; a response is read by its Content-Length (the servers measured send one).
 * Resolves with the fields bench/api.ts reads from autocannon's result, latencies in ms with µs digits.
 */
import { connect } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** The q-quantile of sorted values (nearest rank). */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

const round = (ms) => Math.round(ms * 1000) / 1000;

function summary(values) {
  const sorted = values.sort();
  return {
    p50: round(quantile(sorted, 0.5)),
    p99: round(quantile(sorted, 0.99)),
    p99_9: round(quantile(sorted, 0.999)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

export function paced({ url, method, connections, seconds, rate, pathOf, warmupSeconds = 1 }) {
  const { hostname, port } = new URL(url);
  const intervalMs = 1000 / rate;
  const skipped = Math.floor(rate * warmupSeconds);
  const total = skipped + Math.max(1, Math.floor(rate * seconds));
  const measured = total - skipped;
  const latency = new Float64Array(measured);
  const fromDue = new Float64Array(measured);
  let done = 0;
  let recorded = 0;
  let non2xx = 0;
  let errors = 0;
  let next = 0;
  /** Requests due and waiting for a free connection, oldest first. */
  const waiting = [];
  const free = [];
  let start = 0;
  let first = 0;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let last = 0;

  return new Promise((resolve) => {
    const conns = [];
    const finish = () => {
      loop.disable();
      for (const c of conns) c.socket.destroy();
      resolve({
        requests: { total: recorded },
        duration: (last - first) / 1000,
        latency: summary(latency.subarray(0, recorded)),
        latencyFromDue: summary(fromDue.subarray(0, recorded)),
        // The load generator's own event loop over the recorded part: a stall here delays the responses it
        // reads, and the latencies above charge that to the server.
        loopDelay: { p99: round(loop.percentile(99) / 1e6), max: round(loop.max / 1e6) },
        non2xx,
        errors,
        timeouts: total - done - errors,
      });
    };
    const onAnswer = (conn, status, request) => {
      const now = performance.now();
      done++;
      if (request.index >= skipped) {
        if (recorded === 0) {
          first = request.due;
          loop.enable();
        }
        latency[recorded] = now - request.from;
        fromDue[recorded++] = now - request.due;
        if (status < 200 || status > 299) non2xx++;
      }
      last = now;
      if (done + errors >= total) return finish();
      const queued = waiting.shift();
      if (queued === undefined) free.push(conn);
      else conn.send(queued);
    };
    const tick = () => {
      const now = performance.now();
      for (; next < total && start + next * intervalMs <= now; next++) {
        const due = start + next * intervalMs;
        const request = { index: next, due, from: due };
        const conn = free.pop();
        if (conn === undefined) waiting.push(request);
        else {
          request.from = now;
          conn.send(request);
        }
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
    };
    for (let i = 0; i < connections; i++) {
      const c = connection(hostname, Number(port), method, pathOf, onAnswer);
      c.socket.on("error", () => {
        errors++;
      });
      conns.push(c);
      free.push(c);
    }
    // Due times start once every connection is open.
    Promise.all(conns.map((c) => new Promise((open) => c.socket.once("connect", open)))).then(() => {
      start = performance.now();
      tick();
    });
    // A run that cannot finish (connections lost) ends after twice its length.
    setTimeout(finish, (seconds + warmupSeconds) * 2000 + 5000).unref();
  });
}

/** One keep-alive connection with one request in flight at a time. */
function connection(host, port, method, pathOf, onAnswer) {
  const socket = connect(port, host);
  socket.setNoDelay(true);
  let request = null;
  let buffer = null;
  let need = -1;
  let status = 0;
  const c = {
    socket,
    send(r) {
      request = r;
      socket.write(
        `${method} ${pathOf(r.index)} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Length: 0\r\n\r\n`,
      );
    },
  };
  socket.on("data", (chunk) => {
    buffer = buffer === null ? chunk : Buffer.concat([buffer, chunk]);
    if (need < 0) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.toString("latin1", 0, end);
      status = Number(head.slice(9, 12));
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      need = end + 4 + Number(length?.[1] ?? 0);
    }
    if (buffer.length < need) return;
    buffer = null;
    need = -1;
    onAnswer(c, status, request);
  });
  return c;
}
