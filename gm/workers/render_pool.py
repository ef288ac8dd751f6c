"""Board pictures drawn on every core, off the event loop: a small pool of render workers.

Why a pool of processes: one asyncio loop serves every server, and a board costs 6-8 ms
of CPU, ~40% of it drawing in Python, which holds the GIL. Rendered in a thread, that part
competes with the loop for the GIL, so a busy bot does everything on about one core;
rendered in worker processes, the loop only serialises the view (~0.1 ms of JSON) and
the pictures use the other cores. ``bench/krosmaster.py`` measures both kinds (``--pool``).

Which renders go to the workers: those of presenters defined in the game modules the
workers import at start (``PoolConfig.games``, handed down by ``gm.app``: this layer knows no
game), since a worker only knows what it imported. Any other presenter (a test's fake) renders
in a thread, as does everything when ``kind`` is "thread".

Failure: a render that raises, crashes its worker or outlives ``timeout`` raises
``RenderFailed``; a crashed or stuck worker is killed and replaced before its next job.
The caller (``gm.table.replies.render``) turns that into a text-only reply: the move
was committed before the picture was asked for, so it is never lost.

Each worker has a thread in this process that hands it one job at a time and waits for
the answer (``Connection.poll`` releases the GIL); the loop only awaits a future.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import importlib
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Literal

from engines.core.contract import GameState
from gm.workers import render_memory
from gm.workers.heap import freeze_start_up_heap
from gm.workers.render_queue import JobQueue

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

    from gm.presenters import Presenter
    from gm.settings import Settings

log = logging.getLogger(__name__)

Kind = Literal["process", "thread"]
START_SECONDS = 30.0
"""How long start-up waits for the workers before READY (``start_workers``); a worker still starting then
goes on starting, and draws from the moment it is ready."""
START_LIMIT_SECONDS = 600.0
"""How long a worker that is alive may take to import and warm up before it counts as stuck (and is killed).

Why not ``START_SECONDS`` (issue 28, ``bench/cold_start.py`` with a table of each of the five games): at
load 13 on 2 cores the fork server's imports and five warm-ups took longer than 30 s, the workers were
killed, and since only a worker that is ready is sent pictures, none started again: every picture of
that process was drawn in one of its threads (1-3 s each) for as long as it ran. A slow start is not a
broken one; a broken import ends the process, which the pipe reports at once."""
_START_POLL = 0.5


@dataclass(frozen=True)
class PoolConfig:
    """How pictures are drawn: ``workers`` processes (or threads) and how long one may take."""

    kind: Kind = "process"
    workers: int = 2
    timeout: float = 10.0
    games: tuple[str, ...] = ()
    """The modules every worker imports at start, each registering a game's presenter: injected by the
    composition root (``gm.app.GAME_MODULES``), since an import of it from here would point upward."""
    warm_up: bool = True
    """Run every presenter's ``warm_up`` at start, so no player waits for fonts and arenas to be drawn."""

    @classmethod
    def from_settings(cls, settings: Settings, games: tuple[str, ...] = ()) -> PoolConfig:
        return cls(kind=settings.render_pool, workers=settings.render_workers, timeout=settings.render_timeout_seconds,
                   games=games)


class RenderFailed(Exception):
    """The picture could not be drawn (an error, a crashed worker, or too slow)."""


