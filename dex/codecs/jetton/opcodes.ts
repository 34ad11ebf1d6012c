// TEP-74 jetton and TEP-89 wallet-discovery op codes.
// Source: shared/reference/contracts.md §2.3 (standard ops table) and §3.3 ("Standard ops reused");
// TEP-74 https://github.com/ton-blockchain/TEPs/blob/master/text/0074-jettons-standard.md,
// TEP-89 https://github.com/ton-blockchain/TEPs/blob/master/text/0089-jetton-wallet-discovery.md
export const JETTON_OP = {
  transfer: 0x0f8a7ea5,
  internal_transfer: 0x178d4519,
  transfer_notification: 0x7362d09c,
  excesses: 0xd53276db,
  burn: 0x595f07bc,
  burn_notification: 0x7bdd97de,
  provide_wallet_address: 0x2c76b973,
  take_wallet_address: 0xd1735400,
  /** Admin → minter; the reference minter's op (see ./mint.ts). */
  mint: 0x642b7d07,
} as const;

export type JettonOpName = keyof typeof JETTON_OP;
