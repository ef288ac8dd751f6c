"""Pictures drawn as a list of draw calls, re-drawn only where they changed (issue 13).

Why: most of a table's picture is what its previous picture showed. Drawing the whole board
again, looking every pixel up in the palette and compressing every row costs about twice
Pillow's own PNG encode of the result; a game's next picture usually changes a token, a
counter or two and the banner. So a renderer does not draw on the picture: it draws on a
``Recorder``, which keeps each call as a hashable command with the rows it can touch. Then
``encode`` compares the commands with the previous picture of the same scene, and only the
bands of rows (``kit_png.BAND_ROWS``) that some added or removed command touches are drawn
again (from the static layer up, every command that touches them, in order), looked up in
the palette and compressed; every other band's compressed bytes are the previous picture's.

Why this is exact: Pillow's draw calls are pixel-local (what a call does to a pixel depends
on the call and that pixel only), so a pixel's colour is a function of the static layer's
pixel and the sequence of calls that reach it. Outside the re-drawn bands no pixel is reached
by an added or removed call, and the calls both pictures share come in the same order (checked,
else everything is re-drawn), so those pixels are the previous picture's. The bytes are the
ones a whole-picture encode gives (tests/renderers/test_kit_scene.py checks a recorded game's
pictures in several orders).

The scene key only says which earlier picture to compare with: any key is correct (a wrong
one only re-draws more). The caller that knows the table (the render pool, by game id) says
so with ``table``, and renderers put ``current_table()`` in their keys. The last ``SCENES``
scenes are kept per process (~145 KiB each).
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from PIL import Image

from renderers import kit, kit_bytes, kit_png
from renderers.kit_palette import Palette

RECENT = 96
"""Scenes drawn lately (keys only) whose next picture is worth recording: a table's first picture
is drawn at once, as recording costs more than it saves when no later picture compares with it
(1,000 live games, each acting once a minute, would record every picture for nothing)."""
SCENES = 16
"""Scenes remembered per process at most: with the pool's affinity (gm.workers.render_queue) each
worker keeps the last pictures of 16 of the tables playing now; more would only help tables idle
for longer, and cost every worker's memory (bench/live_games.py counts it)."""
SCENE_BYTES = 4 << 20
"""Heap bytes of the scenes remembered (``_picture_bytes``: a scene's bands, its recorded calls and the
masks they keep alive, ~100-400 KB): the bound that holds when the pictures are large."""
ENTRY_BYTES = 330
"""Heap bytes of one recorded call besides its masks: the entry's tuple, its command's, the points and
colours (measured with ``kit_bytes.held_bytes`` over the games' pictures: 250-330)."""
_SLACK = 2
"""Rows added above and below each command's reach: Pillow rounds coordinates, a few rows more
only re-draw a little more, a row less would leave a stale pixel."""

Command = tuple[Any, ...]
"""(method, draw mode, the method's arguments...): equal commands draw the same pixels."""


Entry = tuple[Command, int, int, "tuple[tuple[Image.Image, Any], ...] | None"]
"""A recorded call: its command, the first and last row it can touch, and the masks a blit
needs with their colours (the command holds the masks' ids, this keeps the masks alive, so an
id is never a later mask's). A plain tuple: a picture records ~150, and a dataclass's
constructor would cost a tenth of the recording."""


def _points(xy: Any) -> tuple[Any, ...]:
    """``xy`` as a hashable tuple: flat numbers or pairs, as Pillow takes them."""
    if type(xy) is not tuple:
        xy = tuple(xy)
    if xy and not isinstance(xy[0], (int, float)):
        xy = tuple(tuple(point) for point in xy)
    return xy


def _rows(xy: tuple[Any, ...], margin: float = 0) -> tuple[int, int]:
    ys = xy[1::2] if isinstance(xy[0], (int, float)) else [point[1] for point in xy]
    return int(min(ys) - margin) - _SLACK, int(max(ys) + margin) + _SLACK + 1


