-- The turn clock and the absent runner's lookups (as db/migrations/020_turn_clock.sql).
CREATE TABLE seat_clocks (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    bank_s      BIGINT  NOT NULL,
    since       TEXT,
    zero_at     TEXT,
    flagged     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE away_spans (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    starts_at   TEXT    NOT NULL,
    ends_at     TEXT    NOT NULL
);
CREATE INDEX away_spans_by_user ON away_spans (guild_id, user_id, ends_at);
INSERT INTO away_spans (guild_id, user_id, starts_at, ends_at) SELECT guild_id, user_id, starts_at, ends_at FROM vacations;
ALTER TABLE games ADD COLUMN absent_after BIGINT;
ALTER TABLE games ADD COLUMN clock_due TEXT;
UPDATE games SET absent_after = 600 WHERE status IN ('lobby', 'active')
    AND (options LIKE '%"absent"%' OR options LIKE '%"autopilot_hours"%');
CREATE INDEX games_absent_after ON games (absent_after, updated_at) WHERE status = 'active' AND absent_after IS NOT NULL;
CREATE INDEX games_clock_due ON games (clock_due) WHERE status = 'active' AND clock_due IS NOT NULL;
