-- The start second of a conference as a column the store fills on every
-- write (confstart.go) instead of an index over the document: the index
-- of 0031 ran confer_conf_start, a PL/pgSQL function with an exception
-- block (a subtransaction) parsing the whole document, on every update of
-- a conference (docs/benchmarks.md "Speaker changes, third pass").
-- Existing rows take the value the old index held; the order of
-- vc.confs.list is unchanged. 0060_conf_start_column.sqlite.sql is the
-- same on SQLite.
ALTER TABLE records ADD COLUMN start_at BIGINT NOT NULL DEFAULT 0;
UPDATE records SET start_at = confer_conf_start(data, created_at) WHERE kind = 'conf';
DROP INDEX records_conf_start;
DROP FUNCTION confer_conf_start(text, bigint);
CREATE INDEX records_conf_start ON records(domain_moid, state, start_at, id COLLATE "C") WHERE kind = 'conf';
