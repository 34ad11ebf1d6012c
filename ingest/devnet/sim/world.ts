/**
 * The devnet world at genesis: the chain with every contract kind registered, the admin and user wallets,
 * jetton minters for the catalogue, pTON v1 and v2.1, the v1 router and the five v2 routers with their pTON
 * wallets. Accounts are created as a zerostate would (no transactions); everything after genesis (mints,
 * first liquidity, trading) happens through messages.
 */
import type { Address } from "@ton/core";
import { Chain, type ChainOptions } from "../chain/chain.ts";
import { CodeRegistry } from "../chain/registry.ts";
import { registerWallet, type Transfer, walletInit, walletTransferBody } from "../chain/wallet.ts";
import { jettonMinterInit, registerJettons } from "../contracts/jetton/index.ts";
import {
  ptonV1MinterInit,
  ptonV1WalletInit,
  ptonV2MinterInit,
  ptonV2WalletInit,
  registerPton,
} from "../contracts/pton/index.ts";
import { registerStonfiV1, v1RouterInit } from "../contracts/stonfi-v1/index.ts";
import { registerStonfiV2, v2RouterInit } from "../contracts/stonfi-v2/index.ts";
import { ASSETS, TON_SYMBOL } from "./catalog.ts";
import { type RouterKey, type UserMessage, V2_ROUTERS, type V2RouterKey } from "./types.ts";

const TON = 1_000_000_000n;

export type Actor = {
  readonly role: "admin" | "lp" | "trader" | "referrer";
  readonly address: Address;
  seqno: number;
};

export type RouterHandle = {
  readonly key: RouterKey;
  readonly dex: "v1" | "v2";
  readonly address: Address;
  /** The pTON minter this router uses for TON (v1: pTON v1, v2: pTON v2.1). */
  readonly ptonMinter: Address;
};

export type WorldOptions = {
  traders?: number;
  lps?: number;
  referrers?: number;
  chain?: ChainOptions;
};

export type World = {
  readonly chain: Chain;
  readonly admin: Actor;
  readonly lps: readonly Actor[];
  readonly traders: readonly Actor[];
  readonly referrers: readonly Actor[];
  /** Jetton masters by symbol (TON is absent: it travels through pTON). */
  readonly masters: ReadonlyMap<string, Address>;
  readonly routers: ReadonlyMap<RouterKey, RouterHandle>;
  readonly ptonV1: Address;
  readonly ptonV2: Address;
};

export function devnetRegistry(): CodeRegistry {
  const registry = new CodeRegistry();
  registerWallet(registry);
  registerJettons(registry);
  registerPton(registry);
  registerStonfiV1(registry);
  registerStonfiV2(registry);
  return registry;
}

function actors(chain: Chain, role: Actor["role"], firstId: number, count: number, balance: bigint): Actor[] {
  return Array.from({ length: count }, (_, i) => ({
    role,
    address: chain.deployGenesis(walletInit(BigInt(firstId + i)), balance),
    seqno: 0,
  }));
}

export function createWorld(options: WorldOptions = {}): World {
  const chain = new Chain({ ...options.chain, registry: devnetRegistry() });
  const [admin] = actors(chain, "admin", 1, 1, 10n ** 12n * TON);
  const lps = actors(chain, "lp", 100, options.lps ?? 8, 10n ** 10n * TON);
  const traders = actors(chain, "trader", 1_000, options.traders ?? 64, 10n ** 7n * TON);
  const referrers = actors(chain, "referrer", 10_000, options.referrers ?? 6, 10n * TON);
  const masters = new Map<string, Address>();
  for (const asset of ASSETS) {
    if (asset.symbol === TON_SYMBOL) continue;
    const metadata = {
      symbol: asset.symbol,
      name: asset.name,
      decimals: asset.decimals,
      image: `https://devnet.tondex.invalid/assets/${asset.symbol}.png`,
      description: `${asset.name}, a tondex devnet test asset`,
    };
    masters.set(
      asset.symbol,
      chain.deployGenesis(jettonMinterInit({ admin: admin!.address, metadata }), TON),
    );
  }
  const ptonV1 = chain.deployGenesis(ptonV1MinterInit(), TON);
  const ptonV2 = chain.deployGenesis(ptonV2MinterInit(), TON);
  const routers = new Map<RouterKey, RouterHandle>();
  const v1 = chain.deployGenesis(v1RouterInit({ admin: admin!.address }), 10n * TON);
  chain.deployGenesis(ptonV1WalletInit(v1, ptonV1), TON);
  routers.set("v1", { key: "v1", dex: "v1", address: v1, ptonMinter: ptonV1 });
  for (const [key, spec] of Object.entries(V2_ROUTERS) as [V2RouterKey, (typeof V2_ROUTERS)[V2RouterKey]][]) {
    const address = chain.deployGenesis(v2RouterInit({ ...spec, admin: admin!.address }), 10n * TON);
    chain.deployGenesis(ptonV2WalletInit(address, ptonV2), TON);
    routers.set(key, { key, dex: "v2", address, ptonMinter: ptonV2 });
  }
  return { chain, admin: admin!, lps, traders, referrers, masters, routers, ptonV1, ptonV2 };
}

/**
 * Queues one external from `actor`'s wallet carrying up to 4 messages (what wallet v3/v4 allow), valid for
 * ten minutes of devnet time.
 */
export function send(world: World, actor: Actor, messages: readonly UserMessage[]): void {
  if (messages.length === 0 || messages.length > 4) {
    throw new RangeError(`a wallet external carries 1..4 messages, got ${messages.length}`);
  }
  const transfers: Transfer[] = messages.map((m) => ({ to: m.to, value: m.value, body: m.body }));
  // valid_until: 10 minutes, or two blocks when blocks are slower (the message is delivered next block).
  const validUntil = world.chain.utime + Math.max(600, 2 * world.chain.blockSeconds);
  const body = walletTransferBody(actor.seqno, validUntil, transfers);
  actor.seqno++;
  world.chain.sendExternal(actor.address, body);
}
