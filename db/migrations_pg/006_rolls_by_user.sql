-- /dice history user:X (as db/migrations/006_rolls_by_user.sql).
CREATE INDEX rolls_by_channel_user ON rolls (channel_id, user_id, id DESC);
