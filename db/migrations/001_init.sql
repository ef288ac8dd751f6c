-- Core tables (DESIGN.md §5). One row per game; actions are append-only history.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options     TEXT    NOT NULL DEFAULT '{}',
    state       TEXT,
    version     INTEGER NOT NULL DEFAULT 0,
    created_by  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- At most one game that is not over per channel.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    team      TEXT,
    config    TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE actions (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    seat          INTEGER,
    kind          TEXT    NOT NULL,
    action        TEXT    NOT NULL,
    events        TEXT    NOT NULL DEFAULT '[]',
    state_before  TEXT,
    undoable      INTEGER NOT NULL DEFAULT 1,
    undone        INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE rolls (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    user_name   TEXT    NOT NULL DEFAULT '',
    system      TEXT    NOT NULL DEFAULT 'notation',
    expression  TEXT    NOT NULL,
    label       TEXT,
    result      TEXT    NOT NULL,
    total       INTEGER,
    private     INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX rolls_by_channel ON rolls (channel_id, id DESC);

CREATE TABLE content_packs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    created_by  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, system, name)
);

CREATE TABLE guild_settings (
    guild_id  INTEGER PRIMARY KEY,
    locale    TEXT,
    settings  TEXT NOT NULL DEFAULT '{}'
);
