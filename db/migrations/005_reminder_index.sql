-- Turn reminders and the idle-lobby sweep without reading game states (gm/reminders.py).
-- ``waiting``: the user ids (space-separated) the saved position waits for, written with
-- every new state by the table layer; NULL = not known (saved before this migration, or by
-- an older process): the reminder works it out once, only when that game is due.
ALTER TABLE games ADD COLUMN waiting TEXT;
-- Only positions still to nudge are in this index, with every column a reminder needs: a
-- pass reads the index entries of due games and never a row (whose 20 KB state column sits
-- before the columns the old query filtered on, so every row used to be read whole).
CREATE INDEX games_to_remind ON games (updated_at, version, channel_id, guild_id, system, waiting)
    WHERE status = 'active' AND reminded_version != version;
-- The idle-lobby sweep reads lobbies only.
CREATE INDEX games_lobbies ON games (updated_at) WHERE status = 'lobby';
