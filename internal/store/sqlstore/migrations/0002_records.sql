-- Records: the platform's objects (templates, virtual meeting rooms,
-- conferences, areas, meeting files, ...) as JSON documents of the newest
-- wire model, owned by a user domain and, for personal objects, an account.
CREATE TABLE records (
    kind        TEXT NOT NULL,
    id          TEXT NOT NULL,
    domain_moid TEXT NOT NULL,
    owner_moid  TEXT NOT NULL DEFAULT '',
    state       TEXT NOT NULL DEFAULT '',
    due_at      BIGINT NOT NULL DEFAULT 0,
    data        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE INDEX records_domain ON records(kind, domain_moid, updated_at);
CREATE INDEX records_due ON records(kind, state, due_at);

-- Counters hand out identifiers (conference numbers, template ids).
CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
