-- Turn reminders and the idle-lobby sweep without reading game states (as
-- db/migrations/005_reminder_index.sql). ``waiting``: the user ids the saved position waits for.
ALTER TABLE games ADD COLUMN waiting TEXT;
-- Only positions still to nudge, with every column a reminder needs (an index-only scan
-- when the visibility map allows; the 20 KB state is TOASTed out of line anyway).
CREATE INDEX games_to_remind ON games (updated_at, version, channel_id, guild_id, system, waiting)
    WHERE status = 'active' AND reminded_version != version;
-- The idle-lobby sweep reads lobbies only.
CREATE INDEX games_lobbies ON games (updated_at) WHERE status = 'lobby';
