"""Names in Warlord (issue 26, items 1 and 10): every built-in card and deck has an Italian name, shown
wherever Italian is the language (lines, labels, errors, the picture), and every option that names a card
goes through the shared resolver, in either language, by a word, a piece of a word or a close typo; a miss
lists the candidates."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import gm.games.warlord.presenter  # noqa: F401  (registers the presenter)
from engines.core.errors import TavoloError
from engines.core.events import Event
from engines.warlord.content import CardDef, DeckDef
from engines.warlord.packs import builtin
from engines.warlord.upgrades import SCHEMA
from gm.errors import error_reply
from gm.games.warlord import actions, choices, text
from gm.games.warlord.presenter import PRESENTER, card_reply
from gm.table.replies import event_text
from renderers.warlord.words import card_name, trait
from tests.warlord.builders import E, battle, fresh, hand

ROOT = Path(__file__).resolve().parents[2]
PACK = builtin()
CARDS = {c.id: c for c in PACK.cards}


# ---------------------------------------------------------------------------- the pack's Italian names
def test_every_builtin_card_and_deck_has_its_own_italian_name() -> None:
    named = [*PACK.cards, *PACK.decks]
    assert all(d.name_it.strip() and d.name_it != d.name for d in named if d.id != "thane_brannoc")
    assert len({d.name_it for d in PACK.cards}) == len(PACK.cards)  # two cards never share an Italian name
    assert CARDS["thane_brannoc"].name_it == "Thane Brannoc Votoferreo"  # "Thane" is his title, as printed


def test_a_pack_without_italian_names_shows_the_printed_ones() -> None:
    card = CardDef.model_validate({"id": "x", "name": "Grim Hound", "type": "character", "level": 1})
    deck = DeckDef.model_validate({"id": "d", "name": "Hounds", "cards": {}})
    assert card.name_it == "" and card.shown("it") == "Grim Hound" and deck.shown("it-IT") == "Hounds"
    assert CARDS["shield_bash"].shown("it") == "Colpo di Scudo" and CARDS["shield_bash"].shown("en") == "Shield Bash"
    with pytest.raises(ValueError):
        CardDef.model_validate({"id": "x", "name": "X", "name_it": "Y" * 81, "type": "item", "level": 1})


def test_an_old_save_without_italian_names_still_loads() -> None:
    state = SCHEMA.load((Path(__file__).parent / "fixtures" / "warlord.v1.json").read_text(encoding="utf-8"))
    some = next(iter(state.cards))
    assert state.defn(some).shown("it") == state.defn(some).name_it or state.defn(some).name


def test_the_glossary_records_every_name_pair() -> None:
    glossary = yaml.safe_load((ROOT / "gm" / "rules" / "glossary.yaml").read_text(encoding="utf-8"))
    pairs = {(tuple(p["it"]), tuple(p["en"])) for p in glossary["warlord"]}
    missing = [d.name for d in [*PACK.cards, *PACK.decks] if ((d.name_it,), (d.name,)) not in pairs]
    assert missing == []


# ---------------------------------------------------------------------------- Italian wherever Italian is read
def test_events_and_refusals_carry_the_italian_names() -> None:
    state, a_rows, b_rows = _battle()
    events = E.apply(state, 0, {"kind": "attack", "attacker": a_rows[0][0]}, _dice())
    declared = next(e for e in events if e.key == "warlord.ev.attack_declared")
    assert event_text(declared, "it", "warlord") == "p0 attacca con Recluta del Muro di Scudi (1 colpo)."
    assert event_text(declared, "en", "warlord") == "p0 attacks with Shieldwall Recruit (1 strike)."
    old = Event(key="warlord.ev.killed", params={"name": "Horde Grunt"})  # a log line saved before names_it
    assert event_text(old, "it", "warlord") == "Horde Grunt viene ucciso."
    state, _a, b_rows = _battle()
    with pytest.raises(TavoloError) as refused:
        E.apply(state, 0, {"kind": "attack", "attacker": b_rows[0][0]}, _dice())
    assert "Fante dell'Orda" in error_reply(refused.value, "it").text


def test_a_feat_order_is_named_by_its_word_not_its_id() -> None:
    used = Event(key="warlord.ev.order_used", params={"player": "alice", "name": "Hearth Acolyte", "source": "medicine",
                                                       "names_it": {"Hearth Acolyte": "Accolito del Focolare"}})
    assert event_text(used, "it", "warlord") == "alice usa l'ordine di Medicina con Accolito del Focolare."
    assert event_text(used, "en", "warlord") == "alice uses the order of Medicine with Hearth Acolyte."


def test_labels_card_info_traits_and_the_picture_read_in_italian() -> None:
    state, a_rows, _b = _battle()
    uid = hand(state, 0, "hired_crossbowman")
    labels = [c.label for c in choices.recruit_choices(state, 0, "", "it")]
    assert labels and labels[0].startswith("Balestriere Prezzolato")
    parts = text.card_parts(CARDS["hired_crossbowman"], "it")
    assert "Mercenario" in parts and "Mercenary" not in " ".join(parts)
    info = card_reply(state, 0, "balestriere", None, "it").text
    assert info.startswith("**Balestriere Prezzolato**") and "Hired Crossbowman" not in info
    assert card_reply(state, 0, "crossbowman", None, "it").text.startswith("**Balestriere Prezzolato**")
    assert [c.value for c in choices.recruit_choices(state, 0, "crossbow", "it")] == [uid]  # English, typed in Italian
    assert card_name(state, a_rows[0][0], "it") == "Recluta del Muro di Scudi"
    assert trait("Glade Kin", "it") == "Stirpe della Radura" and trait("Homebrew", "it") == "Homebrew"


# ---------------------------------------------------------------------------- one resolver for every option
def test_the_starting_army_takes_thane_thane_b_italian_and_typos() -> None:
    state = fresh()
    for typed in ("thane", "thane b", "Votoferreo", "Thane Branoc"):
        lord, first, second = choices.army_names(state, 0, typed, "shieldwall, recluta, shieldwal recruit",
                                                 "runecarver, adepto")
        assert lord == "Thane Brannoc Ironvow", typed
        assert first == ["Shieldwall Recruit"] * 3 and second == ["Runecarver Adept"] * 2
    with pytest.raises(TavoloError) as missed:
        choices.army_names(state, 0, "nobody", None, None)
    assert missed.value.params["names"] == "Thane Brannoc Ironvow"


def test_items_cards_characters_and_targets_resolve_by_a_word_in_either_language() -> None:
    state, a_rows, b_rows = _battle()
    hammer = hand(state, 0, "heirloom_hammer")
    crossbowman = hand(state, 0, "hired_crossbowman")
    thane = a_rows[2][0]
    assert actions.equip(state, 0, "hammer", "thane") == {"kind": "equip", "item": hammer, "host": thane}
    assert actions.equip(state, 0, "martello", "votoferreo")["item"] == hammer
    assert actions.recruit(state, 0, "crossbowman", None)["card"] == crossbowman
    assert actions.recruit(state, 0, "balestriere", None)["card"] == crossbowman
    assert actions.recruit(state, 0, "crosbowman", None)["card"] == crossbowman  # a close typo
    assert actions.attack(state, 0, "recluta")["attacker"] in a_rows[0]
    assert actions.strike(state, 0, "fante")["target"] in b_rows[0]


def test_a_miss_lists_the_candidates_in_the_readers_language() -> None:
    state, _a, _b = _battle()
    hand(state, 0, "hired_crossbowman")
    with pytest.raises(TavoloError) as missed:
        actions.recruit(state, 0, "zzzz", None)
    assert missed.value.key == "common.unknown_name"
    en, it = error_reply(missed.value, "en").text, error_reply(missed.value, "it").text
    assert "“zzzz” is not a card this command can name now. Choose among: Hired Crossbowman" in en
    assert "“zzzz” non è una carta che questo comando può indicare ora. Scegli fra: Balestriere Prezzolato" in it
    with pytest.raises(TavoloError) as several:
        actions.strike(state, 0, "r")  # "Recluta…", "Runecarver…" and more: said, never guessed
    assert several.value.key in ("common.ambiguous_name", "common.unknown_name")


def test_decks_and_gm_fields_use_the_resolver() -> None:
    assert choices.resolve_deck(PACK, "guardiapietra") == "stonewardens"
    assert choices.resolve_deck(PACK, "orda") == "ashen_horde"
    assert choices.resolve_deck(PACK, "ashen hord") == "ashen_horde"
    with pytest.raises(TavoloError) as missed:
        choices.resolve_deck(PACK, "elves")
    assert "Stonewardens" in missed.value.params["names"]
    state, a_rows, _b = _battle()
    named = PRESENTER.gm_resolve(state, {"kind": "gm_move", "card": "votoferreo", "to": "scarti"})
    assert named == {"kind": "gm_move", "card": a_rows[2][0], "to": "discard"}
    assert PRESENTER.gm_resolve(state, {"kind": "gm_wounds", "char": "thane", "wounds": 1})["char"] == a_rows[2][0]
    assert PRESENTER.gm_resolve(state, {"kind": "gm_move", "card": "vorga", "to": "rango:2"})["to"] == "rank:2"


def test_italian_terms_follow_the_seed() -> None:
    state, _a, _b = _battle()
    assert "Fase di Pescaggio" in text.summary(state.model_copy(update={"phase": "draw"}), "it")
    listed = yaml.safe_load((ROOT / "gm" / "rules" / "italian_terms.yaml").read_text(encoding="utf-8"))["warlord"]
    assert "Signore della Guerra" in listed and "Shieldwall Recruit" in listed


# ---------------------------------------------------------------------------- helpers
def _battle():  # type: ignore[no-untyped-def]
    state, a, b = battle([["shieldwall_recruit", "shieldwall_recruit"], ["runecarver_adept"], ["thane_brannoc"]],
                         [["horde_grunt", "horde_grunt"], ["ember_hexer"], ["vorga"]])
    return state, a, b


def _dice():  # type: ignore[no-untyped-def]
    from engines.core.dice import RecordedDice

    return RecordedDice([10] * 20)


def test_a_faction_in_an_error_and_the_table_mode_read_in_words() -> None:
    """Issue 26.2: no raw value reaches a player: the faction of a refused army card is the reader's word, and
    ``/warlord stops`` says how the table asks, not "auto"."""
    from gm.games.warlord.presenter import stops_reply

    assert PRESENTER.error_params({"faction": "Stonewarden", "name": "x"}, "it")["faction"] == "Guardiapietra"
    reply = stops_reply(fresh(2), 0, "it")
    assert "auto" not in reply.text and "ogni posto che potrebbe reagire" in reply.text


def test_italian_names_are_read_once_per_table_of_definitions_and_follow_a_new_one() -> None:
    """Issue 28: the names of a game's card definitions are worked out once (``decision`` asked ~10
    times a move); a definition added later (a bigger table) is seen at once, and an ``extra`` name never
    changes what the next reader gets."""
    from engines.warlord.rules_common import italian_names

    state = fresh(2)
    first = italian_names(state)
    assert first and italian_names(state) is first
    assert italian_names(state, {"Extra": "In più"})["Extra"] == "In più" and "Extra" not in italian_names(state)
    some = next(iter(state.cards_def.values()))
    state.cards_def["made_up"] = some.model_copy(update={"id": "made_up", "name": "Made Up", "name_it": "Inventato"})
    assert italian_names(state)["Made Up"] == "Inventato"
