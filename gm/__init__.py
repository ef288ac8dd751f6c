"""The application layer: everything between a slash command and the rules, with no Discord in it.

Its folders are its architecture (docs/ARCHITECTURE.md; the imports are checked by .importlinter):
``games/`` each game at the table, ``table/`` the pipeline every game goes through, ``workers/``
the child processes (pictures, untrusted parsing), ``packs/``, ``rules/`` and ``dice/`` the
services, ``database/`` the operator's commands; ``app.py`` puts them together, and the small
modules beside it (``reply``, ``context``, ``errors``, ``settings``, ``presenters`` …) are the
vocabulary they all share.
"""
