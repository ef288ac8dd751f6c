"""The console fuzz harness: one App + TavoloBot + Console in-process, fed thousands of
seeded lines (random, mutated, meta, and real play), watching for unexpected errors,
tracebacks and corrupted games.

Used by ``test_console_fuzz.py``; also a command line tool for local work (see
``cli.py``; ``python -m tests.fuzz.harness --help``). This module runs the lines and
judges each one; real play is in ``real_play.py``, the database checks in
``invariants.py``, the failure detectors in ``detection.py``, the report in ``report.py``,
recording and replay in ``replay.py``.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord

from tests.fuzz import lines as L
from tests.fuzz.detection import (
    ERRORS_LOGGER,
    FAIL_LEVEL,
    LogCapture,
    failure_signature,
    format_exc_info,
    unexpected_prefixes,
)
from tests.fuzz.invariants import Invariants
from tests.fuzz.real_play import RealPlay
from tests.fuzz.report import Failure, Report
from tests.fuzz.sample_files import make_files

FILES = "{FUZZ_FILES}"  # where the harness's sample files are, in recorded lines
SCAN_EVERY = 250  # lines between two looks for stuck games
LINE_TIMEOUT = 30.0  # one line taking this long is a hang, not slowness
MAX_FAILURES = 200


class FuzzConsole:
    """Builds the console class lazily (imports the bot only when a run starts)."""

    @staticmethod
    def make(bot: Any, out_dir: Path, output: io.StringIO) -> Any:
        from console.runner import Console

        class _Console(Console):
            images = 0

            def _save(self, file: discord.File) -> str:  # no thousands of PNGs on disk
                file.fp.seek(0)
                data = file.fp.read()
                self.images += 1
                return f"<{file.filename}: {len(data)} bytes, #{self.images}>"

        return _Console(bot, out_dir=out_dir, output=output)


class Harness(RealPlay, Invariants):
    """One fuzz run: open it (or ``async with``), then :meth:`run` or :meth:`replay`; close it."""

    def __init__(self, seed: int, folder: Path, *, max_lines: int, max_seconds: float,
                 record: Path | None = None, verbose: bool = False, database_url: str | None = None) -> None:
        self.seed = seed
        self.folder = folder
        self.database_url = database_url  # a postgresql:// URL (a schema of its own), else SQLite in ``folder``
        self.max_lines = max_lines
        self.max_seconds = max_seconds
        self.record_path = record
        self.verbose = verbose
        self.rng = random.Random(seed)
        self.report = Report(seed=seed, record=record)
        self.executed: list[str] = []
        self._capture = LogCapture()
        self._unexpected = unexpected_prefixes()
        self._deadline = float("inf")
        self._record_file: Any = None
        self._root_level = logging.getLogger().level
        self._stuck: set[int] = set()

    # ------------------------------------------------------------ life cycle
    async def open(self) -> None:
        try:
            await self._open()
        except BaseException:
            await self.close()  # a half-open App keeps its database thread alive: the process would hang
            raise

    async def _open(self) -> None:
        from cogs.client import TavoloBot
        from gm.app import App
        from gm.settings import Settings

        if self.database_url is not None:
            self.settings = Settings(DATABASE_URL=self.database_url, _env_file=None)
        else:
            self.settings = Settings(DATABASE_PATH=self.folder / "fuzz.sqlite3", _env_file=None)
        self.app = await App.open(self.settings, seed=self.seed)
        self.bot = TavoloBot(self.settings, app=self.app)
        await self.bot.load_tavolo()
        self.output = io.StringIO()
        self.console = FuzzConsole.make(self.bot, self.folder / "out", self.output)
        self.specs = L.command_specs(self.bot.tree)
        self.files = make_files(self.folder)
        self.random_lines = L.RandomLines(self.specs, self.files)
        self.mutator = L.Mutator(L.corpus())
        root = logging.getLogger()
        if root.level > logging.WARNING or root.level == logging.NOTSET:
            root.setLevel(logging.WARNING)
        root.addHandler(self._capture)
        if self.record_path is not None:
            self._record_file = self.record_path.open("w", encoding="utf-8")
            self._record_file.write(json.dumps({"seed": self.seed, "files": str(self.folder / "files")}) + "\n")

    async def close(self) -> None:
        logging.getLogger().removeHandler(self._capture)
        logging.getLogger().setLevel(self._root_level)
        if self._record_file is not None:
            self._record_file.close()
            self._record_file = None
        if getattr(self, "app", None) is not None:
            await self.app.close()
        if getattr(self, "bot", None) is not None:
            await self.bot.http.close()

    async def __aenter__(self) -> Harness:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -------------------------------------------------------------- one line
    def _where(self) -> tuple[str, str]:
        return self.console.channel.name, self.console.user.name

    def _out_of_budget(self) -> bool:
        return self.report.lines >= self.max_lines or time.perf_counter() > self._deadline

    async def execute(self, line: str, family: str) -> None:
        index = self.report.lines
        self.report.lines += 1
        self.report.families[family] += 1
        self.executed.append(line)
        if self._record_file is not None:
            self._record_file.write(json.dumps(line) + "\n")
        channel, user = self._where()
        out_start = self.output.tell()
        records_start = len(self._capture.records)
        errors_before = self.console.errors
        try:
            await asyncio.wait_for(self.console.execute(line), LINE_TIMEOUT)
        except TimeoutError:
            self._fail(index, line, "hang", f"no answer within {LINE_TIMEOUT} s", channel, user,
                       f"hang on {line[:60]!r}")
        except Exception:
            info = sys.exc_info()
            self._fail(index, line, "traceback", format_exc_info(info), channel, user,
                       failure_signature(info, "traceback"))
        if self.console.errors == errors_before:
            self.report.accepted[family] += 1
        for record in self._capture.records[records_start:]:
            if record.levelno >= FAIL_LEVEL:
                kind = "unexpected" if record.name == ERRORS_LOGGER else "logged"
                detail = f"{record.name}: {record.getMessage()}\n{format_exc_info(record.exc_info)}"
                self._fail(index, line, kind, detail, channel, user,
                           failure_signature(record.exc_info, f"{record.name}: {record.msg}"))
            else:
                self.report.warnings[f"{record.name}: {record.getMessage()[:100]}"] += 1
        del self._capture.records[:]
        new_output = ""
        if self.output.tell() != out_start:
            self.output.seek(out_start)
            new_output = self.output.read()
        seen = any(f.index == index and f.kind in ("unexpected", "traceback") for f in self.report.failures[-5:])
        for marker in [*self._unexpected, "Traceback (most recent call last)"]:
            if marker in new_output and not seen:  # a backstop: the log record says more
                self._fail(index, line, "output", new_output[-1500:], channel, user, f"output shows {marker[:40]!r}")
        if self.verbose:
            print(f"{index:6d} {channel}/{user}> {line[:200]!r}\n{new_output[:600]}")
        # keep memory flat: old output, old messages (and their images) are not needed any more
        if self.output.tell() > 2_000_000:
            self.output.seek(0)
            self.output.truncate()
        messages = self.console.transcript.messages
        if len(messages) > 300:
            del messages[:-100]

    def _fail(self, index: int, line: str, kind: str, detail: str, channel: str, user: str, signature: str) -> None:
        self.report.failures.append(Failure(index, line, kind, detail, channel, user, signature))

    # ----------------------------------------------------------------- run
    async def run(self) -> Report:
        start = time.perf_counter()
        self._deadline = start + self.max_seconds
        rng = self.rng
        next_play = 0
        next_scan = SCAN_EVERY
        while not self._out_of_budget() and len(self.report.failures) < MAX_FAILURES:
            if self.report.lines >= next_scan:
                await self.scan_games()
                next_scan = self.report.lines + SCAN_EVERY
            if self.report.lines >= next_play:
                await self.play_chunk()
                next_play = self.report.lines + rng.randint(20, 90)
                continue
            roll = rng.random()
            if roll < 0.42:
                await self.execute(self.random_lines.line(rng), "random")
            elif roll < 0.80:
                await self.execute(self.mutator.line(rng), "mutated")
            else:
                await self.execute(L.meta_line(rng, self.specs), "meta")
        self.report.stopped_by = "time" if time.perf_counter() > self._deadline else (
            "failures" if len(self.report.failures) >= MAX_FAILURES else "lines")
        return await self._finish(start)

    async def replay(self, lines: Sequence[str]) -> Report:
        start = time.perf_counter()
        files = str(self.folder / "files")
        for line in lines:
            await self.execute(line.replace(FILES, files), "replay")
            if self.report.lines % SCAN_EVERY == 0:
                await self.scan_games()
        return await self._finish(start)

    async def _finish(self, start: float) -> Report:
        """The last look for stuck games, the time taken and the database checks, into the report."""
        await self.scan_games()
        self.report.seconds = time.perf_counter() - start
        self.report.db_problems = await self.check_database()
        return self.report


async def fuzz(seed: int, folder: Path, *, max_lines: int, max_seconds: float, record: Path | None = None,
               verbose: bool = False, database_url: str | None = None) -> Report:
    async with Harness(seed, folder, max_lines=max_lines, max_seconds=max_seconds, record=record,
                       verbose=verbose, database_url=database_url) as harness:
        return await harness.run()


if __name__ == "__main__":  # python -m tests.fuzz.harness: the command line lives in cli.py
    from tests.fuzz.cli import main

    raise SystemExit(main())
