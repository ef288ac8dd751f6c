"""Sample games for the renderers' warm-ups: a short, deterministic playout of a game under way (issue 28).

Why: a render worker's first picture of a game cost 2-7 times its later ones (bench/cold_start.py), even
though every game's ``warm_up`` drew its fonts, palettes and static layers: what a real position shows
(pieces, names, counters, a log, a panel half full) is rasterised, cut and looked up lazily, in caches
keyed by the texts and masks themselves. A warm-up that draws positions of a game under way, the way a
table's pictures are drawn (a first picture drawn whole, the next ones recorded and compared with it:
``renderers.kit_scene``), fills those caches in the fork server, where every worker shares them.

The playout picks among the legal actions by a fixed rule (never a resignation, a GM's action or an
"any time" one), so the same positions are drawn in every process; an engine that refuses a choice ends
the playout where it is (a warm-up is an optimisation, never an error).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from engines.core.contract import Engine, GameState, Setup
from engines.core.dice import SeededDice
from engines.core.errors import TavoloError
from renderers import kit_scene

STEPS = 24
"""Actions played at most: enough to leave the set-up and have pieces meet, small enough to stay a few
tens of ms of engine time per game."""

REHEARSALS: dict[str, list[GameState]] = {}
"""The first and last views each system's playout gave, by system: what a render worker forked from the warm
process draws once more before its first job (``gm.workers.render_pool.rehearse``). Why: the worker shares the
warm-up's pages copy-on-write, and its first picture wrote to thousands of them (reference counts), ~4,000
page faults of a fresh worker's first Warlord picture (issue 28); drawn before the worker says it is ready,
those faults are paid by nobody waiting."""


def playout(engine: Engine, setup: Setup, *, steps: int = STEPS, seed: int = 1,
            every: int = 8) -> Iterator[GameState]:
    """Public views of a short game: the start, then every ``every`` actions, then the last position. Each is
    a private copy: a view shares its state's parts, and the game goes on in place (a caller may keep one)."""
    dice = SeededDice(seed)
    make = getattr(engine, "new_game_with_events", None)
    try:
        state = make(setup, dice)[0] if make is not None else engine.new_game(setup, dice)
    except TavoloError:  # the sample's set-up no longer fits the content: nothing to draw
        return
    skip = set(getattr(engine, "any_time_kinds", ())) | {"resign"}
    first = engine.view(state, None).private_copy()
    REHEARSALS[engine.system] = [first]
    yield first
    played = 0
    for step in range(steps):
        decision = engine.decision(state)
        if decision is None or not decision.seats:
            break
        seat = decision.seats[0]
        legal = [a for a in engine.legal_actions(state, seat) if a.kind not in skip and not a.kind.startswith("gm_")]
        if not legal:
            break
        try:
            engine.apply(state, seat, legal[(step * 7) % len(legal)], dice)
        except TavoloError:
            break
        played += 1
        if played % every == 0:
            yield _kept(engine, first, engine.view(state, None).private_copy())
    if played % every:
        yield _kept(engine, first, engine.view(state, None).private_copy())


def _kept(engine: Engine, first: GameState, view: GameState) -> GameState:
    """``view``, kept with the playout's ``first`` as its system's rehearsal (``REHEARSALS``): the last
    playout's first and last views stay."""
    REHEARSALS[engine.system] = [first, view]
    return view


def keep_rehearsal(system: str, view: GameState) -> None:
    """``view`` as ``system``'s rehearsal, for a warm-up that plays no ``playout`` (the WoW board game's)."""
    REHEARSALS[system] = [view]


def as_a_table(key: Hashable, draw: Callable[[], Any], pictures: int = 3) -> None:
    """``draw`` (one picture) ``pictures`` times as table ``key``'s pictures: drawn whole, then recorded,
    then compared with the recorded one, as a table's first pictures are; the scene is dropped after, so
    the warm-up keeps its caches but no table of its own."""
    with kit_scene.table(key):
        for _ in range(pictures):
            draw()
    kit_scene.drop(key)
