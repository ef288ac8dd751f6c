"""Issue 28: a WoW Miniatures roster row's layout is kept by every value it is made from (``panel._row_key``) and
found again in later pictures and other modes tried; a kept layout must be the one laying the row out afresh
gives, for every viewer, mode and language, whatever changed elsewhere in the game."""

from __future__ import annotations

import dataclasses
from typing import Any

from engines.wowminis import ENGINE, rules_stats
from engines.wowminis.state import State
from renderers.wowminis import panel
from tests.wowminis import playout as P


def _views(seed: int, steps: int = 240) -> list[State]:
    """Every third position of a random game, seen by a seat or (one in three) by the public."""
    return [ENGINE.view(state, step % 2 if step % 9 else None).private_copy()
            for state, step in P.played_steps(seed, steps) if step % 3 == 0]


def _value(thing: Any) -> Any:
    """A painter as values: its function's name and what its closure holds, painters within taken the same way."""
    if callable(thing) and hasattr(thing, "__closure__"):
        return thing.__qualname__, tuple(_value(cell.cell_contents) for cell in thing.__closure__ or ())
    if dataclasses.is_dataclass(thing) and not isinstance(thing, type):  # a chip, with its icon's painter
        return type(thing).__name__, tuple(_value(getattr(thing, f.name)) for f in dataclasses.fields(thing))
    return thing


def _shape(lines: list) -> list[list[tuple[int, int, bool, Any]]]:
    """A layout as values: each item's place, width, glue and what it paints."""
    return [[(x, item.width, item.glue, _value(item.paint)) for x, item in line] for line in lines]


def test_a_kept_row_layout_is_a_fresh_one_in_random_games() -> None:
    panel._row_layouts.clear()
    rows = found = 0
    for seed in (1, 2, 3):
        for view in _views(seed):
            viewer = view.pending.seat if view.pending is not None else None
            health = {c.id: max(1, rules_stats.max_health(view, c)) for c in view.chars.values() if c.in_play}
            for c in view.chars.values():
                for mode in panel.MODES:
                    for lang, words in (("en", True), ("it", False)):
                        before = len(panel._row_layouts)
                        kept = panel._row_lines(view, c, viewer, lang, mode, words, health)
                        found += len(panel._row_layouts) == before
                        fresh = panel.flow(panel.row_items(view, c, viewer, lang, mode, words, health),
                                           panel.PANEL_WIDTH - panel.DU(4), panel.DU(8))
                        assert _shape(kept) == _shape(fresh), (seed, c.id, mode, lang)
                        rows += 1
    assert rows > 2000 and found > rows // 2


def test_what_a_row_shows_is_in_its_key() -> None:
    view = _views(2, 60)[-1]
    c = next(c for c in view.chars.values() if c.in_play and c.bar)
    hp = max(1, rules_stats.max_health(view, c))

    def key(state: State, char_id: str = c.id, viewer: int | None = None, mode: panel.Mode = "full") -> Any:
        return panel._row_key(state, state.chars[char_id], viewer, "en", mode, True, hp)

    def changed(**change: Any) -> State:
        copy = view.model_copy()
        copy.chars = {**view.chars, c.id: view.chars[c.id].model_copy(update=change)}
        return copy

    first = key(view)
    assert key(changed()) == first
    card = c.bar[0]
    for change in ({"health": c.health - 1}, {"clock": c.clock + 1}, {"controller": 1 - c.controller},
                   {"bar": [card.model_copy(update={"ready": not card.ready}), *c.bar[1:]]},
                   {"bar": [card.model_copy(update={"face_up": not card.face_up}), *c.bar[1:]]}):
        assert key(changed(**change)) != first, change
    assert key(view.model_copy(update={"master": view.master + 1})) != first  # "+N" ahead of the master
    assert key(view, viewer=c.controller) != first and key(view, mode="lean") != first
