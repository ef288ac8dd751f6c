"""Run one pure function on untrusted input in a child process, within a time and memory budget.

Why a process: one asyncio loop serves every server, so a rulebook that takes a minute
to parse, or a YAML file that expands to gigabytes, would freeze every interaction
everywhere. A thread would keep the loop free but can be neither killed nor capped in
memory; a child process can be both. The child is forked from a ``forkserver`` that has
already imported the heavy modules (``PRELOAD``), so a job costs a fork, not an
interpreter start.

The parent waits for each child in a daemon thread, never on the loop; at most
``max_jobs`` children run at once and the others queue, fairly per server: each job names its
guild, a guild runs one job at a time and the guilds that wait take turns
(``gm.workers.offload_queue``), so one server's flood of slow uploads cannot hold every slot.
The child caps its own address space (``RLIMIT_AS``) relative to its size after the fork and
its CPU time (``RLIMIT_CPU``, a backstop); the parent kills it at the wall-clock deadline,
counted from the child's start, not from the job's queueing. Every way a job can fail arrives
as a ``TavoloError``:

- a ``TavoloError``/``RuleError`` raised by the function: the same key, params and rule;
- past the deadline: ``limits.too_slow``; out of memory: ``limits.too_much_memory``;
- anything else (a bug, a crash of a C extension): ``limits.crashed``, logged with details.

Functions and results travel by pickle, so the function must be importable at module
level and the result should be plain data (tuples, str, dict): unpickling pydantic models
in the parent would put validation work back on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, TypeVar

from engines.core.errors import RuleError, TavoloError
from gm.workers.offload_queue import FairQueue

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

    from gm.settings import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")

# Imported once by the fork server so every child starts with them loaded. The first one
# stops children from re-running the bot's main script (see its docstring). The rulebook importer
# (``gm.rules.extract`` and ``pypdf``, ~11 MB) is not among them (issue 28): the render workers fork
# from the same server and would carry it for nothing, and a rulebook import, rare and seconds long
# anyway, pays its ~0.4 s of imports in its own child.
PRELOAD: tuple[str, ...] = (
    "gm.workers.offload_forkserver",
    "yaml",
    "pydantic",
    "engines.krosmaster.content",
    "gm.packs.reading",
)
NICENESS = 5  # the bot's own process should win the CPU over a parsing child
_MB = 1024 * 1024


@dataclass(frozen=True)
class Budget:
    """Wall-clock seconds and memory (MB above the child's size at start) one job may use."""

    seconds: float
    memory_mb: int


@dataclass(frozen=True)
class Limits:
    """The budgets of each kind of job, how many children may run at once, and how many of them
    one guild's (``per_guild``: below ``max_jobs``, so a flooding guild leaves slots to the others)."""

    rules_import: Budget = Budget(seconds=60.0, memory_mb=512)
    content_pack: Budget = Budget(seconds=10.0, memory_mb=256)
    max_jobs: int = 2
    per_guild: int = 1

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            rules_import=Budget(settings.rules_import_seconds, settings.rules_import_memory_mb),
            content_pack=Budget(settings.content_pack_seconds, settings.content_pack_memory_mb),
            max_jobs=settings.offload_max_jobs,
        )


@dataclass
class _Runner:
    """Process-wide state: the budgets, the fair queue of child slots, the start method."""

    limits: Limits = field(default_factory=Limits)
    queue: FairQueue = field(default_factory=lambda: FairQueue(Limits().max_jobs, Limits().per_guild))
    context: BaseContext | None = None


_runner = _Runner()
_runner_lock = threading.Lock()


def configure(limits: Limits) -> None:
    """Set the process-wide budgets (``App.open`` does it from the settings)."""
    with _runner_lock:
        _runner.queue.resize(limits.max_jobs, limits.per_guild)  # running jobs finish; waiting ones may start
        _runner.limits = limits


def limits() -> Limits:
    """The budgets in force (defaults until ``configure`` is called)."""
    return _runner.limits


_shared_preload: list[str] = []


