"""Warlord: Saga of the Storm at the table. ``presenter`` registers the game with the table layer when
imported (``gm.app.GAME_MODULES``); the other modules serve it and the ``/warlord`` commands
(``cogs/warlord.py``)."""
