/**
 * The devnet's TEP-74 jettons: minter (admin mint, TEP-64 on-chain metadata, TEP-89 discovery) and wallet.
 * See ../README.md for the conventions every devnet contract follows.
 */
import type { CodeRegistry } from "../../chain/registry.ts";
import { instantiate } from "../../chain/types.ts";
import {
  JETTON_MINTER_CODE,
  JETTON_WALLET_CODE,
  parseJettonMinterData,
  parseJettonWalletData,
} from "./codes.ts";
import { jettonMinterHandler } from "./minter.ts";
import { requireData } from "./support.ts";
import { jettonWalletHandler } from "./wallet.ts";

export {
  JETTON_MINTER_CODE,
  JETTON_WALLET_CODE,
  type JettonMinterState,
  type JettonWalletState,
  jettonMinterData,
  jettonMinterInit,
  jettonWalletAddress,
  jettonWalletData,
  jettonWalletInit,
} from "./codes.ts";
export { buildJettonContent, type JettonMetadata, parseJettonMetadata } from "./metadata.ts";
export {
  decodeJettonMint,
  JETTON_MINT_OP,
  JETTON_MINT_OP_LEGACY,
  type JettonMint,
  jettonMintBody,
} from "./mint.ts";
export { jettonMinterHandler } from "./minter.ts";
export { JETTON_EXIT } from "./support.ts";
export { JETTON_WALLET_MIN_STORAGE, jettonWalletHandler } from "./wallet.ts";

export function registerJettons(registry: CodeRegistry): CodeRegistry {
  return registry
    .register(JETTON_MINTER_CODE, ({ data }) =>
      instantiate(jettonMinterHandler, parseJettonMinterData(requireData(data, jettonMinterHandler.kind))),
    )
    .register(JETTON_WALLET_CODE, ({ data }) =>
      instantiate(jettonWalletHandler, parseJettonWalletData(requireData(data, jettonWalletHandler.kind))),
    );
}
