-- Running conferences in the order of their start time, so that
-- vc.confs.list pages in SQL (internal/conference/page.go): an index over
-- the document's start_time (seconds; the creation time when a document
-- has none), on conference records only. 0031_conf_start.postgres.sql is
-- the same index on PostgreSQL; queries must repeat the expression.
CREATE INDEX records_conf_start ON records(domain_moid, state,
    COALESCE(unixepoch(json_extract(data, '$.start_time')), created_at / 1000000000), id)
    WHERE kind = 'conf';
