-- Undo gives clock time back (as db/migrations/021_clock_undo.sql).
ALTER TABLE actions ADD COLUMN clocks_before TEXT;
