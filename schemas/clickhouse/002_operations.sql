-- DEX operations from the trace classifier (dex/classify/README.md, schemas/operations.ts), one table per
-- family. `id` is the classifier's stable operation id (anchor tx hash + suffix); `tx_hash`, `lt`,
-- `utime` and `mc_seqno` are those of the anchoring transaction. Assets are flattened as
-- `{p}_kind` / `{p}_master` / `{p}_router_wallet`, a payout as `payout_*` (null: no payout seen).

CREATE TABLE IF NOT EXISTS swaps
(
  id String COMMENT 'operation id (anchor tx hash + suffix)',
  tx_hash String COMMENT 'anchoring transaction: the pool tx, or the router tx for a router-level refusal',
  lt UInt64 COMMENT 'logical time of the anchoring transaction',
  mc_seqno UInt32 COMMENT 'masterchain block of the anchoring transaction',
  utime DateTime('UTC') COMMENT 'time of the anchoring transaction',
  tx_hashes Array(String) COMMENT 'every transaction of the operation seen by the processor',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  router Nullable(String) COMMENT 'router address',
  pool Nullable(String) COMMENT 'pool address; null when the router refused the request itself',
  query_id UInt64 COMMENT 'query_id of the swap request',
  sender Nullable(String) COMMENT 'from_user: the address the router credits the offer to',
  sender_wallet Nullable(String) COMMENT 'the sender''s jetton wallet that sent the offer; null for TON or not seen',
  receiver Nullable(String) COMMENT 'who receives the output',
  offer_kind Enum8('jetton' = 1, 'ton' = 2) COMMENT 'offered asset: jetton, or TON through pTON',
  offer_master Nullable(String) COMMENT 'jetton master of the offered asset (pTON master for TON); null when unknown',
  offer_router_wallet Nullable(String) COMMENT 'the router''s wallet for the offered asset (how the DEX names the token)',
  ask_kind Enum8('jetton' = 1, 'ton' = 2) COMMENT 'asked asset: jetton, or TON through pTON',
  ask_master Nullable(String) COMMENT 'jetton master of the asked asset; null when unknown',
  ask_router_wallet Nullable(String) COMMENT 'the router''s wallet for the asked asset',
  amount_in UInt256 COMMENT 'offered amount, raw units of the offer asset',
  amount_out Nullable(UInt256) COMMENT 'output paid to the receiver, raw units of the ask asset; null when refunded',
  min_out Nullable(UInt256) COMMENT 'minimum output requested (slippage bound)',
  protocol_fee Nullable(UInt256) COMMENT 'protocol fee; null: no message carries it',
  referral_fee Nullable(UInt256) COMMENT 'referral fee paid out of this swap, raw units of the ask asset',
  referrer Nullable(String) COMMENT 'referral address',
  exit_code Nullable(Int64) COMMENT 'pay_to exit code (e.g. swap_ok) or refusal code; null when not seen',
  exit_name String COMMENT 'name of exit_code (dex/exit-codes.ts)',
  success Nullable(Bool) COMMENT 'the payout really happened; false: failed or refunded; null: not decided in the batch',
  payout_to Nullable(String) COMMENT 'owner paid by the router (output or refund)',
  payout_amount Nullable(UInt256) COMMENT 'amount paid, raw units',
  payout_router_wallet Nullable(String) COMMENT 'router wallet that paid it',
  payout_receiver_wallet Nullable(String) COMMENT 'receiver jetton wallet credited; null for TON or not seen',
  payout_delivered Nullable(Bool) COMMENT 'the payout was delivered; null when the delivery is not in the batch',
  payout_tx_hash Nullable(String) COMMENT 'router transaction that executed the pay_to',
  continues_as_cross_swap Bool COMMENT 'v2 cross_swap: the output is swapped again instead of paid out',
  INDEX swaps_pool pool TYPE bloom_filter GRANULARITY 1,
  INDEX swaps_sender sender TYPE bloom_filter GRANULARITY 1,
  INDEX swaps_tx tx_hash TYPE bloom_filter GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (utime, id)
COMMENT 'swap legs (classifier type swap)';

CREATE TABLE IF NOT EXISTS swap_routes
(
  id String COMMENT 'operation id (first leg''s anchor tx hash + suffix)',
  tx_hash String COMMENT 'first leg''s pool transaction',
  lt UInt64 COMMENT 'logical time of that transaction',
  mc_seqno UInt32 COMMENT 'masterchain block of that transaction',
  utime DateTime('UTC') COMMENT 'time of that transaction',
  tx_hashes Array(String) COMMENT 'every transaction of the route seen by the processor',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  legs Array(String) COMMENT 'swap ids of the legs in hop order (swaps.id)',
  sender Nullable(String) COMMENT 'who started the route',
  receiver Nullable(String) COMMENT 'who receives the final output',
  offer_kind Enum8('jetton' = 1, 'ton' = 2) COMMENT 'first leg''s offered asset kind',
  offer_master Nullable(String) COMMENT 'first leg''s offered jetton master',
  offer_router_wallet Nullable(String) COMMENT 'first leg''s offered router wallet',
  ask_kind Enum8('jetton' = 1, 'ton' = 2) COMMENT 'last leg''s asked asset kind',
  ask_master Nullable(String) COMMENT 'last leg''s asked jetton master',
  ask_router_wallet Nullable(String) COMMENT 'last leg''s asked router wallet',
  amount_in UInt256 COMMENT 'amount offered to the first leg, raw units',
  amount_out Nullable(UInt256) COMMENT 'final output, raw units; null unless every hop succeeded',
  status Enum8('success' = 1, 'partial' = 2, 'failed' = 3, 'unknown' = 4) COMMENT 'outcome of the whole route',
  success Nullable(Bool) COMMENT 'every hop succeeded; null when not decided in the batch'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (utime, id)
COMMENT 'multi-hop swaps (classifier type swap_route)';

CREATE TABLE IF NOT EXISTS liquidity
(
  id String COMMENT 'operation id (anchor tx hash + suffix)',
  tx_hash String COMMENT 'anchoring pool transaction',
  lt UInt64 COMMENT 'logical time of the anchoring transaction',
  mc_seqno UInt32 COMMENT 'masterchain block of the anchoring transaction',
  utime DateTime('UTC') COMMENT 'time of the anchoring transaction',
  tx_hashes Array(String) COMMENT 'every transaction of the operation seen by the processor',
  kind Enum8('provide' = 1, 'mint' = 2, 'withdraw' = 3) COMMENT 'classifier type liquidity_provide, liquidity_mint or liquidity_withdraw',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  router Nullable(String) COMMENT 'router address (provide)',
  pool String COMMENT 'pool address',
  owner Nullable(String) COMMENT 'the user: provide sender, mint user, withdraw owner',
  receiver Nullable(String) COMMENT 'mint: who gets the LP (v2 to_user; v1 response address, null for a first deposit)',
  lp_account Nullable(String) COMMENT 'provide: the LpAccount that holds the deposit',
  withdraw_kind Nullable(Enum8('burn' = 1, 'lp_refund' = 2)) COMMENT 'withdraw: LP burn, or an LpAccount refund',
  amount0 UInt256 COMMENT 'token0 amount, raw units',
  amount1 UInt256 COMMENT 'token1 amount, raw units',
  asset0_kind Nullable(Enum8('jetton' = 1, 'ton' = 2)) COMMENT 'token0 kind; null for a mint',
  asset0_master Nullable(String) COMMENT 'token0 jetton master when known',
  asset0_router_wallet Nullable(String) COMMENT 'token0 router wallet',
  asset1_kind Nullable(Enum8('jetton' = 1, 'ton' = 2)) COMMENT 'token1 kind; null for a mint',
  asset1_master Nullable(String) COMMENT 'token1 jetton master when known',
  asset1_router_wallet Nullable(String) COMMENT 'token1 router wallet',
  lp_amount Nullable(UInt256) COMMENT 'LP minted (mint; null: not minted) or burned (withdraw)',
  min_lp_out Nullable(UInt256) COMMENT 'provide: minimum LP requested',
  query_id UInt64 COMMENT 'query_id of the request',
  exit_code Nullable(Int64) COMMENT 'provide: exit code of the pool transaction',
  exit_name Nullable(String) COMMENT 'provide: name of exit_code',
  success Nullable(Bool) COMMENT 'it happened (provide: the deposit reached the LpAccount); null: not decided in the batch',
  outcome Nullable(Enum8('minted' = 1, 'mint_failed' = 2, 'refunded' = 3, 'stored' = 4)) COMMENT 'provide: what became of the deposit in the LpAccount',
  INDEX liquidity_owner owner TYPE bloom_filter GRANULARITY 1,
  INDEX liquidity_tx tx_hash TYPE bloom_filter GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (pool, utime, id)
COMMENT 'liquidity provides, mints, burns and LpAccount refunds';

CREATE TABLE IF NOT EXISTS referral_fees
(
  id String COMMENT 'operation id (anchor tx hash + suffix)',
  tx_hash String COMMENT 'anchoring transaction: the pool tx (v1 direct) or the vault tx (v2 deposit)',
  lt UInt64 COMMENT 'logical time of the anchoring transaction',
  mc_seqno UInt32 COMMENT 'masterchain block of the anchoring transaction',
  utime DateTime('UTC') COMMENT 'time of the anchoring transaction',
  tx_hashes Array(String) COMMENT 'every transaction of the operation seen by the processor',
  kind Enum8('direct' = 1, 'vault_deposit' = 2) COMMENT 'direct: v1 pay_to to the referrer; vault_deposit: v2 deposit_ref_fee',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version',
  router Nullable(String) COMMENT 'router address',
  pool Nullable(String) COMMENT 'pool that charged the fee',
  vault Nullable(String) COMMENT 'v2: the referrer''s vault credited',
  referrer Nullable(String) COMMENT 'referral address',
  asset_kind Enum8('jetton' = 1, 'ton' = 2) COMMENT 'asset of the fee',
  asset_master Nullable(String) COMMENT 'jetton master of the fee asset when known',
  asset_router_wallet Nullable(String) COMMENT 'router wallet of the fee asset',
  amount UInt256 COMMENT 'fee amount, raw units',
  query_id UInt64 COMMENT 'query_id of the swap that paid it',
  msg_hash Nullable(String) COMMENT 'v2: the deposit_ref_fee message',
  success Nullable(Bool) COMMENT 'it happened; null when not decided in the batch',
  payout_to Nullable(String) COMMENT 'v1: owner paid',
  payout_amount Nullable(UInt256) COMMENT 'v1: amount paid, raw units',
  payout_router_wallet Nullable(String) COMMENT 'v1: router wallet that paid it',
  payout_receiver_wallet Nullable(String) COMMENT 'v1: receiver jetton wallet credited',
  payout_delivered Nullable(Bool) COMMENT 'v1: delivered; null when not in the batch',
  payout_tx_hash Nullable(String) COMMENT 'v1: router transaction that executed the pay_to',
  INDEX referral_fees_referrer referrer TYPE bloom_filter GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (utime, id)
COMMENT 'referral fees: v1 direct payments (referral_payment) and v2 vault deposits (vault_deposit)';

CREATE TABLE IF NOT EXISTS vault_withdrawals
(
  id String COMMENT 'operation id (anchor tx hash + suffix)',
  tx_hash String COMMENT 'anchoring vault transaction',
  lt UInt64 COMMENT 'logical time of the anchoring transaction',
  mc_seqno UInt32 COMMENT 'masterchain block of the anchoring transaction',
  utime DateTime('UTC') COMMENT 'time of the anchoring transaction',
  tx_hashes Array(String) COMMENT 'every transaction of the operation seen by the processor',
  dex Enum8('v1' = 1, 'v2' = 2) COMMENT 'STON.fi DEX version (v2)',
  router Nullable(String) COMMENT 'router address',
  vault String COMMENT 'vault address',
  owner Nullable(String) COMMENT 'vault owner (the referrer)',
  asset_kind Enum8('jetton' = 1, 'ton' = 2) COMMENT 'withdrawn asset kind',
  asset_master Nullable(String) COMMENT 'jetton master when known',
  asset_router_wallet Nullable(String) COMMENT 'router wallet of the asset',
  amount UInt256 COMMENT 'withdrawn amount, raw units',
  query_id UInt64 COMMENT 'query_id of the withdrawal',
  success Nullable(Bool) COMMENT 'it happened; null when not decided in the batch',
  payout_to Nullable(String) COMMENT 'owner paid',
  payout_amount Nullable(UInt256) COMMENT 'amount paid, raw units',
  payout_router_wallet Nullable(String) COMMENT 'router wallet that paid it',
  payout_receiver_wallet Nullable(String) COMMENT 'receiver jetton wallet credited',
  payout_delivered Nullable(Bool) COMMENT 'delivered; null when not in the batch',
  payout_tx_hash Nullable(String) COMMENT 'router transaction that executed the pay_to'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (vault, utime, id)
COMMENT 'v2 vault withdrawals of referral fees';

CREATE TABLE IF NOT EXISTS unknown_messages
(
  id String COMMENT 'classifier entry id',
  kind Enum8('unknown' = 1, 'malformed' = 2) COMMENT 'malformed: recognised by op but undecodable; unknown: not explained by any operation',
  tx_hash String COMMENT 'transaction that consumed (else sent) the message',
  lt UInt64 COMMENT 'logical time of that transaction',
  mc_seqno UInt32 COMMENT 'masterchain block of that transaction',
  utime DateTime('UTC') COMMENT 'time of that transaction',
  msg_hash Nullable(String) COMMENT 'the message concerned, when there is one',
  opcode Nullable(UInt32) COMMENT 'its op code, when it has one',
  reason String COMMENT 'why it was not explained'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(utime)
ORDER BY (utime, id)
COMMENT 'messages the classifier could not explain: counted, kept, never a crash';