class Recorder:
    """Stands where an ``ImageDraw`` would and records what is drawn, in order.

    Only the calls the renderers make are here; anything else is an ``AttributeError``, so a
    new kind of call cannot be silently left out of a picture."""

    def __init__(self, entries: list[Entry], mode: str | None = None) -> None:
        self.entries = entries
        self.mode = mode

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        box = _points(xy)
        top, bottom = _rows(box, width)  # an outline wider than the box spills past it
        self.entries.append((("rectangle", self.mode, box, fill, outline, width), top, bottom, None))

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        box = _points(xy)
        top, bottom = _rows(box, width)
        self.entries.append((("ellipse", self.mode, box, fill, outline, width), top, bottom, None))

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None, width: int = 1,
                          *, corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        parts = kit.rounded_parts(xy, radius, fill, outline, width, corners)
        if parts is not None:  # the mask blits ``kit.Draw`` would make: replayed as blits
            if parts:
                at = parts[0][0]
                self.blits(at, max(mask.size[1] for _at, mask, _colour in parts),
                           tuple((mask, colour) for _at, mask, colour in parts))
            return
        box = _points(xy)
        top, bottom = _rows(box, width)
        self.entries.append((("rounded_rectangle", self.mode, box, radius, fill, outline, width, corners), top,
                             bottom, None))

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        points = _points(xy)
        top, bottom = _rows(points, width)
        self.entries.append((("polygon", self.mode, points, fill, outline, width), top, bottom, None))

    def line(self, xy: Any, fill: Any = None, width: int = 0, joint: str | None = None) -> None:
        points = _points(xy)
        top, bottom = _rows(points, width)  # a wide line reaches half its width each side; curved joints as far
        self.entries.append((("line", self.mode, points, fill, width, joint), top, bottom, None))

    def bitmap(self, xy: Any, bitmap: Image.Image, fill: Any = None) -> None:
        self.blits(xy, bitmap.size[1], ((bitmap, fill),))

    def blits(self, xy: Any, height: int, masks: tuple[tuple[Image.Image, Any], ...]) -> None:
        """Masks drawn at one place in turn, each in its colour (a text and its outline, a
        chip's fill and its edge): one command, whose masks ``height`` rows tall at most."""
        at = xy if type(xy) is tuple else tuple(xy)
        top = int(at[1]) - _SLACK
        self.entries.append((("blits", self.mode, at, tuple((id(mask), colour) for mask, colour in masks)), top,
                             top + height + 2 * _SLACK, masks))


