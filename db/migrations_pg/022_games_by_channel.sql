-- A channel's games newest first (as db/migrations/022_games_by_channel.sql).
CREATE INDEX games_by_channel ON games (channel_id, id);
