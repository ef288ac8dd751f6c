-- /dice history user:X reads one user's latest rolls in a channel; rolls_by_channel made it
-- walk every roll of the channel newer than the user's oldest one shown (23 ms at 100,000 rolls).
CREATE INDEX rolls_by_channel_user ON rolls (channel_id, user_id, id DESC);
