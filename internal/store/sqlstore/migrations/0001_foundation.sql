-- Foundation: user domains, API licenses, accounts, tokens, sessions.
-- Portable SQL: the same text runs on SQLite and PostgreSQL. Times are
-- BIGINT Unix nanoseconds (0 = none); identifiers (moids) are TEXT.
CREATE TABLE user_domains (
    moid       TEXT PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE licenses (
    license_key TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE TABLE accounts (
    moid          TEXT PRIMARY KEY,
    domain_moid   TEXT NOT NULL REFERENCES user_domains(moid),
    username      TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    admin         INTEGER NOT NULL DEFAULT 0,
    disabled      INTEGER NOT NULL DEFAULT 0,
    failed_logins INTEGER NOT NULL DEFAULT 0,
    locked_until  BIGINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL
);
CREATE INDEX accounts_domain ON accounts(domain_moid);

CREATE TABLE tokens (
    hash        TEXT PRIMARY KEY,
    license_key TEXT NOT NULL REFERENCES licenses(license_key) ON DELETE CASCADE,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX tokens_expiry ON tokens(expires_at);

CREATE TABLE sessions (
    hash         TEXT PRIMARY KEY,
    account_moid TEXT NOT NULL REFERENCES accounts(moid) ON DELETE CASCADE,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_moid);
CREATE INDEX sessions_expiry ON sessions(expires_at);
