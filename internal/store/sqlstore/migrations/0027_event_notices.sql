-- Notices (store.Notice): events that no record write makes, carrying the
-- notification's fields. Record events leave data empty.
ALTER TABLE events ADD COLUMN data TEXT NOT NULL DEFAULT '';
