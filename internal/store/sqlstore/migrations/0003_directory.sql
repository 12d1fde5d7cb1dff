-- The terminal directory of the simulated media backend: the terminals the
-- platform knows, how to reach them and how they answer a call.
CREATE TABLE directory (
    account      TEXT PRIMARY KEY, -- E.164 number, alias or IP the terminal is called by
    domain_moid  TEXT NOT NULL DEFAULT '',
    alias        TEXT NOT NULL DEFAULT '',
    e164         TEXT NOT NULL DEFAULT '',
    ip           TEXT NOT NULL DEFAULT '',
    account_type INTEGER NOT NULL DEFAULT 5,
    mt_type      INTEGER NOT NULL DEFAULT 1,
    behaviour    TEXT NOT NULL DEFAULT 'answer', -- answer, offline, busy, noanswer
    answer_ms    BIGINT NOT NULL DEFAULT 2000
);
