"""The map's creature codes (issue 30): every built-in creature of the full pack has its own fixed code,
two capitals, none shared, and the legend under the map says each in words."""

from __future__ import annotations

from engines.wowboard.content import builtin_full
from renderers.wowboard import layout


def test_every_builtin_creature_has_its_own_fixed_code() -> None:
    pack = builtin_full()
    ids = [c.id for c in pack.creatures]
    assert {"moonhowler", "barrow_shade", "stonehide_brute", "emberdrake"} <= set(ids)  # the P2 four
    assert set(ids) <= set(layout.CREATURE_CODES), "a built-in creature without a fixed code"
    codes = [layout.creature_code(i) for i in ids]
    assert all(len(code) == 2 and code.isupper() for code in codes)
    assert len(set(codes)) == len(codes), f"two creatures share a code: {codes}"


def test_a_server_creature_gets_a_code_from_its_initials_that_no_builtin_moves() -> None:
    assert layout.creature_code("frost_giant") == "FG"
    assert layout.creature_code("wolf") == "WO"
    assert layout.creature_code("emberdrake") == "EM"
