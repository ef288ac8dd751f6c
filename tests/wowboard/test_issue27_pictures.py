"""Issue 27.7 (WoW board game pictures at 500 px): the game-over map names the winner, the combat panel's
title is the open question (a last chance is not "Choosing the attack order"), and the PvP panel shows the
dice behind the wounds being split instead of emptied boxes. Checked through the drawn text and dice."""

from __future__ import annotations

from pathlib import Path

from engines.core.dice import RecordedDice
from engines.wowboard import rules_combat as C
from engines.wowboard.rules_fight import settle
from engines.wowboard.state import State
from renderers import kit
from renderers import wowboard as W
from tests.wowboard.test_combat import pool
from tests.wowboard.test_pvp import boxes, gathered, to_defense
from tests.wowboard.test_render import assert_golden
from tests.wowboard.test_turn import E, act


def _texts(draw: str, state: State, lang: str = "en") -> tuple[list[kit.Mark], str]:
    with kit.recording() as marks:
        if draw == "combat":
            W.combat_image(state, lang, {0: "Ann", 1: "Bob"})
        else:
            W.render_image(state, lang, {0: "Ann", 1: "Bob"})
    return marks, " | ".join(m.text for m in marks if m.kind == "text")


def pvp_wounds() -> State:
    """Warden (Horde) against Ranger and Cantor: every attacker rolls two hitting blue dice and a miss;
    the fight stops at the Alliance's wound split (pvp-defense.2)."""
    state = gathered("warden", "ranger", "cantor")
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp"})
    act(state, 1, {"kind": "set_order", "order": ["ranger", "cantor"]})
    while state.combat is not None and state.combat.attack is not None:
        C.roll_attack(state, pool(blue=3), None, RecordedDice([8, 8, 1]))
        settle(state, RecordedDice([]), state.combat)
    assert state.combat is not None and state.combat.step == "wounds"
    return state


def test_pvp_defense_2_the_wound_step_shows_the_dice_that_caused_the_wounds() -> None:
    # wowboard:pvp-defense.2 wowboard:pvp-combat.4
    state = pvp_wounds()
    assert E.decision(state).kind == "assign_wounds"
    for lang in ("en", "it"):
        marks, text = _texts("combat", state, lang)
        dice = [m for m in marks if m.kind == "die"]
        assert len(dice) == 9 and sum(" hit" in m.text for m in dice) == 6, [m.text for m in dice]
        assert ("dice of round 1 that dealt these wounds" in text if lang == "en"
                else "I dadi del round 1 che hanno causato queste ferite" in text), text


def test_character_defeat_1_the_panel_title_is_the_last_chance_question() -> None:
    # wowboard:character-defeat.1
    state = gathered("warden", "ranger")
    state.characters["ranger"].health, state.characters["ranger"].bag = 2, ["healing_draught"]
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp"})
    boxes(state, "horde", damage=3)
    to_defense(state)
    assert E.decision(state).kind == "last_chance"
    _, text = _texts("combat", state)
    assert "Last chance: " in text and "is at 0 health" in text and "attack order" not in text, text
    _, italian = _texts("combat", state, "it")
    assert "Ultima occasione: " in italian, italian


def test_victory_the_game_over_map_names_the_winning_faction() -> None:
    # wowboard:victory.2 wowboard:victory.3
    state = gathered("warden")
    state.phase, state.winners = "over", [1]
    _, text = _texts("map", state)
    assert "Game over: the Alliance wins" in text, text
    _, italian = _texts("map", state, "it")
    assert "Partita finita: vince l'Alleanza" in italian, italian
    state.winners = []
    assert "Game over: a draw" in _texts("map", state)[1]


def test_golden_pvp_wound_step(tmp_path: Path) -> None:
    for lang in ("en", "it"):
        assert_golden(f"wb_combat_pvp_wounds_{lang}", W.render_combat(pvp_wounds(), lang, {0: "Ann", 1: "Bob"}),
                      tmp_path)
