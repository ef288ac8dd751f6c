"""Not a bench: where an act's wall time goes, for ``acts.py --parts`` (issue 28: a p99 over its target
explained by its parts, not guessed at).

An act is cut at three moments, clocked in the bench's own process by wrapping four functions (nothing in
the product is changed or timed): the picture's job queued for a worker (``JobQueue.put``, from the
commit's ``start_picture``), the worker's thread taking it (``_Worker._run`` begins: the job is pickled
and sent) and the answer back (``_run`` returns). So:

- ``before``: the event loop's work before the picture can start: the lock, the table, the private parse
  of the position, the rules, the commit's JSON, the public view and its JSON;
- ``wait``: the job queued until a worker's thread sends it (that thread needs the GIL, which the loop
  holds while it words the move and until it first waits);
- ``worker``: sent until answered: the pipe both ways, the view parsed in the worker, the picture drawn
  and encoded; split in turn by the worker's own clocks (its job is wrapped too, ``timed_render_view``)
  into ``drawing`` (CPU: the view parsed, the picture drawn and encoded), ``no core`` (the same work's wall
  time less its CPU: the worker ready but not running) and ``pipe`` (the rest: pickling, the pipe both
  ways, the worker's and the thread's wake-ups);
- ``after``: the answer until the act returns (the loop's wake-up, the reply put together).

The picture is drawn while the move is written, so ``before + wait + worker + after`` is the act's wall
time whenever the loop's own work after the commit is shorter than the worker's.
"""

from __future__ import annotations

import time
from typing import Any

PARTS = ("before", "wait", "worker", "after")
WORKER_PARTS = ("drawing", "no core", "pipe")
_events: list[tuple[str, float]] = []


def timed_render_view(*args: Any) -> tuple[bytes | None, float, float]:
    """In the worker: ``render_view`` and its thread CPU and wall seconds (what ``worker`` spent drawing)."""
    from gm.workers import render_pool

    wall, cpu = time.perf_counter(), time.thread_time()
    png = render_pool.render_view(*args)
    return png, time.thread_time() - cpu, time.perf_counter() - wall


def install() -> None:
    """Wrap the four functions of this process (a child of ``acts.py``, one game's run)."""
    from gm.table import manager
    from gm.workers import render_pool, render_queue

    put, run, act = render_queue.JobQueue.put, render_pool._Worker._run, manager.TableManager.act

    def timed_put(self: Any, *args: Any, **kwargs: Any) -> None:
        _events.append(("put", time.perf_counter()))
        put(self, *args, **kwargs)

    def timed_run(self: Any, fn: Any, args: Any) -> Any:
        timed = fn is render_pool.render_view
        _events.append(("sent", time.perf_counter()))
        try:
            answer = run(self, timed_render_view if timed else fn, args)
        finally:
            _events.append(("back", time.perf_counter()))
        if not timed:
            return answer
        png, cpu, wall = answer
        _events.append(("drawing", cpu))
        _events.append(("drawn", wall))
        return png

    async def timed_act(self: Any, *args: Any, **kwargs: Any) -> Any:
        _events.append(("begin", time.perf_counter()))
        try:
            return await act(self, *args, **kwargs)
        finally:
            _events.append(("end", time.perf_counter()))

    render_queue.JobQueue.put = timed_put  # type: ignore[method-assign]
    render_pool._Worker._run = timed_run  # type: ignore[method-assign]
    manager.TableManager.act = timed_act  # type: ignore[method-assign]


def parts() -> list[dict[str, float]]:
    """Seconds of each part (``PARTS``, and ``WORKER_PARTS`` within ``worker``), one dict per act that drew its
    picture in a worker (acts with no picture, or one drawn after the commit, are left out), in order."""
    found: list[dict[str, float]] = []
    moments: dict[str, float] | None = None
    for name, when in _events:
        if name == "begin":
            moments = {"begin": when}
        elif moments is not None and name not in moments:
            moments[name] = when
            if name == "end":
                if all(k in moments for k in ("put", "sent", "back", "drawn")) and moments["put"] <= moments["sent"]:
                    worker = moments["back"] - moments["sent"]
                    found.append({"before": moments["put"] - moments["begin"],
                                  "wait": moments["sent"] - moments["put"],
                                  "worker": worker,
                                  "after": moments["end"] - moments["back"],
                                  "drawing": moments["drawing"],
                                  "no core": moments["drawn"] - moments["drawing"],
                                  "pipe": worker - moments["drawn"]})
                moments = None
    return found
