// STON.fi DEX v2 (v2.1 and v2.2 share every value, contracts.md §3.12) op codes.
// Messages are CRC32(TL-B line) & 0x7fffffff; set_params, internal_set_params and set_rate are unmasked
// CRC32 of the bare name (contracts.md §0.2).
// Source: shared/reference/contracts.md §3.3 ([v2-src] github.com/ston-fi/dex-core-v2 `contracts/common/op.fc`).
// Note §8.1: the docs' values for internal_set_fees / internal_set_params are wrong; these are the contract's.
export const STONFI_V2_OP = {
  swap: 0x6664de2a,
  cross_swap: 0x69cf1a5b,
  provide_lp: 0x37c096df,
  pay_to: 0x657b54f5,
  pay_vault: 0x63381632,
  add_liquidity: 0x50c6a654,
  cb_add_liquidity: 0x06ecd527,
  direct_add_liquidity: 0x0ff8bfc6,
  refund_me: 0x132b9a2c,
  cb_refund_me: 0x0f98e2b8,
  burn_notification_ext: 0x297437cf,
  collect_fees: 0x1ee4911e,
  set_fees: 0x58274069,
  internal_set_fees: 0x75930d63,
  reset_gas: 0x29d22935,
  reset_pool_gas: 0x66d0dff2,
  update_status: 0x38a6022f,
  update_pool_status: 0x2af4607c,
  internal_update_status: 0x62752512,
  init_code_upgrade: 0x03601fc8,
  init_admin_upgrade: 0x0b02fd5b,
  cancel_code_upgrade: 0x1f72111a,
  cancel_admin_upgrade: 0x72d6b3b4,
  init_pool_code_upgrade: 0x29be3423,
  cancel_pool_code_upgrade: 0x3d51269b,
  finalize_upgrades: 0x4e6707b7,
  update_pool_code: 0x68e89380,
  internal_update_pool_code: 0x355d097e,
  getter_pool_address: 0x2993ade0,
  getter_pool_data: 0x26df39fc,
  getter_lp_account_address: 0x15fbca95,
  getter_lp_account_data: 0x24cfc100,
  set_params: 0x2b8b3b62,
  internal_set_params: 0xf163444a,
  set_rate: 0x4a2bddb0,
} as const;

// Vault (per referrer and token) messages. Source: contracts.md §3.3 and §3.6.
export const STONFI_V2_VAULT_OP = {
  deposit_ref_fee: 0x0490f09b,
  withdraw_fee: 0x354bcdf4,
  vault_pay_to: 0x2100c922,
} as const;

export type StonfiV2OpName = keyof typeof STONFI_V2_OP;
export type StonfiV2VaultOpName = keyof typeof STONFI_V2_VAULT_OP;
