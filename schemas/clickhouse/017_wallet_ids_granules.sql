-- wallet_ids with 256-row granules. Every statistics read joins the legs of a window's raw edges (a few hundred
-- makers) to their ids by address, and the rollup rebuild looks its makers up likewise; with 8,192-row granules
-- a hundred addresses spread over the sorted key touch every granule (the whole table: 245,000 rows on the
-- 10M-swap bulk store), with 256-row ones about one granule each. The table is copied (ids unchanged) and
-- swapped in: the granularity of a table cannot be altered.
-- Re-running this file after an interruption starts the copy again from the table in place.

DROP TABLE IF EXISTS wallet_ids_next;

CREATE TABLE wallet_ids_next
(
  wallet String COMMENT 'maker address (maker, else route sender, else sender), raw',
  id UInt32 COMMENT 'dense id from 1, in order of first assignment'
)
ENGINE = ReplacingMergeTree
ORDER BY wallet
SETTINGS index_granularity = 256
COMMENT 'dense ids of the makers, for exact distinct counts as bitmaps in the rollups';

INSERT INTO wallet_ids_next SELECT wallet, id FROM wallet_ids;

EXCHANGE TABLES wallet_ids AND wallet_ids_next;

DROP TABLE wallet_ids_next;
