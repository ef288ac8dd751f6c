"""The pixels of a palette picture marked as holding a colour the palette lacks, kept as the marks themselves
(issue 28).

Why: ``kit_palette_draw.Draw`` marks the pixels whose colour its palette does not hold exactly (a text edge
whose blend was dropped), so a later blend over them is known to be unknowable. Those marks were pasted on
a "1" picture the size of the board: 2.2 MB for a 1200 x 1843 Warlord table, made for every picture (every
Warlord picture marks some pixels) and paged in afresh by a worker's first pictures: 0.1-1.7 ms each,
against a few µs for the marks themselves. A Warlord picture makes 12-21 marks over 10-20 of its ~50
bands of 32 rows. So the marks are kept as they come (a box and the mask pasted there), listed by the bands
they touch, and a region's marks are pasted on a picture of that region only when asked for, or looked at
where they are when only whether it holds one is asked.

Why the answers are the dense picture's: the masks are two-level (``Marks``), so a pixel is marked where any
mask that covers it is set, and a region is made by the very pastes the board-sized picture was made by
(``paste(1, box, mask)``) restricted to that region; a mark's part off the board is cut away when it is
kept, as the board-sized paste clipped it. ``tests/renderers/test_kit_marks.py``
compares the two over random marks and regions.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

BAND_SHIFT = 5
"""Marks are listed by bands of 32 rows (``1 << BAND_SHIFT``), the PNG bands' height."""

CROWDED = 8
"""Marks a band lists at most before they are pasted into one (the busiest band of a Warlord or WoW Miniatures
picture holds 3-6)."""

Box = tuple[int, int, int, int]
Mark = tuple[int, int, int, int, Any]
"""x0, y0, x1, y1 and the mask pasted there (an image core of that size)."""


class Marks:
    """Marked pixels of a picture of ``size``: ``add`` a mask at a box, ask whether a region holds any
    (``any_in``) or for the region's marks as a "1" image core (``crop``).

    The masks are two-level (mode "1", or "L" holding 0 and 255: what ``kit_palette_draw`` marks with), so a
    pixel is marked where any mask is set, in whatever order the masks come and however often one is pasted.
    (An "L" mask with levels between would be marked wherever it is not 0, a few pixels more than its paste
    on the board-sized picture: a picture drawn the RGB way more often, never a wrong one.)"""

    __slots__ = ("bands", "size")

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.bands: dict[int, list[Mark]] = {}

    def add(self, box: Box, mask: Any) -> None:
        """Mark the pixels ``mask`` (an image core the size of ``box``) sets at ``box``; what falls off the
        picture is dropped, as the paste on the board-sized picture clipped it."""
        x0, y0, x1, y1 = box
        width, height = self.size
        if x0 >= width or y0 >= height or x1 <= 0 or y1 <= 0 or x0 >= x1 or y0 >= y1:
            return
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            cut = (max(x0, 0), max(y0, 0), min(x1, width), min(y1, height))
            mask = mask.crop((cut[0] - x0, cut[1] - y0, cut[2] - x0, cut[3] - y0))
            x0, y0, x1, y1 = cut
        mark = (x0, y0, x1, y1, mask)
        bands = self.bands
        for band in range(y0 >> BAND_SHIFT, ((y1 - 1) >> BAND_SHIFT) + 1):  # listed in every band it reaches
            listed = bands.get(band)
            if listed is None:
                bands[band] = [mark]
                continue
            listed.append(mark)
            if len(listed) > CROWDED:  # (a warm-up's scratch picture, drawn on again and again)
                top = band << BAND_SHIFT
                whole = (0, top, width, min(height, top + (1 << BAND_SHIFT)))
                bands[band] = [(*whole, self.crop(whole))]  # (a mark also listed below is pasted twice: the same)

    def _under(self, box: Box) -> list[Mark]:
        """The marks that overlap ``box``, each once."""
        x0, y0, x1, y1 = box
        if x0 >= x1 or y0 >= y1:
            return []
        bands = self.bands
        first, last = max(y0, 0) >> BAND_SHIFT, (max(y1, 1) - 1) >> BAND_SHIFT
        if first == last:
            return [mark for mark in bands.get(first, ())
                    if mark[0] < x1 and mark[2] > x0 and mark[1] < y1 and mark[3] > y0]
        found: dict[int, Mark] = {}
        for band in range(first, last + 1):
            for mark in bands.get(band, ()):
                if mark[0] < x1 and mark[2] > x0 and mark[1] < y1 and mark[3] > y0:
                    found[id(mark)] = mark
        return list(found.values())

    def crop(self, box: Box) -> Any:
        """The marks inside ``box`` as a "1" image core of its size, as ``crop(box)`` of the board-sized
        picture gives them; None when no mark reaches into ``box`` (then that crop holds no pixel set)."""
        found = self._under(box)
        if not found:
            return None
        x0, y0, x1, y1 = box
        region = Image.core.fill("1", (x1 - x0, y1 - y0), 0)
        for mx0, my0, mx1, my1, mask in found:
            region.paste(1, (mx0 - x0, my0 - y0, mx1 - x0, my1 - y0), mask)
        return region

    def any_in(self, box: Box) -> bool:
        """Whether a pixel of ``box`` is marked: the part of each mark inside it looked at, nothing pasted."""
        x0, y0, x1, y1 = box
        for mx0, my0, mx1, my1, mask in self._under(box):
            if mx0 >= x0 and my0 >= y0 and mx1 <= x1 and my1 <= y1:
                part = mask
            else:
                part = mask.crop((max(x0, mx0) - mx0, max(y0, my0) - my0, min(x1, mx1) - mx0, min(y1, my1) - my0))
            if part.getbbox() is not None:
                return True
        return False

    def whole(self) -> Image.Image:
        """The board-sized "1" picture of every mark (tests, and anything that wants them all)."""
        picture = Image.new("1", self.size)
        region = self.crop((0, 0, *self.size))
        if region is not None:
            picture.im.paste(region, (0, 0, *self.size))
        return picture
