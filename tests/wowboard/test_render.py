"""WoW board game map picture (spec §4.10 "Drawing", §7 "Board image"): goldens, plus checks that
fail with a sentence (sizes, places, what is drawn), read from the kit's recorded marks.

Goldens are compared as the other renderers' are (``tests.renderers.golden``: a small mean and
per-tile tolerance); ``UPDATE_GOLDEN=1`` rewrites them into ``tests/wowboard/golden`` and each was
looked at 500 px wide before it was stored.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engines.wowboard.content import builtin
from engines.wowboard.state import Figure, State
from renderers import kit
from renderers import wowboard as W
from renderers.wowboard import board, layout, palette
from tests.renderers import golden
from tests.wowboard.test_turn import drafted

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def fresh() -> State:
    """A game right after set-up: quests have spawned their figures, the Horde acts on turn 1."""
    return drafted()


def midgame() -> State:
    """Turn 9, the Alliance acting: characters spread out (two factions in one region), figures of
    every tier (quest and independent), the Overlord moved, an event boss marked, XP earned, a crowded
    start region whose pills fold into "+N"."""
    state = drafted()
    state.turn, state.active = 9, "alliance"
    moves = {"warden": ("redthorn_pass", 7, 2), "arcanist": ("crossroads", 3, 1), "ranger": ("barrow_fields", 4, 1),
             "cantor": ("crossroads", 2, 1)}
    for cid, (region, xp, level) in moves.items():
        c = state.characters[cid]
        c.region, c.xp, c.level = region, xp, level
    extra = [("tidewyrm", "red", "gull_rock", None, None), ("tidewyrm", "blue", "gull_rock", None, None),
             ("tidewyrm", "green", "gull_rock", None, None), ("webspinner", "red", "crossroads", "H-G04", "horde"),
             ("webspinner", "blue", "crossroads", None, None),
             ("grave_eater", "red", "blackspire", "A-E03", "alliance"),
             ("mirefin", "green", "cinderhold", "A-G01", "alliance"), ("zealot", "blue", "cinderhold", None, None),
             ("dunecur", "red", "cinderhold", "A-G02", "alliance"), ("webspinner", "green", "cinderhold", None, None)]
    for i, (type_id, tier, region, quest, faction) in enumerate(extra):
        fid = f"x{i}"
        state.figures[fid] = Figure(id=fid, type=type_id, tier=tier, region=region, quest=quest,
                                    faction=faction)  # type: ignore[arg-type]
    assert state.overlord is not None
    state.overlord.region, state.overlord.route_pos = "plague_pits", 1
    state.bosses = {"hollow_knight": "blackspire"}
    state.merchant = state.merchant[:3]
    return state


SCENES = {"wb_fresh_en": (fresh, "en"), "wb_mid_en": (midgame, "en"), "wb_mid_it": (midgame, "it")}


def assert_golden(name: str, png: bytes, tmp_path: Path) -> None:
    """Compare ``png`` with ``golden/<name>.png`` (or write it when ``UPDATE_GOLDEN=1``); shared by the
    sheet, combat and crop tests."""
    path = GOLDEN_DIR / f"{name}.png"
    if golden.updating():
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return
    assert path.is_file(), f"missing golden {path.name}: run with UPDATE_GOLDEN=1 and look at the picture"
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    expected = Image.open(path).convert("RGB")
    assert actual.size == expected.size, f"{name}: size {actual.size} != golden {expected.size}"
    overall, worst, where = golden.difference(actual, expected)
    if overall > golden.MEAN_LIMIT or worst > golden.TILE_LIMIT:
        kept = tmp_path / f"{name}.actual.png"
        kept.write_bytes(png)
        raise AssertionError(f"{name}: differs from golden (mean {overall:.2f}, tile {worst:.1f} at {where}); "
                             f"actual kept at {kept}; UPDATE_GOLDEN=1 regenerates once it looks right")


@pytest.mark.parametrize("name", sorted(SCENES))
def test_golden_map(name: str, tmp_path: Path) -> None:
    scene, lang = SCENES[name]
    assert_golden(name, W.render(scene(), lang=lang, seat_names={0: "Ann"}), tmp_path)


def test_the_scenes_show_what_they_should() -> None:
    start = fresh()
    assert start.phase == "play" and start.turn == 1 and start.figures and start.quests
    mid = midgame()
    assert {f.tier for f in mid.figures.values()} == {"green", "blue", "red"}
    assert mid.overlord is not None and mid.overlord.region == "plague_pits" and mid.bosses


# -- what is drawn ------------------------------------------------------------------------------


def _marks(state: State, **kw: object) -> list[kit.Mark]:
    with kit.recording() as marks:
        W.render_image(state, **kw)  # type: ignore[arg-type]
    return marks


def _static_marks() -> list[kit.Mark]:
    """The static layer is cached, so its marks are recorded by drawing it once more."""
    with kit.recording() as marks:
        board.draw_static(Image.new("RGB", (W.WIDTH, W.HEIGHT)), builtin())
    return marks


def test_every_text_is_readable_at_the_preview_width_and_inside_the_canvas() -> None:
    minimum = kit.Scale(W.WIDTH).min_text
    assert minimum == layout.TEXT
    for marks in (_static_marks(), _marks(fresh()), _marks(midgame(), lang="it", seat_names={1: "Beatrice"})):
        assert [m for m in marks if m.kind == "text"]
        for m in marks:
            if m.kind == "text":
                assert m.size >= minimum, f"{m.text!r} is {m.size} px, {kit.Scale(W.WIDTH).preview(m.size):.1f} " \
                                          f"px at 500 px wide"
            assert m.box[0] >= 0 and m.box[2] <= W.WIDTH and m.box[1] >= 0 and m.box[3] <= W.HEIGHT, m


def test_every_region_name_is_drawn_whole() -> None:
    drawn = " ".join(m.text for m in _static_marks() if m.kind == "text")
    for region in builtin().regions:
        for word in region.name.split():
            assert word in drawn, region.name
    assert "…" not in drawn


def test_badges_and_pieces_stay_in_their_region_and_never_overlap() -> None:
    pack = builtin()
    discs = [layout.cell(r.x, r.y).disc for r in pack.regions]
    for marks in (_static_marks(), _marks(fresh()), _marks(midgame())):
        items = [m for m in marks if m.kind in ("badge", "piece") and m.region != "legend"]  # the legend's own
        for m in items:
            assert any(d[0] <= m.box[0] and m.box[2] <= d[2] and d[1] <= m.box[1] and m.box[3] <= d[3]
                       for d in discs), m
    both = [m for m in _static_marks() + _marks(midgame()) if m.kind in ("badge", "piece") and m.region != "legend"]
    for i, a in enumerate(both):
        for b in both[i + 1:]:
            assert a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1], (a, b)


def test_the_map_shows_features_tokens_tiers_overlord_and_boss() -> None:
    badges = [m.text for m in _static_marks() if m.kind == "badge"]
    pack = builtin()
    assert badges.count("S") == 2 and badges.count("G") == sum(r.graveyard for r in pack.regions)
    assert badges.count("T") == sum(bool(r.town) for r in pack.regions)
    assert badges.count("F") == sum(bool(r.flight) for r in pack.regions)
    pieces = [m.text for m in _marks(midgame()) if m.kind == "piece"]
    assert {"WA1", "AR1", "RA2", "CA2", "overlord", "boss"} <= set(pieces)
    assert {"TW G1 B1", "TW R1"} <= set(pieces)  # one independent stack, all three tiers (two pills)
    assert any(p.startswith("+") for p in pieces)  # the crowded start region folds its last pills
    strip = " | ".join(m.text for m in _marks(midgame(), seat_names={0: "Ann"}) if m.region == "strip")
    assert "Turn 9/30" in strip and "Alliance acts" in strip and "Merchant 3" in strip
    assert "Horde · XP 10 · quests 4" in strip and "Alliance · XP 6 · quests 4" in strip
    assert "1 Ann  2 bo" in strip
    it = " | ".join(m.text for m in _marks(midgame(), lang="it") if m.region == "strip")
    assert "Turno 9/30" in it and "Orda · PE 10 · missioni 4" in it


def test_a_black_bar_separates_side_by_side_cells_without_a_road() -> None:
    image = board.static_layer("builtin@1", builtin())
    pack = builtin()
    reed, orchard = pack.region("reed_delta"), pack.region("orchard_gate")
    assert "orchard_gate" not in reed.adjacent and (reed.x + 1, reed.y) == (orchard.x, orchard.y)
    x = layout.cell(orchard.x, orchard.y).x0
    assert image.getpixel((x, layout.cell(orchard.x, orchard.y).centre[1])) == layout.BORDER
    cross = layout.cell(pack.region("crossroads").x, pack.region("crossroads").y)  # a road on its left: no bar
    assert image.getpixel((cross.x0, cross.centre[1])) != layout.BORDER


# -- purity, determinism, output ---------------------------------------------------------------


def test_rendering_never_changes_the_state_and_the_same_state_gives_the_same_bytes() -> None:
    state = midgame()
    before = state.model_dump_json()
    first = W.render(state, lang="it")
    assert state.model_dump_json() == before
    assert first == W.render(midgame(), lang="it")
    assert W.render(state) != first


def _chunks(png: bytes) -> list[bytes]:
    names, pos = [], 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        names.append(png[pos + 4:pos + 8])
        pos += 12 + length
    return names


def test_png_is_a_palette_picture_without_metadata() -> None:
    png = W.render(midgame())
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and image.width == W.WIDTH and image.height > W.HEIGHT  # the legend under the map
    assert set(_chunks(png)) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}


def test_quantizing_changes_next_to_no_pixel() -> None:
    pal = palette.shared()
    assert not pal.flat_dropped
    for scene in (fresh, midgame):
        image = W.render_image(scene())
        diff = ImageChops.difference(image, pal.quantize(image).convert("RGB")).convert("L")
        assert diff.getextrema()[1] <= 8


def test_warm_up_runs() -> None:
    W.warm_up()


# -- six characters (issue 30.1) -------------------------------------------------------------------------------
SIX_NAMES = {0: "Massimiliano", 1: "Bartolomeo", 2: "Annunziata", 3: "Gianfranco", 4: "Mariangela", 5: "Ludovico"}


def six() -> State:
    """A six-seat game of the full pack, three characters a side, on turn 9: two pairs of characters share a
    region with an enemy, XP and levels differ, the Alliance acts."""
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.wowboard import ENGINE

    dice = SeededDice(1)
    state = ENGINE.new_game(Setup(seats=[SeatSetup(seat=i, user_id=100 + i, name=f"p{i}") for i in range(6)]), dice)
    assert isinstance(state, State)
    while state.phase == "draft":
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], dice)
    moves = {"warden": ("redthorn_pass", 7, 2), "arcanist": ("crossroads", 3, 1), "ranger": ("barrow_fields", 4, 1),
             "cantor": ("crossroads", 2, 1), "templar": ("crossroads", 9, 3), "stormcaller": ("redthorn_pass", 5, 2)}
    for cid, (region, xp, level) in moves.items():
        c = state.characters[cid]
        c.region, c.xp, c.level = region, xp, level
    state.turn, state.active = 9, "alliance"
    return state


@pytest.mark.parametrize("lang", ["en", "it"])
def test_golden_map_with_six_characters(lang: str, tmp_path: Path) -> None:
    assert_golden(f"wb_six_{lang}", W.render(six(), lang=lang, seat_names=SIX_NAMES), tmp_path)


def test_six_characters_every_seat_is_named_whole_and_every_text_is_readable_at_500_px() -> None:
    state = six()
    assert len(state.characters) == 6 and len(state.seats) == 6
    minimum = kit.Scale(W.WIDTH).min_text
    for lang in ("en", "it"):
        marks = _marks(state, lang=lang, seat_names=SIX_NAMES)
        drawn = " ".join(m.text for m in marks if m.kind == "text")
        for seat, name in SIX_NAMES.items():
            assert f"{seat + 1} {name}" in drawn, (lang, name)  # the strip's roster, on two lines if need be
        for m in marks:
            if m.kind == "text":
                assert m.size >= minimum, (m.text, m.size)
            assert m.box[0] >= 0 and m.box[2] <= W.WIDTH and m.box[1] >= 0 and m.box[3] <= W.HEIGHT, m
