/**
 * The devnet's pTON contracts: v1 (used by STON.fi v1 routers, contracts.md §2.11) and v2.1 (TEP-161, used by
 * v2 routers, §3.11), each a minter and a wallet. A router's pTON wallet can be created at genesis with
 * `chain.deployGenesis(ptonV1WalletInit(router, minter), balance)` (or the v2 variant), or on chain with the
 * minter's `deploy_wallet`. See ../README.md for the conventions every devnet contract follows.
 */
import type { CodeRegistry } from "../../chain/registry.ts";
import { instantiate } from "../../chain/types.ts";
import { requireData } from "../jetton/support.ts";
import {
  PTON_V1_MINTER_CODE,
  PTON_V1_WALLET_CODE,
  PTON_V2_MINTER_CODE,
  PTON_V2_WALLET_CODE,
  parsePtonV1MinterData,
  parsePtonV2MinterData,
  parsePtonWalletData,
} from "./codes.ts";
import { ptonV1MinterHandler } from "./v1-minter.ts";
import { ptonV1WalletHandler } from "./v1-wallet.ts";
import { ptonV2MinterHandler } from "./v2-minter.ts";
import { ptonV2WalletHandler } from "./v2-wallet.ts";

export {
  PTON_CONTENT,
  PTON_V1_MINTER_CODE,
  PTON_V1_WALLET_CODE,
  PTON_V2_MINTER_CODE,
  PTON_V2_WALLET_CODE,
  type PtonV1MinterState,
  type PtonV2MinterState,
  type PtonWalletState,
  ptonV1MinterInit,
  ptonV1WalletAddress,
  ptonV1WalletInit,
  ptonV2MinterInit,
  ptonV2WalletAddress,
  ptonV2WalletInit,
  ptonWalletData,
} from "./codes.ts";
export { PTON_STORAGE_RESERVE, PTON_V2_DEPLOY_GAS, PTON_V2_EXIT, PTON_V2_VERSION } from "./support.ts";
export { ptonV1MinterHandler } from "./v1-minter.ts";
export { ptonV1WalletHandler } from "./v1-wallet.ts";
export { ptonV2MinterHandler } from "./v2-minter.ts";
export { ptonV2WalletHandler } from "./v2-wallet.ts";

export function registerPton(registry: CodeRegistry): CodeRegistry {
  return registry
    .register(PTON_V1_MINTER_CODE, ({ data }) =>
      instantiate(ptonV1MinterHandler, parsePtonV1MinterData(requireData(data, ptonV1MinterHandler.kind))),
    )
    .register(PTON_V1_WALLET_CODE, ({ data }) =>
      instantiate(ptonV1WalletHandler, parsePtonWalletData(requireData(data, ptonV1WalletHandler.kind))),
    )
    .register(PTON_V2_MINTER_CODE, ({ data }) =>
      instantiate(ptonV2MinterHandler, parsePtonV2MinterData(requireData(data, ptonV2MinterHandler.kind))),
    )
    .register(PTON_V2_WALLET_CODE, ({ data }) =>
      instantiate(ptonV2WalletHandler, parsePtonWalletData(requireData(data, ptonV2WalletHandler.kind))),
    );
}
