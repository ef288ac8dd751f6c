"""The web pages of Tavolo (issue 31): a read-only page per game, its timeline, signed links.

Layering (``.importlinter``): ``cogs`` › ``web`` › ``gm``. The web layer reads games through ``db`` and
draws through ``gm``'s presenters and render pool; it never imports ``cogs`` or discord, so a
``python bot.py --web-only`` process serves pages with no Discord connection. See ``docs/WEB.md``.
"""
