"""Issue 27 for Krosmaster: ``/km info`` read in Italian shows the built-in card texts and the figurines'
classes in Italian, and the refusal of a fight-start power order (103.10b) names the powers in Italian."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from common.i18n import has
from console.runner import Console
from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Choose
from engines.krosmaster.content import builtin_pack, push_cube_spell, text_in
from engines.krosmaster.rules_setup import fight_start
from gm.errors import error_reply
from gm.games.krosmaster import names
from gm.games.krosmaster.info import class_name
from tests.foundation.player_lines import words_of
from tests.krosmaster.conftest import console_output as _out
from tests.krosmaster.test_simultaneity import fight_game

ROOT = Path(__file__).resolve().parents[2]


def _texts() -> list[Any]:
    """Every built-in thing that carries a card text: spells, custom powers, rewards, and Push-Cube."""
    pack = builtin_pack()
    things: list[Any] = [*pack.rewards, push_cube_spell(1)]
    for holder in [*pack.figurines, *pack.summons]:
        things += holder.spells
    for fig in pack.figurines:
        things += fig.custom_powers
    return [thing for thing in things if thing.text]


def test_every_builtin_card_text_has_italian_words_free_of_english_terms() -> None:
    terms = yaml.safe_load((ROOT / "gm" / "rules" / "italian_terms.yaml").read_text(encoding="utf-8"))["krosmaster"]
    texts = _texts()
    assert len(texts) >= 30
    for thing in texts:
        italian = text_in(thing, "it")
        assert italian != thing.text and text_in(thing, "en") == thing.text, thing.name
        assert words_of(italian, terms) == [], (thing.name, italian)


def test_every_builtin_class_has_a_name_in_both_languages() -> None:
    classes = {c for fig in builtin_pack().figurines for c in fig.classes}
    for name in classes:
        assert has(f"km.info.class.{name}", "en") and has(f"km.info.class.{name}", "it"), name
    assert class_name("warrior", "en") == "Warrior" and class_name("warrior", "it") == "Guerriero"
    assert class_name("villain", "it") == "Cattivo" and class_name("vigilante", "it") == "Giustiziere"
    assert class_name("Pirate", "it") == "Pirate"  # a pack's own class keeps its spelling


async def test_km_info_in_italian_shows_the_classes_and_card_texts_in_italian(console: Console) -> None:
    await console.run(["/as alice", "/lang it", '/km info name:"Vesk il Truffatore"', '/km info name:"Gorg"',
                       '/km info name:"Raggiro"', '/km info name:"Erba Curativa"'])
    said = _out(console)
    assert "Sram, Cattivo" in said and "villain" not in said, said
    assert "Il bersaglio perde tutti i suoi poteri fino alla fine di questo turno (314.2d)." in said
    assert "All'inizio del combattimento, 2 segnalini +1 PM su questo Krosmaster." in said
    assert "Boost: guarisce 2 Ferite." in said
    for english in ("The target loses", "At the start of the fight", "heal 2 wounds"):
        assert english not in said, english


def test_the_fight_start_order_refusal_names_the_powers_in_italian() -> None:
    """103.10b: a stale answer (a select pressed after the question changed) reached the engine, whose
    refusal listed "Heavy Chains, War Dance" to an Italian player."""
    state = fight_game(builtin_pack().figurine("chained_brute"))
    fight_start(state, RecordedDice([]))
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, Choose(value="g:9"), RecordedDice([]))
    said = error_reply(names.name_error(err.value, state, "it"), "it", "krosmaster").text
    assert "Catene Pesanti, Danza di Guerra" in said, said
    assert "Heavy Chains" not in said and "War Dance" not in said, said
