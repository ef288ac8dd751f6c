"""The combat panel (spec §7 "a combat panel message"): goldens, plus checks that fail with a sentence:
hits and misses drawn differently (not by hue alone), each die's index, the rerolled mark, the fallen
crossed out, the acting character framed, the boxes' counts, PvP falling back on what the state holds.

Fights are started and played through the engine's combat rules (``tests.wowboard.test_combat.fight``);
``UPDATE_GOLDEN=1`` rewrites the goldens, each looked at 500 px wide before it was stored.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engines.core.dice import RecordedDice
from engines.wowboard import rules_combat as C
from engines.wowboard.combat_state import BoxState, Combat
from engines.wowboard.content import builtin
from engines.wowboard.state import State
from renderers import kit
from renderers import wowboard as W
from renderers.wowboard import cardtext, layout, palette
from renderers.wowboard import combat as P
from tests.wowboard.test_combat import fight, pool
from tests.wowboard.test_render import assert_golden


def attack_scene() -> State:
    """Two characters against a green and a red Mirefin at the Crossroads: the arcanist attacked first
    (one hit in each box) and then fell; the warden has rolled ten dice, one red die rerolled from a 1
    to a 6, and may still reroll."""
    state = fight([("mirefin", "green"), ("mirefin", "red")], region="crossroads", who=("warden", "arcanist"))
    C.set_order(state, ["arcanist", "warden"])
    C.roll_attack(state, pool(blue=2, red=1, green=1), None, RecordedDice([6, 3, 7, 5]))
    C.reroll(state, [], RecordedDice([]))
    assert state.combat is not None
    C.fall(state, state.characters["arcanist"], "combat")
    C.roll_attack(state, pool(3, 3, 4, reroll=3, attrition=1), None, RecordedDice([7, 6, 2, 1, 1, 8, 8, 3, 2, 4]))
    attack = state.combat.attack
    assert attack is not None
    attack.dice[3].value, attack.dice[3].rerolled = 6, True  # what ``reroll`` stores for a die rerolled 1 -> 6
    return state


def order_scene() -> State:
    """The start of a group fight: the order is still to choose, no dice yet."""
    return fight([("dunecur", "green")], region="crossroads", who=("warden", "arcanist"))


def pvp_scene() -> State:
    """No PvP in the engine yet (``rules_fight``: pvp_not_yet): a fight turned into one by hand, an
    Alliance character joined, to check the panel's fallback on the fields that exist today."""
    state = order_scene()
    assert state.combat is not None
    state.characters["ranger"].region = "crossroads"
    state.combat.kind, state.combat.opponents = "pvp", []
    state.combat.participants.append("ranger")
    C.fall(state, state.characters["arcanist"], "combat")
    return state


SCENES = {"wb_combat_attack_en": (attack_scene, "en"), "wb_combat_attack_it": (attack_scene, "it"),
          "wb_combat_order_it": (order_scene, "it")}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_golden_combat(name: str, tmp_path: Path) -> None:
    scene, lang = SCENES[name]
    assert_golden(name, W.render_combat(scene(), lang, {0: "Ann"}), tmp_path)


def _marks(state: State, lang: str = "en") -> tuple[list[kit.Mark], Image.Image]:
    with kit.recording() as marks:
        image = W.combat_image(state, lang, {0: "Ann"})
    return marks, image


def test_every_text_is_readable_at_the_preview_width_and_inside_the_picture() -> None:
    for scene in (attack_scene, order_scene, pvp_scene):
        for lang in ("en", "it"):
            marks, image = _marks(scene(), lang)
            for m in marks:
                if m.kind == "text":
                    assert m.size >= layout.TEXT, f"{m.text!r} is {m.size} px: below 11 px at 500 px wide"
                assert m.box[0] >= 0 and m.box[2] <= image.width and m.box[1] >= 0 and m.box[3] <= image.height, m


