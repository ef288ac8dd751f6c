"""The compact map update: the map cut around the regions an action touched, under a compact strip
(spec §7 "Board image": a crop of ~550-800 px per action, the full map only at the end of a faction turn).

The crop holds the touched regions and their neighbours (where the characters could go next, where
the creatures stand), in whole cells, widened to at least ``MIN_W`` so the strip keeps its lines. When
the neighbours make it wider than ``MAX_W`` the neighbours go; when the touched regions alone are
wider still (a flight across the map) the cut is scaled down to ``MAX_W``, which keeps text at least
as large, once Discord shows it 500 px wide, as on the full map.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

from PIL import Image

from engines.wowboard.content import Pack
from renderers import kit
from renderers.wowboard import board
from renderers.wowboard.layout import CELL_W, COLUMNS, HEIGHT, INSET, MAP_Y0, PAD, WIDTH, cell

MIN_W = 550
MAX_W = 800
EDGE = INSET
"""The margin kept around the cut's cells: each cell's own, up to its region's box. A wider one showed a
sliver of the neighbours' boxes along the cut's edges (a playtest took it for a drawing error)."""


def _cells(pack: Pack, ids: Iterable[str]) -> tuple[int, int, int, int] | None:
    """The grid span (first column, first row, last column, last row) of the known regions in ``ids``."""
    known = {r.id: r for r in pack.regions}
    found = [known[i] for i in ids if i in known]
    if not found:
        return None
    return (min(r.x for r in found), min(r.y for r in found), max(r.x for r in found), max(r.y for r in found))


def _span_width(c0: int, c1: int) -> int:
    return (c1 - c0 + 1) * CELL_W + 2 * EDGE


def crop_box(pack: Pack, focus: Iterable[str]) -> tuple[int, int, int, int] | None:
    """The map rectangle to show for ``focus`` (region ids), or None when none of them is on the map.

    Whole cells only (a region cut in half reads as a different map): the touched regions and their
    neighbours, then columns added alternately right and left until the strip's ``MIN_W`` is met."""
    focus = [f for f in focus if f]
    own = _cells(pack, focus)
    if own is None:
        return None
    known = {r.id for r in pack.regions}
    near = [n for f in focus if f in known for n in pack.region(f).adjacent]
    c0, r0, c1, r1 = _cells(pack, [*focus, *near]) or own
    if _span_width(c0, c1) > MAX_W:
        c0, r0, c1, r1 = own
    right = True
    while _span_width(c0, c1) < MIN_W and (c0 > 0 or c1 < COLUMNS - 1):
        if (right and c1 < COLUMNS - 1) or c0 == 0:
            c1 += 1
        else:
            c0 -= 1
        right = not right
    first, last = cell(c0, r0), cell(c1, r1)
    return (max(0, first.x0 - EDGE), max(MAP_Y0, first.y0 - EDGE), min(WIDTH, last.x1 + EDGE),
            min(HEIGHT, last.y1 + EDGE))


def regions_in(pack: Pack, box: tuple[int, int, int, int]) -> set[str]:
    """The regions whose cell lies inside ``box`` (what a crop shows, for its legend)."""
    found = set()
    for r in pack.regions:
        c = cell(r.x, r.y)
        if c.x0 >= box[0] and c.x1 <= box[2] and c.y0 >= box[1] and c.y1 <= box[3]:
            found.add(r.id)
    return found


def drawn_regions(pack: Pack, box: tuple[int, int, int, int], lang: str) -> set[str]:
    """The regions whose pieces can show in ``box``: those whose room for pieces (inside the disc, under
    the name) meets it, by a pixel of margin. A neighbour above the crop can show the bottom of its pieces
    in the crop's edge; the others' pieces lie wholly outside it."""
    found = set()
    for r in pack.regions:
        disc = cell(r.x, r.y).disc
        x0, y0, x1, y1 = disc[0] + PAD - 2, board.content_top(r, lang) - 2, disc[2] - PAD + 2, disc[3] + 2
        if x0 < box[2] and x1 > box[0] and y0 < box[3] and y1 > box[1]:
            found.add(r.id)
    return found


_LAYERS: OrderedDict[tuple[object, ...], kit.Layer] = OrderedDict()
_LOCK = threading.Lock()
LAYERS = 32
"""Crop layers remembered (a recipe each, not an image): a table's next crop of the same cut and strip
height compares with its last one (``kit_scene``) only while its layer is the same object."""


def layer(static: Image.Image, key: tuple[object, ...], box: tuple[int, int, int, int], head: int,
          legend: int) -> kit.Layer:
    """The crop's static layer: the strip's ground, the map cut from ``static``, the legend's ground."""
    with _LOCK:
        found = _LAYERS.get(key)
        if found is not None and found.parts[0][0] is static:
            _LAYERS.move_to_end(key)
            return found
        width, height = box[2] - box[0], box[3] - box[1]
        made = kit.Layer((width, head + height + legend), kit.BACKGROUND, ((static, box, (0, head)),),
                         (((0, 0, width, head), kit.PANEL),))
        _LAYERS[key] = made
        while len(_LAYERS) > LAYERS:
            _LAYERS.popitem(last=False)
        return made
