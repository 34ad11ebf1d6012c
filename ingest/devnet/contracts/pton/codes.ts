/**
 * Code cells, storage layouts and addresses of the devnet pTON contracts (shared reference/contracts.md §2.11
 * pTON v1, §3.11 pTON v2.1):
 *
 *   v1 and v2 wallet data: balance:Coins owner:MsgAddress minter:MsgAddress        (§2.11, §3.11)
 *   v2 minter data:        id:uint32 ^wallet_code ^content                          (§3.11)
 *   v1 minter data:        total_supply:Coins admin:MsgAddress ^content ^wallet_code
 *
 * Only compiled pTON v1 code is public, so the v1 minter data is the devnet's choice (the TEP-74 reference
 * minter layout with supply 0 and no admin). A wallet address is `contractAddress(0, {code, data})` with
 * balance 0, as on chain; the v1 and v2 wallet codes differ, so the same owner gets distinct wallets.
 */
import { type Address, beginCell, type Cell, type StateInit } from "@ton/core";
import type { Begin } from "../../chain/cell-writer.ts";
import { addressKey, cached, contractAddressOf } from "../../chain/derivations.ts";
import { markerCode } from "../../chain/registry.ts";
import { byIdentity2 } from "../identity-cache.ts";
import { buildJettonContent } from "../jetton/metadata.ts";

export const PTON_V1_MINTER_CODE = markerCode("pton/v1-minter");
export const PTON_V1_WALLET_CODE = markerCode("pton/v1-wallet");
export const PTON_V2_MINTER_CODE = markerCode("pton/v2-minter");
export const PTON_V2_WALLET_CODE = markerCode("pton/v2-wallet");

/** pTON metadata as the mainnet masters publish it (TEP-64 on-chain here). */
export const PTON_CONTENT = buildJettonContent({ symbol: "pTON", name: "Proxy TON", decimals: 9 });

export type PtonWalletState = {
  /** TON tokenized through this wallet (nanoton), not the account balance. */
  readonly balance: bigint;
  readonly owner: Address;
  readonly minter: Address;
};

export type PtonV1MinterState = { readonly content: Cell; readonly walletCode: Cell };
export type PtonV2MinterState = { readonly id: number; readonly content: Cell; readonly walletCode: Cell };

export const ptonWalletData = (state: PtonWalletState): Cell => ptonWalletDataWith(beginCell, state);
export function ptonWalletDataWith<C>(begin: Begin<C>, state: PtonWalletState): C {
  return begin().storeCoins(state.balance).storeAddress(state.owner).storeAddress(state.minter).endCell();
}

export function parsePtonWalletData(data: Cell): PtonWalletState {
  const s = data.beginParse();
  const state = { balance: s.loadCoins(), owner: s.loadAddress(), minter: s.loadAddress() };
  s.endParse();
  return state;
}

export const ptonV1MinterData = (state: PtonV1MinterState): Cell => ptonV1MinterDataWith(beginCell, state);
export function ptonV1MinterDataWith<C>(begin: Begin<C>, state: PtonV1MinterState): C {
  return begin()
    .storeCoins(0n)
    .storeAddress(null)
    .storeRef(state.content)
    .storeRef(state.walletCode)
    .endCell();
}

export function parsePtonV1MinterData(data: Cell): PtonV1MinterState {
  const s = data.beginParse();
  s.loadCoins();
  s.loadMaybeAddress();
  const state = { content: s.loadRef(), walletCode: s.loadRef() };
  s.endParse();
  return state;
}

export const ptonV2MinterData = (state: PtonV2MinterState): Cell => ptonV2MinterDataWith(beginCell, state);
export function ptonV2MinterDataWith<C>(begin: Begin<C>, state: PtonV2MinterState): C {
  return begin().storeUint(state.id, 32).storeRef(state.walletCode).storeRef(state.content).endCell();
}

export function parsePtonV2MinterData(data: Cell): PtonV2MinterState {
  const s = data.beginParse();
  const state = { id: s.loadUint(32), walletCode: s.loadRef(), content: s.loadRef() };
  s.endParse();
  return state;
}

export function ptonV1MinterInit(): StateInit {
  const data = ptonV1MinterData({ content: PTON_CONTENT, walletCode: PTON_V1_WALLET_CODE });
  return { code: PTON_V1_MINTER_CODE, data };
}

/** `id` only makes distinct minters possible (several pTON deployments on one devnet). */
export function ptonV2MinterInit(id = 0): StateInit {
  const data = ptonV2MinterData({ id, content: PTON_CONTENT, walletCode: PTON_V2_WALLET_CODE });
  return { code: PTON_V2_MINTER_CODE, data };
}

const walletInits = new Map<string, StateInit>();

/**
 * Memoised by the addresses' identity, then their content: every pTON transfer derives its sender's and
 * receiver's wallets.
 */
export const ptonV1WalletInit: (owner: Address, minter: Address) => StateInit = byIdentity2((owner, minter) =>
  cached(walletInits, `1${addressKey(owner)}${addressKey(minter)}`, () => ({
    code: PTON_V1_WALLET_CODE,
    data: ptonWalletData({ balance: 0n, owner, minter }),
  })),
);

export const ptonV2WalletInit: (owner: Address, minter: Address) => StateInit = byIdentity2((owner, minter) =>
  cached(walletInits, `2${addressKey(owner)}${addressKey(minter)}`, () => ({
    code: PTON_V2_WALLET_CODE,
    data: ptonWalletData({ balance: 0n, owner, minter }),
  })),
);

export const ptonV1WalletAddress: (owner: Address, minter: Address) => Address = byIdentity2(
  (owner, minter) => contractAddressOf(ptonV1WalletInit(owner, minter)),
);

export const ptonV2WalletAddress: (owner: Address, minter: Address) => Address = byIdentity2(
  (owner, minter) => contractAddressOf(ptonV2WalletInit(owner, minter)),
);
