"""The render workers' job queue: a table's pictures go to the worker that drew its last one.

Why: a worker re-draws only what changed since the last picture of the same scene it drew
(``renderers.kit_scene``), so a table whose pictures alternate between two workers makes each
compare with a picture two moves old: twice the bands re-drawn (bench/render_krosmaster.py,
"every other picture"). So a job may name the worker it prefers. Latency still comes first: a
worker with nothing to do takes a job queued for a busy one instead of letting it wait, and a
job that prefers nobody goes to whoever is free.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Generic, TypeVar

Job = TypeVar("Job")


class JobQueue(Generic[Job]):
    """One queue per worker plus a shared one, behind one lock."""

    def __init__(self, workers: int) -> None:
        self._ready = threading.Condition()
        self._own: list[deque[Job]] = [deque() for _ in range(max(1, workers))]
        self._shared: deque[Job] = deque()
        # A free worker takes its own jobs, so the others leave them; a busy (or starting) one's
        # are taken by whoever is free. Free from ``done`` on, not only once back in ``get``: the
        # next picture of a game often arrives while its worker is still handing back the last.
        self._free = [False] * len(self._own)
        self._closed = False

    def preferred(self, key: object) -> int:
        """The worker for ``key`` (a game's id): the same one for as long as the process lives."""
        return hash(key) % len(self._own)

    def put(self, job: Job, worker: int | None = None) -> None:
        with self._ready:
            (self._shared if worker is None else self._own[worker % len(self._own)]).append(job)
            self._ready.notify_all()

    def get(self, worker: int) -> Job | None:
        """The next job for ``worker``: its own, then a shared one, then one queued for a busy
        worker; waits when there is none. None once the queue is closed and nothing is left."""
        with self._ready:
            self._free[worker] = True
            while True:
                job: Job | None = None
                if self._own[worker]:
                    job = self._own[worker].popleft()
                elif self._shared:
                    job = self._shared.popleft()
                else:
                    for other, jobs in enumerate(self._own):
                        if jobs and not self._free[other]:
                            job = jobs.popleft()
                            break
                if job is not None:
                    self._free[worker] = False
                    return job
                if self._closed:
                    return None
                self._ready.wait()

    def done(self, worker: int) -> None:
        """``worker`` has finished its job (before its answer is handed back)."""
        with self._ready:
            self._free[worker] = True

    def close(self) -> None:
        """Workers finish what is queued, then ``get`` returns None to each."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
