-- record_counts holds how many records each kind has in each domain,
-- kept by statement triggers in the transaction that inserts or deletes
-- records (0063_record_counts.sqlite.sql says why). Each backend adds
-- to rows of its own (backend = pg_backend_pid(); a backend runs one
-- transaction at a time), so two transactions never wait for one
-- counter row, nor deadlock over two; a count sums a kind's rows. The
-- rows of backends that have gone are folded into backend 0 when a node
-- opens the store and when a count finds many rows (recordcounts.go).
CREATE TABLE record_counts (
    kind        TEXT NOT NULL,
    domain_moid TEXT NOT NULL,
    backend     INTEGER NOT NULL,
    n           BIGINT NOT NULL,
    PRIMARY KEY (kind, domain_moid, backend)
);
INSERT INTO record_counts (kind, domain_moid, backend, n)
    SELECT kind, domain_moid, 0, COUNT(*) FROM records GROUP BY kind, domain_moid;
CREATE FUNCTION records_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO record_counts (kind, domain_moid, backend, n)
        SELECT kind, domain_moid, pg_backend_pid(), COUNT(*) FROM records_inserted GROUP BY kind, domain_moid
        ON CONFLICT (kind, domain_moid, backend) DO UPDATE SET n = record_counts.n + EXCLUDED.n;
    RETURN NULL;
END $$;
CREATE FUNCTION records_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO record_counts (kind, domain_moid, backend, n)
        SELECT kind, domain_moid, pg_backend_pid(), -COUNT(*) FROM records_deleted GROUP BY kind, domain_moid
        ON CONFLICT (kind, domain_moid, backend) DO UPDATE SET n = record_counts.n + EXCLUDED.n;
    RETURN NULL;
END $$;
CREATE TRIGGER records_count_insert AFTER INSERT ON records
    REFERENCING NEW TABLE AS records_inserted FOR EACH STATEMENT EXECUTE FUNCTION records_count_insert();
CREATE TRIGGER records_count_delete AFTER DELETE ON records
    REFERENCING OLD TABLE AS records_deleted FOR EACH STATEMENT EXECUTE FUNCTION records_count_delete();
