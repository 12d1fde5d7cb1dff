-- A version per record for optimistic concurrency: every update adds one,
-- and SwapRecord writes only over the version it read.
ALTER TABLE records ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
