/**
 * ChainState over toncenter v3 `runGetMethod`, against a local stand-in answering in v3's wire format with
 * stacks derived from the recorded vectors (test/helpers/mainnet-chain-data.ts). Expected values are the
 * vectors' own (tongo's emulator outputs and independent parses of the data cells), not re-derived.
 */
import { Address, beginCell, Cell } from "@ton/core";
import anyTest, { type TestFn } from "ava";
import { ChainStateError } from "../../../../dex/chain-state.ts";
import { createMemoryCache } from "../../../../infra/cache/memory.ts";
import { type ToncenterChainState, toncenterChainState } from "../../../../infra/toncenter/chain-state.ts";
import { ToncenterClient } from "../../../../infra/toncenter/client.ts";
import { chainStateLookups } from "../../../../processors/lookups.ts";
import {
  CSUM_POOL,
  lpAccountAddress,
  mainnetChainData,
  offchainContent,
  onchainContent,
  PROVIDE,
  ROUTER_V21,
  ROUTER_V22_CPI,
  traceJettonWallets,
  USDT_MASTER,
  V1_POOL,
  V2_POOLS,
  type V2Storage,
  VAULT,
  vector,
  WCPI_POOL,
} from "../../../helpers/mainnet-chain-data.ts";
import { type StandIn, startToncenterStandIn } from "../../../helpers/toncenter/chain-state.ts";

type Ctx = { standIn: StandIn; chain: ToncenterChainState };
const test = anyTest as TestFn<Ctx>;

const A = (raw: string) => Address.parseRaw(raw);
const R = (a: Address | null) => (a === null ? null : a.toRawString().toUpperCase());

function chainOf(standIn: StandIn, overrides: { ttlMs?: number } = {}): ToncenterChainState {
  const http = new ToncenterClient({ url: standIn.url, requestsPerSecond: 1000, timeoutMs: 2000 });
  return toncenterChainState({
    http,
    cache: createMemoryCache({ maxEntries: 1000 }),
    ttlMs: overrides.ttlMs ?? 60_000,
    fixedTtlMs: 3_600_000,
    offchain: { timeoutMs: 1_500, maxBytes: 4096, ttlMs: 60_000, allowPrivateHosts: true },
  });
}

test.beforeEach(async (t) => {
  const { accounts, files } = mainnetChainData();
  const standIn = await startToncenterStandIn(accounts, files);
  t.context = { standIn, chain: chainOf(standIn) };
});
test.afterEach.always((t) => t.context.standIn.close());

test("v1 pool: get_pool_data's ten outputs as tongo's emulator returned them; LP supply from get_jetton_data", async (t) => {
  const { chain } = t.context;
  const d = await chain.getV1PoolData(A(V1_POOL.account));
  const e = V1_POOL.expected as Record<string, string>;
  t.deepEqual(
    d && {
      reserve0: d.reserve0,
      reserve1: d.reserve1,
      token0Wallet: R(d.token0Wallet),
      token1Wallet: R(d.token1Wallet),
      lpFee: d.lpFee,
      protocolFee: d.protocolFee,
      refFee: d.refFee,
      protocolFeeAddress: R(d.protocolFeeAddress),
      collected0: d.collectedToken0ProtocolFee,
      collected1: d.collectedToken1ProtocolFee,
    },
    {
      reserve0: BigInt(e.reserve0 as string),
      reserve1: BigInt(e.reserve1 as string),
      token0Wallet: e.token0_address,
      token1Wallet: e.token1_address,
      lpFee: 20,
      protocolFee: 10,
      refFee: 10,
      protocolFeeAddress: e.protocol_fee_address,
      collected0: 818786014n,
      collected1: 493020587698n,
    },
  );
  const lp = await chain.getJettonData(A(V1_POOL.account));
  t.is(lp?.totalSupply, 15061841167n);
  t.is(R(lp?.admin ?? null), "0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E");
  // a v1 pool has no get_pool_type: exit code 11, which is an error, not "not deployed"
  const e2 = await t.throwsAsync(chain.getV2PoolData(A(V1_POOL.account)), { instanceOf: ChainStateError });
  t.regex(e2?.message ?? "", /get_pool_type on 0:0a95e1d4.*exit code 11/i);
});

