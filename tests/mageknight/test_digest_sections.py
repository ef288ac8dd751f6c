"""Each section of the rules digest (gm/rules/digests/mageknight.*.yaml) as the engine plays it,
and every ``RuleError(rule=…)`` of the engine naming a section that exists (the "show rule" button)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from engines.core.dice import RecordedDice
from engines.mageknight.preview import preview_block
from engines.mageknight.rules_values import hero_wounds_for
from tests.mageknight.builders import act, combat, enemy, event, keys, rejected, unit, wounds_in_hand

ROOT = Path(__file__).resolve().parents[2]


def _ids(lang: str) -> set[str]:
    data = yaml.safe_load((ROOT / "gm" / "rules" / "digests" / f"mageknight.{lang}.yaml").read_text("utf-8"))
    return {s["id"] for s in data["sections"]}


def test_every_rule_the_engine_cites_is_a_digest_section():
    source = "\n".join(p.read_text("utf-8") for p in (ROOT / "engines" / "mageknight").glob("*.py"))
    cited = set(re.findall(r'rule="([a-z-]+)"', source)) | set(re.findall(r'": "([a-z-]+)"', source))
    cited = {c for c in cited if "-" in c or c in {"fortified", "summon", "sideways", "units", "rewards"}}
    assert {"fortified", "summon", "sideways", "units", "mana-source"} <= cited
    assert cited <= _ids("en") and _ids("en") == _ids("it")


def test_combat_overview_four_phases_and_one_column():
    state = combat(["Tusk Raiders"], mode="assist")
    assert rejected(state, "add", effect="attack", amount=2, range="ranged").rule == "combat-overview"
    act(state, "next")
    act(state, "next")
    act(state, "assign", enemy="e1", to="hero")
    act(state, "next")
    assert state.phase == "over"


def test_no_dice_a_fight_without_summoners_rolls_and_draws_nothing():
    state = combat(["Blade Company"], units=["Hill Archers"])
    dice = RecordedDice([])
    for action in ({"kind": "next"}, {"kind": "next"}, {"kind": "assign", "enemy": "e1", "to": "hero"},
                   {"kind": "next"}):
        events = act(state, dice=dice, **action)  # type: ignore[arg-type]
        assert not any(e.is_random for e in events)
    assert dice.drawn == [] and dice.picked == []


def test_ranged_siege_phase_errors_cite_it():
    state = combat(["Tusk Raiders"], hand=["battle_fury", "trek"])
    act(state, "target", enemies=["e1"])
    assert rejected(state, "play", card="battle_fury").rule == "ranged-siege-phase"
    assert rejected(state, "sideways", card="trek").rule == "ranged-siege-phase"


def test_fortified_site_ability_and_both():
    state = combat(["Burrow Diggers", "Blade Company", "Wall Wardens"], site="keep", mode="assist")
    state.enemies[0].site_fortified = False  # a provoked rampager: fortified by its ability only
    for target in ("e1", "e2"):
        act(state, "target", enemies=[target])
        assert rejected(state, "add", effect="attack", amount=9, range="ranged").rule == "fortified"
        act(state, "take_back")
    assert rejected(state, "target", enemies=["e3"]).rule == "fortified"


def test_block_phase_one_enemy_at_a_time():
    state = combat(["Tusk Raiders"], phase="block", hand=["battle_fury"])
    act(state, "target", enemies=["e1"])
    assert rejected(state, "play", card="battle_fury", option=0).rule == "block-phase"


def test_block_efficiency_preview_says_what_is_halved():
    state = combat(["Ashen Adepts"], phase="block", units=["Frost Monks"], hand=["battle_fury"])
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="Frost Monks", ability=1)
    act(state, "play", card="battle_fury", option=1)
    preview = preview_block(state, "e1")
    assert (preview.efficient, preview.inefficient, preview.total, preview.need, preview.enough) == (4, 2, 5, 5, True)


def test_enemy_abilities_swift_brutal_poison_paralyze():
    state = combat(["Mire Drake", "Pike Veterans", "Serpent Matron"], phase="assign_damage", level=7,
                   units=["Stoneguard"])
    act(state, "assign", enemy="Mire Drake", to="hero")  # 5, poison: 2 + 2
    act(state, "assign", enemy="Pike Veterans", to="Stoneguard")  # 8, brutal
    act(state, "assign", enemy="Serpent Matron", to="hero")  # paralyze
    assert state.hero.combat_discard_wounds == 2 and unit(state, "Stoneguard").wounds == 1 and state.hero.paralyzed


def test_enemy_resistances_group_and_cold_fire():
    state = combat(["Glass Golems"], phase="attack", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=4, element="cold_fire")  # ice + physical: cold fire is efficient
    act(state, "add", effect="attack", amount=1, element="ice")
    err = rejected(state, "commit")
    assert (err.params["total"], err.rule) == (4, "attack-phase")
    act(state, "add", effect="attack", amount=1, element="ice")
    act(state, "commit")


def test_assign_damage_errors_cite_it():
    state = combat(["Tusk Raiders", "Warg Lancers"], phase="assign_damage")
    assert rejected(state, "next").rule == "assign-damage"
    assert rejected(state, "assign", to="hero").rule == "assign-damage"


def test_wound_unit_wound_then_reduce():
    state = combat(["Tusk Raiders"], phase="assign_damage", units=["Village Pikes"])
    events = act(state, "assign", enemy="e1", to="Village Pikes")
    assert event(events, "unit_wounded").params["absorbed"] == 2


def test_unit_resistances_soak_once_for_free():
    state = combat(["Rime Adepts"], phase="assign_damage", units=["Rimeguard"])
    assert "unit_soaked" in keys(act(state, "assign", enemy="e1", to="Rimeguard"))


def test_wound_hero_quick_count():
    assert [hero_wounds_for(d, 3) for d in (1, 3, 4, 7, 9)] == [1, 1, 2, 3, 3]


def test_knock_out_counts_wounds_into_the_hand():
    state = combat(["Gate Legion", "Bog Crones"], phase="assign_damage", hand=["trek"])
    act(state, "assign", enemy="Bog Crones", to="hero")  # 2 in hand, 2 on the discard pile
    assert not state.hero.knocked_out
    act(state, "assign", enemy="Gate Legion", to="hero")  # 3 more: 5
    assert state.hero.knocked_out and state.hero.combat_hand_wounds == 5


def test_end_of_damage_no_healing_in_combat():
    state = combat(["Tusk Raiders"], phase="block", hand=["calm_breath"])
    act(state, "target", enemies=["e1"])
    assert rejected(state, "play", card="calm_breath").rule == "end-of-damage"


def test_attack_phase_needs_the_armor():
    state = combat([("Blade Company", {"status": "blocked"})], phase="attack", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=4)
    assert rejected(state, "commit").rule == "attack-phase"


def test_multiple_enemies_blocks_are_never_grouped():
    state = combat(["Tusk Raiders", "Warg Lancers"], phase="block")
    assert rejected(state, "target", enemies=["e1", "e2"]).rule == "multiple-enemies"


def test_end_of_combat_defeated_and_surviving():
    state = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack")
    events = act(state, "next")
    assert keys(events) == ["enemy_survives", "combat_ended"]
    assert rejected(state, "next").key == "mk.err.game_over"


def test_summon_draw_blocks_and_errors_cite_it():
    state = combat(["Drum Callers"])
    act(state, "next", dice=RecordedDice([], picks=[0]))
    assert rejected(state, "target", enemies=["Drum Callers"]).rule == "summon"
    act(state, "next")
    act(state, "assign", enemy="Horned Brute", to="hero")
    assert enemy(state, "Drum Callers").summoned is None and wounds_in_hand(state) == 5


def test_sideways_wounds_never():
    state = combat(["Tusk Raiders"], phase="block", hand=["wound"])
    act(state, "target", enemies=["e1"])
    assert rejected(state, "sideways", card="wound").rule == "sideways"


def test_mana_source_errors_cite_it():
    state = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack", hand=["battle_fury"],
                   source=["blue"])
    act(state, "target", enemies=["e1"])
    assert rejected(state, "play", card="battle_fury", side="powered", mana="die:0").rule == "mana-source"
    assert rejected(state, "play", card="battle_fury", side="powered").rule == "mana-source"


def test_units_errors_cite_it():
    state = combat(["Tusk Raiders"], units=["Village Pikes"])
    state.units[0].ready = False
    act(state, "target", enemies=["e1"])
    assert rejected(state, "activate", unit="Village Pikes", ability=0).rule == "units"


def test_rewards_fame_and_reputation():
    state = combat([("Tusk Raiders", {"status": "blocked"}), ("Warg Lancers", {"status": "blocked"})],
                   phase="attack", rampaging=True, mode="assist")
    act(state, "target", enemies=["e1", "e2"])
    act(state, "add", effect="attack", amount=5)
    act(state, "commit")
    assert state.result is not None and (state.result.fame, state.result.reputation) == (4, 2)
    assert state.result.score == 4 + 3
