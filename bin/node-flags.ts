/**
 * V8 flags of the CLI's general launchers: bin/tondex, the shebang of bin/tondex.mjs (what `npm link` and
 * `npx tondex` run), `npm start` and `npm run bench` (the API benchmark measures the server `tondex start`
 * runs, in its own process); the benchmarks that start tondex processes (bench/distributed.ts,
 * bench/mainnet.ts) or measure the API's handlers in a process of their own (bench/analytics.ts) pass
 * them too. V8 reads them only when the process starts, so they are written on
 * those command lines; test/unit/bin/launchers.test.ts keeps every launcher carrying them.
 *
 * A young generation of up to 64 MiB per semi-space (Node's default tops out at 16 MiB; V8 grows it only
 * under allocation pressure, so an idle process does not hold it). A distinct quote allocates some 30 KB
 * (request parsing, validation, the quote's records, the JSON answer), so at ~17,000 distinct swap quotes
 * per second the default size collected the young generation ~36 times a second, and the promotions of so
 * many collections led to old-generation collections too; each pause delays every request in flight.
 * Measured with bench/api.ts (paced distinct swap quotes at half of their maximum, 5 s): 177-184 young
 * collections and up to 2 old-generation ones with the default, 42-43 and none with this flag; p99 5.4 and
 * 39 ms (two runs) against 3.5 and 2.8 ms.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=64"] as const;
