-- A swap leg names the multi-hop route it is a hop of (classifier `route`): across routers a later hop's
-- `sender` is the previous router or its pTON wallet, so the route's user is stored on every hop. Null for
-- a one-hop swap, and for rows written before this migration.
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS route_id Nullable(String) COMMENT 'the swap_routes id of the route this leg is a hop of; null for a one-hop swap';
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS route_sender Nullable(String) COMMENT 'who started the route (its first hop''s sender); null for a one-hop swap';
ALTER TABLE swaps ADD COLUMN IF NOT EXISTS route_receiver Nullable(String) COMMENT 'who received the route''s final output; null for a one-hop swap or when not known';
ALTER TABLE swaps ADD INDEX IF NOT EXISTS swaps_route_sender route_sender TYPE bloom_filter GRANULARITY 1;
