"""The console fuzz harness: one App + TavoloBot + Console in-process, fed thousands of
seeded lines (random, mutated, meta, and real play), watching for unexpected errors,
tracebacks and corrupted games.

Used by ``test_console_fuzz.py``; also a command line tool for local work::

    python -m tests.fuzz.harness --seed 1 --lines 100000      # a long run
    python -m tests.fuzz.harness --replay out.jsonl             # the lines of a failed run, again
    python -m tests.fuzz.harness --replay out.jsonl --minimize  # the fewest lines that still fail

Every run writes the lines it executed (JSON, one per line, so NUL and friends survive)
to ``--record``; the first entry holds the seed. Replaying them from a fresh console with
that seed repeats the run exactly: dice, lines and the games they build.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from tests.fuzz import lines as L

FILES = "{FUZZ_FILES}"  # where the harness's sample files are, in recorded lines
SCAN_EVERY = 250  # lines between two looks for stuck games
LINE_TIMEOUT = 30.0  # one line taking this long is a hang, not slowness
MAX_FAILURES = 200
FAIL_LEVEL = logging.ERROR
ERRORS_LOGGER = "tavolo.errors"


def _unexpected_prefixes() -> list[str]:
    """The fixed part of ``common.unexpected`` in every shipped language."""
    from common.i18n import SUPPORTED, catalog

    prefixes = []
    for lang in SUPPORTED:
        text = catalog(lang).get("common.unexpected", "")
        head = text.split("{", 1)[0].strip()
        if head:
            prefixes.append(head[:60])
    return prefixes


@dataclass
class Failure:
    index: int
    line: str
    kind: str  # unexpected | traceback | logged | hang | output
    detail: str
    channel: str
    user: str
    signature: str = ""

    def short(self) -> str:
        last = next((ln for ln in reversed(self.detail.splitlines()) if ln.strip()), "")
        return (f"#{self.index} [{self.kind}] in #{self.channel} as {self.user}: {self.line[:300]!r}\n"
                f"    {self.signature} — {last.strip()[:200]}")


@dataclass
class Report:
    seed: int
    lines: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    db_problems: list[str] = field(default_factory=list)
    families: Counter[str] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    record: Path | None = None
    stopped_by: str = "lines"

    @property
    def rate(self) -> float:
        return self.lines / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        families = ", ".join(f"{k} {v} ({self.accepted[k]} accepted)" for k, v in sorted(self.families.items()))
        games = ", ".join(f"{k} {v}" for k, v in sorted(self.games.items()))
        text = (f"console fuzz seed={self.seed}: {self.lines} lines in {self.seconds:.1f} s "
                f"({self.rate:.0f} lines/s, stopped by {self.stopped_by}); {families}; games: {games}; "
                f"{len(self.failures)} failures, {len(self.db_problems)} database problems")
        text += (f"\n  run it again: python -m tests.fuzz.harness --seed {self.seed} --lines {self.lines}"
                 " (same lines, same dice)")
        if self.record:
            text += (f"\n  lines recorded in {self.record}; python -m tests.fuzz.harness --replay FILE"
                     " [--minimize] replays them")
        if self.warnings:
            text += "\n  warnings logged: " + "; ".join(f"{n}× {w}" for w, n in self.warnings.most_common(8))
        return text

    def describe(self, limit: int = 15) -> str:
        """Every distinct failure once (first occurrence), with the traceback."""
        out = [self.summary()]
        seen: dict[str, int] = Counter()  # type: ignore[assignment]
        for failure in self.failures:
            seen[failure.signature] += 1
        shown: set[str] = set()
        for failure in self.failures:
            if failure.signature in shown or len(shown) >= limit:
                continue
            shown.add(failure.signature)
            out.append(f"\n--- {seen[failure.signature]}× {failure.short()}\n{failure.detail.rstrip()}")
        out += [f"\n--- database: {p}" for p in self.db_problems]
        return "\n".join(out)


class _Capture(logging.Handler):
    """Every WARNING+ record from any logger while the harness runs."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _signature(exc_info: Any, fallback: str) -> str:
    """Exception type and the innermost frame inside the project: groups repeats of one bug."""
    if not exc_info or exc_info[0] is None:
        return fallback
    kind, _value, tb = exc_info
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if "/site-packages/" not in f.filename and "/lib/python" not in f.filename]
    frame = (ours or frames or [None])[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno} {frame.name}" if frame else "?"
    return f"{kind.__name__} at {where}"  # the message is in the traceback; one bug, one group


