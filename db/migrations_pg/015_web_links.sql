-- The web pages of issue 31 (as db/migrations/015_web_links.sql): per game, the links' revocation
-- generation and the choice to reveal every hand in the replay once the game is over; the signing
-- key made once when no WEB_SECRET is set.
CREATE TABLE web_links (
    game_id        BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    generation     INTEGER NOT NULL DEFAULT 0,
    replay_reveal  INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE web_secret (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  TEXT    NOT NULL
);
