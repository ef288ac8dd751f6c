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
        self._waiting = [False] * len(self._own)  # a waiting worker takes its own jobs; others leave them
        self._closed = False

    @property
    def workers(self) -> int:
        return len(self._own)

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
            while True:
                if self._own[worker]:
                    return self._own[worker].popleft()
                if self._shared:
                    return self._shared.popleft()
                for other, jobs in enumerate(self._own):
                    if jobs and not self._waiting[other]:
                        return jobs.popleft()
                if self._closed:
                    return None
                self._waiting[worker] = True
                try:
                    self._ready.wait()
                finally:
                    self._waiting[worker] = False

    def close(self) -> None:
        """Workers finish what is queued, then ``get`` returns None to each."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
