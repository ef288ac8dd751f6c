-- Vacation and the reminders people choose (as db/migrations/019_away_and_notify.sql).
CREATE TABLE vacations (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    starts_at   TEXT    NOT NULL,
    ends_at     TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX vacations_by_end ON vacations (guild_id, ends_at);
CREATE TABLE notify_prefs (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    mode        TEXT    NOT NULL DEFAULT 'mention' CHECK (mode IN ('mention', 'dm', 'none')),
    quiet_start INTEGER,
    quiet_end   INTEGER,
    tz          TEXT,
    digest      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);
CREATE TABLE reminder_outbox (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    system      TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    send_after  TEXT    NOT NULL,
    claimed_at  TEXT,
    PRIMARY KEY (guild_id, user_id, game_id)
);
CREATE INDEX reminder_outbox_by_time ON reminder_outbox (send_after);
