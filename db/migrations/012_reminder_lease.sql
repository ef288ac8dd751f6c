-- Turn reminders: a claim is a lease that the post confirms (issue 28). A process claims a
-- position's nudge by setting ``games.reminded_version = version`` (which takes it out of
-- ``games_to_remind``) and writing a row here, stamped with the claim's time; once the post is
-- done it deletes the row. A row older than the lease (TURN_REMINDER_LEASE_SECONDS) was left by
-- a process that died before its post was done: another process takes that claim again
-- (gm/table/reminders.py). The rows live here, not in ``games``, so claiming and confirming never
-- rewrite a game's row with its 20 KB state twice more; the table holds only claims in flight.
-- A nudge claimed before this migration has no row: it counts as confirmed (older code had no lease).
CREATE TABLE reminder_claims (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,  -- the position claimed
    claimed_at  TEXT    NOT NULL   -- ISO UTC, as gm/timefmt.py writes it
);
CREATE INDEX reminder_claims_by_time ON reminder_claims (claimed_at);
