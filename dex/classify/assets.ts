/**
 * Which asset a router wallet holds, from what the batch itself shows:
 * - a jetton wallet deployed by an `internal_transfer` carries its StateInit, whose data names the jetton
 *   master; it is trusted only when the StateInit hashes to the destination and the owner read from it
 *   equals the owner the parent `transfer` (or the wallet's own `transfer_notification`) names;
 * - wallets linked by `internal_transfer` belong to the same jetton, so one resolved wallet resolves all;
 * - pTON wallets are recognised by behaviour (pTON v2 `ton_transfer`; pTON v1 turns a `transfer` straight
 *   into a `transfer_notification`) and by known addresses;
 * - caller hints (e.g. a recorded trace's interfaces) fill only what is still unknown.
 */
import { Address, Cell, contractAddress, loadStateInit, type Slice } from "@ton/core";
import type { RawMessage } from "../../schemas/raw-transaction.ts";
import type { DecodedBatch, DecodedMessage } from "./decode.ts";
import { childTx } from "./decode.ts";
import { KNOWN_PTON_WALLETS, PTON_V2_MASTER } from "./known.ts";
import type { WalletData } from "./message.ts";
import { type ClassifyMemo, memoised, WALLET_DATA_ENTRIES } from "./message-cache.ts";
import type { Asset } from "./types.ts";
import { raw } from "./util.ts";

export type AssetResolver = { assetOf(routerWallet: string | null): Asset };

export type { WalletData } from "./message.ts";

/** Jetton-wallet data layouts seen on mainnet: TEP-74 reference, and `status:uint4` first (USD₮, NOT). */
const LAYOUTS: ReadonlyArray<(s: Slice) => WalletData> = [
  (s) => {
    s.loadCoins();
    return { owner: raw(s.loadAddress()), master: raw(s.loadAddress()) };
  },
  (s) => {
    s.loadUint(4);
    s.loadCoins();
    return { owner: raw(s.loadAddress()), master: raw(s.loadAddress()) };
  },
];

function walletDataCandidates(m: RawMessage): WalletData[] {
  if (m.init_boc === undefined || m.destination === null) return [];
  try {
    const init = loadStateInit(Cell.fromBase64(m.init_boc).beginParse());
    const dest = Address.parseRaw(m.destination);
    if (!contractAddress(dest.workChain, init).equals(dest) || !init.data) return [];
    const out: WalletData[] = [];
    for (const layout of LAYOUTS) {
      try {
        out.push(layout(init.data.beginParse()));
      } catch {
        // not this layout
      }
    }
    return out;
  } catch {
    return [];
  }
}

/** `walletDataCandidates`, answered from the memo's content cache when the same pair was read before. */
function walletDataOnce(m: RawMessage, memo: ClassifyMemo | undefined): readonly WalletData[] {
  if (memo === undefined || m.init_boc === undefined || m.destination === null)
    return walletDataCandidates(m);
  const cache = memo.walletDataByContent;
  const known = cache.byWallet.get(m.destination)?.get(m.init_boc);
  if (known !== undefined) return known;
  const data = walletDataCandidates(m);
  if (cache.pairs >= WALLET_DATA_ENTRIES) {
    cache.byWallet.clear();
    cache.pairs = 0;
  }
  let boc = cache.byWallet.get(m.destination);
  if (boc === undefined) {
    boc = new Map();
    cache.byWallet.set(m.destination, boc);
  }
  boc.set(m.init_boc, data);
  cache.pairs++;
  return data;
}

/** Owners the trace itself names for the wallet `m` is sent to. */
function expectedOwners(batch: DecodedBatch, m: DecodedMessage): Set<string> {
  const owners = new Set<string>();
  const sender = batch.producer.get(m.raw.hash);
  const senderTx = sender ? batch.byTx.get(sender.tx.hash) : undefined;
  const transfer = senderTx?.in?.body;
  if (transfer?.kind === "jetton.transfer") {
    const owner = raw(transfer.destination);
    if (owner) owners.add(owner);
  }
  const receiverTx = childTx(batch, m);
  for (const out of receiverTx?.outs ?? []) {
    if (out.body.kind === "jetton.transfer_notification" && out.raw.destination)
      owners.add(out.raw.destination);
  }
  return owners;
}

class UnionFind {
  private readonly up = new Map<string, string>();
  find(x: string): string {
    let root = x;
    for (let p = this.up.get(root); p !== undefined && p !== root; p = this.up.get(root)) root = p;
    this.up.set(x, root);
    return root;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.up.set(ra, rb);
  }
}

function detectPton(batch: DecodedBatch): Map<string, "v1" | "v2"> {
  const pton = new Map<string, "v1" | "v2">();
  for (const t of batch.txs) {
    const inKind = t.in?.body.kind;
    if (inKind === "jetton.transfer" && t.outs.some((o) => o.body.kind === "pton.v2.ton_transfer")) {
      pton.set(t.tx.account, "v2");
    }
    if (
      inKind === "pton.v2.ton_transfer" &&
      t.outs.some((o) => o.body.kind === "jetton.transfer_notification")
    ) {
      pton.set(t.tx.account, "v2");
    }
    const notifiesDirectly =
      inKind === "jetton.transfer" &&
      t.outs.some((o) => o.body.kind === "jetton.transfer_notification") &&
      !t.outs.some((o) => o.body.kind === "jetton.internal_transfer");
    if (notifiesDirectly && !pton.has(t.tx.account)) pton.set(t.tx.account, "v1");
  }
  return pton;
}

export function resolveAssets(
  batch: DecodedBatch,
  hints?: ReadonlyMap<string, string>,
  memo?: ClassifyMemo,
): AssetResolver {
  const groups = new UnionFind();
  const derived = new Map<string, string | null>(); // group root → master (null = conflicting)
  const direct: Array<[wallet: string, master: string]> = [];
  for (const m of batch.messages.values()) {
    if (m.body.kind !== "jetton.internal_transfer" || !m.raw.destination) continue;
    const owners = expectedOwners(batch, m);
    const data = memoised(memo?.walletData, m.raw, (raw) => walletDataOnce(raw, memo)).find(
      (d) => d.master !== null && ((d.owner !== null && owners.has(d.owner)) || d.master === m.raw.source),
    );
    if (data?.master) direct.push([m.raw.destination, data.master]);
    const isMint = data?.master === m.raw.source;
    if (m.raw.source && !isMint) groups.union(m.raw.source, m.raw.destination);
  }
  for (const [wallet, master] of direct) {
    const root = groups.find(wallet);
    const known = derived.get(root);
    derived.set(root, known === undefined || known === master ? master : null);
  }
  const pton = detectPton(batch);

  const masterOf = (wallet: string): string | null => {
    const fromTrace = derived.get(groups.find(wallet));
    if (fromTrace) return fromTrace;
    if (hints?.has(wallet)) return hints.get(wallet) ?? null;
    return null;
  };
  return {
    assetOf(routerWallet) {
      if (routerWallet === null) return { kind: "jetton", master: null, router_wallet: null };
      const knownPton = KNOWN_PTON_WALLETS.get(routerWallet);
      const ptonVersion = pton.get(routerWallet);
      if (knownPton || ptonVersion) {
        const master =
          knownPton ?? hints?.get(routerWallet) ?? (ptonVersion === "v2" ? PTON_V2_MASTER : null);
        return { kind: "ton", master, router_wallet: routerWallet };
      }
      return { kind: "jetton", master: masterOf(routerWallet), router_wallet: routerWallet };
    },
  };
}
