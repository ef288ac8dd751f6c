"""Information on demand (TABLE_UX): what a spell, reward, figurine, power or arena does, short in
autocomplete and in full with /km info, in English and Italian (gm/games/krosmaster/info.py)."""

from __future__ import annotations

import pytest

from common.i18n import catalog, t
from engines.core.errors import TavoloError
from engines.krosmaster.content import Keyword, builtin_pack
from gm.games.krosmaster import info


def _fields(text: str, lang: str) -> dict[str, str]:
    reply = info.info_reply(text, lang, None)
    assert reply.ephemeral
    return {"title": reply.title or "", **{f.name: f.value for f in reply.fields}}


def test_a_spell_shows_cost_range_damage_element_area_and_limit() -> None:
    """Bug: nothing in the game showed a spell's AP cost, damage, range, area or element."""
    card = _fields("flame breath", "en")
    assert card == {"title": "Flame Breath — spell", "Type": "attack spell (fire)", "Cost": "4 AP",
                    "Range": "1-2, in a straight line, needs line of sight", "Effect": "2 fire damage",
                    "Area": "breath area, oriented: you pick its direction", "Limit": "once per turn",
                    "Figurines with it": "Ember Witch"}
    italian = _fields("Flame Breath", "it")
    assert italian["Costo"] == "4 PA" and italian["Effetto"] == "2 danni Fuoco"
    assert italian["Limite"] == "una volta per turno" and italian["title"] == "Soffio di Fiamme — incantesimo"


def test_a_reward_shows_its_category_price_duration_and_effect() -> None:
    card = _fields("berserk", "en")
    assert card["Category"] == "Ruby (18 kamas)" and card["Type"] == "buff"
    assert card["Effect"] == "+2 damage to its attack spells, Armor"
    assert "next turn" in card["Lasts"]
    assert _fields("Berserk", "it")["Effetto"] == "+2 ai danni dei suoi incantesimi d'attacco, Armatura"


def test_powers_are_found_by_their_name_in_either_language_or_a_prefix() -> None:
    assert _fields("Contrasto", "en")["title"] == "Lock — power"
    assert _fields("tempr", "it") == {"title": "Tempra — potere",
                                      "Effetto": "−2 ai danni di ogni incantesimo d'attacco subito.",
                                      "Regola": "307.12"}
    assert _fields("immunized", "en")["Rule"] == "307.10"


def test_every_keyword_power_has_a_name_and_a_text_in_both_languages() -> None:
    for lang in ("en", "it"):
        for power in Keyword:
            assert f"km.info.power.{power.value}" in catalog(lang), (lang, power)
            assert f"km.info.power_text.{power.value}" in catalog(lang), (lang, power)


def test_a_figurine_lists_stats_powers_and_each_spell_with_what_it_does() -> None:
    card = _fields("bone crusher", "it")
    assert card["Caratteristiche"] == "livello 5 · 16 PV · 7 PA · 3 PM · iniziativa 2"
    assert card["Poteri"] == "Contrattacco, Forza, Resistenza a tutti gli elementi"
    assert card["Prezzo del Sangue"] == "2 Ferite · chi lancia guadagna subito 3 PA · personale · una volta per turno"
    assert card["Pugno"].startswith("5 PA · 1 danno neutro")  # 205.3: Punch, in Italian


def test_where_the_data_stops_the_card_text_is_shown() -> None:
    card = _fields("Rallying Cry", "en")
    assert card["Card text"] == "At the start of the fight, this Krosmaster gets a +1 AP token."
    assert card["At the start of the fight"] == "+1 AP token (on the caster)"


def test_an_arena_shows_its_size_scenery_kamas_and_sides() -> None:
    card = _fields("old ruins", "it")
    assert card["Dimensioni"] == "12×12" and card["Lati di partenza"] == "nord, sud"
    assert card["Scenari"].startswith("6 alberi")


def test_two_cards_with_one_name_are_both_shown() -> None:
    reply = info.info_reply("nip", "en", None)
    assert reply.title == "Nip — spell" and len(reply.fields) > 4
    assert reply.fields[-1].name == "Nip — spell" and "Bristlepup" in reply.fields[-1].value


def test_an_ambiguous_or_unknown_name_lists_the_candidates() -> None:
    with pytest.raises(TavoloError) as err:
        info.info_reply("fire", "en", None)
    text = t(err.value.key, "en", **err.value.params)
    assert "Fire Bolt (spell)" in text and "Fire Resistance (power)" in text
    with pytest.raises(TavoloError) as err:
        info.info_reply("zzzz", "it", None)
    assert t(err.value.key, "it", **err.value.params).startswith('"zzzz" non è qualcosa che /km info conosce')


def test_autocomplete_labels_say_what_each_thing_does_within_100_characters() -> None:
    choices = info.info_choices("fire bolt", "en", None, None)
    assert choices[0].label == "Fire Bolt — spell · 3 AP · 2 fire damage · range 2-5 (modifiable)"
    assert choices[0].value == "spell:fire_bolt"
    assert info.info_reply(choices[0].value, "en", None).title == "Fire Bolt — spell"  # the value works too
    every = info.info_choices("", "it", None, None)
    assert len(every) == 25 and all(len(c.label) <= 100 for c in every)
    assert info.info_choices("contr", "it", None, None)[0].label.startswith("Contrasto — potere · Tira 2 dadi")


def test_every_builtin_spell_and_reward_has_a_short_description_in_both_languages() -> None:
    pack = builtin_pack()
    for lang in ("en", "it"):
        for fig in pack.figurines:
            for spell in fig.all_spells():
                short = info.spell_short(spell, lang)
                assert short and len(short) <= 100 and "km." not in short, (lang, spell.id, short)
        for reward in pack.rewards:
            short = info.reward_short(reward, lang)
            assert short and len(short) <= 100 and "km." not in short, (lang, reward.id, short)
