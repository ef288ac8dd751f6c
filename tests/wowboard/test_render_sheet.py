"""The character sheet picture (spec §7 "personal sheet images"): goldens, plus checks that fail with a
sentence, read from the kit's recorded marks (what is written, how large, where).

Scenes are built through the engine's own sheet rules (buy, equip, add-on, companion, talents), so a
change in how the engine stores a sheet shows up here. ``UPDATE_GOLDEN=1`` rewrites the goldens; each
was looked at 500 px wide before it was stored.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engines.wowboard import rules_sheet as S
from engines.wowboard.content import builtin
from engines.wowboard.state import State
from renderers import kit
from renderers import wowboard as W
from renderers.wowboard import cardtext, layout, palette
from tests.wowboard.test_render import assert_golden
from tests.wowboard.test_sheet import game, give, managing


def ranger() -> State:
    """The Alliance ranger at level 3 in its management step: an armor with a helm add-on, a companion
    that has lost a health token, an instant and a trinket equipped, two talents, two powers in the
    Spellbook, two consumables in the Bag, one Stun and two Curses."""
    state = managing(game(), "alliance")
    r = state.characters["ranger"]
    r.level, r.xp, r.gold, r.energy = 3, 12, 7, 9
    give(state, "ranger", "hide_jerkin", "leather_cap", "boar", "aimed_shot", "volley", "hunters_mark",
         "healing_draught", "lucky_knucklebone", "smelling_salts")
    for card, area in (("hide_jerkin", "armor"), ("leather_cap", "armor"), ("boar", "active_2"),
                       ("aimed_shot", "instant"), ("lucky_knucklebone", "trinket")):
        S.do_equip(state, 1, "ranger", card, area)
    S.do_take_talent(state, 1, "ranger", "keen_eye", 2)
    S.do_take_talent(state, 1, "ranger", "field_dressing", 3)
    r.sheet["active_2"].companion_health = 2
    r.health, r.stun, r.curse = 6, 1, 2
    return state


SCENES = {"wb_sheet_ranger_en": (ranger, "ranger", "en"), "wb_sheet_ranger_it": (ranger, "ranger", "it"),
          "wb_sheet_warden_en": (game, "warden", "en")}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_golden_sheet(name: str, tmp_path: Path) -> None:
    scene, who, lang = SCENES[name]
    assert_golden(name, W.render_sheet(scene(), who, lang), tmp_path)


def _marks(state: State, who: str, lang: str = "en") -> tuple[list[kit.Mark], Image.Image]:
    with kit.recording() as marks:
        image = W.sheet_image(state, who, lang)
    return marks, image


def _texts(marks: list[kit.Mark], region: str | None = None, sep: str = " | ") -> str:
    """The drawn lines of a region; ``sep=" "`` puts a wrapped sentence back together."""
    return sep.join(m.text for m in marks if m.kind == "text" and (region is None or m.region == region))


def test_every_text_is_readable_at_the_preview_width_whole_and_inside_the_picture() -> None:
    for lang in ("en", "it"):
        marks, image = _marks(ranger(), "ranger", lang)
        assert image.width == W.WIDTH
        for m in marks:
            if m.kind == "text":
                assert m.size >= layout.TEXT, f"{m.text!r} is {m.size} px: below 11 px at 500 px wide"
                assert "…" not in m.text, f"{m.text!r} was cut"
            assert m.box[0] >= 0 and m.box[2] <= image.width and m.box[1] >= 0 and m.box[3] <= image.height, m


def test_card_boxes_never_overlap_and_text_stays_in_its_box() -> None:
    marks, _image = _marks(ranger(), "ranger")
    cards = [m for m in marks if m.kind == "card"]
    assert len(cards) == 7 + 2 + 2 + 2  # seven areas, two talents, two Spellbook powers, two Bag items
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            assert a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1], \
                (a, b)
    for m in marks:
        if m.kind == "text" and m.region in ("areas", "talents", "spellbook", "bag") and m.text not in (
                "Card areas", "Talents", "Spellbook", "Bag 2/3"):
            assert any(c.box[0] <= m.box[0] and m.box[2] <= c.box[2] and c.box[1] <= m.box[1] and m.box[3] <= c.box[3]
                       for c in cards), f"{m.text!r} spills out of its card box"


def test_the_sheet_shows_who_the_numbers_and_every_card_where_it_lies() -> None:
    state = ranger()
    r = state.characters["ranger"]
    marks, _image = _marks(state, "ranger")
    head = _texts(marks, "header")
    assert "Ranger (Oswin Fernstep)" in head and "Hornfolk · seat 2 · in Havenford" in head  # issue 27.8
    assert "Hornfolk: Always: health capacity +2." in head  # the ancestry's ability, in /wowb card's words
    stats = _texts(marks, "stats")
    max_h, max_e = S.capacity_of(state, r)
    assert f"Health 6/{max_h}" in stats and f"Energy {r.energy}/{max_e}" in stats
    assert "Level 3 · XP 12 · level 4 at 19" in stats
    assert "Gold 7" in stats and "Stun 1" in stats and "Curse 2" in stats
    bars = [m.text for m in marks if m.kind == "bar"]
    assert bars == [f"6/{max_h}", f"{r.energy}/{max_e}"]
    areas = _texts(marks, "areas")
    for name in ("Hide Jerkin", "+ Leather Cap", "Boar", "Aimed Shot", "Lucky Knucklebone", "Hunting Bow"):
        assert name in areas, name
    assert "printed on the sheet" in areas and "empty" in areas  # the pre-printed bow; the bare melee area
    assert "Armor · leather · helm add-on" in areas and "Dice pool: +1 green die." in areas
    assert "When equipped: companion, 3 health." in areas  # the short form: no rule reminder on the picture
    assert "companion: 2 health left" in [m.text for m in marks if m.kind == "chip"]
    assert "Level 2" in _texts(marks, "talents") and "Keen Eye" in _texts(marks, "talents")
    book = _texts(marks, "spellbook")
    assert "Volley" in book and "Hunter's Mark" in book
    assert "Dice pool: +1 blue die per opponent (at most 3)." in _texts(marks, "spellbook", " ")
    assert "Aimed Shot" not in book  # equipped powers are on the sheet, not in the Spellbook
    bag = _texts(marks, "bag")
    assert "Healing Draught" in bag and "Bag item · used up" in bag and "Bag 2/3" in bag


def test_italian_sheet_has_no_english_words_of_ours() -> None:
    marks, _image = _marks(ranger(), "ranger", "it")
    text = _texts(marks)
    assert "Livello 3 · PE 12 · livello 4 a 19" in text and "Aree delle carte" in text and "Borsa 2/3" in text
    for english in ("Health", "Energy", "empty", "Dice pool:", "Bag item", "Card areas", "printed"):
        assert english not in text, english


def test_every_card_of_the_pack_has_words_in_both_languages() -> None:
    pack = builtin()
    cards: list[cardtext.Card] = [*pack.class_cards, *pack.items, *pack.ancestries]
    cards += [a.preprinted for s in pack.class_sheets for a in s.areas if a.preprinted is not None]
    for card in cards:
        for lang in ("en", "it"):
            for line in cardtext.card_text(card, lang):
                assert line and "wowboard." not in line and "{" not in line, (card.name, lang, line)


def test_rendering_never_changes_the_state_and_the_same_state_gives_the_same_bytes() -> None:
    state = ranger()
    before = state.model_dump_json()
    first = W.render_sheet(state, "ranger", "it")
    assert state.model_dump_json() == before
    assert first == W.render_sheet(ranger(), "ranger", "it")
    assert first != W.render_sheet(state, "ranger", "en")
    state.characters["ranger"].gold = 8
    assert W.render_sheet(state, "ranger", "it") != first


def test_the_sheet_is_a_palette_picture_quantized_without_loss() -> None:
    pal = palette.panels_palette()
    assert not pal.flat_dropped
    image = W.sheet_image(ranger(), "ranger", "it")
    diff = ImageChops.difference(image, pal.quantize(image).convert("RGB")).convert("L")
    assert diff.getextrema()[1] <= 8


def test_an_unknown_character_is_refused() -> None:
    with pytest.raises(KeyError):
        W.render_sheet(game(), "nobody")