for (const { vector: v, type } of V2_POOLS) {
  test(`v2 ${type} pool ${v.account.slice(0, 10)}…: every get_pool_data field equals the data cell's`, async (t) => {
    const s = v.independently_parsed_storage as unknown as V2Storage;
    const d = await t.context.chain.getV2PoolData(A(v.account));
    t.truthy(d);
    if (d === null) return;
    t.is(d.poolType, type);
    t.is(d.isLocked, s.is_locked);
    t.is(R(d.router), s.router);
    t.is(d.totalSupplyLp, BigInt(s.total_supply_lp));
    t.is(d.reserve0, BigInt(s.reserve0));
    t.is(d.reserve1, BigInt(s.reserve1));
    t.is(R(d.token0Wallet), s.token0);
    t.is(R(d.token1Wallet), s.token1);
    t.is(d.lpFee, Number(s.lp_fee));
    t.is(d.protocolFee, Number(s.protocol_fee));
    t.is(R(d.protocolFeeAddress), s.protocol_fee_address);
    t.is(d.collectedToken0ProtocolFee, BigInt(s.collected_token0_protocol_fee));
    t.is(d.collectedToken1ProtocolFee, BigInt(s.collected_token1_protocol_fee));
    t.is(d.amp, s.amp === undefined ? undefined : BigInt(s.amp));
    t.is(d.rate, s.rate === undefined ? undefined : BigInt(s.rate));
    t.is(d.w0, s.w0 === undefined ? undefined : BigInt(s.w0));
    if (type === "weighted_stableswap") t.is(R(d.rateSetter ?? null), s.rate_setter ?? null);
  });
}

test("v2 weighted_const_product and constant_sum pools (states from the AMM vectors)", async (t) => {
  const { chain } = t.context;
  const w = await chain.getV2PoolData(A(WCPI_POOL.address));
  t.is(w?.poolType, "weighted_const_product");
  t.is(w?.w0, BigInt(WCPI_POOL.storage.w0 as string));
  t.is(w?.reserve0, BigInt(WCPI_POOL.storage.reserve0));
  t.is(w?.lpFee, Number(WCPI_POOL.storage.lp_fee));
  const c = await chain.getV2PoolData(A(CSUM_POOL.address));
  t.is(c?.poolType, "constant_sum");
  t.is(c?.reserve1, BigInt(CSUM_POOL.storage.reserve1));
  t.is(c?.collectedToken0ProtocolFee, BigInt(CSUM_POOL.storage.collected_token0_protocol_fee));
  t.is(c?.amp, undefined);
});

test("v2.1 router: get_router_data and get_router_version", async (t) => {
  const { chain } = t.context;
  const d = await chain.getV2RouterData(A(ROUTER_V21.account));
  const e = ROUTER_V21.expected as Record<string, string>;
  t.is(d?.id, 377932n);
  t.is(d?.dexType, "constant_product");
  t.false(d?.isLocked);
  t.is(R(d?.admin ?? null), e.admin_address ?? null);
  t.true(d?.poolCode.equals(Cell.fromHex(e.pool_code_boc_hex as string)));
  t.true(d?.vaultCode.equals(Cell.fromHex(e.vault_code_boc_hex as string)));
  t.deepEqual(await chain.getRouterVersion(A(ROUTER_V21.account)), {
    major: 2,
    minor: 1,
    development: "release",
  });
});

test("router get_pool_address: the v2.2 CPI router's USD₮/pTON pool, wallets in either order", async (t) => {
  const { chain } = t.context;
  const cpi = vector("stonfi v2 const product");
  const s = cpi.independently_parsed_storage as Record<string, string>;
  for (const [a, b] of [
    [s.token0, s.token1],
    [s.token1, s.token0],
  ] as const) {
    t.is(R(await chain.getPoolAddress(A(ROUTER_V22_CPI), A(a as string), A(b as string))), cpi.account);
  }
  await t.throwsAsync(chain.getPoolAddress(A(ROUTER_V22_CPI), A(s.token0 as string), A(s.token0 as string)), {
    instanceOf: ChainStateError,
    message: /get_pool_address.*exit code 86/,
  });
});

