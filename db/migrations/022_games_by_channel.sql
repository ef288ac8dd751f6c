-- A channel's games newest first (``db.games.last_game``: ``/game log`` and the GM's undo of a finished
-- game). The only channel index covered open games, so the read scanned every stored game: 16 ms p50 at
-- 10,000 games on SQLite (bench/summaries.py).
CREATE INDEX games_by_channel ON games (channel_id, id);
