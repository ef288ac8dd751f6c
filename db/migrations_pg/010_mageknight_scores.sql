-- Mage Knight challenge scores (as db/migrations/010_mageknight_scores.sql).
CREATE TABLE mk_scores (
    game_id     BIGINT  PRIMARY KEY,
    guild_id    BIGINT,
    channel_id  BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    user_name   TEXT    NOT NULL DEFAULT '',
    day         TEXT    NOT NULL,
    daily       INTEGER NOT NULL DEFAULT 0,
    seed        BIGINT  NOT NULL,
    tier        INTEGER NOT NULL,
    site        TEXT    NOT NULL,
    score       BIGINT  NOT NULL,
    fame        BIGINT  NOT NULL,
    wounds      INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);
CREATE INDEX mk_scores_by_day ON mk_scores (guild_id, day, daily, score DESC);