test("vault: get_vault_data", async (t) => {
  const e = VAULT.expected as Record<string, string>;
  const d = await t.context.chain.getVaultData(A(VAULT.account));
  t.deepEqual(
    d && { owner: R(d.owner), token: R(d.tokenWallet), router: R(d.router), amount: d.depositedAmount },
    {
      owner: e.owner_address,
      token: e.token_address,
      router: e.router_address,
      amount: 1492595n,
    },
  );
});

test("LpAccount: get_lp_account_address from the pool, then get_lp_account_data", async (t) => {
  const { chain } = t.context;
  const address = await chain.getLpAccountAddress(A(PROVIDE.pool), A(PROVIDE.user));
  const provide = vector("Ston-fi get_pool_data v2");
  t.is(R(address), lpAccountAddress(Cell.fromBase64(provide.data_boc), PROVIDE.user, PROVIDE.pool));
  const d = await chain.getLpAccountData(address);
  t.deepEqual(d && { user: R(d.user), pool: R(d.pool), amount0: d.amount0, amount1: d.amount1 }, {
    user: PROVIDE.user,
    pool: PROVIDE.pool,
    amount0: 0n,
    amount1: 200_000_000n,
  });
});

test("jetton wallets: get_wallet_address of a master for an owner, get_wallet_data's master", async (t) => {
  const { chain } = t.context;
  const wallets = traceJettonWallets();
  t.true(wallets.length >= 4);
  for (const w of wallets) {
    t.is(R(await chain.getJettonWalletAddress(A(w.jetton), A(w.owner))), w.address);
    const d = await chain.getJettonWalletData(A(w.address));
    t.is(R(d?.master ?? null), w.jetton);
    t.is(R(d?.owner ?? null), w.owner);
  }
  const usdt = await chain.getJettonWalletData(
    A(vector("stonfi v2 const product").independently_parsed_storage?.token0 as string),
  );
  t.is(R(usdt?.master ?? null), USDT_MASTER);
});

test("an account that does not exist: null for state reads, ChainStateError for derivations", async (t) => {
  const { chain } = t.context;
  const nobody = A(`0:${"AB".repeat(32)}`);
  t.is(await chain.getV2PoolData(nobody), null);
  t.is(await chain.getJettonData(nobody), null);
  t.is(await chain.getTokenMetadata(nobody), null);
  t.is(await chain.getBalance(nobody), 0n);
  await t.throwsAsync(chain.getJettonWalletAddress(nobody, nobody), {
    instanceOf: ChainStateError,
    message: /get_wallet_address on 0:abab.*exit code -13/i,
  });
});

test("answers are cached: a second read of the same pool asks the API nothing", async (t) => {
  const { chain, standIn } = t.context;
  const pool = A(V2_POOLS[0]!.vector.account);
  const first = await chain.getV2PoolData(pool);
  const asked = standIn.log.length;
  t.is(asked, 2); // get_pool_type, get_pool_data
  t.is((await chain.getV2PoolData(pool))?.reserve0, first?.reserve0);
  t.is(standIn.log.length, asked);
  // identical reads in flight share one request
  const other = A(V2_POOLS[1]!.vector.account);
  await Promise.all([chain.getV2PoolData(other), chain.getV2PoolData(other), chain.getV2PoolData(other)]);
  t.is(standIn.log.length, asked + 2);
});

