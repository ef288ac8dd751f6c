"""the Mage Knight combat at the table. ``presenter`` registers the game with the table layer when
imported (``gm.app.GAME_MODULES``); the other modules serve it and the ``/mk`` commands
(``cogs/mageknight.py``)."""
