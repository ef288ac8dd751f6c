-- Turn reminders: the version of a game's position that was last nudged, so a stalled
-- position gets one reminder and the next reminder waits for the next position.
ALTER TABLE games ADD COLUMN reminded_version INTEGER NOT NULL DEFAULT -1;
