-- History compression (db/migrations/004_compact_history.py, db/state_codec.py): one zlib
-- dictionary per game. On SQLite 004 also converts old text rows of actions.state_before;
-- a PostgreSQL database starts with that column as BYTEA (001) and no rows to convert.
CREATE TABLE state_dicts (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data     TEXT   NOT NULL
);
