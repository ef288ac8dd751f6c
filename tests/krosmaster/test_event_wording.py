"""Events read as players read the board (TABLE_UX): a roll says why it came out as it did (reduced
damage names what reduced it and the rule), and rule terms are in the reader's language
(gm/krosmaster_info.damage_text and the presenter's ``event_text`` hook)."""

from __future__ import annotations

from engines.core.events import Event
from gm.games.krosmaster.info import damage_text
from gm.games.krosmaster.presenter import PRESENTER

IMMUNE = {"piece": "1c", "name": "CLO", "damage": 0, "wounds": 0, "total": 0, "hp": 6, "element": "air",
          "base": 2, "modifiers": [{"reason": "critical", "rule": "602.7b", "amount": 1},
                                   {"reason": "immunized", "rule": "307.10a", "amount": -3}],
          "reductions": [{"reason": "immunized", "rule": "307.10a", "amount": -3}],
          "reason": "immunized", "reason_rule": "307.10a"}


def test_zero_air_damage_says_the_target_is_immune() -> None:
    """TABLE_UX: "0 air damage" needs "(Cloud Sage is immune to elemental damage, 307.x)"."""
    assert damage_text(IMMUNE, "en") == (
        "CLO takes 0 air damage (CLO is immune to elemental damage, 307.10a): 0 wounds (0/6).")
    assert damage_text(IMMUNE, "it") == (
        "CLO subisce 0 danni Aria (CLO è immune ai danni elementali, 307.10a): 0 Ferite (0/6).")


def test_every_reduction_is_named_resistances_and_toughness_by_their_power() -> None:
    params = {**IMMUNE, "damage": 1, "wounds": 1, "total": 1, "element": "earth",
              "reductions": [{"reason": "armor", "rule": "602.7b", "amount": -1},
                             {"reason": "resist_all", "rule": "307.9a", "amount": -1},
                             {"reason": "toughness", "rule": "307.12a", "amount": -2}]}
    assert damage_text(params, "it") == (
        "CLO subisce 1 danno Terra (l'Armatura di CLO ha superato il Critico, 602.7b; "
        "CLO ha Resistenza a tutti gli elementi, 307.9a; CLO ha Tempra, 307.12a): 1 Ferita (1/6).")


def test_damage_nothing_reduced_keeps_the_plain_sentence() -> None:
    plain = {**IMMUNE, "damage": 3, "reductions": [], "reason": None}
    assert damage_text(plain, "en") is None
    assert PRESENTER.event_text(Event(key="km.damage", params=plain), "en") is None
    assert PRESENTER.event_text(Event(key="km.moved", params={}), "en") is None


def test_the_presenter_words_reduced_damage_events() -> None:
    text = PRESENTER.event_text(Event(key="km.damage", params=IMMUNE), "en")
    assert text is not None and "immune to elemental damage, 307.10a" in text


def test_the_engines_own_damage_totals_are_explained() -> None:
    """The reasons the engine records (rules_damage.damage_total) all read as sentences."""
    from engines.krosmaster.content import builtin_pack
    from engines.krosmaster.rules_damage import damage_total
    from engines.krosmaster.state import PieceState

    pack = builtin_pack()
    sage, archer = pack.figurine("cloud_sage"), pack.figurine("gale_archer")
    wind_arrow = next(s for s in archer.spells if s.id == "wind_arrow")
    target = PieceState(id="1c", owner=1, figurine=sage, short="CLO", pos="C3")
    caster = PieceState(id="0a", owner=0, figurine=archer, short="GAL", pos="C1")
    total = damage_total(wind_arrow, caster, target, crits=2, armors=0)
    params = {"name": "CLO", "damage": total.value, "wounds": 0, "total": 0, "hp": 6, "element": "air",
              **total.params()}
    text = damage_text(params, "en")
    assert total.value == 0 and text is not None
    assert "CLO is immune to elemental damage" in text and "km." not in text and "_" not in text


def test_rule_spells_the_format_and_reward_piles_are_named_in_the_readers_language() -> None:
    """Bug: "(constructed)" and "Punch" stayed English in Italian, and piles read as `granite1`."""
    cast = Event(key="km.cast", params={"name": "SHA", "spell": "punch", "spell_name": "Punch", "target": "C4"})
    assert PRESENTER.event_text(cast, "it") == "SHA lancia Pugno su C4."
    started = Event(key="km.game_started", params={"arena": "Old Ruins", "format": "constructed", "gg": [6, 6]})
    assert "(Costruito)" in (PRESENTER.event_text(started, "it") or "")
    revealed = Event(key="km.reward_pile_revealed", params={"pile": "granite1", "reward": "Healing Herb"})
    assert PRESENTER.event_text(revealed, "it") == "La pila Granito 1 scopre la ricompensa in cima: Healing Herb."
    assert PRESENTER.event_text(Event(key="km.cast", params={**cast.params, "spell": "fire_bolt",
                                                             "spell_name": "Fire Bolt"}), "it") is None
