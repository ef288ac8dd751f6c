"""A member's rating over their latest rated games, one line per game system (``/game profile``).

Pure and deterministic: the same series give the same PNG bytes. 500 px wide, as Discord shows an
attachment, with every text at 13 px or more; each system keeps its colour from the Okabe-Ito set
(colour-blind safe), and its name is written at the end of its line as well as in the legend.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.kit import font, text_width

WIDTH, HEIGHT = 500, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 52, 30
BACKGROUND = (47, 49, 54)  # Discord's dark theme
GRID = (70, 73, 80)
INK = (230, 232, 235)
MUTED = (160, 164, 170)
COLOURS = [(230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (204, 121, 167), (213, 94, 0)]
TEXT = 13


def draw_history(title: str, series: Sequence[tuple[str, Sequence[tuple[int, int]]]], total: int,
                 games_label: str) -> bytes:
    """``series``: (system's name, [(n, points after the member's n-th rated game)], oldest first), out of
    ``total`` rated games: every system shares that x axis, so its line sits where its games were played."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((12, 6), title, font=font(15), fill=INK)
    values = [v for _, points in series for _, v in points]
    if not values:
        return _png(image)
    low, high = min(values), max(values)
    if high - low < 40:  # a flat history still gets a readable scale
        middle = (high + low) / 2
        low, high = middle - 20, middle + 20
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(value: float) -> float:
        return TOP + plot_h - (value - low) / (high - low) * plot_h

    def x(index: int) -> float:
        return LEFT + (index / max(1, total - 1)) * plot_w

    for step in range(5):
        value = low + (high - low) * step / 4
        draw.line([(LEFT, y(value)), (WIDTH - RIGHT, y(value))], fill=GRID, width=1)
        label = f"{round(value):,}"
        draw.text((LEFT - 6 - text_width(label, TEXT), y(value) - TEXT / 2 - 1), label, font=font(TEXT), fill=MUTED)
    draw.text((LEFT, HEIGHT - BOTTOM + 8), games_label, font=font(TEXT), fill=MUTED)
    legend_x = 12
    for number, (name, points) in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        line = [(x(i), y(v)) for i, v in points]
        if len(line) > 1:
            draw.line(line, fill=colour, width=3, joint="curve")
        for px, py in line[-1:] if len(line) > 12 else line:
            draw.ellipse([px - 3, py - 3, px + 3, py + 3], fill=colour)
        draw.rectangle([legend_x, 31, legend_x + 10, 41], fill=colour)
        draw.text((legend_x + 14, 28), name, font=font(TEXT), fill=INK)
        legend_x += text_width(name, TEXT) + 26
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=2)
    return out.getvalue()
