/**
 * Load generator for bench/api.ts, run as a child process so it has its own event loop and core:
 * autocannon against one URL, or — with `distinct` — each request a different path. `distinct.templates`
 * are paths with `{n}` for an amount and their own `from`; request i takes template i mod T with the amount
 * `from + ⌊i / T⌋ + offset`, so no path repeats within a run (a server cannot answer any from memory) and
 * the requests spread over every template (pool and direction). Prints autocannon's result as one JSON line.
 *
 * argv[2]: {"url", "method", "connections", "seconds", "rate"?,
 *           "distinct"?: {"templates": [{"path", "from"}], "offset"}}
 */
import autocannon from "autocannon";

const o = JSON.parse(process.argv[2]);
const d = o.distinct;
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
              const t = d.templates[i % d.templates.length];
              const n = BigInt(t.from) + BigInt(Math.floor(i / d.templates.length)) + BigInt(d.offset);
              i++;
              req.path = t.path.replace("{n}", `${n}`);
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
