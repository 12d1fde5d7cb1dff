-- Account management (amc): profile fields of accounts, departments and
-- the departments of each account; the login time of sessions (presence).
ALTER TABLE accounts ADD COLUMN real_name TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN e164 TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN mobile TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN profile TEXT NOT NULL DEFAULT '{}';
-- E164 numbers, e-mails and mobiles are unique on the platform when set.
CREATE UNIQUE INDEX accounts_e164 ON accounts(e164) WHERE e164 <> '';
CREATE UNIQUE INDEX accounts_email ON accounts(email) WHERE email <> '';
CREATE UNIQUE INDEX accounts_mobile ON accounts(mobile) WHERE mobile <> '';

-- A top-level department's parent_moid is its user domain's moid.
CREATE TABLE departments (
    moid        TEXT PRIMARY KEY,
    domain_moid TEXT NOT NULL REFERENCES user_domains(moid),
    parent_moid TEXT NOT NULL,
    name        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX departments_sibling_name ON departments(domain_moid, parent_moid, name);
CREATE INDEX departments_parent ON departments(parent_moid);

CREATE TABLE account_departments (
    account_moid    TEXT NOT NULL REFERENCES accounts(moid) ON DELETE CASCADE,
    department_moid TEXT NOT NULL REFERENCES departments(moid),
    position        TEXT NOT NULL DEFAULT '',
    ord             INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_moid, department_moid)
);
CREATE INDEX account_departments_department ON account_departments(department_moid);

-- The expiry a session was created with: its login time plus the lifetime.
ALTER TABLE sessions ADD COLUMN login_expires_at BIGINT NOT NULL DEFAULT 0;