# ---------------------------------------------------------------- the worker side
def _worker_main(conn: Connection, modules: Sequence[str], warm_up: bool) -> None:
    """A worker process: import the games, warm the caches, then draw until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the bot, which stops us
    tune_allocator()
    for module in modules:
        importlib.import_module(module)
    if warm_up:  # what the fork server drew before the fork is skipped: touching it would only copy pages
        from gm import presenters

        presenters.warm_up_all(skip=getattr(sys.modules.get("gm.workers.render_warm"), "WARMED", frozenset()))
        rehearse()
    freeze_start_up_heap()  # what the warm-up drew stays: no full collection walks it mid-picture
    trimmer = render_memory.Trimmer()
    try:
        conn.send(("ready", os.getpid()))
        while True:
            payload = conn.recv_bytes()
            try:
                fn, args = pickle.loads(payload)
                message: tuple[Any, ...] = ("ok", fn(*args))
            except Exception as exc:
                message = ("error", f"{type(exc).__name__}: {exc}"[:2000])
            conn.send(message)
            del payload, message
            if not conn.poll(0):  # the pages the picture freed go back only while no picture waits
                trimmer.after_picture()
    except (EOFError, OSError):  # the bot closed the pipe or went away: nothing left to draw for
        return


def render_view(system: str, view_type: type[GameState], view_json: str, lang: str,
                seat_names: list[str], log_lines: list[str] | None = None,
                hints: dict[str, Any] | None = None, table: object = None) -> bytes | None:
    """The job a worker runs: the view back from JSON, then the game's presenter draws it."""
    from engines.core.state_versions import parse_json
    from gm import presenters

    presenter = presenters.get(system)
    if presenter is None:
        raise LookupError(f"no presenter for {system!r} in the render worker")
    return _render_here(presenter, parse_json(view_type, view_json), lang, seat_names, log_lines, hints, table)


REHEARSAL_NAMES = ("Ada", "Bruno", "Chiara", "Dario")
REHEARSAL_LOG = ("Ada moves.", "Bruno attacks: 2 damage.", "Chiara passes.")


def rehearse() -> list[str]:
    """Draw each game's first and last warm-up positions once more, here, before the worker says it is ready;
    answer the systems drawn.

    Why (issue 28): a worker forked from the warm fork server shares its pages copy-on-write, and its
    first picture of a game wrote to thousands of them (reference counts of the cached masks, fonts and
    layers it read): a fresh worker's first Warlord picture of ``bench/acts.py`` took ~4,000 page faults
    and 45-57 ms, against 11-17 ms for the next ones; rehearsed, ~1,400 faults and 31-43 ms. Two pictures
    a game touch the pages most pictures of that game touch, and nobody waits for them. The whole warm-up
    drawn again touched far more (PSS +20 MB at 1,000 games, bench/README.md, tenth session); the
    rehearsal's cost did not show there (411-414 MB against 414-418). Each position is drawn as a job comes
    (``render_view``: its JSON read back, players' names, a log), so the first table's picture does not make
    those first reads either: its page faults 1,359 -> 1,177 and its drawing 13.4 -> 12.6 ms (bench/README.md,
    twentieth session). A failure is logged, never raised."""
    from gm import presenters
    from renderers import kit_warm

    drawn = []
    for system, views in sorted(kit_warm.REHEARSALS.items()):
        presenter = presenters.get(system)
        if presenter is None:
            continue
        try:
            for view in views:  # as a job comes: the view's JSON read back, players' names, a log
                render_view(system, type(view), view.model_dump_json(), "en", list(REHEARSAL_NAMES),
                            list(REHEARSAL_LOG))
        except Exception:
            log.exception("rehearsal of %s failed", system)
        else:
            drawn.append(system)
    return drawn


