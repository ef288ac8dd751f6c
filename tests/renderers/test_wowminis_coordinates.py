"""A zoomed window's coordinates pasted from strips drawn once per scale (``renderers.wowminis.coordinates``,
issue 28).

The claim: every window of every built-in map has, byte for byte, the pixels (and the marks) its labels give
drawn one by one; the strips are used for most lines (so that claim is about them); a scale whose labels would
round another way once moved, or whose labels touch, has no strips; and a run whose box does not hold only the
canvas colour is drawn label by label."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engines.wowminis.content import builtin_pack
from renderers import kit, kit_palette_draw
from renderers import wowminis as W
from renderers.wowminis import coordinates
from renderers.wowminis import palette as map_palette
from renderers.wowminis.layout import HexGrid, zoom_for

SIDES = (("A", kit.team_colour(0)), ("B", kit.team_colour(1)))


def _windows() -> Iterator[tuple[str, HexGrid]]:
    for board_map in builtin_pack().maps:
        columns, rows = board_map.columns, board_map.rows
        windows = {zoom for c in range(columns) for r in range(rows) for dc in (0, 2, 4) for dr in (0, 2)
                   if (zoom := zoom_for(columns, rows, [(c, r), (min(c + dc, columns - 1), min(r + dr, rows - 1))]))
                   is not None}
        for zoom in sorted(windows, key=repr):
            yield board_map.model_dump_json(), zoom


def _form(map_json: str, zoom: HexGrid) -> tuple[bytes, bytes | None]:
    """The window's palette form, made anew, and the marks its drawing left (none: it is kept only if exact)."""
    W._window_form.cache_clear()
    form = W._window_form(map_json, SIDES, zoom)
    return form.tobytes(), None


def test_every_windows_coordinates_pasted_from_strips_are_its_labels_drawn_one_by_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pasted, labels = 0, 0
    paste = coordinates._pasted

    def counted(*args: Any) -> list[tuple[int, int]]:
        nonlocal pasted, labels
        left = paste(*args)
        first, last = args[-2:]
        labels += last - first + 1
        pasted += last - first + 1 - sum(end - start + 1 for start, end in left)
        return left

    windows = list(_windows())
    monkeypatch.setattr(coordinates, "_pasted", counted)
    with_strips = [_form(map_json, zoom) for map_json, zoom in windows]
    monkeypatch.setattr(coordinates, "_pasted", paste)
    monkeypatch.setattr(coordinates, "_strips", lambda *args: None)
    one_by_one = [_form(map_json, zoom) for map_json, zoom in windows]
    W._window_form.cache_clear()
    assert len(windows) > 300
    for (map_json, zoom), found, drawn in zip(windows, with_strips, one_by_one, strict=True):
        assert found == drawn, (map_json[:40], zoom)
    assert pasted > labels * 9 // 10, (pasted, labels)  # nearly every label came from the strips


def test_a_label_half_a_pixel_from_the_grid_or_touching_the_next_makes_no_strip() -> None:
    colours = map_palette.shared()
    assert coordinates._strip([((20.25, 64), "A"), ((60.75, 64), "B")], 20, colours, across=True) is not None
    assert coordinates._strip([((20.5, 64), "A"), ((60.75, 64), "B")], 20, colours, across=True) is None
    a_left, _top, a_mask, _stroke = kit._glyph_masks("A", 20, kit.BOLD_STROKE, "mm")
    b_left, _top, _b_mask, _stroke = kit._glyph_masks("B", 20, kit.BOLD_STROKE, "mm")
    touching = 20 + a_left + a_mask.width - b_left  # B's box starts where A's ends: no ink shared, boxes touch
    assert coordinates._strip([((20.25, 64), "A"), ((touching + 0.25, 64), "B")], 20, colours, across=True) is None
    assert coordinates._strip([((20.25, 64), "A"), ((touching + 1.25, 64), "B")], 20, colours, across=True) is not None
    assert coordinates._strip([((64, 20.25), "1"), ((64, 40.5), "2")], 20, colours, across=False) is None


def test_a_run_over_another_colour_is_drawn_label_by_label() -> None:
    map_json, zoom = next(iter(_windows()))
    colours = map_palette.for_map(map_json, SIDES)
    top = zoom.y0 - coordinates.COORD_Y / 2
    afresh = []
    for obstacle in (False, True):
        picture = kit_palette_draw.blank((1000, 700), kit.BACKGROUND, colours)
        on = kit_palette_draw.Draw(picture, colours)
        x = round(zoom.centre(zoom.c0 + 1, 0)[0])
        if obstacle:  # a dot in the run's box, between two letters: under no label's own box
            on.point((x + round(zoom.s * 0.75), round(top)), fill=kit.PANEL)
        left = coordinates._pasted(on, zoom, "top", top, zoom.c0, zoom.c0 + zoom.cols - 1)
        afresh.append(left)
    assert afresh[0] == []
    assert afresh[1] and all(start <= end for start, end in afresh[1])
