"""The pipeline every game goes through: one table per channel, from the lobby to the last undo.

``manager.TableManager`` is the one object cogs and the console talk to; ``core`` holds the
locks, the cache and the commit, ``lobby`` the seats and the start, ``ending`` resign, end votes
and undo, ``replies`` the board message, ``manual_dice`` the physical-dice mode, and ``reminders``
and ``autopilot`` what happens while players are away. No game is named here: each reaches the
table through ``engines.registry`` and ``gm.presenters``.
"""
