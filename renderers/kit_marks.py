"""The pixels of a palette picture marked as holding a colour the palette lacks, kept as the marks themselves
(issue 28).

Why: ``kit_palette_draw.Draw`` marks the pixels whose colour its palette does not hold exactly (a text edge
whose blend was dropped), so a later blend over them is known to be unknowable. Those marks were pasted on
a "1" picture the size of the board: 2.2 MB for a 1200 x 1843 Warlord table, made for every picture (every
Warlord picture marks some pixels) and paged in afresh by a worker's first pictures: 0.1-1.7 ms each,
against a few µs for the marks themselves. A Warlord picture makes 12-21 marks over 10-15 of its ~50
bands of 32 rows. So the marks are kept as they come (a box and the mask pasted there), listed by the bands
they touch, and a region's marks are pasted on a picture of that region only when asked for.

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

Box = tuple[int, int, int, int]


class Marks:
    """Marked pixels of a picture of ``size``: ``add`` a mask at a box, ask whether a region holds any
    (``any_in``) or for the region's marks as a "1" image core (``crop``)."""

    __slots__ = ("bands", "marks", "size")

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.marks: list[tuple[int, int, int, int, Any]] = []
        self.bands: dict[int, list[int]] = {}

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
        number = len(self.marks)
        self.marks.append((x0, y0, x1, y1, mask))
        bands = self.bands
        for band in range(y0 >> BAND_SHIFT, ((y1 - 1) >> BAND_SHIFT) + 1):
            listed = bands.get(band)
            if listed is None:
                bands[band] = [number]
            else:
                listed.append(number)

    def _under(self, box: Box) -> list[tuple[int, int, int, int, Any]]:
        """The marks that overlap ``box``, in the order they were made."""
        x0, y0, x1, y1 = box
        if x0 >= x1 or y0 >= y1:
            return []
        first, last = max(y0, 0) >> BAND_SHIFT, (max(y1, 1) - 1) >> BAND_SHIFT
        bands = self.bands
        if first == last:
            numbers: Any = bands.get(first, ())
        else:
            found: set[int] = set()
            for band in range(first, last + 1):
                found.update(bands.get(band, ()))
            numbers = sorted(found)
        marks = self.marks
        return [mark for number in numbers
                if (mark := marks[number])[0] < x1 and mark[2] > x0 and mark[1] < y1 and mark[3] > y0]

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
