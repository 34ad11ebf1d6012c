-- The makers' ids of 018's wallet_id_lookup kept in an EmbeddedRocksDB table instead of a Join table. The
-- Join table held every maker in memory, about 200 bytes each (49 MiB for the 10M-swap bulk store's 246,363
-- makers, ~1.1 GiB at STON.fi's ~5.7M); a RocksDB table keeps them on disk (18 MiB there), and a LEFT JOIN
-- on its primary key is a key lookup per maker (the `direct` join algorithm), as fast as joinGet was
-- (a window's raw edges: 6-8 ms either way). RocksDB writes through its log, so an insert that returned is
-- kept. Still only ever copied from wallet_ids (infra/store/rollups.ts `assignWalletIds`: an insert of a key
-- that is there replaces it with the same id).
-- Re-running this file after an interruption drops the table again and copies wallet_ids into a new one.

DROP TABLE IF EXISTS wallet_id_lookup;

CREATE TABLE IF NOT EXISTS wallet_id_lookup
(
  wallet String COMMENT 'maker address, as wallet_ids',
  id UInt32 COMMENT 'its dense id, as wallet_ids'
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY wallet
COMMENT 'wallet_ids by key on disk, joined by the leg reads (copied by infra/store/rollups.ts assignWalletIds)';

INSERT INTO wallet_id_lookup SELECT wallet, id FROM wallet_ids;
