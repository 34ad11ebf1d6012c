-- Unknown is not zero: an asset whose metadata the processors could not read (no chain access, off-chain
-- content not fetched, an unreadable value) has null decimals instead of an invented 9.
ALTER TABLE assets MODIFY COLUMN IF EXISTS decimals Nullable(UInt8) COMMENT 'metadata decimals (TEP-64: 9 when on-chain content omits them); null when not known';
