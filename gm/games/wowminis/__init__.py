"""World of Warcraft Miniatures at the table. ``presenter`` registers the game with the table layer
when imported (``gm.app.GAME_MODULES``); the other modules serve it and the ``/wowm`` commands
(``cogs/wowminis.py``)."""
