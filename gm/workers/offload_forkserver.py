"""Imported only inside the offload fork server (``gm.workers.offload.PRELOAD``), never by the bot.

Each job's child is forked from the fork server, then multiprocessing "prepares" it like a
fresh interpreter: it re-runs the script that started the bot (``bot.py``, pytest, a bench)
as ``__mp_main__`` so that functions defined there could be unpickled. Offload jobs are
never defined in ``__main__`` (``gm.workers.offload.run`` requires importable module-level
functions), and re-running the script's imports costs every job ~100 ms (``bot.py``
imports discord.py). So the fork server, whose only children are offload jobs, skips that
step. If a future Python renames these private hooks, assigning them is harmless and jobs
are merely slower again.
"""

from __future__ import annotations

from multiprocessing import spawn


def _skip_main(_main: str) -> None:
    """Offload children never need the parent's ``__main__``."""


spawn._fixup_main_from_path = _skip_main  # type: ignore[attr-defined]
spawn._fixup_main_from_name = _skip_main  # type: ignore[attr-defined]
