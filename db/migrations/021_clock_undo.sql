-- Undo gives clock time back (issue 32.6). ``clocks_before``: on an action of a clock table, the game's
-- turn clock as it stood before the action (a JSON object: ``due``, the game's ``clock_due``; ``seats``,
-- its ``seat_clocks`` rows), so ``/game undo`` puts back the bank the action charged and the waits that ran.
-- NULL on every other action, and on actions stored before this migration (their undo leaves the clock as
-- it is, as before).
ALTER TABLE actions ADD COLUMN clocks_before TEXT;
