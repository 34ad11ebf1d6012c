/**
 * What the processor learns about assets: which jetton each router wallet holds (from the classifier,
 * else from a `walletMaster` lookup, cached for good since a wallet's master never changes), and one
 * `assets` row per jetton or pTON master at first sight, with its TEP-64 metadata.
 */
import type { Asset, Operation } from "../../dex/classify/index.ts";
import type { AssetRow, PoolRow } from "../../schemas/facts.ts";
import type { CoreLookups } from "./lookups.ts";

export type AssetLearner = {
  /** Router wallet → master, for the classifier's `jettonMasters` option. */
  hints(): ReadonlyMap<string, string>;
  /** Operations with every resolvable asset master filled in. */
  enrich(ops: readonly Operation[]): Promise<Operation[]>;
  /** `assets` rows for masters seen for the first time in `ops`. */
  rows(ops: readonly Operation[]): Promise<AssetRow[]>;
  poolMasters(pool: PoolRow): Pick<PoolRow, "token0_master" | "token1_master">;
  /**
   * After a restart: what the stored pool rows say of router wallets (a token wallet and its master, as
   * this learner resolved them), so the core knows after a restart what it had learned before it. Not a
   * router row's pTON master: that is the classifier's guess, which a lookup overrides (see `fill`).
   */
  restore(rows: { pools: readonly PoolRow[] }): void;
};

const ASSET_KEYS = ["offer", "ask", "asset", "asset0", "asset1"] as const;

export function assetsOf(op: Operation): Asset[] {
  const out: Asset[] = [];
  for (const key of ASSET_KEYS) {
    const a = (op as Partial<Record<(typeof ASSET_KEYS)[number], Asset>>)[key];
    if (a !== undefined) out.push(a);
  }
  return out;
}

export function createAssetLearner(lookups: Pick<CoreLookups, "walletMaster" | "jetton">): AssetLearner {
  const masters = new Map<string, string>();
  const looked = new Set<string>();
  const emitted = new Set<string>();

  async function masterOf(wallet: string): Promise<string | null> {
    const known = masters.get(wallet);
    if (known !== undefined || looked.has(wallet)) return known ?? null;
    looked.add(wallet);
    const master = await lookups.walletMaster(wallet);
    if (master !== null) masters.set(wallet, master);
    return master;
  }

  /**
   * A jetton master named by the trace is learned; a missing one is looked up. For TON the lookup wins:
   * the classifier can only guess a pTON v2 wallet's master (mainnet's), the chain knows it.
   */
  async function fill(a: Asset): Promise<Asset> {
    if (a.router_wallet === null) return a;
    if (a.kind === "jetton" && a.master !== null) {
      masters.set(a.router_wallet, a.master);
      return a;
    }
    const master = await masterOf(a.router_wallet);
    return master === null ? a : { ...a, master };
  }

  return {
    restore(rows) {
      const learn = (wallet: string | null, master: string | null) => {
        if (wallet !== null && master !== null && !masters.has(wallet)) masters.set(wallet, master);
      };
      for (const p of rows.pools) {
        learn(p.token0_wallet, p.token0_master);
        learn(p.token1_wallet, p.token1_master);
      }
    },
    hints: () => masters,
    async enrich(ops) {
      const out: Operation[] = [];
      for (const op of ops) {
        const patched: Record<string, unknown> = { ...op };
        for (const key of ASSET_KEYS) {
          const a = (op as unknown as Partial<Record<string, Asset>>)[key];
          if (a !== undefined) patched[key] = await fill(a);
        }
        out.push(patched as Operation);
      }
      return out;
    },
    async rows(ops) {
      const rows: AssetRow[] = [];
      for (const a of ops.flatMap(assetsOf)) {
        if (a.master === null || emitted.has(a.master)) continue;
        emitted.add(a.master);
        const info = await lookups.jetton(a.master);
        const m = info?.metadata;
        rows.push({
          address: a.master,
          kind: a.kind === "ton" ? "pton" : "jetton",
          symbol: m?.symbol ?? null,
          name: m?.name ?? null,
          decimals: m?.decimals ?? null,
          image: m?.image ?? null,
          description: m?.description ?? null,
          metadata_uri: m?.uri ?? null,
          total_supply: info?.totalSupply ?? null,
          version: 1n,
        });
      }
      return rows;
    },
    poolMasters: (pool) => ({
      token0_master: (pool.token0_wallet && masters.get(pool.token0_wallet)) || pool.token0_master,
      token1_master: (pool.token1_wallet && masters.get(pool.token1_wallet)) || pool.token1_master,
    }),
  };
}
