export { type Begin, beginFast, type CellBuilder, CellWriter } from "./cell-writer.ts";
export {
  Chain,
  type ChainOptions,
  DEFAULT_BLOCK_SECONDS,
  DEFAULT_GENESIS_UTIME,
  DEVNET_SHARD,
  type DevnetBlock,
  type GetMethodResult,
} from "./chain.ts";
export { addressSliceCell, contractAddressOf } from "./derivations.ts";
export { ECHO_CODE, type EchoState, echoHandler, echoInit, registerEcho } from "./echo.ts";
export { type AnyCell, FastCell, toTonCell } from "./fast-cell.ts";
export * from "./fees.ts";
export { bounceBody } from "./messages.ts";
export { chainProvider, GetMethodError, openOnChain } from "./provider.ts";
export { CodeRegistry, type ContractFactory, markerCode } from "./registry.ts";
export type * from "./truth.ts";
export * from "./types.ts";
export * from "./wallet.ts";
