"""Printed card text in the reader's language: ``text_it`` for Italian readers, ``text`` otherwise."""
# Cards of spec §4.2 this file plays: warlord:X4


from __future__ import annotations

import pytest

from engines.warlord.content import CardDef
from engines.warlord.packs import builtin
from gm.games.warlord import text as warlord_text
from tests.warlord.builders import fresh, hand

CARDS = {c.id: c for c in builtin().cards}


@pytest.mark.parametrize("card", [c for c in CARDS.values() if c.text], ids=lambda c: c.id)
def test_every_builtin_text_has_italian(card: CardDef) -> None:
    assert card.text_it.strip()
    assert card.text_it != card.text


def test_text_it_defaults_empty_for_old_saves() -> None:
    card = CardDef.model_validate({"id": "x", "name": "X", "type": "action", "level": 0, "text": "Order: draw a card."})
    assert card.text_it == ""
    assert warlord_text.card_text(card, "it") == "Order: draw a card."  # no Italian: the printed text


def test_card_text_picks_the_language() -> None:
    card = CARDS["shield_bash"]
    assert warlord_text.card_text(card, "it") == card.text_it
    assert warlord_text.card_text(card, "it-IT") == card.text_it
    assert warlord_text.card_text(card, "en") == card.text
    assert warlord_text.card_text(card, "en-US") == card.text


def test_card_info_in_italian_and_english() -> None:
    card = CARDS["mend_flesh"]
    it = warlord_text.card_info(card, "it")
    en = warlord_text.card_info(card, "en")
    assert card.text_it in it and card.text not in it
    assert card.text in en and card.text_it not in en
    assert card.name_it in it and card.name not in it and card.name in en  # names in the reader's language too


def test_hand_lines_in_italian_and_english() -> None:
    state = fresh()
    uid = hand(state, 0, "shield_bash")
    card = state.defn(uid)
    it = warlord_text.hand_lines(state, 0, "it")
    en = warlord_text.hand_lines(state, 0, "en")
    assert any(card.text_it in line for line in it)
    assert not any(card.text in line for line in it)
    assert any(card.text in line for line in en)
    assert not any(card.text_it in line for line in en)
