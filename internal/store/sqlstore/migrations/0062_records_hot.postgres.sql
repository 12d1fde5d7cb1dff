-- A change of a running conference that keeps its state, due time and
-- start (a speaker change: data, updated_at and version change) is a HOT
-- update: no index of records holds a column it changes, so the new row
-- version goes on the same page and no index gets an entry. PostgreSQL
-- decides by column, whatever an index's predicate, so both indexes
-- lose the column outright:
-- - records_domain without updated_at: ListRecords sorts a kind's
--   records of a domain by update time after reading them (a top-N sort
--   for a page; PostgreSQL already sorted the unpaged lists, reading by
--   bitmap).
-- - records_conf_keys (0046) dropped: without version the tick's listing
--   of running conferences reads the rows anyway (keys.go), through
--   records_due or records_conf_start; it runs only after a conference
--   event (RecordKeys keeps the last listing). The statistics of 0046
--   stay for records_due.
-- New pages are filled to 80 % so that a new version finds room beside
-- the old one until pruning frees the dead ones (at 100 % about 60 % of
-- speaker changes were HOT, at 90 % 65 %, at 80 % over 99 %). Existing
-- pages are not rewritten: a row's next update that is not HOT moves it
-- to a page with room.
-- 0062_records_hot.sqlite.sql changes SQLite's indexes alike (there an
-- UPDATE rewrites the entries of every index holding a column it sets).
DROP INDEX records_conf_keys;
DROP INDEX records_domain;
CREATE INDEX records_domain ON records(kind, domain_moid);
ALTER TABLE records SET (fillfactor = 80);