# ---------------------------------------------------------------- the parent side
_Job = tuple[Callable[..., Any], tuple[Any, ...], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class _Worker:
    """One worker process and the thread that feeds it, one job at a time."""

    def __init__(self, pool: RenderPool, number: int) -> None:
        self.pool = pool
        self.number = number
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.ready = False  # started once: until then pictures render in threads
        self.tried = False  # its first start is over, whether it worked or not (``RenderPool.started``)
        self.thread = threading.Thread(target=self._serve, daemon=True, name=f"render-{number}")
        self.thread.start()

    def _start(self) -> None:
        """Start the process (in this thread, never on the loop) and wait for it to be warm."""
        context = _context(self.pool.config)
        receiver, sender = context.Pipe(duplex=True)
        config = self.pool.config
        process = context.Process(target=_worker_main, args=(sender, config.games, config.warm_up), daemon=True,
                                  name=f"tavolo-render-{self.number}")
        process.start()
        sender.close()
        try:
            began = time.monotonic()
            while not receiver.poll(_START_POLL):  # a process that dies wakes the poll (the pipe's end closes)
                if self.pool.closed:
                    raise RenderFailed(f"render worker {self.number}: the pool closed while it started")
                if time.monotonic() - began > START_LIMIT_SECONDS:
                    raise RenderFailed(f"render worker {self.number} did not start in {START_LIMIT_SECONDS:g} s")
            receiver.recv()  # ("ready", pid)
        except (EOFError, OSError, RenderFailed) as exc:
            self.ready = False  # pictures go to the other workers, or to threads
            process.kill()
            process.join()
            receiver.close()
            raise RenderFailed(f"render worker {self.number} could not start: {exc}") from exc
        self.process, self.conn = process, receiver
        self.ready = True

    def _stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(Exception):
                self.process.kill()
                self.process.join(5)
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
        self.process = self.conn = None

    def _serve(self) -> None:
        try:
            self._start()
        except Exception as exc:  # e.g. a broken import: logged; a later job tries again
            if not self.pool.closed:  # the bot stopping while a worker starts is no error
                log.error("%s", exc)
        self.tried = True
        while True:
            job = self.pool.jobs.get(self.number)
            if job is None:
                self._stop()
                return
            fn, args, loop, future = job
            if future.done():  # the caller gave up while the job queued
                continue
            try:
                outcome: tuple[bool, Any] = (True, self._run(fn, args))
            except RenderFailed as exc:
                outcome = (False, exc)
            except Exception as exc:  # a pickling error, a broken pipe…: the worker is suspect
                self._stop()
                outcome = (False, RenderFailed(f"{type(exc).__name__}: {exc}"))
            self.pool.jobs.done(self.number)  # before the answer: the game's next picture may follow at once
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(_deliver, future, outcome)

    def _run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        try:
            payload = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # the job's fault, not the worker's: it stays
            raise RenderFailed(f"cannot send the job: {type(exc).__name__}: {exc}") from exc
        if self.process is None or not self.process.is_alive():
            self._stop()
            self._start()
        assert self.conn is not None
        self.conn.send_bytes(payload)
        if not self.conn.poll(self.pool.config.timeout):
            self._stop()  # stuck: killed, and replaced before the next job
            raise RenderFailed(f"render took more than {self.pool.config.timeout:g} s")
        try:
            message = self.conn.recv()
        except EOFError:
            exitcode = self.process.exitcode if self.process is not None else None
            self._stop()
            raise RenderFailed(f"render worker died (exit code {exitcode})") from None
        if message[0] == "ok":
            return message[1]
        raise RenderFailed(message[1])


def _deliver(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


_context_lock = threading.Lock()


def _context(config: PoolConfig) -> BaseContext:
    """``forkserver`` where it exists: workers fork from a clean server, not from the bot
    (whose threads make a plain fork unsafe), and skip re-running the bot's script. The
    server is shared with ``gm.workers.offload``, so it preloads that module's list as well."""
    with _context_lock:
        if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover - Windows
            return multiprocessing.get_context("spawn")
        from gm.workers import offload

        context = multiprocessing.get_context("forkserver")
        offload.share_fork_server(fork_server_modules(config))
        return context


def fork_server_modules(config: PoolConfig) -> list[str]:
    """What the fork server imports for the workers: the games, then ``gm.workers.render_warm`` (last:
    its import draws every registered presenter's warm-up there, shared by the workers)."""
    return [*config.games, *(["gm.workers.render_warm"] if config.warm_up else [])]


class RenderPool:
    """Runs pure, importable render functions on worker processes (or threads)."""

    def __init__(self, config: PoolConfig) -> None:
        self.config = config
        self.closed = False
        self.jobs: JobQueue[_Job] = JobQueue(config.workers if config.kind == "process" else 1)
        self._workers: list[_Worker] = []
        self._threads: concurrent.futures.ThreadPoolExecutor | None = None
        if config.kind == "process":
            self._workers = [_Worker(self, n) for n in range(max(1, config.workers))]
        else:
            self._threads = concurrent.futures.ThreadPoolExecutor(max(1, config.workers), "render")

    async def call(self, fn: Callable[..., Any], *args: Any, remote: bool = True, affinity: object = None) -> Any:
        """``fn(*args)`` on a worker (``remote`` and a process pool) or a thread, within the timeout.

        For a process, ``fn`` must be importable at module level and ``args`` picklable.
        ``affinity`` (a game's id) sends the jobs that share it to one worker when it is free
        (``gm.workers.render_queue``). Raises ``RenderFailed`` for any failure; cancelling the caller
        abandons the job.
        """
        loop = asyncio.get_running_loop()
        if remote and self._workers:
            future: asyncio.Future[Any] = loop.create_future()
            self.jobs.put((fn, args, loop, future), None if affinity is None else self.jobs.preferred(affinity))
            return await future  # the worker's thread enforces the timeout
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._threads, fn, *args), self.config.timeout)
        except TimeoutError:
            raise RenderFailed(f"render took more than {self.config.timeout:g} s") from None
        except Exception as exc:
            raise RenderFailed(f"{type(exc).__name__}: {exc}") from exc

    def ready(self) -> bool:
        """At least one worker process has started (until then pictures render in threads)."""
        return any(w.ready for w in self._workers)

    async def started(self, timeout: float = START_SECONDS) -> bool:
        """Wait, without blocking the loop, until every worker's start is over or ``timeout`` has passed;
        True when one at least is ready. A pool of threads has nothing to wait for.

        Why every worker, when one can draw: they start together (forked from one fork server once it
        is up), so the others are ready moments after the first, and a worker still starting when the
        first pictures come would take a core from them."""
        if not self._workers:
            return True
        deadline = time.monotonic() + timeout
        while not all(w.tried for w in self._workers) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        return self.ready()

    async def render(self, presenter: Presenter, view: GameState, *, lang: str, seat_names: list[str],
                     log_lines: list[str] | None = None, view_json: str | None = None,
                     hints: dict[str, Any] | None = None, affinity: object = None) -> bytes | None:
        """The presenter's picture of ``view``: in a worker when the workers know the presenter
        and one has started, else in a thread. ``log_lines`` reach presenters that draw a log
        (``wants_log_lines``); ``view_json`` is ``view.model_dump_json()`` when the caller has
        it already (a commit just wrote it: ~1 ms of the loop's time saved); ``affinity``: the game's
        id, so its pictures meet the worker that drew the previous one (see ``call``)."""
        here = getattr(presenter, "render_here", None)  # a picture that needs this process (a server pack)
        if self.ready() and type(presenter).__module__ in self.config.games and not (here and here(view)):
            text = view_json if view_json is not None else view.model_dump_json()
            return await self.call(render_view, presenter.system, type(view), text, lang, list(seat_names), log_lines,
                                   hints, affinity, affinity=affinity)
        return await self.call(_render_here, presenter, view, lang, list(seat_names), log_lines, hints, affinity,
                               remote=False)

    def close(self) -> None:
        """Stop the workers (their threads kill them) and the threads."""
        self.closed = True
        self.jobs.close()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)