def _format(exc_info: Any) -> str:
    if not exc_info or exc_info[0] is None:
        return ""
    return "".join(traceback.format_exception(*exc_info))


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


class Harness:
    def __init__(self, seed: int, folder: Path, *, max_lines: int, max_seconds: float,
                 record: Path | None = None, verbose: bool = False) -> None:
        self.seed = seed
        self.folder = folder
        self.max_lines = max_lines
        self.max_seconds = max_seconds
        self.record_path = record
        self.verbose = verbose
        self.rng = random.Random(seed)
        self.report = Report(seed=seed, record=record)
        self.executed: list[str] = []
        self._capture = _Capture()
        self._unexpected = _unexpected_prefixes()
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

        self.settings = Settings(DATABASE_PATH=self.folder / "fuzz.sqlite3", _env_file=None)
        self.app = await App.open(self.settings, seed=self.seed)
        self.bot = TavoloBot(self.settings, app=self.app)
        await self.bot.load_tavolo()
        self.output = io.StringIO()
        self.console = FuzzConsole.make(self.bot, self.folder / "out", self.output)
        self.specs = L.command_specs(self.bot.tree)
        self.files = self._make_files()
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

    def _make_files(self) -> list[str]:
        """Small real files for ``file:`` options: packs good and bad, rulebooks, junk."""
        from tests import hostile

        folder = self.folder / "files"
        folder.mkdir(parents=True, exist_ok=True)
        arena = None
        try:
            from engines.krosmaster.content import builtin_pack

            arena = builtin_pack().arenas[0].model_dump(mode="json")
        except Exception:  # the pack format is someone else's work in progress
            arena = {"id": "x"}
        files = {
            "duel.json": json.dumps({"name": "duelists", "figurines": [],
                                     "arenas": [{**arena, "id": "tiny_duel", "name": "Tiny Duel"}]}),
            "bad.json": json.dumps({"name": "broken", "figurines": [{"id": "x"}]}),
            "empty.json": "",
            "list.json": "[1, 2, 3]",
            "null.json": "null",
            "deep.json": hostile.deep_nesting(5000),
            "laughs.yaml": hostile.billion_laughs(6),
            "pack.yaml": "name: yamlpack\nfigurines: []\narenas: []\n",
            "tabs.yml": "\t- x: [\n",
            "rules.txt": "310 Locking\n310.2 A locked piece loses AP.\n\n311 Dodge\nRoll the dice.\n",
            "rules.md": "# 1 Intro\nHello\n## 1.1 More\nText é 🎲\n",
            "notes.pdf": "%PDF-1.4 not really",
            "bomb.pdf": hostile.self_referencing_pdf(),
            "image.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 64,
            "latin1.txt": "caf\xe9".encode("latin-1"),
            "noext": "310 x",
            "weird name é 🎲.json": "{}",
        }
        paths = []
        for name, data in files.items():
            path = folder / name
            if isinstance(data, bytes):
                path.write_bytes(data)
            else:
                path.write_text(data, encoding="utf-8")
            paths.append(str(path))
        return paths

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
            self._fail(index, line, "traceback", _format(info), channel, user, _signature(info, "traceback"))
        if self.console.errors == errors_before:
            self.report.accepted[family] += 1
        for record in self._capture.records[records_start:]:
            if record.levelno >= FAIL_LEVEL:
                kind = "unexpected" if record.name == ERRORS_LOGGER else "logged"
                detail = f"{record.name}: {record.getMessage()}\n{_format(record.exc_info)}"
                self._fail(index, line, kind, detail, channel, user,
                           _signature(record.exc_info, f"{record.name}: {record.msg}"))
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
        await self.scan_games()
        self.report.seconds = time.perf_counter() - start
        self.report.db_problems = await self.check_database()
        return self.report

    async def replay(self, lines: Sequence[str]) -> Report:
        start = time.perf_counter()
        files = str(self.folder / "files")
        for line in lines:
            await self.execute(line.replace(FILES, files), "replay")
            if self.report.lines % SCAN_EVERY == 0:
                await self.scan_games()
        await self.scan_games()
        self.report.seconds = time.perf_counter() - start
        self.report.db_problems = await self.check_database()
        return self.report

    # ---------------------------------------------------------- real play
    async def _game(self) -> tuple[Any, list[Any]]:
        from db import games as repo

        conn = self.app.store.conn
        row = await repo.open_game(conn, self.console.channel.id)
        return row, (await repo.seats(conn, row.id) if row is not None else [])

    async def _as(self, name: str, gm: bool = False) -> None:
        if self.console.user.name.lower() != name.lower() or (gm and not self.console.user.is_gm):
            import shlex

            await self.execute(f"/as {shlex.quote(name)}" + (" gm" if gm else ""), "play")

    async def play_chunk(self) -> None:
        """Some real play in one of the fuzz channels: open a table, finish a lobby, or play on."""
        rng = self.rng
        channel = rng.choice(L.CHANNELS)
        await self.execute(f"/channel {channel}", "play")
        row, seats = await self._game()
        if row is None:
            await self.new_table()
        elif row.status == "lobby":
            await self.finish_lobby(row, seats)
        else:
            await self.play_on(rng.randint(3, 14))

    async def new_table(self) -> None:
        rng = self.rng
        kind = rng.random()
        if kind < 0.25:  # the scripted game, verbatim, as far as the dice still agree
            script = L.lines_of(L.FULL_GAME.read_text(encoding="utf-8"))
            for line in script[: rng.randint(6, 40)]:
                if self._out_of_budget():
                    return
                await self.execute(line, "play")
            return
        if kind < 0.6:
            options = rng.choice(("", "", "arena:frigost_rink", "scenery:destructible", "starting_gg:1",
                                  "dice:manual", "arena:old_ruins sides:fixed", "rewards:off",
                                  "dice:manual starting_gg:2", "format:limited", "arena:frigost_rink starting_gg:1",
                                  "pack:duelists arena:tiny_duel", "dice:manual rewards:off"))
            players = dict(L.TEAMS)
        else:
            options = rng.choice(("mode:ffa", "mode:teams", "mode:ffa dice:manual", "mode:teams starting_gg:1",
                                  "mode:ffa starting_gg:1 arena:frigost_rink"))
            players = dict(L.FOUR_TEAMS)
        if "dice:" not in options and rng.random() < 0.45:  # groups rolling their own dice
            options = (options + " dice:manual").strip()
        lines = []
        for i, (name, team) in enumerate(players.items()):
            lines.append(f"/as {name}")
            if i == 0:
                lines.append("/game new krosmaster" + (f' options:"{options}"' if options else ""))
            else:
                lines.append("/game join")
            lines.append(f'/km team figurines:"{team}"')
        lines.append("/game start")
        stop = len(lines) if rng.random() < 0.85 else rng.randint(2, len(lines))  # sometimes a lobby stays open
        for line in lines[:stop]:
            if self._out_of_budget():
                return
            await self.execute(line, "play")

    async def finish_lobby(self, row: Any, seats: list[Any]) -> None:
        rng = self.rng
        if rng.random() < 0.1:
            await self._as(L.GM_NAME, gm=True)
            await self.execute("/game end", "play")
            return
        four = str(row.options.get("mode", "")).lower() in ("ffa", "teams")
        players = L.FOUR_TEAMS if four else L.TEAMS
        if rng.random() < 0.15 and seats:
            await self._as(seats[-1].name)
            await self.execute(rng.choice(("/game leave", "/game kick user:@" + seats[0].name, "/game status",
                                           "/game join team:a")), "play")
        for name, team in players.items():
            await self._as(name)
            await self.execute("/game join", "play")
            await self.execute(f'/km team figurines:"{team}"', "play")
        host = next((s.name for s in seats if s.user_id == row.created_by), seats[0].name if seats else "alice")
        await self._as(host)
        await self.execute("/game start", "play")
        row, _ = await self._game()
        if row is not None and row.status == "lobby":  # strangers seated by the fuzz: clear the table
            await self._as(L.GM_NAME, gm=True)
            await self.execute("/game end", "play")

    async def play_on(self, steps: int) -> None:
        from engines import registry
        from gm.table_model import MANUAL_PENDING

        rng = self.rng
        for _ in range(steps):
            if self._out_of_budget():
                return
            row, seats = await self._game()
            if row is None or row.status != "active" or row.state is None:
                return
            names = {s.seat: s.name for s in seats}
            pending = row.options.get(MANUAL_PENDING)
            if pending:
                who = next((s.name for s in seats if s.user_id == pending.get("user_id")), L.GM_NAME)
                await self._as(who, gm=who == L.GM_NAME)
                request = pending.get("request") if isinstance(pending.get("request"), dict) else {}
                sides = _small_int(request.get("sides", pending.get("sides")), 6)
                count = _small_int(request.get("count"), 0) or rng.randint(1, 4)
                if rng.random() < 0.15:
                    count = max(1, count + rng.choice((-1, 1)))  # one die too many or too few
                faces = (" ".join(str(rng.randint(1, sides)) for _ in range(count))
                         if rng.random() < 0.65 else L.manual_faces(rng))
                await self.execute(f'/game dice values:"{faces}"', "play-dice")
                continue
            engine = registry.get(row.system)
            if engine is None:
                return
            state = engine.load_state(row.state)
            decision = engine.decision(state)
            if decision is None or not decision.seats:  # over, or stuck (the periodic scan reports that)
                return
            if rng.random() < 0.14:
                await self.special(state, names)
                continue
            seat = rng.choice(decision.seats) if rng.random() < 0.2 else decision.seats[0]
            legal = engine.legal_actions(state, seat)
            line = self._command_for(state, seat, legal)
            await self._as(names.get(seat, "alice"))
            if rng.random() < 0.15:  # a legal line, slightly wrong: the near misses players type
                await self.execute(self.mutator.line_from(rng, line), "play-mutated")
            else:
                await self.execute(line, "play")

    def _command_for(self, state: Any, seat: int, legal: list[Any]) -> str:
        from tools.km_autoplay import choose

        rng = self.rng
        if legal and rng.random() < 0.3:
            line = _command(rng.choice(legal))
            if line:
                return line
        try:
            return choose(state, seat, legal)
        except Exception:  # the policy is a helper, not the thing under test
            return "/km end"

    async def special(self, state: Any, names: dict[int, str]) -> None:
        """A GM override, undo, resign, end, or a look at the table."""
        rng = self.rng
        pieces = sorted(getattr(state, "pieces", {}) or {"0a": None})
        player = rng.choice(list(names.values()) or ["alice"])
        roll = rng.random()
        if roll < 0.35:  # GM overrides, often to odd places: the engine must cope afterwards
            await self._as(L.GM_NAME, gm=True)
            p = rng.choice(pieces)
            occupied = [getattr(x, "pos", None) for x in (getattr(state, "pieces", {}) or {}).values()]
            occupied = [q for q in occupied if q] or ["E7"]
            somewhere = rng.choice((L.square(rng), rng.choice(occupied), "A1", "L12", "F6"))
            await self.execute(rng.choice((
                f"/gm wounds piece:{p} wounds:{rng.choice((0, 1, 3, 8, 99))}",
                f"/gm place piece:{p} square:{somewhere}",
                f"/gm place piece:{p} square:{somewhere}",
                f"/gm place piece:{p}",
                f"/gm apmp piece:{p} ap:{rng.randint(0, 99)} mp:{rng.randint(0, 99)}"
                f" ap_tokens:{rng.randint(-99, 99)} mp_tokens:{rng.randint(-99, 99)}",
                f"/gm apmp piece:{p} ap:0 mp:0",
                f"/gm gg seat:{rng.randint(0, 4)} gg:{rng.choice((0, 1, 6, 99))}",
            )), "play")
        elif roll < 0.5:
            if rng.random() < 0.5:
                await self._as(L.GM_NAME, gm=True)
            else:
                await self._as(player)
            await self.execute("/game undo", "play")
        elif roll < 0.58:
            await self._as(player)
            await self.execute("/game resign", "play")
        elif roll < 0.64:
            if rng.random() < 0.5:
                await self._as(L.GM_NAME, gm=True)
                await self.execute("/game end", "play")
            else:
                for name in names.values():
                    await self._as(name)
                    await self.execute("/game end", "play")
        else:
            await self._as(player)
            await self.execute(rng.choice((
                "/game status", "/game log", "/game log count:50", "/km preview", "/km rewards",
                "/complete /km move square:", "/complete /km cast spell:", "/complete /km deploy piece:",
                f"/complete /km cast spell:{rng.choice(L.SPELLS)} target:", "/complete /km choose option:",
                "/complete /gm wounds piece:", "/click 1", "/click 2", "/click End turn", "/pick north",
                f"/km preview spell:{rng.choice(L.SPELLS)}", "/game help", "/game list", "/rules search query:lock",
            )), "play")

    # ------------------------------------------------------------ invariants
    async def stuck_games(self) -> list[tuple[int, str, str]]:
        """Games in play that nobody can move on: the engine names no seat, or says the game
        is over while the table still shows it active. Only ``/game end`` would free them."""
        from engines import registry

        conn = self.app.store.conn
        stuck = []
        async with conn.execute("SELECT id, system, state, channel_id FROM games WHERE status = 'active'") as cur:
            rows = list(await cur.fetchall())
        names = {c.id: c.name for c in self.console.channels.values()}
        for game_id, system, state, channel_id in rows:
            engine = registry.get(system)
            if engine is None or state is None:
                continue
            try:
                loaded = engine.load_state(state)
                decision = engine.decision(loaded)
            except Exception:
                continue  # check_database reports states that do not load
            if decision is not None and decision.seats:
                continue
            phase = getattr(loaded, "phase", "?")
            what = "the engine says it is over" if decision is None else f"no seat may act ({decision.kind})"
            stuck.append((game_id, str(names.get(channel_id, channel_id)), f"phase {phase}: {what}"))
        return stuck

    async def scan_games(self) -> None:
        """Report each stuck game once, naming the last action it recorded (the likely culprit)."""
        conn = self.app.store.conn
        for game_id, channel, why in await self.stuck_games():
            if game_id in self._stuck:
                continue
            self._stuck.add(game_id)
            async with conn.execute("SELECT seq, kind, action, user_id FROM actions WHERE game_id = ?"
                                    " ORDER BY seq DESC LIMIT 3", (game_id,)) as cur:
                last = list(await cur.fetchall())
            culprit = last[0][1] if last else "no action"
            detail = f"game {game_id} in #{channel}: {why}; its last actions: " + "; ".join(
                f"#{seq} {kind} {action} by user {user}" for seq, kind, action, user in last)
            index = self.report.lines - 1
            self._fail(index, self.executed[-1] if self.executed else "", "stuck", detail, channel, "-",
                       f"stuck game ({why}), last action {culprit}")

    async def check_database(self) -> list[str]:
        """No corrupted game: states load, histories are whole, one open game per channel, the file is sound."""
        from engines import registry

        conn = self.app.store.conn
        problems: list[str] = []
        async with conn.execute("SELECT id, system, status, state, channel_id FROM games ORDER BY id") as cur:
            games = list(await cur.fetchall())
        for game_id, system, status, state, _channel in games:
            self.report.games[status] += 1
            if state is None:
                if status == "active":
                    problems.append(f"game {game_id} is active with no state")
                continue
            engine = registry.get(system)
            if engine is None:
                problems.append(f"game {game_id}: no engine for {system!r}")
                continue
            try:
                loaded = engine.load_state(state)
                engine.decision(loaded)
            except Exception:
                problems.append(f"game {game_id} ({system}, {status}): state does not load\n{traceback.format_exc()}")
        for game_id, channel, why in await self.stuck_games():
            if game_id not in self._stuck:
                problems.append(f"game {game_id} in #{channel} is stuck: {why}")
        async with conn.execute("SELECT game_id, COUNT(*), MIN(seq), MAX(seq) FROM actions GROUP BY game_id") as cur:
            for game_id, count, low, high in await cur.fetchall():
                if low != 1 or high != count:
                    problems.append(f"game {game_id}: action seq not contiguous ({count} rows, {low}..{high})")
        async with conn.execute("SELECT channel_id, COUNT(*) FROM games WHERE status IN ('lobby', 'active')"
                                " GROUP BY channel_id HAVING COUNT(*) > 1") as cur:
            for channel_id, count in await cur.fetchall():
                problems.append(f"channel {channel_id} has {count} open games")
        async with conn.execute("PRAGMA integrity_check") as cur:
            result = [r[0] for r in await cur.fetchall()]
        if result != ["ok"]:
            problems.append(f"integrity_check: {result[:10]}")
        async with conn.execute("PRAGMA foreign_key_check") as cur:
            orphans = list(await cur.fetchall())
        if orphans:
            problems.append(f"foreign_key_check: {orphans[:10]}")
        return problems


