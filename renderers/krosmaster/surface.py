"""What a Krosmaster picture is recorded on (``kit_scene``), and small painters' calls kept (issue 28).

Two things make a recorded picture cheap to draw on the palette's indexes (``kit_replay``):

- ``Board``: the board is drawn with an RGBA draw for its see-through tints (starting squares, a
  preview's reach and targets), and a call recorded in RGBA mode cannot be replayed on indexes, so every
  picture would go the slow way through RGB and quantizing. But Pillow blends an ink of alpha 255 to the
  ink itself, and blits a mask in either mode alike, so a call whose colours are all opaque draws the
  same pixels in plain mode: only see-through calls keep RGBA.
- ``painted``: a token, a name chip, a status chip or a kama is drawn the same way picture after
  picture, and laying it out (fitting its label, its masks, its rounded corners) costs ten times
  re-using the calls it recorded. A painter whose calls depend on its arguments only is run once per
  arguments and surface kind, and its calls are added again after.

tests/renderers/test_krosmaster_replay.py checks the pictures against whole-picture draws byte for byte.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from PIL import Image

from renderers import kit, kit_scene


def _opaque(colour: Any) -> bool:
    """Whether ``colour`` is one Pillow draws the same in RGB and in RGBA mode: none at all, or an RGB
    tuple (anything else, an alpha of 255 included, keeps RGBA: the slow way, never a wrong one)."""
    return colour is None or (type(colour) is tuple and len(colour) == 3)


class Board(kit_scene.Recorder):
    """The board's surface when recording: each call in the mode it needs (see the module's docstring)."""

    def __init__(self, entries: list[kit_scene.Entry]) -> None:
        super().__init__(entries, None)

    def _needs(self, first: Any, second: Any = None) -> None:
        self.mode = None if _opaque(first) and _opaque(second) else "RGBA"

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._needs(fill, outline)
        super().rectangle(xy, fill, outline, width)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._needs(fill, outline)
        super().ellipse(xy, fill, outline, width)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None, width: int = 1,
                          *, corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        self._needs(fill, outline)
        super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._needs(fill, outline)
        super().polygon(xy, fill, outline, width)

    def line(self, xy: Any, fill: Any = None, width: int = 0, joint: str | None = None) -> None:
        self._needs(fill)
        super().line(xy, fill, width, joint)

    def blits(self, xy: Any, height: int, masks: tuple[tuple[Image.Image, Any], ...]) -> None:
        self.mode = None if all(_opaque(colour) for _mask, colour in masks) else "RGBA"
        super().blits(xy, height, masks)


KEPT = 1024
"""Painters' calls kept per process: ~2.5 KB each (a token is ~8 entries, a chip 2-3, with their keys),
so ~2.5 MB at most; a seeded game's 215 pictures keep ~670. The masks they hold are the kit's own."""
_kept: OrderedDict[tuple[Any, ...], tuple[tuple[kit_scene.Entry, ...], Any]] = OrderedDict()
_lock = threading.Lock()


def painted(draw: Any, painter: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``painter(draw, *args, **kwargs)``; on a recorder, the calls it recorded with the same arguments
    before, added again. ``painter`` must depend on its arguments only (and the kit's constants), and the
    arguments must be hashable. Drawn afresh when marks are being recorded (``kit.recording``), which
    a kept painter would not note again, and on any other surface."""
    kind = type(draw)
    if (kind is not Board and kind is not kit_scene.Recorder) or kit.is_recording():
        return painter(draw, *args, **kwargs)
    key = (painter, kind, draw.mode if kind is kit_scene.Recorder else None, args, tuple(kwargs.items()))
    found = _kept.get(key)
    if found is None:
        entries: list[kit_scene.Entry] = []
        scratch = Board(entries) if kind is Board else kit_scene.Recorder(entries, draw.mode)
        result = painter(scratch, *args, **kwargs)
        found = (tuple(entries), result)
        with _lock:
            _kept[key] = found
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
    draw.entries.extend(found[0])
    return found[1]