test("a stack of the wrong shape is a ChainStateError naming the method and the field", async (t) => {
  const { chain, standIn } = t.context;
  const v1 = standIn.accounts.get(V1_POOL.account)!;
  v1.methods.get_pool_data = { stack: [{ type: "int", value: 1n }] };
  await t.throwsAsync(chain.getV1PoolData(A(V1_POOL.account)), {
    instanceOf: ChainStateError,
    message: /^get_pool_data on 0:0a95e1d4\w+: unexpected stack at item 1 \(reserve1\) of 1: /i,
  });
  // a number where the router's address belongs
  const v2 = standIn.accounts.get(V2_POOLS[0]!.vector.account)!;
  const answer = v2.methods.get_pool_data as { stack: import("@ton/core").TupleItem[] };
  v2.methods.get_pool_data = {
    stack: answer.stack.map((x, i) => (i === 1 ? { type: "int", value: 7n } : x)),
  };
  await t.throwsAsync(chain.getV2PoolData(A(V2_POOLS[0]!.vector.account)), {
    instanceOf: ChainStateError,
    message: /get_pool_data on .*: unexpected stack at item 1 \(router\) of 12: /,
  });
  // not a BOC at all: the stack item is named before any field is read
  standIn.accounts.get(VAULT.account)!.methods.get_vault_data = { stack: [] };
  await t.throwsAsync(chain.getVaultData(A(VAULT.account)), {
    instanceOf: ChainStateError,
    message: /get_vault_data on .*: unexpected stack at item 0 \(owner\) of 0/,
  });
});

// ---------------------------------------------------------------- TEP-64 metadata

const MASTER = (label: string) => `0:${Buffer.from(label.padEnd(32, ".")).toString("hex").toUpperCase()}`;

function withMaster(standIn: StandIn, label: string, content: Cell): Address {
  const raw = MASTER(label);
  standIn.accounts.set(raw, {
    methods: {
      get_jetton_data: {
        stack: [
          { type: "int", value: 1_000_000n },
          { type: "int", value: -1n },
          { type: "slice", cell: beginCellAddrNone() },
          { type: "cell", cell: content },
          { type: "cell", cell: emptyCell() },
        ],
      },
    },
  });
  return A(raw);
}

test("metadata: on-chain dictionary", async (t) => {
  const { chain, standIn } = t.context;
  const m = withMaster(
    standIn,
    "onchain",
    onchainContent({ symbol: "TST", name: "Test", decimals: "6", image: "https://x/i.png" }),
  );
  t.deepEqual(await chain.getTokenMetadata(m), {
    symbol: "TST",
    name: "Test",
    decimals: 6,
    image: "https://x/i.png",
    description: null,
    uri: null,
  });
  t.false(standIn.log.some((l) => l.startsWith("GET /meta")));
});

test("metadata: off-chain URI served by the stand-in; decimals as a JSON string", async (t) => {
  const { chain, standIn } = t.context;
  standIn.files.set("/meta/off.json", {
    body: JSON.stringify({ symbol: "OFF", name: "Off chain", decimals: "6", image: "https://x/o.png" }),
  });
  const m = withMaster(standIn, "offchain", offchainContent(`${standIn.url}/meta/off.json`));
  t.deepEqual(await chain.getTokenMetadata(m), {
    symbol: "OFF",
    name: "Off chain",
    decimals: 6,
    image: "https://x/o.png",
    description: null,
    uri: `${standIn.url}/meta/off.json`,
  });
  // cached: asked once
  await chain.getTokenMetadata(m);
  t.is(standIn.log.filter((l) => l === "GET /meta/off.json").length, 1);
});

test("metadata: semi-chain: the dictionary's values first, the JSON fills the rest (decimals as a number)", async (t) => {
  const { chain, standIn } = t.context;
  standIn.files.set("/meta/semi.json", {
    body: JSON.stringify({ symbol: "JSONSYM", name: "From JSON", decimals: 5, description: "d" }),
  });
  const m = withMaster(
    standIn,
    "semichain",
    onchainContent({ symbol: "CHAIN", uri: `${standIn.url}/meta/semi.json` }),
  );
  t.deepEqual(await chain.getTokenMetadata(m), {
    symbol: "CHAIN",
    name: "From JSON",
    decimals: 5,
    image: null,
    description: "d",
    uri: `${standIn.url}/meta/semi.json`,
  });
});

