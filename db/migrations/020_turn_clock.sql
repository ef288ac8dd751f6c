-- The turn clock and the absent runner's lookups (issue 32.6).
-- ``seat_clocks``: one row per seat of a game played with ``clock:48h+7d``. ``bank_s``: the seconds of bank
-- the seat still holds. ``since``: when the game began to wait for the seat (NULL while it waits for others),
-- ``zero_at``: the moment its time runs out at that wait (per-move time, bank and time away counted in).
-- ``flagged``: the runner has said in the channel that this wait ran out (``absent:wait``), once a wait.
CREATE TABLE seat_clocks (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    bank_s      INTEGER NOT NULL,
    since       TEXT,
    zero_at     TEXT,
    flagged     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
-- ``away_spans``: every vacation as it was taken (``vacations`` keeps only the latest one, and /game back
-- deletes it), so a clock can leave out the time a member was away during a wait.
CREATE TABLE away_spans (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    starts_at   TEXT    NOT NULL,
    ends_at     TEXT    NOT NULL
);
CREATE INDEX away_spans_by_user ON away_spans (guild_id, user_id, ends_at);
INSERT INTO away_spans (guild_id, user_id, starts_at, ends_at) SELECT guild_id, user_id, starts_at, ends_at FROM vacations;
-- The absent runner looked for tables with a policy by two ``options LIKE`` scans of every game in play.
-- ``absent_after``: the seconds of the table's absent bound (NULL: no policy that acts, or a clock decides),
-- so the due games are a range of an index per bound. ``clock_due``: the earliest ``zero_at`` of the seats a
-- clock table waits for (NULL: none). Tables set before this migration get the shortest bound (600 s): the
-- runner writes each one's own bound on its first visit.
ALTER TABLE games ADD COLUMN absent_after INTEGER;
ALTER TABLE games ADD COLUMN clock_due TEXT;
UPDATE games SET absent_after = 600 WHERE status IN ('lobby', 'active')
    AND (options LIKE '%"absent"%' OR options LIKE '%"autopilot_hours"%');
CREATE INDEX games_absent_after ON games (absent_after, updated_at) WHERE status = 'active' AND absent_after IS NOT NULL;
CREATE INDEX games_clock_due ON games (clock_due) WHERE status = 'active' AND clock_due IS NOT NULL;
