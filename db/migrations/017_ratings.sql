-- Ratings per server and per game (issue 32.5), OpenSkill (Plackett-Luce) as gm/table/ratings.py keeps
-- them. ``ratings``: each member's current rating and record in one system on one server. ``rating_changes``:
-- one row per rated seat of each finished game, in the order the games ended (``id``): the history a
-- profile draws, what the GM's undo of a game's last move takes back, and what ``--recompute-ratings``
-- checks the current ratings against. A game is rated once: its rows' primary key says it was.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    played      INTEGER NOT NULL DEFAULT 0,
    won         INTEGER NOT NULL DEFAULT 0,
    lost        INTEGER NOT NULL DEFAULT 0,
    drawn       INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, system, user_id)
);
CREATE INDEX ratings_by_user ON ratings (guild_id, user_id);
CREATE TABLE rating_changes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    result      TEXT    NOT NULL CHECK (result IN ('won', 'lost', 'drawn')),
    mu_before   REAL    NOT NULL,
    sigma_before REAL   NOT NULL,
    mu_after    REAL    NOT NULL,
    sigma_after REAL    NOT NULL,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (game_id, user_id)
);
CREATE INDEX rating_changes_by_user ON rating_changes (guild_id, user_id, id);
CREATE INDEX rating_changes_by_system ON rating_changes (guild_id, system, id);
