"""Imported by the fork server that render workers fork from: draws every game's warm-up there.

Why (issue 13): each render worker used to warm up on its own (fonts, arenas, palettes, text
masks of five games): ~50 MB per worker that no other process shared. Drawn once in the fork
server, before any worker exists, those pages are shared copy-on-write by every worker, and
``gc.freeze`` keeps the collector from writing to (and so copying) them. A worker still runs
the warm-up itself (``gm.render_pool._worker_main``), which then finds everything cached.

Importing this module does the work: the fork server's preload list takes module names only.
"""

from __future__ import annotations

import importlib
import logging

from gm.heap import freeze_start_up_heap

log = logging.getLogger(__name__)


WARMED: frozenset[str] = frozenset()
"""The warm-ups that ran here without an error: a worker forked from here skips those."""


def warm_every_game() -> frozenset[str]:
    from gm.render_pool import WARM_UP

    done = []
    for target in WARM_UP:
        module, _, name = target.partition(":")
        try:
            getattr(importlib.import_module(module), name)()
        except Exception:  # an optimisation: never a reason for the fork server not to start
            log.exception("fork server: warm-up %s failed", target)
        else:
            done.append(target)
    freeze_start_up_heap()
    return frozenset(done)


WARMED = warm_every_game()