def share_fork_server(modules: Iterable[str]) -> None:
    """Have the fork server preload ``modules`` too, for the other user of it (the render pool).

    Why: a process has one fork server, started by whichever pool forks first with the preload
    list set at that moment. The render workers' warm-up is drawn there (``gm.workers.render_warm``) so
    that they share it; if a rulebook import started the server first with this module's list
    alone, every worker would draw its own again (~50 MB each). Call before the first fork."""
    with _runner_lock:
        _shared_preload.extend(m for m in modules if m not in _shared_preload and m not in PRELOAD)
        if "forkserver" in multiprocessing.get_all_start_methods():
            multiprocessing.get_context("forkserver").set_forkserver_preload(fork_server_preload())


def fork_server_preload() -> list[str]:
    """Every module the shared fork server imports before forking: this module's, then the shared ones."""
    return [*PRELOAD, *_shared_preload]


def _context() -> BaseContext:
    """``forkserver`` where it exists (Linux, macOS); ``spawn`` elsewhere (slower, same result)."""
    with _runner_lock:
        if _runner.context is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(fork_server_preload())
            else:  # pragma: no cover - Windows
                context = multiprocessing.get_context("spawn")
            _runner.context = context
        return _runner.context


# ---------------------------------------------------------------- the child side
def _address_space() -> int | None:
    """This process's virtual size in bytes (Linux), the base of the memory cap."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return None


def _apply_limits(seconds: float, memory_mb: int) -> None:
    """Cap this child's address space and CPU time; where a cap is unsupported, the
    parent's wall-clock deadline still holds."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    size = _address_space()
    if size is not None:
        cap = size + memory_mb * _MB
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or cap < hard:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    cpu = math.ceil(seconds) + 2
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard == resource.RLIM_INFINITY or cpu < hard:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
    with contextlib.suppress(OSError):  # not permitted: run at normal priority
        os.nice(NICENESS)


def _child_main(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...],
                seconds: float, memory_mb: int) -> None:
    """Entry point of a child: run ``fn(*args)`` under the caps and send one message back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the bot; it kills us itself
    _apply_limits(seconds, memory_mb)
    message: tuple[Any, ...]
    try:
        message = ("ok", fn(*args))
    except RuleError as exc:
        message = ("error", "RuleError", exc.key, exc.params, exc.rule)
    except TavoloError as exc:
        message = ("error", "TavoloError", exc.key, exc.params, None)
    except MemoryError:  # sent below, once leaving the handler has freed the failed frames
        message = ("memory",)
    except BaseException as exc:  # the parent logs it; the user reads limits.crashed
        message = ("crash", f"{type(exc).__name__}: {exc}"[:2000])
    try:
        conn.send(message)
    except MemoryError:  # the result itself did not fit
        conn.send(("memory",))
    conn.close()


# ---------------------------------------------------------------- the parent side
class _Job:
    """One child process, killable from the loop thread while its own thread waits for it."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], budget: Budget) -> None:
        self.fn = fn
        self.args = args
        self.budget = budget
        self.cancelled = False
        self._process: multiprocessing.process.BaseProcess | None = None
        self._lock = threading.Lock()

    def cancel(self) -> None:
        """Stop the child now, or keep it from starting (the awaiting task was cancelled)."""
        with self._lock:
            self.cancelled = True
            if self._process is not None:
                self._process.kill()

    def run(self) -> tuple[Any, ...]:
        """Blocking (the job's thread): start the child, wait for its message or the deadline, reap it."""
        context = _context()
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(
            target=_child_main, args=(sender, self.fn, self.args, self.budget.seconds, self.budget.memory_mb),
            daemon=True, name="tavolo-offload",
        )
        try:
            with self._lock:
                if self.cancelled:
                    receiver.close()
                    return ("cancelled",)
                process.start()  # returns once forked: the deadline starts now
                self._process = process
        finally:
            sender.close()  # the child has its own copy; EOF then means it is gone
        exitcode: int | None = None
        try:
            if not receiver.poll(self.budget.seconds):
                return ("timeout",)
            try:
                return receiver.recv()
            except EOFError:  # the child died without a word: say how, below
                pass
        finally:
            with self._lock:
                self._process = None
                if process.is_alive():
                    process.kill()
            process.join()
            exitcode = process.exitcode
            process.close()
            receiver.close()
        if self.cancelled:
            return ("cancelled",)
        return ("died", _exit_note(exitcode), exitcode)