def _small_int(value: Any, default: int) -> int:
    try:
        return max(1, min(int(value), 100))
    except (TypeError, ValueError):
        return default


def _command(action: Any) -> str | None:
    """The console line for one engine action (a random legal one, unlike the autoplay policy)."""
    kind = getattr(action, "kind", None)
    if kind == "move":
        return f"/km move square:{action.to}"
    if kind == "cast":
        target = action.target + (f" {action.direction}" if action.direction else "")
        return f'/km cast spell:{action.spell} target:"{target}"'
    if kind == "deploy":
        return f"/km deploy piece:{action.piece} square:{action.square}"
    if kind == "order_ties":
        return f"/km order piece:{action.piece}"
    if kind == "choose":
        return f'/km choose option:"{action.value}"'
    if kind == "inspire":
        names = ("first", "second")
        return " ".join(["/km inspire", *(f"{names[p.die]}:{p.piece}" for p in action.placements)])
    if kind == "end_turn":
        return "/km end"
    if kind == "collect":
        return "/km collect"
    if kind == "buy_gg":
        return "/km buy-gg"
    if kind == "buy_reward":
        return f"/km reward-buy pile:{action.pile}" + (" blind:true" if action.blind else "")
    if kind == "assign_reward":
        return f"/km reward-assign reward:{action.reward} piece:{action.piece}"
    if kind == "reveal_reward":
        return f"/km reward-reveal reward:{action.reward}"
    return None


