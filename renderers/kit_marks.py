"""The pixels of a palette picture marked as holding a colour the palette lacks, kept as the marks themselves
(issue 28).

Why: ``kit_palette_draw.Draw`` marks the pixels whose colour its palette does not hold exactly (a text edge
whose blend was dropped), so a later blend over them is known to be unknowable. Those marks were pasted on
a "1" picture the size of the board: 2.2 MB for a 1200 x 1843 Warlord table, made for every picture (every
Warlord picture marks some pixels) and paged in afresh by a worker's first pictures: 0.1-1.7 ms each,
against a few µs for the marks themselves. A Warlord picture makes 12-21 marks over 10-20 of its ~50
bands of 32 rows. So the marks are kept as they come (a box and the mask pasted there), cut by the bands
they touch and listed by band, and a region's marks are pasted on a picture of that region only when asked
for.

Why the answers are the dense picture's: a region is made by the very pastes the board-sized picture was
made by (``paste(1, box, mask)``, in the order marked) restricted to that region, and a mark's part off the
board is cut away when it is kept, as the board-sized paste clipped it. ``tests/renderers/test_kit_marks.py``
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


class Marks:
    """Marked pixels of a picture of ``size``: ``add`` a mask at a box, ask whether a region holds any
    (``any_in``) or for the region's marks as a "1" image core (``crop``)."""

    __slots__ = ("bands", "size")

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.bands: dict[int, list[tuple[int, int, int, int, Any]]] = {}  # band -> its marks (x0, y0, x1, y1, mask)

    def add(self, box: Box, mask: Any) -> None:
        """Mark the pixels ``mask`` (an image core the size of ``box``) marks at ``box``, as
        ``paste(1, box, mask)`` on the board-sized "1" picture would."""
        x0, y0, x1, y1 = box
        width, height = self.size
        if x0 >= width or y0 >= height or x1 <= 0 or y1 <= 0 or x0 >= x1 or y0 >= y1:
            return
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:  # the part on the board, as the paste clipped it
            cut = (max(x0, 0), max(y0, 0), min(x1, width), min(y1, height))
            mask = mask.crop((cut[0] - x0, cut[1] - y0, cut[2] - x0, cut[3] - y0))
            x0, y0, x1, y1 = cut
        first, last = y0 >> BAND_SHIFT, (y1 - 1) >> BAND_SHIFT
        if first == last:
            self._keep(first, (x0, y0, x1, y1, mask))
            return
        for band in range(first, last + 1):  # a piece a band: each band's marks are its own
            top, bottom = max(y0, band << BAND_SHIFT), min(y1, (band + 1) << BAND_SHIFT)
            self._keep(band, (x0, top, x1, bottom, mask.crop((0, top - y0, x1 - x0, bottom - y0))))

    def _keep(self, band: int, mark: tuple[int, int, int, int, Any]) -> None:
        """``mark`` (inside ``band``) listed last in its band; a band that gathers more than ``CROWDED`` marks is
        pasted into one mark of its whole width (what the warm-ups' scratch pictures, drawn on again and
        again, come to), so a question never walks a long list."""
        listed = self.bands.get(band)
        if listed is None:
            self.bands[band] = [mark]
            return
        listed.append(mark)
        if len(listed) > CROWDED:
            top = band << BAND_SHIFT
            whole = (0, top, self.size[0], min(self.size[1], top + (1 << BAND_SHIFT)))
            self.bands[band] = [(*whole, self.crop(whole))]

    def _under(self, box: Box) -> list[tuple[int, int, int, int, Any]]:
        """The marks that overlap ``box``, band after band, each band's in the order they were made (the bands'
        marks do not overlap one another)."""
        x0, y0, x1, y1 = box
        if x0 >= x1 or y0 >= y1:
            return []
        bands = self.bands
        return [mark for band in range(max(y0, 0) >> BAND_SHIFT, ((max(y1, 1) - 1) >> BAND_SHIFT) + 1)
                for mark in bands.get(band, ()) if mark[0] < x1 and mark[2] > x0 and mark[1] < y1 and mark[3] > y0]

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
        """Whether a pixel of ``box`` is marked."""
        region = self.crop(box)
        return region is not None and region.getbbox() is not None

    def whole(self) -> Image.Image:
        """The board-sized "1" picture of every mark (tests, and anything that wants them all)."""
        picture = Image.new("1", self.size)
        region = self.crop((0, 0, *self.size))
        if region is not None:
            picture.im.paste(region, (0, 0, *self.size))
        return picture
