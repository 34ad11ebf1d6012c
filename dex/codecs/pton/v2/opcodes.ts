// pTON v2 ("v2.1", TEP-161) op codes; `ton_refund` is CRC32 | 0x80000000, `reset_gas` equals STON.fi v2's.
// Source: shared/reference/contracts.md §3.11 ([pton-src] github.com/ston-fi/pton-contracts
// `contracts/common/op.fc`; [sdk] PtonV2_1; [tongo]).
export const PTON_V2_OP = {
  ton_transfer: 0x01f3835d,
  ton_refund: 0xae25d79e,
  deploy_wallet: 0x4f5f4313,
  internal_deploy: 0x6540cf85,
  reset_gas: 0x29d22935,
} as const;

export type PtonV2OpName = keyof typeof PTON_V2_OP;
