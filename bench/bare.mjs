/**
 * The baseline of bench/api.ts, run as a child process (its own event loop and core): a bare `node:http`
 * server answering every request with one fixed JSON body (argv[2], base64) with the headers a JSON API
 * sends. Prints its port as one line once it listens.
 */
import { createServer } from "node:http";

const body = Buffer.from(process.argv[2], "base64");
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