test("metadata: off-chain JSON too large, too slow, missing or not JSON: unknown fields, no exception", async (t) => {
  const { chain, standIn } = t.context;
  standIn.files.set("/meta/huge.json", { body: JSON.stringify({ symbol: "BIG", pad: "x".repeat(10_000) }) });
  standIn.files.set("/meta/chunked.json", {
    body: Buffer.from(JSON.stringify({ symbol: "BIG", pad: "y".repeat(10_000) })),
    headers: { "transfer-encoding": "chunked" },
  });
  standIn.files.set("/meta/slow.json", { body: JSON.stringify({ symbol: "SLOW" }), delayMs: 30_000 });
  standIn.files.set("/meta/html.json", { body: "<html>" });
  const unknown = (uri: string) => ({
    symbol: null,
    name: null,
    decimals: null,
    image: null,
    description: null,
    uri,
  });
  for (const path of [
    "/meta/huge.json",
    "/meta/chunked.json",
    "/meta/slow.json",
    "/meta/missing.json",
    "/meta/html.json",
  ]) {
    const uri = `${standIn.url}${path}`;
    const started = Date.now();
    const m = withMaster(standIn, path, offchainContent(uri));
    t.deepEqual(await chain.getTokenMetadata(m), unknown(uri), path);
    t.true(Date.now() - started < 15_000, `${path} bounded by the timeout`);
  }
});

test("metadata: private hosts are refused unless allowed", async (t) => {
  const { standIn } = t.context;
  const http = new ToncenterClient({ url: standIn.url, requestsPerSecond: 1000, timeoutMs: 2000 });
  const reasons: string[] = [];
  const chain = toncenterChainState({
    http,
    ttlMs: 1000,
    fixedTtlMs: 1000,
    offchain: { timeoutMs: 300, maxBytes: 4096, ttlMs: 1000, onFailure: (_u, r) => reasons.push(r) },
  });
  standIn.files.set("/meta/off.json", { body: JSON.stringify({ symbol: "OFF" }) });
  const m = withMaster(standIn, "private", offchainContent(`${standIn.url}/meta/off.json`));
  t.is((await chain.getTokenMetadata(m))?.symbol, null);
  t.deepEqual(reasons, ["host 127.0.0.1 is private"]);
  t.false(standIn.log.includes("GET /meta/off.json"));
});

const emptyCell = () => beginCell().endCell();
const beginCellAddrNone = () => beginCell().storeAddress(null).endCell();

test("the processor's jetton lookup carries the off-chain metadata the mainnet chain state fetched", async (t) => {
  const { chain, standIn } = t.context;
  standIn.files.set("/meta/lookup.json", { body: JSON.stringify({ symbol: "LKP", decimals: "6" }) });
  const m = withMaster(standIn, "lookup", offchainContent(`${standIn.url}/meta/lookup.json`));
  const found = await chainStateLookups(chain).jetton(R(m) as string);
  t.is(found?.totalSupply, 1_000_000n);
  t.is(found?.metadata.symbol, "LKP");
  t.is(found?.metadata.decimals, 6);
});

test("metadata: when the off-chain JSON cannot be fetched, the indexer's copy (jetton/masters metadata) fills in", async (t) => {
  const { chain, standIn } = t.context;
  const m = withMaster(standIn, "indexer copy", offchainContent(`${standIn.url}/meta/gone.json`));
  const raw = R(m) as string;
  // JettonMastersResponse as ton-index-go answers it; token_info as ton-metadata-fetcher stores it
  standIn.files.set("/api/v3/jetton/masters", {
    body: JSON.stringify({
      jetton_masters: [],
      address_book: {},
      metadata: {
        [raw]: {
          is_indexed: true,
          token_info: [
            {
              type: "jetton_masters",
              name: "Indexed",
              symbol: "IDX",
              image: "https://x/i.png",
              extra: { decimals: "4", _image_small: "https://x/s.png" },
            },
          ],
        },
      },
    }),
  });
  t.deepEqual(await chain.getTokenMetadata(m), {
    symbol: "IDX",
    name: "Indexed",
    decimals: 4,
    image: "https://x/i.png",
    description: null,
    uri: `${standIn.url}/meta/gone.json`,
  });
  t.true(standIn.log.includes("GET /api/v3/jetton/masters"));
});
