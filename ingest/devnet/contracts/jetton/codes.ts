/**
 * Code cells, storage layouts and address derivation of the devnet's TEP-74 jetton minter and wallet
 * (TEP-74 https://github.com/ton-blockchain/TEPs/blob/master/text/0074-jettons-standard.md and the reference
 * token-contract `ft/jetton-minter.fc` / `ft/jetton-wallet.fc` storage):
 *
 *   minter data: total_supply:Coins admin_address:MsgAddress content:^Cell jetton_wallet_code:^Cell
 *   wallet data: balance:Coins owner_address:MsgAddress jetton_master_address:MsgAddress jetton_wallet_code:^Cell
 *
 * A wallet's address is `contractAddress(0, {code, data with balance 0})`, so deriving it needs exactly what
 * the real minter needs (owner, master, wallet code); the wallet code is the devnet marker cell.
 */
import { type Address, beginCell, type Cell, type StateInit } from "@ton/core";
import type { Begin } from "../../chain/cell-writer.ts";
import { addressKey, cached, contractAddressOf } from "../../chain/derivations.ts";
import { markerCode } from "../../chain/registry.ts";
import { byIdentity2 } from "../identity-cache.ts";
import { buildJettonContent, type JettonMetadata } from "./metadata.ts";

export const JETTON_MINTER_CODE = markerCode("jetton/minter");
export const JETTON_WALLET_CODE = markerCode("jetton/wallet");

export type JettonMinterState = {
  readonly totalSupply: bigint;
  readonly admin: Address | null;
  readonly content: Cell;
  readonly walletCode: Cell;
};

export type JettonWalletState = {
  readonly balance: bigint;
  readonly owner: Address;
  readonly master: Address;
  readonly walletCode: Cell;
};

export const jettonMinterData = (state: JettonMinterState): Cell => jettonMinterDataWith(beginCell, state);
export function jettonMinterDataWith<C>(begin: Begin<C>, state: JettonMinterState): C {
  return begin()
    .storeCoins(state.totalSupply)
    .storeAddress(state.admin)
    .storeRef(state.content)
    .storeRef(state.walletCode)
    .endCell();
}

export function parseJettonMinterData(data: Cell): JettonMinterState {
  const s = data.beginParse();
  const state = {
    totalSupply: s.loadCoins(),
    admin: s.loadMaybeAddress(),
    content: s.loadRef(),
    walletCode: s.loadRef(),
  };
  s.endParse();
  return state;
}

export const jettonWalletData = (state: JettonWalletState): Cell => jettonWalletDataWith(beginCell, state);
export function jettonWalletDataWith<C>(begin: Begin<C>, state: JettonWalletState): C {
  return begin()
    .storeCoins(state.balance)
    .storeAddress(state.owner)
    .storeAddress(state.master)
    .storeRef(state.walletCode)
    .endCell();
}

export function parseJettonWalletData(data: Cell): JettonWalletState {
  const s = data.beginParse();
  const state = {
    balance: s.loadCoins(),
    owner: s.loadAddress(),
    master: s.loadAddress(),
    walletCode: s.loadRef(),
  };
  s.endParse();
  return state;
}

export function jettonMinterInit(args: { admin: Address; metadata: JettonMetadata }): StateInit {
  const data = jettonMinterData({
    totalSupply: 0n,
    admin: args.admin,
    content: buildJettonContent(args.metadata),
    walletCode: JETTON_WALLET_CODE,
  });
  return { code: JETTON_MINTER_CODE, data };
}

const walletInits = new Map<string, StateInit>();

/**
 * The StateInit a minter or a sibling wallet attaches to `internal_transfer` (balance 0); memoised by the
 * addresses' identity, then by their content.
 */
export const jettonWalletInit: (owner: Address, master: Address) => StateInit = byIdentity2((owner, master) =>
  cached(walletInits, addressKey(owner) + addressKey(master), () => {
    const data = jettonWalletData({ balance: 0n, owner, master, walletCode: JETTON_WALLET_CODE });
    return { code: JETTON_WALLET_CODE, data };
  }),
);

export const jettonWalletAddress: (owner: Address, master: Address) => Address = byIdentity2(
  (owner, master) => contractAddressOf(jettonWalletInit(owner, master)),
);
