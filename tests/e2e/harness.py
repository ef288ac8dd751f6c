"""Run the real Tavolo bot against :class:`FakeDiscord`: as a subprocess, or in-process.

The subprocess is what users run (``python bot.py``), configured only through the
environment, so it proves start-up, settings, signal handling and persistence across a
real process restart. The in-process variant builds the same ``TavoloBot`` in the test's
event loop, for tests that must look inside (register a test engine, slow a renderer).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

from tests.e2e.fake_discord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]


def bot_env(fake: FakeDiscord, db_path: Path, **extra: str) -> dict[str, str]:
    """The environment ``bot.py`` needs to talk to the fake (and nothing from the developer's)."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR", "VIRTUAL_ENV", "PYENV_VERSION")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env |= {
        "DISCORD_TOKEN": fake.token,
        "TAVOLO_DISCORD_API_BASE": fake.api_base,
        "TAVOLO_DISCORD_GATEWAY": fake.gateway_url,
        "DATABASE_PATH": str(db_path),
        "DEV_GUILD_ID": str(fake.guild.id),
        "GM_ROLE": "GM",
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.update(extra)
    return env


class BotProcess:
    """``python bot.py`` as a child process, with its output kept for failure messages.

    It runs in ``workdir`` (not the repository) so a developer's ``.env`` and ``./data``
    cannot leak into the test; everything it needs comes from :func:`bot_env`.
    """

    def __init__(self, fake: FakeDiscord, db_path: Path, workdir: Path, **extra_env: str) -> None:
        self.fake = fake
        self.db_path = db_path
        self.workdir = workdir
        self.env = bot_env(fake, db_path, **extra_env)
        self.proc: asyncio.subprocess.Process | None = None
        self.output: list[str] = []
        self._pump: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        #: set by a test that provokes errors on purpose; otherwise any ERROR log fails the test
        self.allow_errors = False
        #: the command line (tests may run bot.py's ``main`` through a small prelude, issue 18)
        self.argv: list[str] = [sys.executable, str(REPO / "bot.py")]
        #: a sharded process without shard 0 identifies but does not sync the commands
        self.expect_sync = True
        fake.diagnostics.append(self.log_tail)

    def log_tail(self, lines: int = 40) -> str:
        return "bot output (tail):\n" + "\n".join(f"  | {line}" for line in self.output[-lines:])

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self, timeout: float = 120.0) -> None:
        """Spawn the bot and wait until it has synced its commands and identified on the gateway."""
        syncs, identifies = len(self.fake.command_syncs), len(self.fake.identifies)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            cwd=self.workdir,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._pump = asyncio.create_task(self._read_output())
        proc = self.proc
        self._watch = asyncio.create_task(self._notify_on_exit(proc))

        def started_or_dead() -> bool:
            return proc.returncode is not None or (
                (len(self.fake.command_syncs) > syncs or not self.expect_sync)
                and len(self.fake.identifies) > identifies
            )

        await self.fake.wait_until(started_or_dead, timeout=timeout, what="bot.py to sync and identify")
        if proc.returncode is not None:
            await self._drain()
            raise AssertionError(f"bot.py exited with {proc.returncode} during start-up\n{self.log_tail()}")

    async def _notify_on_exit(self, proc: asyncio.subprocess.Process) -> None:
        """Wake the fake's waiters when the process dies, so a crash fails fast, not by timeout."""
        await proc.wait()
        await self.fake.notify()

    async def _read_output(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.output.append(raw.decode(errors="replace").rstrip())

    async def _drain(self) -> None:
        if self._pump is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._pump, 5)

    async def stop(self, sig: int = signal.SIGINT, timeout: float = 10.0) -> int:
        """Ask the bot to stop like a terminal or a service manager would; return its exit code."""
        proc = self.proc
        if proc is None:
            return 0
        if proc.returncode is None:
            proc.send_signal(sig)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                proc.kill()
                await proc.wait()
                await self._drain()
                raise AssertionError(f"bot.py ignored signal {sig} for {timeout}s\n{self.log_tail()}") from None
        await self._drain()
        return proc.returncode if proc.returncode is not None else -1

    async def kill(self) -> None:
        """Die without warning (power cut): no shutdown code runs."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        await self._drain()

    def errors_logged(self) -> list[str]:
        """Output lines that look like errors or tracebacks (a clean run has none)."""
        return [
            line for line in self.output if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
        ]


class InProcessBot:
    """The real ``TavoloBot`` from bot.py, run in the test's event loop.

    discord.py must already point at the fake (``discord_py_at_fake`` fixture); the bot
    is built from ``Settings`` exactly as ``bot.py`` builds it.
    """

    def __init__(self, fake: FakeDiscord, db_path: Path, **settings: Any) -> None:
        self.fake = fake
        self.db_path = db_path
        self.settings_kwargs = settings
        self.bot: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, timeout: float = 60.0) -> Any:
        from cogs import client as bot_module
        from gm.settings import Settings

        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            DISCORD_TOKEN=self.fake.token,
            DATABASE_PATH=self.db_path,
            DEV_GUILD_ID=self.fake.guild.id,
            GM_ROLE="GM",
            **self.settings_kwargs,
        )
        syncs, identifies = len(self.fake.command_syncs), len(self.fake.identifies)
        self.bot = bot_module.make_bot(settings)
        await self.bot.login(self.fake.token)
        # reconnect=True like bot.py (``bot.start``). With reconnect=False discord.py calls
        # close() a second time from connect(), concurrently with ours, and TavoloBot.close
        # then closes the aiosqlite connection twice at once, which hangs (see report).
        self._task = asyncio.create_task(self.bot.connect(reconnect=True))
        task = self._task

        def started_or_dead() -> bool:
            return task.done() or (len(self.fake.command_syncs) > syncs and len(self.fake.identifies) > identifies)

        await self.fake.wait_until(started_or_dead, timeout=timeout, what="in-process bot to sync and identify")
        if task.done():
            task.result()  # re-raise
        # READY is dispatched guild_ready_timeout after GUILD_CREATE; stopping before that would
        # leave discord.py's delayed 'ready' firing into a closed client.
        await asyncio.wait_for(self.bot.wait_until_ready(), timeout)
        return self.bot

    async def stop(self) -> None:
        """Stop the gateway loop first, then close: closing under a running ``connect()`` makes
        discord.py dispatch 'disconnect' after it dropped its loop (a never-awaited coroutine)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 5)
            self._task = None
        if self.bot is not None:
            await self.bot.close()
        self.bot = None


async def stop_all(procs: list[BotProcess]) -> None:
    """Stop every bot process a test started; each must exit cleanly on SIGINT and, unless the
    test expected errors, have logged none."""
    failures = []
    for proc in procs:
        if proc.running:
            code = await proc.stop()
            if code != 0:
                failures.append(f"bot.py exited {code} on SIGINT\n{proc.log_tail()}")
        if proc.errors_logged() and not proc.allow_errors:
            failures.append("bot.py logged errors:\n" + "\n".join(proc.errors_logged()[:20]) + "\n"
                            + proc.log_tail(80))
    assert not failures, "\n".join(failures)
