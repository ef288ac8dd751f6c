-- /game mine (issue 32.1): every open game where one member is seated, on one server, without reading
-- a state. Seats were indexed by game only, so the list read every seat row; ``seats_by_user`` finds a
-- member's seats, and the games' primary key their rows. ``asks``: what the saved position asks of the
-- seats it waits for, worded in each language (a JSON object, language → text), written with every
-- state beside ``waiting`` (migration 005); NULL = asks nothing in words, or saved before this migration
-- (then /game mine words it from the game's state).
CREATE INDEX seats_by_user ON seats (user_id, game_id);
ALTER TABLE games ADD COLUMN asks TEXT;
