"""Issue 28: a Warlord tile's measure (its words, lines and chips) is kept by what decides it
(``tiles.signature``: the engine's numbers worked out, the card definitions by identity) and found again in a
later picture; a kept measure must be the one measuring afresh gives, whatever changed around the tile."""

from __future__ import annotations

import random

from engines.core.dice import SeededDice
from renderers.warlord import tiles
from tests.warlord.builders import E, fresh


def _views(n: int, seed: int, steps: int = 400) -> list[object]:
    rng, dice, state = random.Random(seed), SeededDice(seed), fresh(n)
    views = []
    for _step in range(steps):
        decision = E.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)), dice)
        views.append(E.view(state, None).private_copy())
    return views


def test_a_kept_measure_is_a_fresh_measure_in_random_games() -> None:
    tiles._specs.clear()
    found = fresh_total = 0
    for n, seed in ((2, 3), (3, 5), (4, 8)):
        for view in _views(n, seed)[::2]:
            for uid in view.chars:  # type: ignore[attr-defined]
                for scale, lang in ((1.0, "en"), (0.8, "it")):
                    signed = tiles.signature(view, uid, lang)  # type: ignore[arg-type]
                    before = len(tiles._specs)
                    kept = tiles.measured(view, uid, lang, scale, signed,  # type: ignore[arg-type]
                                          lambda view=view, uid=uid, lang=lang: tiles.content(view, uid, lang))
                    found += len(tiles._specs) == before
                    fresh_total += 1
                    assert kept == tiles.measure(view, uid, lang, scale), (n, seed, uid)  # type: ignore[arg-type]
    assert fresh_total > 1000 and found > fresh_total // 2  # most tiles were found, and every one was right


def test_what_the_engine_says_of_a_tile_is_in_its_signature() -> None:
    """A wound, a turn to spent or another controller is another measure; the same tile again is the same one."""
    view = _views(2, 3, 40)[-1]
    uid = next(iter(view.chars))  # type: ignore[attr-defined]
    first = tiles.signature(view, uid, "en")  # type: ignore[arg-type]
    assert tiles.signature(view, uid, "en") == first  # type: ignore[arg-type]
    assert tiles.signature(view, uid, "it")[0] != first[0]  # type: ignore[arg-type]
    c = view.chars[uid]  # type: ignore[attr-defined]

    def with_char(**change: object) -> object:
        """The view with only ``uid``'s character changed: the card definitions are the same objects."""
        copy = view.model_copy()  # type: ignore[attr-defined]
        copy.chars = {**view.chars, uid: c.model_copy(update=change)}  # type: ignore[attr-defined]
        return copy

    assert tiles.signature(with_char(), uid, "en")[0] == first[0]  # type: ignore[arg-type]
    for change in ({"wounds": c.wounds + 1}, {"state": "spent" if c.state != "spent" else "ready"},
                   {"controller": 1 - c.controller}):
        assert tiles.signature(with_char(**change), uid, "en")[0] != first[0], change  # type: ignore[arg-type]
