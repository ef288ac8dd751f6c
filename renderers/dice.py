"""Small pictures of special dice (Krosmaster faces, WoW board game pools).

Pure and deterministic: the same faces give the same PNG bytes. Pillow's built-in
scalable font only, so no font files ship. Symbols are drawn as short letters on a
coloured tile rather than the publishers' artwork.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

TILE = 56
GAP = 8
PAD = 10
BACKGROUND = (47, 49, 54)  # Discord dark theme, so the tiles stand out
INK = (255, 255, 255)
MUTED = (120, 124, 130)

# Colour-blind-friendly hues (Okabe-Ito) with a letter on each tile as well.
_KROSMASTER = {
    "critical": ((213, 94, 0), "CRT"),
    "armor": ((0, 114, 178), "ARM"),
    "lock": ((204, 121, 167), "LCK"),
    "dodge": ((0, 158, 115), "DDG"),
    "critical_dodge": ((230, 159, 0), "C/D"),
    "dofus": ((86, 180, 233), "DOF"),
}
_BOARD = {"blue": (0, 114, 178), "red": (213, 94, 0), "green": (0, 158, 115)}


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _canvas(count: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    per_row = min(max(count, 1), 10)
    rows = (max(count, 1) + per_row - 1) // per_row
    width = PAD * 2 + per_row * TILE + (per_row - 1) * GAP
    height = PAD * 2 + rows * TILE + (rows - 1) * GAP
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


def _origin(index: int) -> tuple[int, int]:
    row, col = divmod(index, 10)
    return PAD + col * (TILE + GAP), PAD + row * (TILE + GAP)


def _tile(draw: ImageDraw.ImageDraw, index: int, fill: tuple[int, int, int], label: str,
          highlight: bool, dim: bool = False) -> None:
    x, y = _origin(index)
    colour = tuple(c // 3 + 40 for c in fill) if dim else fill
    outline = INK if highlight else MUTED
    draw.rounded_rectangle((x, y, x + TILE, y + TILE), radius=9, fill=colour, outline=outline,
                           width=4 if highlight else 1)
    draw.text((x + TILE / 2, y + TILE / 2), label, fill=INK, font=_font(18), anchor="mm")


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # tiny images: speed over a few bytes
    return out.getvalue()


def krosmaster_faces(faces: Sequence[str], target: str | None) -> bytes:
    """One tile per die; faces that count for ``target`` (directly or turned) get a white frame."""
    return _krosmaster_faces(tuple(faces), target)


def wowboard_dice(dice: Sequence[tuple[str, int, bool]], threat: int) -> bytes:
    """Coloured d8 results; hits (at or above ``threat``) framed, misses dimmed."""
    return _wowboard_dice(tuple(dice), threat)


# Rolls repeat (6^3 ways to throw three Krosmaster dice), and the output is pure, so cache.
@lru_cache(maxsize=512)
def _krosmaster_faces(faces: tuple[str, ...], target: str | None) -> bytes:
    from engines.core.krosmaster_die import Face, possible_faces

    image, draw = _canvas(len(faces))
    for i, name in enumerate(faces):
        fill, label = _KROSMASTER[name]
        success = target is not None and Face(target) in possible_faces(Face(name))
        _tile(draw, i, fill, label, highlight=success, dim=target is not None and not success)
    return _png(image)


@lru_cache(maxsize=512)
def _wowboard_dice(dice: tuple[tuple[str, int, bool], ...], threat: int) -> bytes:
    image, draw = _canvas(len(dice))
    for i, (colour, value, hit) in enumerate(dice):
        _tile(draw, i, _BOARD[colour], str(value), highlight=hit, dim=not hit)
    return _png(image)
