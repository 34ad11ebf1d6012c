/**
 * Get-method answers for the toncenter stand-in, derived from the recorded vectors (never from the code
 * under test):
 * - test/vectors/messages/stonfi-getmethods.json (tonkeeper/tongo, real mainnet contract data): the v1 pool
 *   `0:0A95E1D4…` (its 10 `get_pool_data` outputs as tongo's emulator returned them), the v2 CPI pools
 *   `0:228829D7…` and `0:8649CAD9…`, the stableswap pool `0:52518E14…`, the weighted-stableswap pool
 *   `0:05EA635B…` (each from the independent parse of its data cell), the v2.1 router `0:F0CA38…` and the
 *   vault `0:4DB219…`; stacks laid out as contracts.md §2.10 / §3.10 give the get-methods' results;
 * - test/vectors/messages/stonfi-messages.json: the LpAccount of user `0:2FA340…` in pool `0:228829D7…`
 *   between the two legs of its provide (`add_liquidity` of the TON side: amount1 200000000, amount0 0), at
 *   the address its StateInit gives (code: the pool's stored `lp_account_code`; data per contracts.md §3.2);
 * - test/vectors/mainnet-traces/*.json `interfaces`: jetton wallets (owner, master, balance) for
 *   `get_wallet_address` / `get_wallet_data`;
 * - test/vectors/amm/*.json: a weighted-constant-product and a constant-sum pool state the real pool code ran
 *   on (no mainnet data cell of these types is recorded). Their pool, router and wallet addresses are
 *   labels (`labelled`), as are the jetton masters of the metadata tests.
 * Code cells the vectors do not hold (jetton wallet code) are empty cells: nothing reads them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Address, beginCell, Cell, contractAddress, Dictionary, type TupleItem } from "@ton/core";
import type { V2PoolType } from "../../dex/chain-state.ts";
import type { Account, GetMethodAnswer, StaticFile } from "./toncenter/chain-state.ts";

const VECTORS = new URL("../vectors/", import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, VECTORS), "utf8"));

type GetMethodVector = {
  name: string;
  account: string;
  data_boc: string;
  expected: Record<string, unknown>;
  independently_parsed_storage?: Record<string, string | boolean | null>;
};
const GET_METHODS = readJson("messages/stonfi-getmethods.json") as GetMethodVector[];
export const vector = (name: string): GetMethodVector => {
  const v = GET_METHODS.find((e) => e.name === name);
  if (v === undefined) throw new Error(`no get-method vector '${name}'`);
  return v;
};

/** A test-only address from a label (sha256 of it), for contracts the vectors hold no address of. */
export const labelled = (label: string): string =>
  `0:${createHash("sha256").update(label).digest("hex").toUpperCase()}`;

const int = (v: bigint | string | number | boolean): TupleItem => ({
  type: "int",
  value: typeof v === "boolean" ? (v ? -1n : 0n) : BigInt(v),
});
const addr = (raw: string | null): TupleItem => ({
  type: "slice",
  cell: beginCell()
    .storeAddress(raw === null ? null : Address.parseRaw(raw))
    .endCell(),
});
const text = (s: string): TupleItem => ({ type: "slice", cell: beginCell().storeStringTail(s).endCell() });
const cell = (c: Cell): TupleItem => ({ type: "cell", cell: c });
const hexCell = (hex: string): TupleItem => cell(Cell.fromBoc(Buffer.from(hex, "hex"))[0] as Cell);
const EMPTY = beginCell().endCell();
const ok = (stack: TupleItem[]): GetMethodAnswer => ({ stack });
const dataOf = (v: GetMethodVector): Cell => Cell.fromBase64(v.data_boc);

/** TEP-64 off-chain content: `offchain#01 uri:Text`. */
export const offchainContent = (uri: string): Cell =>
  beginCell().storeUint(1, 8).storeStringTail(uri).endCell();

