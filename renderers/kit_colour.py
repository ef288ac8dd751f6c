"""Colour distances as people see them, with and without colour-vision deficiency.

Why this exists: a board colour is only useful if players can tell it from every other
colour it may sit next to (a spell's area from a demon square, a reachable square from a
blue team's token). "Looks different on my screen" is not a check; CIEDE2000 distance
in CIELAB is the standard measure of perceived difference, and simulating the three
dichromacies (Machado, Oliveira & Fernandes 2009, severity 1) checks the same pair for
the ~8% of men who see fewer hues. Tests assert a minimum distance for every pair that
matters, so a future palette change cannot quietly bring back a confusable pair.

Pure Python on purpose: it runs on a handful of colours per test, never per pixel.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Literal

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]
Vision = Literal["normal", "protan", "deutan", "tritan"]
VISIONS: tuple[Vision, ...] = ("normal", "protan", "deutan", "tritan")

# Machado et al. (2009), table for severity 1.0, applied to linear RGB.
_CVD: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _to_linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _to_srgb(v: float) -> int:
    v = min(1.0, max(0.0, v))
    s = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(s * 255)


def over(base: RGB, colour: RGB, alpha: float) -> RGB:
    """``colour`` painted over ``base`` with opacity ``alpha`` (0..1), as Pillow's RGBA draw does."""
    return (round(base[0] + (colour[0] - base[0]) * alpha), round(base[1] + (colour[1] - base[1]) * alpha),
            round(base[2] + (colour[2] - base[2]) * alpha))


def simulate(colour: RGB, vision: Vision) -> RGB:
    """How ``colour`` looks to a dichromat (``normal`` returns it unchanged)."""
    if vision == "normal":
        return colour
    lin = [_to_linear(c) for c in colour]
    m = _CVD[vision]
    return (_to_srgb(sum(m[0][i] * lin[i] for i in range(3))), _to_srgb(sum(m[1][i] * lin[i] for i in range(3))),
            _to_srgb(sum(m[2][i] * lin[i] for i in range(3))))


def to_lab(colour: RGB) -> Lab:
    """sRGB (D65) to CIELAB."""
    r, g, b = (_to_linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(a: RGB, b: RGB) -> float:
    """CIEDE2000 difference: about 2 is barely visible, above 20 no one mixes them up side by side."""
    return delta_e_lab(to_lab(a), to_lab(b))


def delta_e_lab(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 (Sharma, Wu & Dalal 2005) between two CIELAB colours."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    else:
        dhp = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lpm, cpm = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hpm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hpm = (h1p + h2p) / 2
    else:
        hpm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hpm - 30)) + 0.24 * math.cos(math.radians(2 * hpm))
         + 0.32 * math.cos(math.radians(3 * hpm + 6)) - 0.20 * math.cos(math.radians(4 * hpm - 63)))
    d_theta = 30 * math.exp(-(((hpm - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cpm ** 7 / (cpm ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lpm - 50) ** 2 / math.sqrt(20 + (lpm - 50) ** 2)
    sc = 1 + 0.045 * cpm
    sh = 1 + 0.015 * cpm * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dcp / sc) * (dHp / sh))


def worst_delta(a: RGB, b: RGB, visions: Iterable[Vision] = VISIONS) -> tuple[float, Vision]:
    """The smallest difference between two colours over the given kinds of vision."""
    return min((delta_e(simulate(a, v), simulate(b, v)), v) for v in visions)