def _render_here(presenter: Presenter, view: GameState, lang: str, seat_names: list[str],
                 log_lines: list[str] | None = None, hints: dict[str, Any] | None = None,
                 table: object = None) -> bytes | None:
    """The presenter's picture, drawn here; ``table`` (the game's id) tells a renderer that re-draws
    only what changed which earlier picture is this one's previous (``renderers.kit_scene``)."""
    from renderers import kit_scene

    render: Any = presenter.render  # the optional ``log_lines`` and hint keywords (see gm.presenters)
    extra: dict[str, Any] = dict(hints or {})
    if log_lines is not None and getattr(presenter, "wants_log_lines", False):
        extra["log_lines"] = log_lines
    with kit_scene.table(table):
        return render(view, viewer=None, lang=lang, seat_names=seat_names, **extra)  # type: ignore[no-any-return]




# ---------------------------------------------------------------- the process-wide pool
_pool: RenderPool | None = None
_config = PoolConfig(kind="thread", workers=4)
"""Until ``configure`` runs (``App.open`` with the settings), pictures render in threads
as they always did, so a test or a tool that never configures gets no child processes."""
_pool_lock = threading.Lock()


def configure(config: PoolConfig) -> None:
    """Use ``config`` from the next picture on; a different config replaces the pool."""
    global _pool, _config
    if config.kind == "process":  # before anything forks: the server then carries the warm-up
        from gm.workers import offload

        offload.share_fork_server(fork_server_modules(config))
    with _pool_lock:
        if config == _config:
            return
        old, _pool, _config = _pool, None, config
    if old is not None:
        old.close()


