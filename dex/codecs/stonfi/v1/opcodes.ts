// STON.fi DEX v1 op codes: CRC32 of the bare name (contracts.md §0.2).
// Source: shared/reference/contracts.md §2.3 ([v1-src] github.com/ston-fi/dex-core `contracts/*/op.func`).
// The jetton ops v1 reuses (transfer, internal_transfer, burn, ...) live in ../../jetton/opcodes.ts.
export const STONFI_V1_OP = {
  swap: 0x25938561,
  provide_lp: 0xfcf9e58f,
  pay_to: 0xf93bb43f,
  add_liquidity: 0x3ebe5431,
  cb_add_liquidity: 0x56dfeb8a,
  direct_add_liquidity: 0x4cf82803,
  refund_me: 0x0bf3f447,
  cb_refund_me: 0x89446a42,
  burn_notification: 0x7bdd97de,
  collect_fees: 0x1fcb7d3d,
  set_fees: 0x355423e5,
  reset_gas: 0x42a0fb43,
  reset_pool_gas: 0xf6aa9737,
  lock: 0x878f9b0e,
  unlock: 0x6ae4b0ef,
  init_code_upgrade: 0xdf1e233d,
  init_admin_upgrade: 0x2fb94384,
  cancel_code_upgrade: 0x357ccc67,
  cancel_admin_upgrade: 0xa4ed9981,
  finalize_upgrades: 0x6378509f,
  getter_pool_address: 0xd1db969b,
  getter_pool_data: 0x43c034e6,
  getter_expected_outputs: 0xed4d8b67,
  getter_lp_account_address: 0x9163a98a,
  getter_expected_tokens: 0x9ce632c5,
  getter_expected_liquidity: 0x8751801f,
  getter_lp_account_data: 0x1d439ae0,
} as const;

export type StonfiV1OpName = keyof typeof STONFI_V1_OP;
