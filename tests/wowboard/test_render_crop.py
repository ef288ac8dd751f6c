"""The compact map update (spec §7 "Board image": a crop around the touched regions + status strip,
~550-800 px): a golden, and checks that the cut follows ``focus``, keeps whole regions and their
neighbours, and that the compact strip stays readable. ``UPDATE_GOLDEN=1`` rewrites the golden.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from engines.wowboard.content import builtin
from renderers import kit
from renderers import wowboard as W
from renderers.wowboard import crop, layout
from tests.wowboard.test_render import assert_golden, midgame


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize(("name", "focus", "lang"), [("wb_crop_crossroads_en", ["crossroads"], "en"),
                                                     ("wb_crop_gull_rock_it", ["gull_rock"], "it")])
def test_golden_crop(name: str, focus: list[str], lang: str, tmp_path: Path) -> None:
    assert_golden(name, W.render(midgame(), lang, {0: "Ann"}, focus=focus), tmp_path)


def test_the_crop_follows_the_focus_and_stays_550_to_800_wide() -> None:
    state = midgame()
    full = _size(W.render(state))
    assert full == _size(W.render(state, focus=None)) == _size(W.render(state, focus=[]))
    assert full[0] == W.WIDTH and full[1] > W.HEIGHT  # the map, its legend under it (issue 27.7)
    assert _size(W.render(state, focus=["no_such_region"])) == full  # nothing known to cut around
    sizes = {}
    for focus in (["crossroads"], ["gull_rock"], ["cinderhold"], ["cinderhold", "havenford"],
                  ["gull_rock", "kilnwatch"]):
        w, _h = sizes[tuple(focus)] = _size(W.render(state, focus=focus))
        assert crop.MIN_W <= w <= crop.MAX_W, (focus, w)
    assert sizes[("crossroads",)] != full
    assert _size(W.render(state, focus=["mossmere", "crown_peak"]))[0] == crop.MAX_W  # both map edges: scaled
    assert sizes[("cinderhold", "havenford")][1] > sizes[("cinderhold",)][1]  # two ends of the map: taller


def test_the_crop_holds_the_touched_regions_and_their_neighbours_whole() -> None:
    pack = builtin()
    for rid in ("crossroads", "gull_rock", "havenford"):
        box = crop.crop_box(pack, [rid])
        assert box is not None
        region = pack.region(rid)
        for other in [region.id, *region.adjacent]:
            r = pack.region(other)
            c = layout.cell(r.x, r.y)
            assert box[0] <= c.x0 and c.x1 <= box[2] and box[1] <= c.y0 and c.y1 <= box[3], (rid, other, box)
        cells = [layout.cell(x, 0) for x in range(layout.COLUMNS)]
        for c in cells:  # no region is cut in half sideways
            assert c.x1 <= box[0] + crop.EDGE or c.x0 >= box[2] - crop.EDGE or (box[0] <= c.x0 and c.x1 <= box[2]), \
                (rid, box)


def test_the_compact_strip_is_readable_and_shows_the_turn_and_the_factions() -> None:
    with kit.recording() as marks:
        image = W.render_image(midgame(), "it", {1: "Beatrice"}, focus=["crossroads"])
    texts = [m for m in marks if m.kind == "text" and m.region == "compact"]
    assert texts
    for m in texts:
        assert m.size >= layout.TEXT and m.box[2] <= image.width, m
    said = " | ".join(m.text for m in texts)
    assert "Turno 9/30" in said and "Orda · PE 10 · missioni 4" in said and "2 Beatrice" in said
    assert "9" in [m.text for m in texts]  # the marker's space is in the track window


def test_the_same_state_and_focus_give_the_same_bytes() -> None:
    assert W.render(midgame(), focus=["crossroads"]) == W.render(midgame(), focus=["crossroads"])
    assert W.render(midgame(), focus=["crossroads"]) != W.render(midgame(), focus=["gull_rock"])


def test_a_crop_shows_whole_region_boxes_and_no_sliver_of_a_neighbours() -> None:
    """A playtest took a 3 px band of the row above, along the crop's top edge, for a drawing error: the cut
    kept 8 px around its cells, 3 more than a cell's margin around its region's box."""
    pack = builtin()
    for region in pack.regions:
        for focus in ([region.id], [region.id, *region.adjacent[:1]]):
            box = crop.crop_box(pack, focus)
            assert box is not None
            inside = crop.regions_in(pack, box)
            for other in pack.regions:
                x0, y0, x1, y1 = layout.cell(other.x, other.y).disc
                cut = x0 < box[2] and x1 > box[0] and y0 < box[3] and y1 > box[1]
                assert not cut or other.id in inside, (focus, other.id, box)
