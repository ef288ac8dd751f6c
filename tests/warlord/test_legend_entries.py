"""The legend under the armies is drawn one entry at a time (issue 28).

Which abbreviations a picture explains changes whenever a card with a new feat or class enters or
leaves, and a legend drawn as whole rows made FreeType cut each changed row anew: ~0.4 ms a row, 2.2-2.5
ms of the slowest Warlord pictures of ``bench/acts.py``. Entries are few and come back, so each is cut
once; the warm-up cuts every entry the built-in cards can need.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from renderers import kit, kit_palette_draw
from renderers import warlord as W
from renderers.warlord import palette, panel
from renderers.warlord.layout import FIELD_X0, FIELD_X1, HEIGHT, MARGIN
from tests.warlord import builders as B

SCENES = (B.scene_start, B.scene_attack, B.scene_window, B.scene_four, B.scene_over)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("scene", SCENES, ids=lambda f: f.__name__)
def test_footer_rows_keep_every_entry_in_order_within_the_field_and_apart(scene, lang: str) -> None:  # type: ignore[no-untyped-def]
    state = scene()
    rows = panel.footer_rows(state, lang)
    gap = round(kit.font(panel.TEXT).getlength(panel.FOOTER_GAP))
    assert [entry for row in rows for _x, entry in row] == panel._footer_entries(state, lang)
    for row in rows:
        assert row[0][0] == 0
        for (x, entry), (next_x, _next) in pairwise(row):
            assert next_x >= x + kit.text_width(entry, panel.TEXT) + gap  # never touching the one before
        last_x, last = row[-1]
        assert last_x + kit.text_width(last, panel.TEXT) <= FIELD_X1 - FIELD_X0
    assert panel.footer_lines(state, lang) == [panel.FOOTER_GAP.join(e for _x, e in row) for row in rows]


def test_after_the_warm_up_no_legend_of_the_built_in_cards_cuts_a_text() -> None:
    """Whatever cards a picture shows, its legend's texts are all in the glyph cache after the warm-up."""
    W.warm_up()
    scratch = kit_palette_draw.Draw(W._canvas(HEIGHT), palette.shared())
    before = kit._glyph_masks.cache_info().misses
    for scene in SCENES:
        for lang in ("en", "it"):
            panel.draw_footer(scratch, scene(), lang, MARGIN)
    assert kit._glyph_masks.cache_info().misses == before
