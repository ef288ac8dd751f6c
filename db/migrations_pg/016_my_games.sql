-- /game mine (as db/migrations/016_my_games.sql).
CREATE INDEX seats_by_user ON seats (user_id, game_id);
ALTER TABLE games ADD COLUMN asks TEXT;
