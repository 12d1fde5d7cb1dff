-- record_counts holds how many records each kind has in each domain,
-- kept by triggers in the transaction that inserts or deletes a record,
-- so that counting a kind (the platform's terminal ports: vc's POST
-- .../mts and the engine's Joined count every terminal) reads a few rows
-- instead of every record of the kind. A record's kind and domain never
-- change (no statement of the store sets them), so updates need no
-- trigger. It is derived data: conferd migrate does not copy it (the
-- triggers rebuild it as the records arrive). 0063's PostgreSQL half
-- keeps one row per backend as well, so that concurrent transactions
-- never wait for each other's counter.
CREATE TABLE record_counts (
    kind        TEXT NOT NULL,
    domain_moid TEXT NOT NULL,
    n           BIGINT NOT NULL,
    PRIMARY KEY (kind, domain_moid)
);
INSERT INTO record_counts (kind, domain_moid, n)
    SELECT kind, domain_moid, COUNT(*) FROM records GROUP BY kind, domain_moid;
CREATE TRIGGER records_count_insert AFTER INSERT ON records BEGIN
    INSERT INTO record_counts (kind, domain_moid, n) VALUES (NEW.kind, NEW.domain_moid, 1)
        ON CONFLICT (kind, domain_moid) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER records_count_delete AFTER DELETE ON records BEGIN
    UPDATE record_counts SET n = n - 1 WHERE kind = OLD.kind AND domain_moid = OLD.domain_moid;
END;
