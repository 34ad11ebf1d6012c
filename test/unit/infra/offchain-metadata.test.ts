// infra/offchain-metadata.ts: bounded fetches of TEP-64 off-chain JSON; every failure is null, never thrown.
import test from "ava";
import { metadataUrl, offchainMetadataFetcher } from "../../../infra/offchain-metadata.ts";
import { startToncenterStandIn } from "../../helpers/toncenter/chain-state.ts";

const GW = "https://ipfs.io/ipfs/";

test("URIs: http(s) as given, ipfs:// through the gateway, other schemes and private hosts refused", (t) => {
  t.is(
    metadataUrl("https://meta.ston.fi/lp/v1/0:AB.json", GW, false).href,
    "https://meta.ston.fi/lp/v1/0:AB.json",
  );
  t.is(metadataUrl("ipfs://bafyabc/meta.json", GW, false).href, "https://ipfs.io/ipfs/bafyabc/meta.json");
  t.is(
    metadataUrl("ipfs://ipfs/bafyabc", "https://gw.example/ipfs", false).href,
    "https://gw.example/ipfs/bafyabc",
  );
  for (const [uri, reason] of [
    ["ftp://x/y.json", /scheme ftp:/],
    ["file:///etc/passwd", /scheme file:/],
    ["not a uri", /not a URL/],
    ["http://127.0.0.1:8080/x", /private/],
    ["http://localhost/x", /private/],
    ["http://10.1.2.3/x", /private/],
    ["http://192.168.0.1/x", /private/],
    ["http://172.20.0.1/x", /private/],
    ["http://169.254.169.254/latest/meta-data", /private/],
    ["http://[::1]/x", /private/],
  ] as const) {
    t.throws(() => metadataUrl(uri, GW, false), { message: reason }, uri);
  }
  t.is(metadataUrl("http://127.0.0.1:8080/x", GW, true).hostname, "127.0.0.1");
  t.is(metadataUrl("http://172.32.0.1/x", GW, false).hostname, "172.32.0.1");
});

test("redirects are followed up to three hops, each checked; a fourth is refused", async (t) => {
  const standIn = await startToncenterStandIn();
  t.teardown(() => standIn.close());
  const hop = (to: string) => ({ status: 302, body: "", headers: { location: to } });
  standIn.files.set("/a", hop("/b"));
  standIn.files.set("/b", hop(`${standIn.url}/meta.json`));
  standIn.files.set("/meta.json", { body: JSON.stringify({ symbol: "R" }) });
  standIn.files.set("/l1", hop("/l2"));
  standIn.files.set("/l2", hop("/l3"));
  standIn.files.set("/l3", hop("/l4"));
  standIn.files.set("/l4", hop("/meta.json"));
  const reasons: string[] = [];
  const fetchJson = offchainMetadataFetcher({
    timeoutMs: 500,
    maxBytes: 1000,
    ttlMs: 1000,
    allowPrivateHosts: true,
    onFailure: (_u, r) => reasons.push(r),
  });
  t.deepEqual(await fetchJson(`${standIn.url}/a`), { symbol: "R" });
  t.is(await fetchJson(`${standIn.url}/l1`), null);
  t.deepEqual(reasons, ["redirect 302"]);
});

test("a failure is remembered for failureTtlMs; a success for ttlMs", async (t) => {
  const standIn = await startToncenterStandIn();
  t.teardown(() => standIn.close());
  let now = 0;
  const { createMemoryCache } = await import("../../../infra/cache/memory.ts");
  const fetchJson = offchainMetadataFetcher({
    timeoutMs: 500,
    maxBytes: 1000,
    ttlMs: 10_000,
    failureTtlMs: 1_000,
    allowPrivateHosts: true,
    cache: createMemoryCache({ maxEntries: 100, now: () => now }),
  });
  const uri = `${standIn.url}/later.json`;
  t.is(await fetchJson(uri), null);
  standIn.files.set("/later.json", { body: JSON.stringify({ name: "Later" }) });
  t.is(await fetchJson(uri), null, "the failure is remembered");
  now += 1_001;
  t.deepEqual(await fetchJson(uri), { name: "Later" });
  standIn.files.delete("/later.json");
  now += 5_000;
  t.deepEqual(await fetchJson(uri), { name: "Later" }, "the success is cached");
  t.is(standIn.log.filter((l) => l === "GET /later.json").length, 1);
});
