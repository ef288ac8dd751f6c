"""101: team building."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import validate_team
from engines.krosmaster.content import Pack, builtin_pack
from engines.krosmaster.rules_team import validate_team as validate_with_pack
from tests.krosmaster.builders import fig


def pack(*figs) -> Pack:
    return Pack(figurines=list(figs))


def rule_of(ids, p, fmt="constructed") -> str | None:
    with pytest.raises(RuleError) as err:
        validate_with_pack(ids, p, fmt)
    return err.value.rule


def test_101_1_legal_builtin_team():
    names = validate_team(["bone_crusher", "gale_archer", "cloud_sage", "mire_imp", "root_druid"])
    assert names[0] == "Bone Crusher"


def test_101_1a_two_to_eight_krosmasters():
    p = pack(fig("big", level=12), fig("one", level=1, colour="black"))
    assert rule_of(["big"], p) == "101.1a"
    assert rule_of(["one"] * 9, pack(fig("one", level=1, colour="black"))) == "101.1a"


def test_101_1b_total_level_exactly_12():
    p = pack(fig("a", level=5), fig("b", level=6))
    assert rule_of(["a", "b"], p) == "101.1b"


def test_101_1c_gold_names_once():
    p = pack(fig("g", level=6, colour="gold"))
    assert rule_of(["g", "g"], p) == "101.1c"


def test_101_1d_one_version_per_hero():
    assert rule_of(["iron_warden", "iron_warden_veteran", "ember_witch", "tide_healer"], builtin_pack()) == "101.1d"


def test_101_1e_white_names_at_most_twice():
    p = pack(fig("w", level=4, colour="white"))
    assert rule_of(["w", "w", "w"], p) == "101.1e"
    assert len(validate_with_pack(["w", "w", "x"], pack(fig("w", level=4), fig("x", level=4)))) == 3


def test_101_1f_black_names_at_most_three():
    p = pack(fig("k", level=3, colour="black"))
    assert rule_of(["k", "k", "k", "k"], p) == "101.1f"
    assert len(validate_with_pack(["k", "k", "k", "y"], pack(fig("k", level=3, colour="black"),
                                                             fig("y", level=3)))) == 4


def test_101_1g_one_boss():
    p = pack(fig("b1", level=6, classes=["Boss"]), fig("b2", level=6, classes=["boss"]))
    assert rule_of(["b1", "b2"], p) == "101.1g"


def test_101_2_limited_allows_copies_and_lower_levels():
    p = pack(fig("g", level=5, colour="gold"))
    assert len(validate_with_pack(["g", "g"], p, "limited")) == 2  # 101.2c, total 10 <= 12 (101.2b)
    assert rule_of(["g", "g", "g"], p, "limited") == "101.2b"
    assert rule_of(["g"], p, "limited") == "101.2a"


def test_unknown_figurine_is_named():
    with pytest.raises(RuleError) as err:
        validate_team(["nobody", "mire_imp"])
    assert err.value.key == "km.err.unknown_figurine"
    assert err.value.params["figurine"] == "nobody"
