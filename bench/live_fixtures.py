"""Recorded games of all five systems for ``bench/live_games.py`` (not a bench itself).

Thousands of live games replaying a handful of recorded ones would draw the same pictures on
many tables, and the render workers' band cache would flatter the figure. So the bench starts by
recording ``--scripts`` distinct games, spread over Krosmaster, Mage Knight, WoW Miniatures,
Warlord and WoW Board, each a seeded playout with a simple policy (a weighted random choice
among the engine's legal actions, or the policy of that game's own bench or autoplay tool).

A recording mimics the table exactly: one ``Dice`` per action that the engine and the table's
forced answers (``gm.table.forced.answer_forced``) both draw from, every value and pick logged.
A live game started from a saved state of the recording replays the same actions with the same
dice (``ScriptDice`` of ``bench/km_games.py``), so every action stays legal and no engine search
runs on the measured loop.

The fixtures are generated at each bench start, in child processes, into the bench's temporary
folder: the states the live games start from as JSON lines (``<script>.jsonl``, one line per live
game, in the order of its games), never committed blobs. The steps come back as compact JSON
strings, decoded when replayed, so the bench's own bookkeeping stays out of the memory it reports.
"""

from __future__ import annotations

import json
import random
import sqlite3
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from engines.core.contract import Action, SeatSetup, Setup
from engines.core.dice import Dice

SYSTEMS = ("krosmaster", "mageknight", "wowminis", "warlord", "wowboard")
NAMES = ("alice", "bob", "carol", "dave")
LIMIT = 400  # steps recorded per game at most: the live games need a few each
TAIL = 20  # steps a live game has left to play at least (a quarter of a short game's)


def user_of(seat: int) -> int:
    """The user id seated at ``seat`` in every recorded game."""
    return 1 + seat


@dataclass
class Script:
    """One recorded game: its seats and its steps (JSON ``[seat, action, draws, picks]``), and the
    step each of its live games starts at (the states are in the fixture file)."""

    system: str
    seed: int
    seats: list[tuple[int, str, str | None, str]]  # seat, name, team, config JSON
    steps: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)

    def step(self, index: int) -> tuple[int, dict[str, Any], list[int], list[int]]:
        seat, action, draws, picks = json.loads(self.steps[index])
        return seat, action, draws, picks


