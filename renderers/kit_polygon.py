"""A polygon with a wide outline drawn on the few pixels it covers, not on a mask of the whole picture.

Why (issue 28): Pillow draws an outline wider than 1 px inside its polygon by clipping it with a mask of
the polygon's fill, and makes that mask the size of the whole picture: a 1000 x 700 WoW Miniatures board
fills 700 KB for each hex it outlines, ~60 of them to draw a zoomed window of the map (~2.4 ms of its ~3).
Drawn on a crop of the polygon's box, with a mask of that box, and put back, it is the same calls on the
same pixels moved by whole pixels, which Pillow draws alike (``tests/renderers/test_kit_polygon.py``
compares them with Pillow's own, on RGB and palette pictures).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

_MODES = frozenset(("RGB", "P", "L"))  # (no blending: ``ImageDraw`` draws them with ``blend`` 0)


def outlined(draw: Any, xy: Any, ink: int | None, fill_ink: int | None, width: int) -> bool:
    """Draw ``xy``'s fill (``fill_ink``) and outline (``ink``, ``width`` > 1) the way ``ImageDraw.polygon`` does,
    on the polygon's box alone; False (nothing drawn) where it does not apply: coordinates that are not whole
    pixels, a box that leaves the picture, another mode."""
    core = draw.im
    if core is None or core.mode not in _MODES or ink is None or ink == fill_ink or width <= 1:
        return False
    try:
        points = [(x, y) for x, y in xy]
    except (TypeError, ValueError):  # a flat list of numbers: left to Pillow
        return False
    if len(points) < 3 or not all(type(x) is int and type(y) is int for x, y in points):
        return False
    xs, ys = [x for x, _y in points], [y for _x, y in points]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs) + 1, max(ys) + 1
    if x0 < 0 or y0 < 0 or x1 > core.size[0] or y1 > core.size[1]:
        return False
    moved = [(x - x0, y - y0) for x, y in points]
    part = core.crop((x0, y0, x1, y1))
    on_part = Image.core.draw(part, 0)
    if fill_ink is not None:
        on_part.draw_polygon(moved, fill_ink, 1)
    mask = Image.core.fill("1", part.size, 0)
    Image.core.draw(mask, 0).draw_polygon(moved, 255, 1)
    on_part.draw_polygon(moved, ink, 0, width * 2 - 1, mask)
    core.paste(part, (x0, y0, x1, y1))
    return True
