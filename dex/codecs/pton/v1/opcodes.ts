// pTON v1 (proxy TON used by the v1 router). Its TON-in/TON-out legs use the TEP-74 `transfer` and
// `transfer_notification` ops (../../jetton/opcodes.ts).
// Source: shared/reference/contracts.md §2.11 ([sdk] PtonV1, [pton-src] libs/src/wrappers/PTon.ts).
export const PTON_V1_OP = {
  deploy_wallet: 0x6cc43573,
  reset_gas: 0x42a0fb43,
} as const;

export type PtonV1OpName = keyof typeof PTON_V1_OP;
