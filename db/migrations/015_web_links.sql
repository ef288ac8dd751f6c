-- The web pages of issue 31 (web/): what a signed link is checked against, per game.
-- ``generation`` is carried by every link of the game; ``/game web`` revoke adds one, so every link
-- handed out before no longer opens (a plain 404). ``replay_reveal`` is the table's choice (on by
-- default) to open the full replay, every hand shown, once the game is over. A game without a row
-- has generation 0 and the replay on. ``web_secret`` holds the key links are signed with when no
-- WEB_SECRET is set, made once by the first process, so every process on this database agrees.
CREATE TABLE web_links (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    generation     INTEGER NOT NULL DEFAULT 0,
    replay_reveal  INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE web_secret (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  TEXT    NOT NULL
);
