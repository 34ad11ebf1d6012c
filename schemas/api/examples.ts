/**
 * Examples for the OpenAPI document: real addresses of the devnet that `tondex start` runs by
 * default (DEVNET_SEED=1 builds the same world every time), so a client or a fuzzer trying the examples
 * against a fresh service reaches the handlers and gets answers, not 404s. Each is also shown in the
 * other forms the API accepts (non-bounceable `UQ…` and raw `0:hex`).
 */
import { Address } from "@ton/core";
import { toRawAddress } from "../ton.ts";

/** The devnet's seed-1 world (ingest/devnet/sim/world.ts), as `GET /v1/pools` and `/v1/routers` list it. */
const DEVNET = {
  /** Native TON as the API names it (the zero address). */
  ton: "EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c",
  /** A jetton paired with TON in `pool` (token1). */
  jetton: "EQCxhNhB4jpGOXrGo5272RHmi7ZADW5WbpuN48Obb_c-9yXx",
  /** A v2.2 constant-product TON/jetton pool with reserves. */
  pool: "EQAJmcNzzmbty3JXnGtqjggYhxesdY8pr6yrVMrez625_24J",
  /** The v2.2 router of `pool`. */
  router: "EQDeEYkOCn-4fLMDdZecAvpJJsjV-LQ_LdBkFY7fXH7eJPlY",
  /** A trader's wallet: holds assets, has swapped. */
  trader: "EQBWMXZl4lVmWy2VBvBPBpi1PgrpoXGP3FtHu5CbISHprqOS",
  /** A liquidity provider's wallet: holds LP tokens of `pool`. */
  provider: "EQAaNnnqQLOqcZ4GSDBReEyT9uhVJOkPVpKEY2u4QDbLggd-",
  /** A referrer's wallet. */
  referrer: "EQDTbWVZDdXO8iZluTpKj4P6n8pCTmXbYb0dhOCIZnbEyATx",
} as const;

type Kind = keyof typeof DEVNET;

/** By parameter or body field name. */
const BY_NAME: Readonly<Record<string, Kind>> = {
  offer_address: "ton",
  ask_address: "jetton",
  token_a: "ton",
  token_b: "jetton",
  asset0: "ton",
  asset1: "jetton",
  asset: "jetton",
  unconditional_asset: "jetton",
  unconditional_assets: "jetton",
  pool: "pool",
  pool_address: "pool",
  // CoinGecko historical_trades: a ticker is a pool.
  ticker_id: "pool",
  router_address: "router",
  referral_address: "referrer",
  owner_address: "trader",
  wallet_address: "trader",
  wallet: "provider",
};

/** `{address}` means a different thing on each route. */
const ADDRESS_BY_PATH: ReadonlyArray<readonly [RegExp, Kind]> = [
  [/^\/v1\/pools\//, "pool"],
  [/^\/export\/[^/]+\/v1\/pair\//, "pool"],
  [/^\/v1\/routers\//, "router"],
  [/^\/v1\/(assets|jetton)\//, "jetton"],
];

/**
 * Examples of the other parameters a request needs to reach a handler, by name: amounts, fractions,
 * times inside the devnet's history (its clock starts at 2023-11-14T22:14:20 UTC) and the hash of a
 * transaction it indexes (the provision that opens a v2 pool, in the first blocks).
 */
export const VALUE_EXAMPLES: Readonly<Record<string, string>> = {
  units: "1000000000",
  token_a_units: "1000000000",
  slippage_tolerance: "0.01",
  referral_fee_bps: "10",
  provision_type: "Balanced",
  since: "2023-11-14T00:00:00",
  until: "2023-11-16T00:00:00",
  min_tx_timestamp: "2023-11-14T00:00:00",
  hash: "041dcd797404aefea7be39db5141b6380443c59a31cd2f95a759c0fb5c8b1049",
  tx_hash: "041dcd797404aefea7be39db5141b6380443c59a31cd2f95a759c0fb5c8b1049",
};

export type AddressExample = {
  readonly bounceable: string;
  readonly nonBounceable: string;
  readonly raw: string;
};

function forms(text: string): AddressExample {
  const address = Address.parse(text);
  return {
    bounceable: address.toString({ urlSafe: true, bounceable: true }),
    nonBounceable: address.toString({ urlSafe: true, bounceable: false }),
    raw: toRawAddress(address),
  };
}

/** The example for an address parameter or body field `name` of the route at `path` (OpenAPI syntax). */
export function addressExample(path: string, name: string): AddressExample {
  const kind =
    BY_NAME[name] ??
    ADDRESS_BY_PATH.find(([re]) => re.test(path))?.[1] ??
    (name === "address" ? "jetton" : "trader");
  return forms(DEVNET[kind]);
}