def test_a_hit_is_filled_and_a_miss_hollow_with_each_dies_index() -> None:
    state = attack_scene()
    marks, image = _marks(state)
    dice = [m for m in marks if m.kind == "die"]
    attack = state.combat.attack  # type: ignore[union-attr]
    assert len(dice) == len(attack.dice) == 10
    for i, (m, die) in enumerate(zip(dice, attack.dice, strict=True)):
        hit = die.value >= attack.threat
        assert m.text.startswith(f"{i + 1} {die.colour} {die.value} {'hit' if hit else 'miss'}"), m
        inside = image.getpixel((m.box[0] + 12, (m.box[1] + m.box[3]) // 2))  # left of the number, past the rim
        rim = image.getpixel((m.box[0] + 1, (m.box[1] + m.box[3]) // 2))
        if hit:
            assert inside == P.DIE_COLOURS[die.colour] and rim == kit.INK, (m, inside, rim)
        else:
            assert inside == P.HOLLOW and rim == P.DIE_COLOURS[die.colour], (m, inside, rim)
    texts = [m for m in marks if m.kind == "text" and m.region == "dice"]
    for i, m in enumerate(dice):  # the index sits on a tag at the die's top-left corner
        tags = [t.text for t in texts if m.box[0] - 10 <= t.box[0] and t.box[2] <= m.box[0] + 30
                and m.box[1] - 10 <= t.box[1] and t.box[3] <= m.box[1] + 24]
        assert tags == [str(i + 1)], (m, tags)


def test_a_rerolled_die_is_marked_with_what_it_showed_before() -> None:
    marks, _image = _marks(attack_scene())
    dice = [m for m in marks if m.kind == "die"]
    assert [m.text for m in dice if m.text.endswith("rerolled")] == ["4 red 6 hit rerolled"]
    texts = [m.text for m in marks if m.kind == "text"]
    assert "R · was 1" in texts and "↻" in texts


def test_the_fallen_are_crossed_out_and_the_attacker_framed() -> None:
    marks, image = _marks(attack_scene())
    fighters = {m.text.split()[-1]: m for m in marks if m.kind == "fighter"}
    assert fighters["arcanist"].text == "fallen arcanist" and fighters["warden"].text == "acting warden"
    box = fighters["arcanist"].box
    middle = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
    assert image.getpixel(middle) == P.CROSS  # the two diagonals meet in the middle
    assert "fallen" in [m.text for m in marks if m.kind == "chip"]
    frame = fighters["warden"].box
    assert image.getpixel((frame[0] + 2, (frame[1] + frame[3]) // 2)) == kit.HIGHLIGHT
    assert image.getpixel((box[0] + 1, (box[1] + box[3]) // 2)) != kit.HIGHLIGHT


def test_the_panel_says_where_whose_turn_the_opponents_and_the_boxes() -> None:
    state = attack_scene()
    marks, _image = _marks(state)
    head = " | ".join(m.text for m in marks if m.kind == "text" and m.region == "header")
    assert "Combat at Crossroads · round 1" in head and "Warden attacks · may reroll up to 3 dice" in head
    opponents = [m.text for m in marks if m.kind == "opponent"]
    assert opponents == [f"{o.ref} {o.threat}/{o.attack}/{o.health}" for o in state.combat.opponents]  # type: ignore[union-attr]
    boxes = [m.text for m in marks if m.kind == "box"]
    assert boxes == ["damage 1", "defense 1", "armor 1", "attrition 0"]
    dice = " | ".join(m.text for m in marks if m.kind == "text" and m.region == "dice")
    assert "threat 5: 5+ is a hit · 5 hits · 5 misses · Reroll 3 · Attrition 1" in dice


def test_the_order_step_has_no_dice_and_says_so_in_italian() -> None:
    marks, _image = _marks(order_scene(), "it")
    text = " | ".join(m.text for m in marks if m.kind == "text")
    assert "Scelta dell'ordine di attacco" in text and "Personaggi" in text and "Avversari" in text
    assert not [m for m in marks if m.kind == "die"]


def test_pvp_shows_each_faction_and_falls_back_on_one_set_of_boxes() -> None:
    state = pvp_scene()
    marks, _image = _marks(state)
    text = " | ".join(m.text for m in marks if m.kind == "text")
    assert "PvP at Crossroads" in text and "Horde" in text and "Alliance" in text and "Opponents" not in text
    assert [m.text for m in marks if m.kind == "fighter"] == ["warden", "fallen arcanist", "ranger"]
    assert [m.text for m in marks if m.kind == "box"] == ["damage 0", "defense 0", "armor 0", "attrition 0"]


def test_the_final_battle_is_drawn_faction_against_faction() -> None:
    state = pvp_scene()
    assert state.combat is not None
    state.combat.kind = "final"
    marks, _image = _marks(state, "it")
    text = [m.text for m in marks if m.kind == "text"]
    assert "Battaglia finale · round 1" in text and "Orda" in text and "Alleanza" in text
    assert "Avversari" not in text


def test_per_faction_boxes_are_drawn_when_the_combat_keeps_them() -> None:
    class PvpCombat(Combat):  # the shape another engineer is adding: boxes per faction
        side_boxes: dict[str, BoxState] = {}

    state = pvp_scene()
    assert state.combat is not None
    state.combat = PvpCombat(**state.combat.model_dump(),
                             side_boxes={"alliance": BoxState(damage=2), "horde": BoxState(armor=3)})
    assert [f for f, _b in P.box_sets(state.combat)] == ["horde", "alliance"]
    marks, _image = _marks(state)
    assert [m.text for m in marks if m.kind == "box"] == ["damage 0", "defense 0", "armor 3", "attrition 0",
                                                          "damage 2", "defense 0", "armor 0", "attrition 0"]
    assert "Horde boxes" in [m.text for m in marks if m.kind == "text"]


def test_the_pvp_fields_of_the_combat_state_are_read_when_present() -> None:
    if "pvp_boxes" not in Combat.model_fields:
        pytest.skip("the combat state has no per-faction boxes yet")
    state = pvp_scene()
    combat = state.combat
    assert combat is not None
    combat.pvp_boxes = {"horde": BoxState(defense=1), "alliance": BoxState(attrition=2)}  # type: ignore[attr-defined]
    combat.step, combat.wounds_due = "wounds", {"alliance": 2}  # type: ignore[attr-defined]
    marks, _image = _marks(state)
    assert [m.text for m in marks if m.kind == "box"] == ["damage 0", "defense 1", "armor 0", "attrition 0",
                                                          "damage 0", "defense 0", "armor 0", "attrition 2"]
    assert "Alliance: 2 wounds to split" in [m.text for m in marks if m.kind == "step"]
    combat.step, combat.winner = "over", "horde"  # type: ignore[attr-defined]
    assert "Horde wins the fight" in [m.text for m in _marks(state)[0] if m.kind == "step"]


def test_no_combat_draws_a_short_note() -> None:
    state = order_scene()
    state.combat = None
    marks, image = _marks(state)
    assert [m.text for m in marks if m.kind == "text"] == ["No combat in progress"] and image.height < 100


def test_rendering_never_changes_the_state_and_the_same_state_gives_the_same_bytes() -> None:
    state = attack_scene()
    before = state.model_dump_json()
    first = W.render_combat(state, "en")
    assert state.model_dump_json() == before
    assert first == W.render_combat(attack_scene(), "en")
    state.combat.attack.dice[0].value = 1  # type: ignore[union-attr]
    assert W.render_combat(state, "en") != first


def test_the_panel_is_quantized_without_loss() -> None:
    pal = palette.panels_palette()
    for scene in (attack_scene, pvp_scene):
        image = W.combat_image(scene(), "it")
        diff = ImageChops.difference(image, pal.quantize(image).convert("RGB")).convert("L")
        assert diff.getextrema()[1] <= 8


def test_every_opponent_ability_of_the_pack_has_words_in_both_languages() -> None:
    pack = builtin()
    abilities = [c.ability for c in pack.creatures] + [b.ability for b in pack.bosses]
    abilities += [o.ability for o in pack.overlords]
    for ability in abilities:
        for lang in ("en", "it"):
            lines = cardtext.ability_text(ability, lang, pack)
            assert len(lines) == len(ability), (ability, lang, lines)
            assert all("wowboard." not in line and "{" not in line for line in lines), lines
    marks, _image = _marks(attack_scene())
    drawn = " ".join(m.text for m in marks if m.kind == "text")  # a long ability wraps over two lines
    assert "after your rerolls, each red 1 in your pool deals you 1 wound" in drawn