async def fuzz(seed: int, folder: Path, *, max_lines: int, max_seconds: float, record: Path | None = None,
               verbose: bool = False) -> Report:
    harness = Harness(seed, folder, max_lines=max_lines, max_seconds=max_seconds, record=record, verbose=verbose)
    await harness.open()
    try:
        return await harness.run()
    finally:
        await harness.close()


def read_record(path: Path) -> tuple[int, list[str]]:
    """The seed and lines of a recorded run; its ``file:`` paths point at ``FILES`` again."""
    rows = [json.loads(r) for r in path.read_text(encoding="utf-8").splitlines() if r.strip()]
    old = rows[0].get("files")
    lines = [str(r) for r in rows[1:]]
    if old:
        lines = [line.replace(old, FILES) for line in lines]
    return int(rows[0]["seed"]), lines


async def replay(seed: int, lines: Sequence[str], *, verbose: bool = False) -> Report:
    with tempfile.TemporaryDirectory(prefix="tavolo-fuzz-") as folder:
        harness = Harness(seed, Path(folder), max_lines=len(lines), max_seconds=float("inf"), verbose=verbose)
        await harness.open()
        try:
            return await harness.replay(lines)
        finally:
            await harness.close()


async def minimize(seed: int, lines: list[str], signature: str | None = None) -> tuple[list[str], str]:
    """Delta debugging: drop chunks of lines while the same failure (by signature) remains."""

    async def fails(candidate: list[str]) -> bool:
        report = await replay(seed, candidate)
        return any(f.signature == signature for f in report.failures)

    report = await replay(seed, lines)
    if not report.failures:
        raise SystemExit("the recorded lines do not fail any more")
    if signature is None:
        signature = report.failures[0].signature
    lines = lines[: next(f.index for f in report.failures if f.signature == signature) + 1]
    if await fails(lines[-1:]):
        return lines[-1:], signature
    chunks = 2
    while len(lines) >= 2:
        size = max(1, len(lines) // chunks)
        reduced = False
        for start in range(0, len(lines) - 1, size):
            candidate = lines[:start] + lines[start + size:]
            if candidate and candidate[-1] == lines[-1] and await fails(candidate):
                lines, chunks, reduced = candidate, max(chunks - 1, 2), True
                break
        if not reduced:
            if size == 1:
                break
            chunks = min(chunks * 2, len(lines))
    return lines, signature


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=3600)
    parser.add_argument("--record", type=Path, help="where to write the lines run (default: tavolo-fuzz-SEED.jsonl"
                        " in the temporary folder)")
    parser.add_argument("--replay", type=Path, help="run the lines recorded by an earlier run")
    parser.add_argument("--minimize", action="store_true", help="with --replay: the fewest lines that still fail")
    parser.add_argument("--signature", help="with --minimize: the failure to keep (default: the first)")
    parser.add_argument("--verbose", action="store_true", help="print every line and its output")
    args = parser.parse_args(argv)
    if args.replay:
        seed, lines = read_record(args.replay)
        if args.minimize:
            small, signature = asyncio.run(minimize(seed, lines, args.signature))
            print(f"seed {seed}; {len(small)} lines reproduce: {signature}")
            for line in small:
                print(json.dumps(line, ensure_ascii=False))
            return 0
        report = asyncio.run(replay(seed, lines, verbose=args.verbose))
    else:
        record = args.record or Path(tempfile.gettempdir()) / f"tavolo-fuzz-{args.seed}.jsonl"
        with tempfile.TemporaryDirectory(prefix="tavolo-fuzz-") as folder:
            report = asyncio.run(fuzz(args.seed, Path(folder), max_lines=args.lines, max_seconds=args.seconds,
                                      record=record, verbose=args.verbose))
    print(report.describe())
    return 1 if report.failures or report.db_problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
