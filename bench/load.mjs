/**
 * Load generator for bench/api.ts, run as a child process so it has its own event loop and core:
 * autocannon against one URL, or — with `distinct` — each request a different path: the template with
 * `{n}` replaced by `from`, `from + 1`, ... so a server cannot answer any of them from memory. Prints
 * autocannon's result as one JSON line.
 *
 * argv[2]: {"url", "method", "connections", "seconds", "rate"?, "distinct"?: {"template", "from"}}
 */
import autocannon from "autocannon";

const o = JSON.parse(process.argv[2]);
let next = o.distinct === undefined ? 0n : BigInt(o.distinct.from);
const options = {
  url: o.url,
  method: o.method,
  connections: o.connections,
  duration: o.seconds,
  ...(o.rate === undefined ? {} : { overallRate: o.rate }),
  ...(o.distinct === undefined
    ? {}
    : {
        requests: [
          {
            setupRequest: (req) => {
              req.path = o.distinct.template.replace("{n}", `${next++}`);
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