class LoggingDice(Dice):
    """Seeded dice that remember every value and pick, in order, across ``take_*`` calls."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.log_draws: list[int] = []
        self.log_picks: list[int] = []

    def _draw(self, sides: int) -> int:
        value = super()._draw(sides)
        self.log_draws.append(value)
        return value

    def _pick(self, n: int) -> int:
        value = super()._pick(n)
        self.log_picks.append(value)
        return value


Policy = Callable[[random.Random, Any, int, list[Action]], dict[str, Any]]


def _seats(n: int, configs: list[dict[str, Any]] | None = None) -> list[SeatSetup]:
    return [SeatSetup(seat=i, user_id=user_of(i), name=NAMES[i], config=(configs or [{}] * n)[i]) for i in range(n)]


# --------------------------------------------------------------------------- per system
def _krosmaster(seed: int) -> tuple[Setup, Policy]:
    from bench.krosmaster import _parse, _setup
    from tools.km_autoplay import choose

    setup = _setup()
    for seat in setup.seats:
        seat.user_id = user_of(seat.seat)

    def policy(rng: random.Random, state: Any, seat: int, legal: list[Action]) -> dict[str, Any]:
        if rng.random() < 0.2:  # a player who does not always do the obvious thing
            return rng.choice(legal).model_dump(mode="json")
        return _parse(choose(state, seat, legal))

    return setup, policy


def _mageknight(seed: int) -> tuple[Setup, Policy]:
    from bench.mageknight import _options
    from bench.mageknight import choose as sensible

    passed: set[str] = set()

    def policy(rng: random.Random, state: Any, seat: int, legal: list[Action]) -> dict[str, Any]:
        if rng.random() < 0.1:
            return rng.choice(legal).model_dump(mode="json")
        return sensible(state, passed)

    return Setup(seats=_seats(1), options=_options(seed)), policy


def _wowminis(seed: int) -> tuple[Setup, Policy]:
    from tests.wowminis.playout import choose, setup

    found = setup(seed)
    for seat in found.seats:
        seat.user_id, seat.name = user_of(seat.seat), NAMES[seat.seat]

    def policy(rng: random.Random, state: Any, seat: int, legal: list[Action]) -> dict[str, Any]:
        return choose(rng, legal, state).model_dump(mode="json")  # type: ignore[attr-defined]

    return found, policy


def _warlord(seed: int) -> tuple[Setup, Policy]:
    from bench.warlord import choose

    decks = ["stonewardens", "ashen_horde"]
    rng = random.Random(seed)
    players = 2 if seed % 4 else 4  # a four-player table now and then
    setup = Setup(seats=_seats(players, [{"deck": rng.choice(decks)} for _ in range(players)]), options={})

    def policy(rng: random.Random, state: Any, seat: int, legal: list[Action]) -> dict[str, Any]:
        return choose(rng, legal).model_dump(mode="json")

    return setup, policy


def _wowboard(seed: int) -> tuple[Setup, Policy]:
    from engines.wowboard import actions as A
    from gm.games.wowboard.choices import equip_pairs
    from tools.wowb_autoplay import choose

    equipped: set[tuple[str, str]] = set()

    def policy(rng: random.Random, state: Any, seat: int, legal: list[Action]) -> dict[str, Any]:
        if any(isinstance(a, A.ManagementDone) for a in legal):  # each card equipped once, then done
            fresh = [A.Equip(character=c, card=k, area=a) for c, k, a in equip_pairs(state, seat)
                     if (c, k) not in equipped]
            if fresh:
                equipped.add((fresh[0].character, fresh[0].card))
                return fresh[0].model_dump(mode="json")
            legal = [a for a in legal if isinstance(a, A.ManagementDone)]
        if rng.random() < 0.15:
            legal = [rng.choice(legal)]
        return choose(state, legal).model_dump(mode="json")

    return Setup(seats=_seats(2), options={}), policy


RECIPES: dict[str, Callable[[int], tuple[Setup, Policy]]] = {
    "krosmaster": _krosmaster, "mageknight": _mageknight, "wowminis": _wowminis,
    "warlord": _warlord, "wowboard": _wowboard,
}


# --------------------------------------------------------------------------- recording
def record(job: tuple[int, str, int, int, str]) -> Script:
    """Play one game (``job``: index, system, seed, live games it feeds, fixture folder) and write
    the state each of its live games starts from, spread evenly over the game, to the fixture."""
    from gm.app import GAME_MODULES
    from gm.table.forced import answer_forced

    index, system, seed, wanted, folder = job
    import importlib

    for module in GAME_MODULES:  # registers every engine, as the bot does
        importlib.import_module(module)
    from engines import registry

    engine = registry.get(system)
    assert engine is not None, system
    setup, policy = RECIPES[system](seed)
    rng = random.Random(seed)
    dice = LoggingDice(rng)
    with_events = getattr(engine, "new_game_with_events", None)
    state = with_events(setup, dice)[0] if with_events is not None else engine.new_game(setup, dice)
    script = Script(system, seed, [(s.seat, s.name, s.team, json.dumps(s.config)) for s in setup.seats])
    skip = set(getattr(engine, "any_time_kinds", ())) | {"resign"}
    saved: list[str] = []
    ready = getattr(engine, "history_dictionary_ready", None)
    first_ready: str | None = None  # the game's history dictionary, as the table picks it (``gm.table.core``)
    for _ in range(LIMIT):
        decision = engine.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        legal = [a for a in engine.legal_actions(state, seat) if a.kind not in skip and not a.kind.startswith("gm_")]
        if not legal:
            break
        data = policy(rng, state, seat, legal)
        saved.append(state.model_dump_json())
        if first_ready is None and (ready is None or ready(state)):
            first_ready = saved[-1]
        dice = LoggingDice(rng)
        engine.apply(state, seat, engine.parse_action(data), dice)
        answer_forced(engine, state, dice, lambda s: NAMES[s])
        script.steps.append(json.dumps([seat, data, dice.log_draws, dice.log_picks], separators=(",", ":")))
    last = max(0, len(script.steps) - min(TAIL, len(script.steps) // 4))
    script.starts = [round(j * last / max(1, wanted - 1)) if wanted > 1 else 0 for j in range(wanted)]
    with open(Path(folder) / f"{index}.jsonl", "w", encoding="utf-8") as out:
        for step in script.starts:
            out.write(saved[step] + "\n")
    if first_ready is not None:  # the game's history dictionary, as a real table stores it (``db.state_codec``)
        (Path(folder) / f"{index}.first.json").write_text(first_ready, encoding="utf-8")
    return script


def jobs(scripts: int, games: int, folder: Path, systems: tuple[str, ...] = SYSTEMS
         ) -> list[tuple[int, str, int, int, str]]:
    """Script ``k`` plays ``systems[k % len(systems)]`` with seed ``1 + k // len(systems)`` and feeds
    games ``k, k + scripts, …``."""
    return [(k, systems[k % len(systems)], 1 + k // len(systems), len(range(k, games, scripts)), str(folder))
            for k in range(scripts)]


def recorded(scripts: int, games: int) -> tuple[list[Script], list[list[str]]]:
    """``scripts`` games recorded in two spawned processes (``jobs``), with the starting states of the
    ``games`` live games they feed, per script (JSON lines), for the benches that draw them in-process."""
    with tempfile.TemporaryDirectory(prefix="tavolo-fixtures-") as folder:
        with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
            made = list(pool.map(record, jobs(scripts, games, Path(folder))))
        states = [Path(folder, f"{k}.jsonl").read_text(encoding="utf-8").splitlines() for k in range(len(made))]
    return made, states


def insert_games(path: Path, scripts: list[Script], folder: Path, channel0: int, *, guilds: int = 100) -> None:
    """Write every live game straight into the migrated database: game ``g`` plays script
    ``g % len(scripts)`` from its next start. Plain ``sqlite3`` in the set-up only."""
    conn = sqlite3.connect(path)
    count = len(scripts)
    with conn:
        for k, script in enumerate(scripts):
            first = folder / f"{k}.first.json"
            dictionary = first.read_text(encoding="utf-8") if first.exists() else None
            with open(folder / f"{k}.jsonl", encoding="utf-8") as lines:
                for j, (line, step) in enumerate(zip(lines, script.starts, strict=True)):
                    game = k + j * count
                    cur = conn.execute(
                        "INSERT INTO games (guild_id, channel_id, system, status, options, state, version, created_by)"
                        " VALUES (?, ?, ?, 'active', '{}', ?, ?, ?)",
                        (1 + game % guilds, channel0 + game, script.system, line.rstrip("\n"), 1 + step, user_of(0)))
                    conn.executemany("INSERT INTO seats (game_id, seat, user_id, name, team, config)"
                                     " VALUES (?, ?, ?, ?, ?, ?)",
                                     [(cur.lastrowid, seat, user_of(seat), name, team, config)
                                      for seat, name, team, config in script.seats])
                    if dictionary is not None:  # every game started since migration 004 has one
                        conn.execute("INSERT INTO state_dicts (game_id, data) VALUES (?, ?)",
                                     (cur.lastrowid, dictionary))
            (folder / f"{k}.jsonl").unlink()
            first.unlink(missing_ok=True)
    conn.close()
