-- Turn reminders: a claim is a lease that the post confirms (as db/migrations/012_reminder_lease.sql).
-- A claim sets ``games.reminded_version = version`` and writes a row here stamped with its time; the
-- finished post deletes the row. A row older than the lease was left by a process that died before
-- its post was done: another process takes that claim again. Only claims in flight are here.
CREATE TABLE reminder_claims (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version     BIGINT  NOT NULL,
    claimed_at  TEXT    NOT NULL
);
CREATE INDEX reminder_claims_by_time ON reminder_claims (claimed_at);
