-- Network management (nms): the platform's nodes, the alarms raised by
-- real conditions, and the terminal online statistics sampled every
-- quarter hour. Documents are JSON objects; times are Unix nanoseconds.
CREATE TABLE nms_nodes (
    moid        TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    reported_at BIGINT NOT NULL,
    data        TEXT NOT NULL
);

-- One row per raised alarm; clearing the alarm deletes it.
CREATE TABLE nms_alarms (
    device_moid TEXT NOT NULL,
    code        TEXT NOT NULL,
    domain_moid TEXT NOT NULL DEFAULT '',
    raised_at   BIGINT NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (device_moid, code)
);

CREATE TABLE nms_terminal_stats (
    domain_moid TEXT NOT NULL,
    at          BIGINT NOT NULL,
    data        TEXT NOT NULL,
    PRIMARY KEY (domain_moid, at)
);
