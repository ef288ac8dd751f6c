"""Imported by the fork server that render workers fork from: draws every game's warm-up there.

Why (issue 13): each render worker used to warm up on its own (fonts, arenas, palettes, text
masks of five games): ~50 MB per worker that no other process shared. Drawn once in the fork
server, before any worker exists, those pages are shared copy-on-write by every worker, and
``gc.freeze`` keeps the collector from writing to (and so copying) them. A worker still runs
the warm-up itself (``gm.workers.render_pool._worker_main``), which then finds everything cached.

Importing this module does the work: the fork server's preload list takes module names only. The
game modules come first in that list (``render_pool.fork_server_modules``), so their presenters are
registered by the time this runs.
"""

from __future__ import annotations

import logging

from gm import presenters
from gm.workers import render_memory
from gm.workers.heap import freeze_start_up_heap
from renderers import kit_png

log = logging.getLogger(__name__)


def warm_every_game() -> frozenset[str]:
    """Every presenter the preloaded game modules registered draws its warm-up here, once."""
    done = presenters.warm_up_all()
    kit_png.forget_frames()  # a worker's first picture would copy them page by page: each worker keeps its own
    freeze_start_up_heap()
    # Issue 28: what the warm-ups drew and let go (scratch pictures, the empty maps a palette form was made from)
    # is free heap the allocator keeps; resident here, it is counted in every process's PSS until a worker writes
    # over it. Given back before the fork, it is no one's.
    render_memory.trim(0)
    return done


WARMED: frozenset[str] = warm_every_game()
"""The systems whose warm-up ran here without an error: a worker forked from here skips those."""
