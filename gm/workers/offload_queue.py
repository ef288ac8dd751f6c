"""Which offload job starts next: a fair share of the child slots for every server.

Why: the offload slots are shared by every server the bot is in, and any server's managers may
upload. With one first-come queue, two rulebooks built to take the whole 60 s budget held both
slots, and a 40 KB pack another server uploaded meanwhile waited a minute. So jobs are queued
per key (the guild id; ``None`` for the bot's own work: start-up imports, the warm-up):

- at most ``per_key`` jobs of one key run at once, so a server's jobs queue behind its own and a
  flood leaves the other slots to everyone else (with two slots, another server's job starts at
  once while one server floods);
- when a slot frees, it goes to the waiting key served least recently, not to the oldest job, so
  a server that queued fifty jobs gets one turn in the rotation, like a server that queued one.

The budget of each job is untouched: its deadline starts when its child starts, not when it was
queued. Pure threading, no processes: ``gm.workers.offload`` calls ``submit`` on the loop thread
and ``done`` from the thread that waited for the child.
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass(eq=False)
class Ticket:
    """One job's place in the queue: ``start`` is called once when its turn comes."""

    key: Hashable
    start: Callable[[], None]
    state: str = "waiting"  # → "started" or "withdrawn"


class FairQueue:
    """At most ``max_jobs`` started and not done; at most ``per_key`` of them with one key; the
    waiting keys take turns. ``start`` callbacks run outside the lock, in whichever thread freed
    the slot (or submitted), and must not block: ``offload`` starts a thread there."""

    def __init__(self, max_jobs: int, per_key: int = 1) -> None:
        self._lock = threading.Lock()
        self._max_jobs = max(1, max_jobs)
        self._per_key = max(1, per_key)
        self._waiting: dict[Hashable, deque[Ticket]] = {}  # in the order the keys began to wait
        self._running: Counter[Hashable] = Counter()
        # the turn each key was last served in: one int per guild that ever uploaded, kept so that a
        # guild served a moment ago goes after the guilds that have waited since
        self._served: dict[Hashable, int] = {}
        self._turns = 0

    def submit(self, key: Hashable, start: Callable[[], None]) -> Ticket:
        """Queue a job of ``key``; ``start`` is called now if a slot and the key's share allow it."""
        ticket = Ticket(key, start)
        with self._lock:
            self._waiting.setdefault(key, deque()).append(ticket)
            due = self._due()
        _start(due)
        return ticket

    def withdraw(self, ticket: Ticket) -> bool:
        """Take a job that has not started out of the queue (its awaiting task was cancelled).

        False when it has already started: then the caller stops the job and ``done`` follows."""
        with self._lock:
            if ticket.state != "waiting":
                return False
            queue = self._waiting[ticket.key]
            queue.remove(ticket)
            if not queue:
                del self._waiting[ticket.key]
            ticket.state = "withdrawn"
            return True

    def done(self, key: Hashable) -> None:
        """A started job of ``key`` ended (whatever its outcome): its slot goes to the next turn."""
        with self._lock:
            self._running[key] -= 1
            if self._running[key] <= 0:
                del self._running[key]
            due = self._due()
        _start(due)

    def resize(self, max_jobs: int, per_key: int | None = None) -> None:
        """New limits; running jobs finish, and a larger pool starts waiting jobs now."""
        with self._lock:
            self._max_jobs = max(1, max_jobs)
            if per_key is not None:
                self._per_key = max(1, per_key)
            due = self._due()
        _start(due)

    def snapshot(self) -> tuple[dict[Hashable, int], dict[Hashable, int]]:
        """(running, waiting) jobs per key, for tests and benches."""
        with self._lock:
            return dict(self._running), {key: len(queue) for key, queue in self._waiting.items()}

    def _due(self) -> list[Ticket]:
        """Under the lock: the tickets to start now. Each is the first job of the waiting key served
        least recently (never served first; ties in the order the keys began to wait)."""
        due: list[Ticket] = []
        while sum(self._running.values()) < self._max_jobs:
            eligible = [key for key in self._waiting if self._running[key] < self._per_key]
            if not eligible:
                break
            key = min(eligible, key=lambda k: self._served.get(k, -1))  # min keeps the first of equals
            queue = self._waiting[key]
            ticket = queue.popleft()
            if not queue:
                del self._waiting[key]
            self._turns += 1
            self._served[key] = self._turns
            ticket.state = "started"
            self._running[key] += 1
            due.append(ticket)
        return due


def _start(tickets: list[Ticket]) -> None:
    for ticket in tickets:
        ticket.start()
