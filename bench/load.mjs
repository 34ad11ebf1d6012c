/**
 * Load generator for bench/api.ts, run as a child process so it has its own event loop and core:
 * autocannon against one URL, or — with `distinct` — each request a different path. `distinct.templates`
 * are paths with `{n}` for an amount and their own `from`; request i takes template i mod T with the amount
 * `from + ⌊i / T⌋ + offset`, so no path repeats within a run (a server cannot answer any from memory) and
 * the requests spread over every template (pool and direction). Prints autocannon's result as one JSON line.
 *
 * With `paced`, requests go out at `rate` per second spread evenly over time (./paced.mjs) instead of
 * autocannon's `overallRate`, which gives each connection a quota per second that it spends at full speed
 * from the start of the second: its "half load" is full load for half of every second.
 *
 * argv[2]: {"url", "method", "connections", "seconds", "rate"?, "paced"?,
 *           "distinct"?: {"templates": [{"path", "from"}], "offset"}}
 */
import autocannon from "autocannon";
import { paced } from "./paced.mjs";

const o = JSON.parse(process.argv[2]);
const d = o.distinct;
/** The path of request i (see above). */
const pathOf = (i) => {
  const t = d.templates[i % d.templates.length];
  const n = BigInt(t.from) + BigInt(Math.floor(i / d.templates.length)) + BigInt(d.offset);
  return t.path.replace("{n}", `${n}`);
};
if (o.paced === true) {
  const { pathname, search } = new URL(o.url);
  const result = await paced({ ...o, pathOf: d === undefined ? () => pathname + search : pathOf });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
let i = 0;
const options = {
  url: o.url,
  method: o.method,
  connections: o.connections,
  duration: o.seconds,
  ...(o.rate === undefined ? {} : { overallRate: o.rate }),
  ...(d === undefined
    ? {}
    : {
        requests: [
          {
            setupRequest: (req) => {
              req.path = pathOf(i++);
              return req;
            },
          },
        ],
      }),
};
autocannon(options, (error, result) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
});
