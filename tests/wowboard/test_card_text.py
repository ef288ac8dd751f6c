"""Card text generated from the effect data (spec §4.1–§4.2, issue 17): every word of the vocabulary
has a template in both languages, no parameter is dropped, every built-in card reads cleanly, and
``find`` finds things by a folded prefix.

The vocabulary lists come from the schemas' ``Literal`` types (``typing.get_args``), so a new op,
condition, timing, event op or ability without words fails here rather than showing a raw key.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, get_args

import pytest
from pydantic import ValidationError

from common.i18n import catalog
from common.wowboard_card_words import ability_text, condition_text, effect_text, event_op_text, op_text
from engines.wowboard.content import builtin
from engines.wowboard.content_cards import (
    ABILITY_PARAMS,
    CONDITION_PARAMS,
    EVENT_OP_PARAMS,
    OP_PARAMS,
    Colour,
    Condition,
    ConditionName,
    Effect,
    EventKind,
    EventOp,
    EventOpName,
    ItemDeck,
    ItemType,
    Op,
    OpName,
    QuestColour,
    SlotType,
    Target,
    Timing,
    Trait,
    local_name,
)
from gm.games.wowboard.cards import (
    LINE_MAX,
    card_line,
    card_text,
    catalogue,
    creature_text,
    event_text,
    find,
    found_line,
    found_text,
    region_text,
)

LANGS = ("en", "it")
PACK = builtin()
PREFIX = "wowboard.card."


def _clean(text: str) -> None:
    """No leftover placeholder, no raw locale key, something to read."""
    assert text.strip()
    assert "{" not in text and "}" not in text, text
    assert PREFIX not in text, text


def _keys(lang: str, prefix: str) -> set[str]:
    return {k for k in catalog(lang) if k.startswith(PREFIX + prefix)}


# ---------------------------------------------------------------------------- words for every vocabulary name
@pytest.mark.parametrize("lang", LANGS)
def test_every_vocabulary_name_has_a_template(lang: str) -> None:
    groups: dict[str, tuple[Any, ...]] = {
        "timing.": get_args(Timing),
        "op.": get_args(OpName),
        "cond.": get_args(ConditionName),
        "event_op.": get_args(EventOpName),
        "ability.": tuple(ABILITY_PARAMS),
        "event_kind.": get_args(EventKind),
        "item.": get_args(ItemType),
        "trait.": get_args(Trait),
        "deck.": get_args(ItemDeck),
        "colour.": get_args(Colour),
        "quest_colour.": get_args(QuestColour),
        "box.": ("damage", "defense", "attrition"),
    }
    missing = [f"{group}{name}" for group, names in groups.items() for name in names
               if not _keys(lang, f"{group}{name}")]
    assert missing == []
    # the vocabulary tables and the Literals agree (a name added to one only is caught too)
    assert set(OP_PARAMS) == set(get_args(OpName))
    assert set(CONDITION_PARAMS) == set(get_args(ConditionName))
    assert set(EVENT_OP_PARAMS) == set(get_args(EventOpName))
    slot_words = {s for s in get_args(SlotType) if not _keys(lang, f"item.{s}") and not _keys(lang, f"kind.{s}")}
    assert slot_words == set()


def _sample(field: str, name: str) -> list[Any]:
    """Values to try for one parameter: every value of a Literal, a number that shows in the text."""
    literals: dict[str, tuple[Any, ...]] = {
        "colour": get_args(Colour), "vs": get_args(Colour), "target": get_args(Target),
        "mode": ("regain", "gain"), "stat": ("health", "energy"), "box": ("damage", "defense", "attrition"),
        "opponent": ("creature", "boss", "pvp"), "feature": ("town", "flight", "graveyard"),
        "who": ("all", "stronger", "weaker"), "deck": ("triangle", "square", "circle"),
        "tier": ("green", "blue", "red"),
    }
    if field in literals:
        return list(literals[field])
    numbers = {"n": [-2, 3] if name == "threat" else [1, 3], "max": [4], "face": [7], "count": [2]}
    other = {"per_opponent": [True], "all": [True], "or_higher": [True], "full": [True],
             "colours": [["red"], ["blue", "green"]], "type": ["grave_eater"], "region": ["wolfden"],
             "to": ["mossmere"], "area": ["C"]}
    return numbers.get(field, other.get(field, [1]))


def _variants(model: Any, name_field: str, name: str, table: dict[str, tuple[set[str], set[str]]]) -> list[Any]:
    """Every valid combination of the parameters a name takes (required ones always, optional ones
    absent or set), built through the schema so the combinations are the ones a pack may hold."""
    need, may = table[name]
    fields = sorted(need | may)
    choices = [_sample(f, name) + ([None] if f in may else []) for f in fields]
    out = []
    for combo in itertools.product(*choices):
        params = {f: v for f, v in zip(fields, combo, strict=True) if v is not None}
        try:
            out.append(model(**{name_field: name, **params}))
        except ValidationError:
            continue
    return out


def _numbers_shown(obj: Any, text: str) -> None:
    """Every number the object carries is in its words (``max`` only caps a per-opponent count)."""
    for field in ("n", "max", "face", "count"):
        if field == "max" and not getattr(obj, "per_opponent", True):
            continue
        value = getattr(obj, field, None)
        if isinstance(value, int) and not isinstance(value, bool):
            assert str(abs(value)) in text, (field, value, text)


def _meaning(op: Op) -> tuple[Any, ...]:
    """What an op means to the engine: no target is the card's owner (``capacity_of``), and ``max`` only
    caps a per-opponent count (``pool_counts``); two ops with one meaning may share their words."""
    data = op.model_dump()
    data["target"] = data["target"] or "self"
    if not op.per_opponent:
        data["max"] = None
    return tuple(sorted(data.items()))


@pytest.mark.parametrize("name", get_args(OpName))
def test_every_op_keeps_its_parameters(name: str) -> None:
    ops = _variants(Op, "op", name, OP_PARAMS)
    assert ops, name
    meanings = {_meaning(op) for op in ops}
    for lang in LANGS:
        texts = [op_text(op, lang) for op in ops]
        for op, text in zip(ops, texts, strict=True):
            _clean(text)
            _numbers_shown(op, text)
        assert len(set(texts)) == len(meanings), texts  # a dropped parameter makes two meanings read the same
    assert [op_text(op, "en") for op in ops] != [op_text(op, "it") for op in ops]


@pytest.mark.parametrize("name", get_args(ConditionName))
def test_every_condition_keeps_its_parameters(name: str) -> None:
    conds = _variants(Condition, "kind", name, CONDITION_PARAMS)
    assert conds, name
    for lang in LANGS:
        texts = [condition_text(c, lang) for c in conds]
        for cond, text in zip(conds, texts, strict=True):
            _clean(text)
            _numbers_shown(cond, text)
        assert len(set(texts)) == len(conds), texts


@pytest.mark.parametrize("name", get_args(EventOpName))
def test_every_event_op_keeps_its_parameters(name: str) -> None:
    ops = _variants(EventOp, "op", name, EVENT_OP_PARAMS)
    assert ops, name
    for lang in LANGS:
        texts = [event_op_text(op, lang, PACK) for op in ops]
        for op, text in zip(ops, texts, strict=True):
            _clean(text)
            _numbers_shown(op, text)
            for ref in (op.type, op.region):
                if ref:
                    assert ref not in text, text  # the name, never the id
            if op.type:  # in the reader's language (issue 26.10)
                assert all(x in text for x in (("Grave-eater", "Wolfden") if lang == "en"
                                               else ("Mangiatombe", "Tana del Lupo")))
            if op.area:
                assert ("Stonecrown" if lang == "en" else "Corona di Pietra") in text
        assert len(set(texts)) == len(ops), texts


ABILITY_SAMPLES = {"colour": "red", "face": 1, "n": 2, "count": 3, "per_other": 1, "max": 4, "value": 8,
                   "wounds": 2, "per_wound": 1, "type": "grave_eater", "tier": "blue"}


@pytest.mark.parametrize("name", sorted(ABILITY_PARAMS))
def test_every_ability_keeps_its_parameters(name: str) -> None:
    spec = {p: ABILITY_SAMPLES[p] for p in ABILITY_PARAMS[name]}
    for lang in LANGS:
        text = ability_text({name: spec}, lang, PACK)
        _clean(text)
        for value in spec.values():
            if isinstance(value, int):
                assert str(value) in text, (name, text)
        if name == "summon":
            assert ("Grave-eater" if lang == "en" else "Mangiatombe") in text and "grave_eater" not in text


@pytest.mark.parametrize("timing", get_args(Timing))
def test_every_timing_heads_an_effect(timing: str) -> None:
    effect = Effect(timing=timing, cost_energy=2, once_per_combat=True, ops=[Op(op="gold", n=1)])
    texts = {lang: effect_text(effect, lang) for lang in LANGS}
    for text in texts.values():
        _clean(text)
        assert "2" in text  # the energy cost
    assert texts["en"] != texts["it"]
    assert "pay 2 energy" in texts["en"] and "once per combat" in texts["en"]


# ---------------------------------------------------------------------------- every built-in card
_RAW_IDS = sorted({x.id for group in (PACK.class_cards, PACK.items, PACK.creatures, PACK.regions, PACK.bosses,
                                      PACK.overlords, PACK.ancestries, PACK.classes, PACK.events, PACK.quests)
                   for x in group}, key=len, reverse=True)
_RAW = re.compile(r"\b(?:" + "|".join(re.escape(i) for i in _RAW_IDS) + r")\b")


@pytest.mark.parametrize("lang", LANGS)
def test_every_builtin_thing_reads_cleanly(lang: str) -> None:
    entries = catalogue(PACK)
    assert len(entries) >= len(PACK.class_cards) + len(PACK.items) + len(PACK.regions) + len(PACK.quests)
    for entry in entries:
        text = found_text(entry, PACK, lang)
        _clean(text)
        assert entry.label(lang) in text  # the Italian name in Italian (issue 26.10)
        assert not _RAW.search(text), (entry.id, _RAW.search(text), text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_line_fits(lang: str) -> None:
    for card in [*PACK.class_cards, *PACK.items]:
        line = card_line(card, lang, PACK)
        _clean(line)
        assert len(line) <= LINE_MAX and line.startswith(local_name(card, lang)[:20]), line
    for entry in catalogue(PACK):
        assert len(found_line(entry, PACK, lang)) <= LINE_MAX


def test_english_and_italian_differ_for_every_card() -> None:
    for card in [*PACK.class_cards, *PACK.items]:
        assert card_text(card, "en", PACK) != card_text(card, "it", PACK)


# ---------------------------------------------------------------------------- exact texts
def _card(cid: str) -> Any:
    return next(c for c in [*PACK.class_cards, *PACK.items] if c.id == cid)


def test_instant_power_text() -> None:
    assert card_text(_card("shield_slam"), "en", PACK) == (
        "Shield Slam — Warden instant power, level 1\n1 gold · 1 energy each use\nDice pool: +1 red die.")
    assert card_text(_card("shield_slam"), "it", PACK) == (
        "Colpo di Scudo — potere istantaneo (Guardiano), livello 1\n1 oro · 1 energia a ogni uso\n"
        "Piatto di dadi: +1 dado rosso.")


def test_talent_cost_condition_and_once_per_combat() -> None:
    assert card_text(_card("restore"), "en", PACK).endswith(
        "Action (out of combat), pay 1 energy: a friend in your region regains 3 health.")
    assert card_text(_card("blink_ward"), "en", PACK).endswith(
        "Last chance (at 0 health), pay 2 energy: regain 1 health (once per combat).")
    assert card_text(_card("rampart"), "en", PACK).endswith(
        "Before wounds are split, with 2 or more participants: prevent 2 wounds, split among the participants "
        "as you like.")
    assert "+1 red die per opponent (at most 3)" in card_text(_card("sweeping_cut"), "en", PACK)
    assert "threat −1 for your blue dice" in card_text(_card("hunters_mark"), "en", PACK)


def test_item_text() -> None:
    assert card_text(_card("shelter_amulet"), "en", PACK) == (
        "Shelter Amulet — trinket, level 2\nsquare deck · 6 gold\n"
        "Dice pool, if your pool has no red dice: +3 green dice.")
    text = card_text(_card("healing_draught"), "it", PACK)
    assert "funziona dalla Borsa" in text and "consumabile" in text and "recuperi 3 salute" in text
    assert "helm add-on" in card_text(_card("leather_cap"), "en", PACK)


def test_companion_and_active_energy() -> None:
    text = card_text(_card("boar"), "en", PACK)
    assert "2 energy when equipped" in text and "companion with 3 health" in text and "Unique: Companion" in text


def test_creature_region_and_event_text() -> None:
    mirefin = next(c for c in PACK.creatures if c.id == "mirefin")
    assert creature_text(mirefin, "en", PACK).split("\n")[1:] == [
        "Green: attack 3, health 2 · 6 figures", "Blue: attack 4, health 3 · 3 figures",
        "Red: attack 5, health 4 · 3 figures",
        "Ability: after your rerolls, each red 1 in your pool deals you 1 wound."]
    assert region_text(PACK.region("reed_delta"), PACK, "en") == (
        "Reed Delta — Saltmarsh (E)\nHorde town · graveyard\nRoads to: Brine Hollow, Wreckers Cove, Green Hill")
    wolves = next(e for e in PACK.events if e.id == "ev_wolves")
    assert event_text(wolves, "it", PACK).endswith("Metti 2 Ringhiaduna blu a Tana del Lupo (indipendenti).")


def test_class_sheet_shows_printed_cards_with_their_energy() -> None:
    arcanist = next(c for c in PACK.classes if c.id == "arcanist")
    text = found_text(find(PACK, "arcanist", "en")[0], PACK, "en")
    assert text == found_text(next(f for f in catalogue(PACK) if f.obj is arcanist), PACK, "en")
    assert "Area 5: instant power; printed: Spark (1 energy each use) — Dice pool: +2 blue dice." in text
    assert "Area 2: wand\n" in text  # a wand area takes wand items: the trait is not repeated


def test_text_override_wins_and_is_marked_untranslated_in_italian() -> None:
    card = _card("focus").model_copy(update={"text_override": "Ask the GM."})
    assert card_text(card, "en", PACK).endswith("\nAsk the GM.")
    assert "Ask the GM. (testo del pacchetto, non tradotto)" in card_text(card, "it", PACK)
    assert "Ask the GM." in card_line(card, "en", PACK)


# ---------------------------------------------------------------------------- find
def test_find_by_folded_prefix_id_and_word() -> None:
    assert [f.id for f in find(PACK, "GRAVE-ÉATER", "it")] == ["grave_eater"]
    assert [f.id for f in find(PACK, "àsh w", "it")] == ["ash_wyrm"]
    assert [f.id for f in find(PACK, "bellkèepers", "it")] == ["bellkeepers_ring"]
    assert [f.id for f in find(PACK, "h-g01", "en")] == ["H-G01"]
    # Ash Wyrm, Ashfall on the Blight, the Arcanist's printed Ash Staff
    assert {f.kind for f in find(PACK, "ash", "en")} == {"overlord", "event", "preprinted"}
    assert "ash_wyrm" in [f.id for f in find(PACK, "wyrm", "en")]  # a later word of the name
    assert [f.kind for f in find(PACK, "notched blade", "en")] == ["preprinted"]
    assert find(PACK, "  ", "en") == [] and find(PACK, "zzz", "en") == []