def replay(image: Image.Image, entries: Sequence[Entry], reach: Sequence[int] | None = None) -> None:
    """Draw ``entries`` on ``image``, in order; with ``reach`` (running counts of dirty bands,
    see ``_reach``), only those that touch a dirty band.

    Mask blits (text, chips: most of a picture) go straight to Pillow's C drawing with their
    ink looked up once per colour, as ``kit.Draw.bitmap`` would draw them."""
    draws: dict[str | None, kit.Draw] = {}
    inks: dict[tuple[str | None, Any], int | None] = {}
    rows = kit_png.BAND_ROWS
    last_band = len(reach) - 2 if reach is not None else 0
    for command, top, bottom, masks in entries:
        if reach is not None:
            first, last = max(0, top // rows), min(last_band, bottom // rows)
            if first > last or reach[last + 1] == reach[first]:
                continue
        mode = command[1]
        draw = draws.get(mode)
        if draw is None:
            draw = draws[mode] = kit.Draw(image, mode)
        name = command[0]
        if name == "blits":
            for one, colour in masks:  # type: ignore[union-attr]
                key = (mode, colour)
                if key in inks:
                    ink = inks[key]
                else:
                    outline_ink, fill_ink = draw._getink(colour)
                    ink = inks[key] = fill_ink if outline_ink is None else outline_ink
                if ink is not None:
                    draw.draw.draw_bitmap(command[2], one.im, ink)
        elif name == "rounded_rectangle":
            draw.rounded_rectangle(command[2], command[3], command[4], command[5], command[6], corners=command[7])
        else:
            getattr(draw, name)(*command[2:])


@dataclass
class _Picture:
    """What a scene keeps of its last picture: enough to draw and encode only what changes."""

    static: Image.Image
    palette: Palette
    entries: list[Entry]
    hashes: list[int]
    bands: list[kit_png.Band]


@dataclass
class Counts:
    """What this process re-drew, for the benches: the bands of its recorded pictures, and how many
    of them were drawn again."""

    bands: int = 0
    redrawn: int = 0


COUNTS = Counts()


def _picture_bytes(_key: Hashable, picture: _Picture) -> int:
    """Heap bytes a scene's picture holds (its static layer and palette are its renderer's): an estimate
    walking its masks only, as ``kit_bytes.held_bytes`` over every call would cost ~0.5 ms a picture."""
    masks: dict[int, Image.Image] = {}
    for entry in picture.entries:
        if entry[3] is not None:
            for mask, _colour in entry[3]:
                masks[id(mask)] = mask
    bands = sum(len(band[0]) for band in picture.bands) + 130 * len(picture.bands)  # bytes, tuple, two ints
    return kit_bytes.ENTRY + ENTRY_BYTES * len(picture.entries) + 40 * len(picture.hashes) + bands + \
        sum(kit_bytes.image_bytes(mask) for mask in masks.values())


_scenes = kit_bytes.Budget(SCENE_BYTES, _picture_bytes, SCENES)
_recent: OrderedDict[Hashable, None] = OrderedDict()
_lock = threading.Lock()


_table: ContextVar[Hashable] = ContextVar("kit_scene_table", default=None)


@contextmanager
def table(key: Hashable) -> Iterator[None]:
    """Pictures drawn inside are the table ``key``'s (a game's id; None: unknown)."""
    token = _table.set(key)
    try:
        yield
    finally:
        _table.reset(token)


def current_table() -> Hashable:
    return _table.get()


def wants(key: Hashable) -> bool:
    """Whether to record this picture of scene ``key``: it has a previous picture to compare with,
    or it was drawn lately (its next picture will compare with this one). Either way it counts as
    drawn now."""
    with _lock:
        if key in _scenes:
            return True
        seen = key in _recent
        _recent[key] = None
        _recent.move_to_end(key)
        while len(_recent) > RECENT:
            _recent.popitem(last=False)
        return seen


def _take(key: Hashable) -> _Picture | None:
    """The scene's last picture, out of the cache while it is used: a thread drawing the same
    scene at the same time starts afresh instead of sharing it."""
    return _scenes.take(key)  # type: ignore[no-any-return]


def _keep(key: Hashable, picture: _Picture) -> None:
    _scenes.keep(key, picture)


def drop(table_key: Hashable) -> None:
    """Forget every scene of table ``table_key`` (renderers put ``current_table()`` in their scene keys):
    a warm-up's table (``renderers.kit_warm``), whose scenes no later picture compares with."""
    with _lock:
        for key in [k for k in list(_scenes) if k == table_key or (type(k) is tuple and table_key in k)]:
            _scenes.take(key)
        for key in [k for k in _recent if k == table_key or (type(k) is tuple and table_key in k)]:
            del _recent[key]


def forget() -> None:
    """Drop every scene and zero the counts (tests and benches measure pictures drawn afresh)."""
    with _lock:
        _scenes.clear()
        _recent.clear()
        COUNTS.bands = COUNTS.redrawn = 0


def _changed_bands(before: _Picture, entries: list[Entry], hashes: list[int], count: int) -> list[bool]:
    """Which bands some added or removed command reaches; all of them when the commands both
    pictures share are not in the same order."""
    old, new = Counter(before.hashes), Counter(hashes)
    changed = {h for h, n in old.items() if new.get(h) != n}
    changed.update(h for h, n in new.items() if old.get(h) != n)
    if not changed:
        kept_before, kept_now = [e[0] for e in before.entries], [e[0] for e in entries]
    else:
        kept_before = [e[0] for e, h in zip(before.entries, before.hashes, strict=True) if h not in changed]
        kept_now = [e[0] for e, h in zip(entries, hashes, strict=True) if h not in changed]
    if kept_before != kept_now:  # also catches two different commands with one hash
        return [True] * count
    dirty = [False] * count
    rows = kit_png.BAND_ROWS
    for side, side_hashes in ((before.entries, before.hashes), (entries, hashes)):
        for (_command, top, bottom, _mask), h in zip(side, side_hashes, strict=True):
            if h in changed:
                for band in range(max(0, top // rows), min(count - 1, bottom // rows) + 1):
                    dirty[band] = True
    return dirty


def _reach(dirty: list[bool]) -> list[int]:
    """Running counts: ``reach[b + 1] - reach[a]`` is how many of bands a..b are dirty."""
    reach = [0]
    for is_dirty in dirty:
        reach.append(reach[-1] + is_dirty)
    return reach


def encode(key: Hashable, static: Image.Image, palette: Palette, entries: list[Entry], *,
           level: int = kit.PNG_LEVEL) -> bytes:
    """The PNG of ``entries`` drawn over ``static`` (RGB) on ``palette``, drawing and compressing
    only the bands that differ from scene ``key``'s previous picture."""
    width, height = static.size
    rows = kit_png.BAND_ROWS
    count = (height + rows - 1) // rows
    hashes = [hash(entry[0]) for entry in entries]
    before = _take(key)
    if before is not None and before.static is static and before.palette is palette:
        dirty = _changed_bands(before, entries, hashes, count)
        bands = list(before.bands)
    else:
        dirty, bands = [True] * count, []
    if all(dirty):  # a first picture, or one that changed everywhere: drawn whole, no strips cut
        image = static.copy()
        replay(image, entries)
        bands = kit_png.pack_picture(palette.quantize(image), level=level)
    elif any(dirty):
        runs: list[tuple[int, int]] = []  # (first row, end row) of consecutive dirty bands
        for band, is_dirty in enumerate(dirty):
            if is_dirty:
                top = band * rows
                if runs and runs[-1][1] == top:
                    runs[-1] = (runs[-1][0], min(height, top + rows))
                else:
                    runs.append((top, min(height, top + rows)))
        canvas = static.copy()  # not kept: 3 MB a render worker would hold for ~0.1 ms a picture
        replay(canvas, entries, _reach(dirty))
        for top, end in runs:
            strip = palette.quantize(canvas.crop((0, top, width, end)))
            fresh = kit_png.pack_picture(strip, level=level)
            bands[top // rows:top // rows + len(fresh)] = fresh
    _keep(key, _Picture(static, palette, entries, hashes, bands))
    COUNTS.bands += count
    COUNTS.redrawn += sum(dirty)
    return kit_png.assemble(width, height, kit_png.palette_bytes(palette.image), bands)
