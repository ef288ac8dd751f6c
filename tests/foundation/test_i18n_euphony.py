"""Italian's euphonic d in every game's lines: "Tocca ad alice", "bob ed Elena" (a playtest read "Tocca a
alice"). A template cannot know the name it will hold, so ``common.i18n.t`` decides its "a {name}" and
"e {name}" once the value is known; only before the same vowel, as current usage has it ("a Ugo")."""

from __future__ import annotations

from common.i18n import _euphonic, t


def test_a_names_preposition_agrees_with_its_first_vowel() -> None:
    assert t("render.mk.to_act", "it", name="alice") == "Tocca ad alice"
    assert t("render.mk.to_act", "it", name="bob") == "Tocca a bob"
    assert t("render.mk.to_act", "en", name="alice") == "alice to act"
    clock = {"left": "2 h", "when": "domani"}
    assert t("game.clock.seat_waited_no_bank", "it", name="alice", **clock).startswith("ad alice restano")
    assert t("game.clock.seat_waited_no_bank", "it", name="bob", **clock).startswith("a bob restano")


def test_only_the_same_vowel_and_only_a_whole_word_before_a_value() -> None:
    assert _euphonic("Tocca a {name}", {"name": "Anna"}) == "Tocca ad {name}"
    assert _euphonic("Tocca a {name}", {"name": "àncora"}) == "Tocca ad {name}"
    assert _euphonic("Tocca a {name}", {"name": "Ugo"}) == "Tocca a {name}"
    assert _euphonic("{x} e {y}", {"x": "bob", "y": "Elena"}) == "{x} ed {y}"
    assert _euphonic("{x} e {y}", {"x": "bob", "y": "alice"}) == "{x} e {y}"
    assert _euphonic("da {a} a {b}", {"a": 1, "b": 8}) == "da {a} a {b}"  # numbers are left alone
    assert _euphonic("l'a {name}", {"name": "alice"}) == "l'a {name}"  # not a word of its own
    assert _euphonic("casa {name}", {"name": "alice"}) == "casa {name}"
