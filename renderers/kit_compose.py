"""A text's masks and box put together from its glyphs' own, cached: the very pixels FreeType gives for the
whole text, at a fraction of the cost (issue 28).

Why: a picture where much changes at once (a table's first, a game's end, a card with new feats) rasterises
12-50 labels it never drew, and FreeType loads, hints and renders every glyph of each again: ~0.3 ms for a
44-letter line, ~0.9 ms for it in the kit's bold (a 1 px stroke), ~0.1 ms to measure it. A line is made of a
few dozen distinct glyphs that every other line shares, so each glyph's mask is cut once per size and stroke,
and a new line is those masks pasted at the pen's positions: ~0.04 ms.

What makes it the same pixels, read from Pillow's ``font_render`` and ``bounding_box_and_anchors`` (Pillow
12-13 with libraqm):

- the shaper places glyph *i* at ``PIXEL(pen)``, the pen moving by each glyph's advance plus the pair's
  kerning, in 26.6 units; both are read back with ``getlength`` (a letter, a pair), so they are the shaper's;
- each glyph is rendered (and stroked) on its own at the origin, so its mask does not depend on where it
  goes; Pillow blends the masks one after the other as a fill through a mask does (``paste(255, box, mask)``,
  the same rounding), in the text's order;
- the box is the union of the pen's line and each glyph's control box, which ``getbbox`` of a lone glyph
  gives, except a right edge hidden by the glyph's own advance; the ink bounds that edge from below, and a
  text whose right edge it leaves in doubt is measured by FreeType (``Layout.right`` None).

Ligatures are taken as one glyph each (``LIGATURES``, the font's: "fi" is drawn as one glyph); any other text
that could shape differently (combining marks, right-to-left or joining scripts, control characters) is left to
FreeType (``composable``). ``tests/renderers/test_kit_compose.py`` holds the result equal to FreeType's.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageFont

from renderers.kit_glyphs import FONT_FILE

LIGATURES = re.compile("ffi|ffl|ff|fi|fl|.", re.S)
"""How the shaper groups the kit font's letters into glyphs: its ``liga`` feature joins these, longest first
(``tests/renderers/test_kit_compose.py`` draws every pair of the games' letters both ways)."""

FACE_ENTRIES = 6_000
"""Glyphs, inks and pairs kept per font size before that size's cache starts again: the games' words need a
few hundred; names typed by players in every script must not grow a long-lived worker's memory."""

LAYOUTS = 256
"""Texts whose layout a size keeps: a label is measured, then drawn, once each; no more is needed."""

_BIDI_OK = frozenset({"L", "EN", "ES", "ET", "CS", "ON", "WS"})
_CATEGORY_NOT = frozenset({"Mn", "Mc", "Me", "Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


def pixel(units: int) -> int:
    """FreeType's ``PIXEL``: 26.6 units rounded to the nearest pixel, halves up."""
    return (units + 32) >> 6


@lru_cache(maxsize=4096)
def composable(char: str) -> bool:
    """Whether ``char`` is shaped as a glyph of its own (left to right, no mark, no joining, Latin or common
    signs): a text of such letters is its glyphs put side by side."""
    if len(char) != 1:
        return False
    code = ord(char)
    if code >= 0x0370 and not (0x1E00 <= code <= 0x1EFF or 0x2000 <= code <= 0x2BFF):
        return False  # scripts whose runs the shaper treats apart (Greek, Cyrillic, …): FreeType's
    return unicodedata.category(char) not in _CATEGORY_NOT and unicodedata.bidirectional(char) in _BIDI_OK


@dataclass(frozen=True, slots=True)
class Glyph:
    """One glyph's advance and box, from ``getbbox`` of the glyph alone (its pen line from 0 to its advance
    included, as a text's box includes its pen line)."""

    advance: int  # 26.6 units
    left: int  # min(0, the control box's left)
    top: int  # max(0, its top), up from the baseline
    bottom: int  # min(0, its bottom)
    right: int  # max(its advance in px, its right): the right edge itself when ``exact``
    exact: bool
    ink_right: int | None  # the ink's right edge: the control box reaches it at least


@dataclass(frozen=True, slots=True)
class Ink:
    """A glyph's mask cut to its ink, and where its top left is from the pen (x) and the baseline (y, down)."""

    x: int
    y: int
    mask: Any  # an ImagingCore in mode L


@dataclass(frozen=True, slots=True)
class Layout:
    """A text's glyphs placed: pen positions in px, the pen's end (26.6) and the box (px, y up)."""

    tokens: tuple[str, ...]
    pens: tuple[int, ...]
    end: int
    left: int
    right: int | None  # None: in doubt, FreeType measures it
    top: int
    bottom: int


class Face:
    """The kit font at one size: its glyphs, inks and kerning, cut as texts need them."""

    def __init__(self, font: ImageFont.FreeTypeFont) -> None:
        self.font = font
        self._glyphs: dict[str, Glyph] = {}
        self._inks: dict[tuple[str, int], Ink | None] = {}
        self._kerns: dict[tuple[str, str], int] = {}
        self._anchors: dict[str, int] = {}
        self._layouts: dict[str, Layout | None] = {}
        self._lock = threading.Lock()  # renders run in threads too (the console, the pool's fallback)

    def glyph(self, token: str) -> Glyph:
        found = self._glyphs.get(token)
        if found is not None:
            return found
        advance = round(self.font.getlength(token) * 64)
        left, top, right, bottom = (int(v) for v in self.font.getbbox(token, anchor="ls"))
        exact = right > pixel(advance)
        ink = self.ink(token, 0)
        ink_right = None if ink is None else ink.x + ink.mask.size[0]
        glyph = Glyph(advance, left, -top, -bottom, right, exact, ink_right)
        self._keep(self._glyphs, token, glyph)
        return glyph

    def ink(self, token: str, stroke: int) -> Ink | None:
        key = (token, stroke)
        if key in self._inks:
            return self._inks[key]
        core, (x, y) = self.font.getmask2(token, "L", anchor="ls", ink=255, stroke_width=stroke, stroke_filled=True)
        box = core.getbbox()
        ink = None if box is None else Ink(x + box[0], y + box[1], core.crop(box))
        self._keep(self._inks, key, ink)
        return ink

    def kern(self, first: str, second: str) -> int:
        """The pair's kerning in 26.6 units: what the shaper adds to the pen between them, measured once a size
        (~5 µs; the fork server's warm-up measures the games' own pairs for every worker)."""
        key = (first, second)
        found = self._kerns.get(key)
        if found is not None:
            return found
        kern = round(self.font.getlength(first + second) * 64) - self.glyph(first).advance - self.glyph(second).advance
        self._keep(self._kerns, key, kern)
        return kern

    def anchor_y(self, letter: str) -> int:
        """How far above the baseline a vertical anchor of the font's metrics ("a", "m", "d", "s") lies, in px."""
        found = self._anchors.get(letter)
        if found is None:
            found = int(self.font.getbbox("x", anchor="l" + letter)[1]) - int(self.font.getbbox("x", anchor="ls")[1])
            self._anchors[letter] = found
        return found

    def layout(self, text: str) -> Layout | None:
        """``text``'s glyphs placed as the shaper places them, or None for a text it could shape otherwise.

        Kept for the last ``LAYOUTS`` texts: a new label is measured (``box``), then drawn (``masks``)."""
        found = self._layouts.get(text)
        if found is not None or text in self._layouts:
            return found
        found = self._placed(text)
        self._keep(self._layouts, text, found, LAYOUTS)
        return found

    def forget_layouts(self) -> None:
        """Let every kept layout go, glyphs and kerning kept: the next text is placed as a new label is
        (``bench/text.py`` times new labels this way)."""
        with self._lock:
            self._layouts.clear()

    def _placed(self, text: str) -> Layout | None:
        chars = set(text)
        if not text or not (chars <= _composable_seen or _all_composable(chars)):
            return None
        tokens = tuple(LIGATURES.findall(text)) if "f" in chars else tuple(text)
        glyphs, kerns = self._glyphs, self._kerns
        pens: list[int] = []
        pen = left = top = bottom = known = 0
        ceiling = -1
        previous = ""
        for token in tokens:
            if previous:  # the pair's kerning moves this glyph (the shaper adds it to the previous advance)
                kern = kerns.get((previous, token))
                pen += self.kern(previous, token) if kern is None else kern
            glyph = glyphs.get(token) or self.glyph(token)
            at = (pen + 32) >> 6  # pixel(pen)
            if at < 0:
                return None
            pens.append(at)
            if at + glyph.left < left:
                left = at + glyph.left
            if glyph.top > top:
                top = glyph.top
            if glyph.bottom < bottom:
                bottom = glyph.bottom
            if glyph.exact:
                known = max(known, at + glyph.right)
            else:
                if glyph.ink_right is not None:
                    known = max(known, at + glyph.ink_right)
                ceiling = max(ceiling, at + glyph.right)
            pen += glyph.advance
            previous = token
        known = max(known, pixel(pen))
        return Layout(tokens, tuple(pens), pen, left, None if ceiling > known else known, top, bottom)

    def _keep(self, cache: dict[Any, Any], key: Any, value: Any, bound: int = 0) -> None:
        with self._lock:
            if len(cache) >= (bound or FACE_ENTRIES):
                cache.clear()
            cache[key] = value


_composable_seen: set[str] = set()


def _all_composable(chars: set[str]) -> bool:
    if all(composable(c) for c in chars):
        _composable_seen.update(chars)  # bounded: ``composable`` takes ~4,500 code points at most
        return True
    return False


_faces: dict[int, Face] = {}


def face(font: Any) -> Face | None:
    """The ``Face`` of the kit's font at ``font``'s size, or None for any other font (FreeType draws those)."""
    size = getattr(font, "size", None)
    if not isinstance(font, ImageFont.FreeTypeFont) or getattr(font, "path", None) != str(FONT_FILE) \
            or font.layout_engine != ImageFont.Layout.RAQM or getattr(font, "index", 0):
        return None
    found = _faces.get(size)
    if found is None or found.font is not font:
        found = _faces[size] = Face(font)
    return found


def box(font: Any, text: str, anchor: str = "la", stroke: int = 0) -> tuple[int, int, int, int] | None:
    """``font.getbbox(text, anchor=anchor, stroke_width=stroke)`` from the cached glyphs, or None (ask FreeType)."""
    placed = _placed(font, text, anchor)
    if placed is None:
        return None
    _face, _layout, x_offset, y_offset, width, height, _x_anchor, _y_anchor = placed
    return x_offset - stroke, y_offset - stroke, x_offset + width + stroke, y_offset + height + stroke


def _placed(font: Any, text: str, anchor: str) -> tuple[Face, Layout, int, int, int, int, int, int] | None:
    found = face(font)
    if found is None or len(anchor) != 2 or anchor[0] not in "lmr" or anchor[1] not in "atmsbd":
        return None
    layout = found.layout(text)
    if layout is None:
        return None
    right = layout.right
    if right is None:  # a glyph's right edge hidden by its advance could be the text's: FreeType's box
        left_box, _top, right_box, _bottom = font.getbbox(text, anchor="ls")
        if left_box != layout.left:
            return None
        right = int(right_box)
    x_anchor = {"l": 0, "m": pixel(layout.end // 2), "r": pixel(layout.end)}[anchor[0]]
    y_anchor = layout.top if anchor[1] == "t" else layout.bottom if anchor[1] == "b" else found.anchor_y(anchor[1])
    width, height = right - layout.left, layout.top - layout.bottom
    if width <= 0 or height <= 0:
        return None
    return found, layout, layout.left - x_anchor, y_anchor - layout.top, width, height, x_anchor, y_anchor


def masks(font: Any, text: str, stroke: int, anchor: str, *, fill: bool = True,
          ) -> tuple[int, int, Any, Any | None] | None:
    """``text``'s fill mask (when ``fill``) and, with ``stroke``, its stroke mask on one canvas of the stroked
    text's box, as ``kit_masks.masks`` gives them from FreeType; None when FreeType must draw it."""
    placed = _placed(font, text, anchor)
    if placed is None:
        return None
    found, layout, x_offset, y_offset, width, height, x_anchor, y_anchor = placed
    size = (width + 2 * stroke, height + 2 * stroke)
    left, top = x_offset - stroke, y_offset - stroke
    origin = (left + x_anchor, top - y_anchor)  # the canvas's top left from the first pen position and the baseline
    fill_mask = _composed(found, layout, 0, size, origin) if fill or not stroke else None
    if not stroke:
        return None if fill_mask is None else (left, top, fill_mask, None)
    stroke_mask = _composed(found, layout, stroke, size, origin)
    if fill_mask is None or stroke_mask is None:
        return None if stroke_mask is None else (left, top, stroke_mask, stroke_mask)
    return left, top, fill_mask, stroke_mask


def _composed(found: Face, layout: Layout, stroke: int, size: tuple[int, int], origin: tuple[int, int]) -> Any | None:
    """The glyphs' inks blended on a canvas of ``size`` whose top left is ``origin`` from the first pen position
    and the baseline; None if an ink would leave the canvas (FreeType would clip it: never seen)."""
    left, top = origin
    canvas = Image.core.fill("L", size, 0)
    width, height = size
    for token, pen in zip(layout.tokens, layout.pens, strict=True):
        ink = found.ink(token, stroke)
        if ink is None:
            continue
        x, y = pen + ink.x - left, ink.y - top
        ink_width, ink_height = ink.mask.size
        if x < 0 or y < 0 or x + ink_width > width or y + ink_height > height:
            return None
        canvas.paste(255, (x, y, x + ink_width, y + ink_height), ink.mask)  # FreeType's blend of glyphs
    return canvas