def _exit_note(exitcode: int | None) -> str:
    """A readable reason for a child that exited without answering (for the log)."""
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}"


def _outcome(message: tuple[Any, ...], budget: Budget, what: str) -> Any:
    """The child's message → its result, or the TavoloError that explains the failure."""
    kind = message[0]
    if kind == "ok":
        return message[1]
    if kind == "error":
        _kind, cls, key, params, rule = message
        if cls == "RuleError":
            raise RuleError(key, rule=rule, **params)
        raise TavoloError(key, **params)
    seconds = f"{budget.seconds:g}"
    if kind == "timeout":
        log.warning("%s: stopped after %s s", what, seconds)
        raise TavoloError("limits.too_slow", seconds=seconds)
    if kind == "memory":
        log.warning("%s: needed more than %d MB", what, budget.memory_mb)
        raise TavoloError("limits.too_much_memory", memory_mb=budget.memory_mb)
    if kind == "died" and message[2] == -signal.SIGXCPU:  # the CPU backstop fired first
        log.warning("%s: CPU limit reached", what)
        raise TavoloError("limits.too_slow", seconds=seconds)
    log.error("%s: child failed: %s", what, message[1] if len(message) > 1 else kind)
    raise TavoloError("limits.crashed")


async def run(fn: Callable[..., T], *args: Any, budget: Budget, what: str = "offloaded job",
              guild_id: int | None = None) -> T:
    """``fn(*args)`` in a child process within ``budget``, awaited without blocking the loop.

    ``guild_id`` is the server the input came from: its jobs queue behind each other and take
    turns with other servers' (``None``: the bot's own work, a queue of its own). Every parse of
    an upload must pass it. ``what`` names the job in the logs. Cancelling the awaiting task
    kills the child, or takes the job out of the queue if it has not started.
    """
    job = _Job(fn, args, budget)
    loop = asyncio.get_running_loop()
    future: asyncio.Future[tuple[Any, ...]] = loop.create_future()
    queue = _runner.queue

    def start() -> None:
        # A daemon thread per running job waits for its child (a thread pool's threads would hold
        # up the bot's exit until the last deadline); queued jobs have no thread yet.
        try:
            threading.Thread(target=_wait_for_child, args=(job, queue, guild_id, loop, future), daemon=True,
                             name="offload").start()
        except Exception as exc:  # no thread to be had: the slot is freed, the user reads limits.crashed
            log.exception("offload job could not start")
            queue.done(guild_id)
            _deliver(loop, future, ("crash", f"{type(exc).__name__}: {exc}"[:2000]))

    ticket = queue.submit(guild_id, start)
    try:
        message = await asyncio.shield(future)
    except asyncio.CancelledError:
        if not queue.withdraw(ticket):
            job.cancel()
        raise
    return _outcome(message, budget, what)


def _wait_for_child(job: _Job, queue: FairQueue, guild_id: int | None, loop: asyncio.AbstractEventLoop,
                    future: asyncio.Future[tuple[Any, ...]]) -> None:
    """Thread body: run ``job`` (its turn has come), free its slot, hand the outcome to the loop."""
    try:
        message = job.run()
    except Exception as exc:  # e.g. the fork server could not start: logged, the user reads limits.crashed
        log.exception("offload job could not run")
        message = ("crash", f"{type(exc).__name__}: {exc}"[:2000])
    finally:
        queue.done(guild_id)
    _deliver(loop, future, message)


def _deliver(loop: asyncio.AbstractEventLoop, future: asyncio.Future[tuple[Any, ...]],
             message: tuple[Any, ...]) -> None:
    """Hand ``message`` to the task awaiting ``future``, from any thread."""

    def deliver() -> None:
        if not future.done():
            future.set_result(message)

    with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
        loop.call_soon_threadsafe(deliver)


async def warm_up() -> float:
    """Start the fork server now (imports ``PRELOAD``) so the first real job is quick.

    Returns the seconds it took; safe to call repeatedly.
    """
    started = time.perf_counter()
    await run(noop, budget=Budget(seconds=60.0, memory_mb=64), what="warm-up")
    return time.perf_counter() - started


def noop() -> None:
    """The job ``warm_up`` runs: nothing, so only the fork and the pipe are measured."""
