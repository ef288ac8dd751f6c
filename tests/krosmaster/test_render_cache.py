"""What a render worker keeps between pictures must never leak from one picture into another.

A worker draws pictures of many games one after the other and keeps per-process caches
(the arena's static layer and palette, text masks and their widths, rounded-rectangle
masks), filled ahead of time by ``warm_up``. So rendering A, then B, then A again gives
the bytes of A rendered with every cache cleared, and so does A after a warm-up.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.krosmaster.state import State
from renderers import kit
from renderers import krosmaster as km
from renderers.krosmaster import board, palette
from tests.renderers.states import big_teams, deployment, midgame, play, with_rewards, with_summons
from tests.renderers.states_four import four_players

Case = tuple[State, dict[str, object]]


def _cases() -> dict[str, Callable[[], Case]]:
    cases: dict[str, Callable[[], Case]] = {
        "midgame": lambda: (midgame(), {}),
        "midgame_it_highlight": lambda: (midgame(), {"lang": "it", "highlight": ["C7", "0b", "L12", "A1"]}),
        "over": lambda: (midgame(over=True), {"lang": "it"}),
        "deployment": lambda: (deployment(), {"seat_names": {0: "Annabelle", 1: "Bob"}}),
        "big_teams": lambda: (big_teams(inspiration=True), {"lang": "it"}),
        "teams": lambda: (four_players(), {}),
        "ffa": lambda: (four_players("ffa"), {}),
        "rewards": lambda: (with_rewards(), {"lang": "it"}),
        "summons": lambda: (with_summons(), {"highlight": ["A12", "L1"]}),
    }
    for i, state in enumerate(play(120, seed=5)[::12]):
        cases[f"engine_game_{i}"] = lambda s=state: (s, {"highlight": [p.id for p in s.pieces.values()][:2]})
    return cases


CASES = _cases()


def _clear() -> None:
    board.static_layer.cache_clear()
    palette.for_arena.cache_clear()
    kit._glyph_masks.cache_clear()
    kit._rounded_masks.cache_clear()
    kit.text_width.cache_clear()


def _render(case: Case) -> bytes:
    state, kwargs = case
    return km.render(state, **kwargs)  # type: ignore[arg-type]


def test_a_b_a_gives_the_bytes_of_a_fresh_render() -> None:
    """Every case rendered after every other one equals its render with cold caches."""
    names = sorted(CASES)
    fresh: dict[str, bytes] = {}
    for name in names:
        _clear()
        fresh[name] = _render(CASES[name]())
    _clear()
    for a, b in zip(names, names[1:] + names[:1], strict=True):
        assert _render(CASES[a]()) == fresh[a], a
        assert _render(CASES[b]()) == fresh[b], b
        assert _render(CASES[a]()) == fresh[a], f"{a} after {b}"


def test_previews_after_snapshots_and_back() -> None:
    """A preview draws over the board and words its own banner; the snapshot after it is the fresh one."""
    from engines.krosmaster.engine import reachable_squares

    state = midgame()
    costs = {sq: opt.cost for sq, opt in reachable_squares(state).items()}
    _clear()
    snapshot, move = km.render(state), km.render_preview(state, costs, "move")
    _clear()
    assert km.render_preview(state, costs, "move") == move
    assert km.render(state) == snapshot
    assert km.render_preview(state, costs, "move") == move


def test_a_warm_up_changes_no_byte() -> None:
    names = sorted(CASES)[:4]
    _clear()
    fresh = {name: _render(CASES[name]()) for name in names}
    _clear()
    km.warm_up()
    assert {name: _render(CASES[name]()) for name in names} == fresh