/** TEP-64 on-chain content: `onchain#00 data:(HashmapE 256 ^ContentData)`, values `snake#00`. */
export function onchainContent(fields: Record<string, string>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  for (const [k, v] of Object.entries(fields)) {
    const key = BigInt(`0x${createHash("sha256").update(k).digest("hex")}`);
    dict.set(key, beginCell().storeUint(0, 8).storeStringTail(v).endCell());
  }
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

function jettonData(supply: bigint | string, admin: string | null, content: Cell, walletCode: Cell) {
  return ok([int(supply), int(-1n), addr(admin), cell(content), cell(walletCode)]);
}

// ---------------------------------------------------------------- v1 pool (tongo "stonfi pool")

export const V1_POOL = vector("stonfi pool");
const V1_ROUTER = "0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E";

function v1Pool(): Account {
  const e = V1_POOL.expected as Record<string, string>;
  const s = V1_POOL.independently_parsed_storage as Record<string, string>;
  const data = dataOf(V1_POOL);
  const raw = V1_POOL.account;
  return {
    data,
    methods: {
      // contracts.md §2.10: (reserve0, reserve1, token0, token1, lp_fee, protocol_fee, ref_fee,
      // protocol_fee_address, collected0, collected1)
      get_pool_data: ok([
        int(e.reserve0 as string),
        int(e.reserve1 as string),
        addr(e.token0_address as string),
        addr(e.token1_address as string),
        int(e.lp_fee as string),
        int(e.protocol_fee as string),
        int(e.ref_fee as string),
        addr(e.protocol_fee_address as string),
        int(e.collected_token0_protocol_fee as string),
        int(e.collected_token1_protocol_fee as string),
      ]),
      // (total_supply_lp, -1, router, content, lp_wallet_code); content: the off-chain LP URI (§2.2); the
      // LP wallet code is the data cell's second ref (v1 pool storage keeps it).
      get_jetton_data: jettonData(
        s.total_supply_lp as string,
        V1_ROUTER,
        offchainContent(`https://lp.ston.fi/${raw}.json`),
        data.refs[1] as Cell,
      ),
    },
  };
}

// ---------------------------------------------------------------- v2 pools

type V2Vector = { vector: GetMethodVector; type: V2PoolType };
export const V2_POOLS: V2Vector[] = [
  { vector: vector("Ston-fi get_pool_data v2"), type: "constant_product" },
  { vector: vector("stonfi v2 const product"), type: "constant_product" },
  { vector: vector("stonfi v2 stableswap"), type: "stableswap" },
  { vector: vector("stonfi v2 weighted stableswap"), type: "weighted_stableswap" },
];

export type V2Storage = {
  is_locked: boolean;
  router: string;
  total_supply_lp: string;
  reserve0: string;
  reserve1: string;
  token0: string;
  token1: string;
  lp_fee: string;
  protocol_fee: string;
  protocol_fee_address: string | null;
  collected_token0_protocol_fee: string;
  collected_token1_protocol_fee: string;
  amp?: string;
  rate?: string;
  w0?: string;
  rate_setter?: string | null;
};

/** contracts.md §3.10: the common 12, then amp (stableswap) / w0 (WCPI) / amp, rate, w0, rate_setter. */
export function v2PoolDataStack(s: V2Storage, type: V2PoolType): TupleItem[] {
  const common = [
    int(s.is_locked),
    addr(s.router),
    int(s.total_supply_lp),
    int(s.reserve0),
    int(s.reserve1),
    addr(s.token0),
    addr(s.token1),
    int(s.lp_fee),
    int(s.protocol_fee),
    addr(s.protocol_fee_address),
    int(s.collected_token0_protocol_fee),
    int(s.collected_token1_protocol_fee),
  ];
  if (type === "stableswap") return [...common, int(s.amp as string)];
  if (type === "weighted_const_product") return [...common, int(s.w0 as string)];
  if (type === "weighted_stableswap") {
    return [
      ...common,
      int(s.amp as string),
      int(s.rate as string),
      int(s.w0 as string),
      addr(s.rate_setter ?? null),
    ];
  }
  return common;
}

/** The `^static` cell of a v2 pool's data: [router token0 token1 ^lp_wallet_code ^lp_account_code]. */
const staticOf = (data: Cell): Cell => data.refs[data.refs.length - 1] as Cell;

function v2Pool(storage: V2Storage, type: V2PoolType, address: string, data: Cell | null): Account {
  const statics = data === null ? null : staticOf(data);
  return {
    ...(data === null ? {} : { data }),
    methods: {
      get_pool_type: ok([text(type)]),
      get_pool_data: ok(v2PoolDataStack(storage, type)),
      // LP metadata URI per contracts.md §3.2
      get_jetton_data: jettonData(
        storage.total_supply_lp,
        storage.router,
        offchainContent(`https://meta.ston.fi/lp/v1/${address}.json`),
        (statics?.refs[0] as Cell | undefined) ?? EMPTY,
      ),
    },
  };
}

/** A pool state from test/vectors/amm (`params` of its first case) as v2 pool storage, at labelled addresses. */
function ammPool(file: string, type: V2PoolType): { address: string; storage: V2Storage } {
  const amm = readJson(`amm/${file}`) as { cases: { params: Record<string, string | boolean> }[] };
  const p = (amm.cases[0] as { params: Record<string, string | boolean> }).params;
  const address = labelled(`stand-in ${type} pool`);
  return {
    address,
    storage: {
      is_locked: p.is_locked as boolean,
      router: labelled(`stand-in ${type} router`),
      total_supply_lp: p.lp_supply as string,
      reserve0: p.reserve0 as string,
      reserve1: p.reserve1 as string,
      token0: labelled(`stand-in ${type} token0 wallet`),
      token1: labelled(`stand-in ${type} token1 wallet`),
      lp_fee: p.lp_fee_bps as string,
      protocol_fee: p.protocol_fee_bps as string,
      protocol_fee_address: null,
      collected_token0_protocol_fee: p.collected_protocol_fee0 as string,
      collected_token1_protocol_fee: p.collected_protocol_fee1 as string,
      ...(p.w0 === undefined ? {} : { w0: p.w0 as string }),
    },
  };
}
export const WCPI_POOL = ammPool("v2_weighted_const_product_swap.public.json", "weighted_const_product");
export const CSUM_POOL = ammPool("v2_constant_sum_swap.public.json", "constant_sum");

// ---------------------------------------------------------------- router, vault, LpAccount, wallets

export const ROUTER_V21 = vector("Ston-fi get_router_data v2");

function routerV21(): Account {
  const e = ROUTER_V21.expected as Record<string, string | boolean>;
  return {
    methods: {
      // contracts.md §3.10: (id, dex_type, is_locked, admin, temp_upgrade, pool_code, lp_wallet_code,
      // lp_account_code, vault_code)
      get_router_data: ok([
        int(e.id as string),
        text(e.dex_type as string),
        int(e.is_locked as boolean),
        addr(e.admin_address as string),
        hexCell(e.temp_upgrade_boc_hex as string),
        hexCell(e.pool_code_boc_hex as string),
        hexCell(e.jetton_lp_wallet_code_boc_hex as string),
        hexCell(e.lp_account_code_boc_hex as string),
        hexCell(e.vault_code_boc_hex as string),
      ]),
      get_router_version: (() => {
        const v = vector("Ston-fi get_router_version v2").expected as Record<string, string>;
        return ok([int(v.major as string), int(v.minor as string), text(v.development as string)]);
      })(),
    },
  };
}

export const VAULT = vector("Ston-fi get_vault_data v2");

function vault(): Account {
  const e = VAULT.expected as Record<string, string>;
  return {
    methods: {
      get_vault_data: ok([
        addr(e.owner_address as string),
        addr(e.token_address as string),
        addr(e.router_address as string),
        int(e.deposited_amount as string),
      ]),
    },
  };
}

/** The provide of stonfi-messages.json #4-#8: user and pool, and what its LpAccount held in between. */
export const PROVIDE = {
  user: "0:2FA3408E53CD05C384116309F5AD746A39ABC4244F2B0B0872193B45928077A7",
  pool: "0:228829D720692D8247906D717772F84B14631269157EFDDC55F06130CDE523BC",
  amount0: 0n,
  amount1: 200_000_000n,
};

/** LpAccount address: StateInit(code = the pool's stored lp_account_code, data = user pool 0 0), §3.2. */
export function lpAccountAddress(poolData: Cell, user: string, pool: string): string {
  const code = staticOf(poolData).refs[1] as Cell;
  const data = beginCell()
    .storeAddress(Address.parseRaw(user))
    .storeAddress(Address.parseRaw(pool))
    .storeCoins(0n)
    .storeCoins(0n)
    .endCell();
  return contractAddress(0, { code, data }).toRawString().toUpperCase();
}

type JettonWalletRow = { address: string; owner: string; jetton: string; balance: number };

/** Jetton wallets named by the recorded traces' `interfaces` (the indexer's view of them). */
export function traceJettonWallets(): JettonWalletRow[] {
  const rows = new Map<string, JettonWalletRow>();
  for (const file of ["v2-jetton-to-jetton.json", "v2-jetton-to-jetton-two-routers-referral.json"]) {
    const trace = readJson(`mainnet-traces/${file}`) as {
      interfaces: Record<string, { JettonWallet?: JettonWalletRow }>;
    };
    for (const i of Object.values(trace.interfaces)) {
      if (i.JettonWallet !== undefined) rows.set(i.JettonWallet.address, i.JettonWallet);
    }
  }
  return [...rows.values()];
}

/** USD₮'s master (test/vectors/mainnet-traces INDEX.md) and the v2.2 CPI router's USD₮ wallet, token0 of
 * its USD₮/pTON pool 0:8649CAD9… (stonfi-getmethods.json: "USDT/pTON on router 0:92E141…"). */
export const USDT_MASTER = "0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE";
export const ROUTER_V22_CPI = "0:92E1411AE546892F33B2C8A89EA90390D8FF4CFBB917A643B91E73F706FDB9D1";

function jettonWallet(balance: bigint | number, owner: string, master: string): Account {
  // wallet code: not recorded (an empty cell; nothing reads it)
  return { methods: { get_wallet_data: ok([int(BigInt(balance)), addr(owner), addr(master), cell(EMPTY)]) } };
}

// ---------------------------------------------------------------- everything together

export type ChainData = { accounts: Map<string, Account>; files: Map<string, StaticFile> };

export function mainnetChainData(): ChainData {
  const accounts = new Map<string, Account>();
  accounts.set(V1_POOL.account, v1Pool());
  for (const { vector: v, type } of V2_POOLS) {
    accounts.set(
      v.account,
      v2Pool(v.independently_parsed_storage as unknown as V2Storage, type, v.account, dataOf(v)),
    );
  }
  for (const [p, type] of [
    [WCPI_POOL, "weighted_const_product"],
    [CSUM_POOL, "constant_sum"],
  ] as const) {
    accounts.set(p.address, v2Pool(p.storage, type, p.address, null));
  }
  const provideData = dataOf(vector("Ston-fi get_pool_data v2"));
  const lpAccount = lpAccountAddress(provideData, PROVIDE.user, PROVIDE.pool);
  const providePool = accounts.get(PROVIDE.pool) as Account;
  providePool.methods.get_lp_account_address = (args) => {
    const owner = (args[0] as { cell: Cell }).cell.beginParse().loadAddress().toRawString().toUpperCase();
    return ok([addr(lpAccountAddress(provideData, owner, PROVIDE.pool))]);
  };
  accounts.set(lpAccount, {
    methods: {
      get_lp_account_data: ok([
        addr(PROVIDE.user),
        addr(PROVIDE.pool),
        int(PROVIDE.amount0),
        int(PROVIDE.amount1),
      ]),
    },
  });
  accounts.set(ROUTER_V21.account, routerV21());
  accounts.set(VAULT.account, vault());
  // get_pool_address on the v2.2 CPI router: its USD₮/pTON pool, as that pool's data names the router and
  // the two wallets (either order).
  const cpi = vector("stonfi v2 const product");
  const cpiStorage = cpi.independently_parsed_storage as unknown as V2Storage;
  accounts.set(ROUTER_V22_CPI, {
    methods: {
      get_pool_address: (args) => {
        const wallets = args.map((a) =>
          (a as { cell: Cell }).cell.beginParse().loadAddress().toRawString().toUpperCase(),
        );
        const known = [cpiStorage.token0, cpiStorage.token1];
        const match =
          wallets.length === 2 && wallets.every((w) => known.includes(w)) && wallets[0] !== wallets[1];
        // the router throws 86 for equal wallets (§3.10); other pairs have pools this stand-in does not know
        return match ? ok([addr(cpi.account)]) : { exitCode: 86, stack: [] };
      },
    },
  });
  // The router's USD₮ wallet: owner and master as above; its balance is not recorded (0 here, read by no test).
  accounts.set(cpiStorage.token0, jettonWallet(0n, ROUTER_V22_CPI, USDT_MASTER));
  // Jetton masters and wallets from the traces' interfaces.
  const wallets = traceJettonWallets();
  for (const w of wallets) accounts.set(w.address, jettonWallet(w.balance, w.owner, w.jetton));
  for (const master of new Set(wallets.map((w) => w.jetton))) {
    accounts.set(master, {
      methods: {
        get_wallet_address: (args) => {
          const owner = (args[0] as { cell: Cell }).cell
            .beginParse()
            .loadAddress()
            .toRawString()
            .toUpperCase();
          const w = wallets.find((x) => x.jetton === master && x.owner === owner);
          // an owner the recordings do not pair with this master: not derivable without the wallet code
          return w === undefined ? { exitCode: 1000, stack: [] } : ok([addr(w.address)]);
        },
      },
    });
  }
  return { accounts, files: new Map() };
}
