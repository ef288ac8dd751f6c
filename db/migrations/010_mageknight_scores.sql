-- Mage Knight challenge scores (gm/mageknight_scores.py): one row per finished challenge,
-- written when the combat ends, read by /mk leaderboard (each server's daily puzzle) and
-- /mk score. ``day`` is the UTC date the table was opened; ``daily`` marks the server's
-- puzzle of that day (same seed, tier and site for every member). No foreign key: a score
-- stays on the board even if old games are cleaned up.
CREATE TABLE mk_scores (
    game_id     INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    user_name   TEXT    NOT NULL DEFAULT '',
    day         TEXT    NOT NULL,
    daily       INTEGER NOT NULL DEFAULT 0,
    seed        INTEGER NOT NULL,
    tier        INTEGER NOT NULL,
    site        TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    fame        INTEGER NOT NULL,
    wounds      INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX mk_scores_by_day ON mk_scores (guild_id, day, daily, score DESC);
