-- Turn reminders (as db/migrations/003_reminders.sql): the version of a game's position that
-- was last nudged, so a stalled position gets one reminder.
ALTER TABLE games ADD COLUMN reminded_version BIGINT NOT NULL DEFAULT -1;