def pool() -> RenderPool:
    """The process-wide pool, created on first use (its workers start in their own threads)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = RenderPool(_config)
        return _pool


def shutdown() -> None:
    """Stop the process-wide pool (the next picture starts a new one). Also run at exit."""
    global _pool
    with _pool_lock:
        old, _pool = _pool, None
    if old is not None:
        old.close()


atexit.register(shutdown)  # registered after multiprocessing's own exit handler, so it runs first


async def start_workers(timeout: float = START_SECONDS) -> float | None:
    """Start the process-wide pool's workers now and wait until they have started (at most ``timeout``,
    ``RenderPool.started``); returns the seconds it took, or None when pictures are drawn in threads.

    Why (issue 28): created by the first picture, the pool had that picture drawn in a thread of the
    bot (113 ms quiet, up to 836 ms under load), and every later one until a worker was up, 1.3-6.5 s
    on. The bot awaits this before it connects to the gateway (``cogs.client.TavoloBot.setup_hook``),
    so READY comes with a worker ready; the workers' start also starts the fork server that the upload
    parsers (``gm.workers.offload``) fork from. A worker that is not up within ``timeout`` is broken
    anyway (``START_SECONDS``): the bot goes on, its pictures drawn in threads until one starts."""
    with _pool_lock:
        if _config.kind != "process":  # the console, tests, RENDER_POOL=thread: as before, nothing starts
            return None
    began = time.monotonic()
    ready = await pool().started(timeout)
    took = time.monotonic() - began
    if ready:
        log.info("render workers ready after %.2f s", took)
    else:
        log.warning("render workers: none ready after %.1f s; pictures are drawn in threads until one is", took)
    return took


def started_workers(timeout: float = 60.0) -> list[int]:
    """Pids of the worker processes, once all have started (waits up to ``timeout``; tests, benches)."""
    deadline = time.monotonic() + timeout
    current = pool()
    while time.monotonic() < deadline:
        if all(w.ready for w in current._workers):
            return [w.process.pid for w in current._workers if w.process is not None and w.process.pid]
        time.sleep(0.05)
    return []


# ---------------------------------------------------------------- the allocator
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
ALLOCATOR_THRESHOLD = 64 * 1024 * 1024


def tune_allocator() -> bool:
    """Keep freed image buffers in this process instead of handing them back to the kernel.

    Why: a snapshot allocates a few MB of image buffers and frees them; glibc returns
    large blocks to the kernel (``munmap``, heap trimming), so the next snapshot pays
    thousands of page faults to get them back and renders come in a slow and a fast mode.
    Raising glibc's mmap and trim thresholds keeps those pages. glibc only (other C
    libraries are left alone); returns whether the thresholds were set.
    """
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows)
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, ALLOCATOR_THRESHOLD) and mallopt(M_TRIM_THRESHOLD, ALLOCATOR_THRESHOLD))
