"""Animated GIF assembly for ``/game replay``: board pictures in, one GIF under a byte cap out.

Blocking (decode, quantize, encode): ``web.replay`` runs it in a thread, never on the event loop. The
cap is Discord's attachment size, so a replay that does not fit is shrunk rather than refused: first
the frames get smaller, then every other position is dropped (its time given to the frame that stays),
until the file fits or the time budget runs out. A GIF needs a palette per frame; each frame is reduced
to its own 256 colours once, at its final size, without dithering (boards are flat colours and text:
dithering costs bytes and blurs small letters).
"""

from __future__ import annotations

import io
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engines.core.errors import TavoloError

MIN_SCALE = 0.25  # below a quarter of the board's size its words cannot be read: give up instead
MAX_WIDTH = 1280  # Discord shows an attachment at most about this wide: larger frames are bytes for nothing


@dataclass(frozen=True)
class Gif:
    data: bytes
    frames: int
    scale: float
    stride: int  # 1: every position; 2: every other one…


def thin(durations: Sequence[int], stride: int) -> tuple[list[int], list[int]]:
    """The frames kept at this stride (the last always) and their durations: each kept frame shows for
    the longest of the positions it stands for, so a turn's pause survives the thinning."""
    count = len(durations)
    kept = list(range(0, count, stride))
    if kept[-1] != count - 1:
        kept.append(count - 1)
    spans = [*kept[1:], count]
    return kept, [max(durations[start:end]) for start, end in zip(kept, spans, strict=True)]


def _encode(frames: Sequence[Image.Image], durations: Sequence[int], scale: float) -> bytes:
    size = (max(1, round(frames[0].width * scale)), max(1, round(frames[0].height * scale)))
    shrunk = [f if f.size == size else f.resize(size, Image.Resampling.LANCZOS) for f in frames]
    paletted = [f.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) for f in shrunk]
    out = io.BytesIO()
    paletted[0].save(out, format="GIF", save_all=True, append_images=paletted[1:], duration=list(durations),
                     loop=0, optimize=False, disposal=1)
    return out.getvalue()


def assemble(pictures: Sequence[bytes], durations: Sequence[int], *, max_bytes: int,
             deadline: float) -> Gif:
    """One looping GIF of ``pictures`` (PNG bytes, in order), ``durations`` in milliseconds, at most
    ``max_bytes``; ``deadline`` is a ``time.monotonic()`` the work must not run past."""
    if not pictures or len(pictures) != len(durations):
        raise ValueError("one duration per picture, at least one picture")
    frames = []
    for data in pictures:
        with Image.open(io.BytesIO(data)) as opened:
            frames.append(opened.convert("RGB"))
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    frames = [f if f.size == (width, height) else _pad(f, width, height) for f in frames]
    scale = min(1.0, MAX_WIDTH / width)
    stride = 1
    while True:
        if time.monotonic() > deadline:
            raise TavoloError("web.replay_too_long")
        kept, times = thin(durations, stride)
        data = _encode([frames[i] for i in kept], times, scale)
        if len(data) <= max_bytes:
            return Gif(data, len(kept), scale, stride)
        # Bytes grow with the area: aim the next try just under the cap, a little lower to be sure.
        wanted = scale * math.sqrt(max_bytes / len(data)) * 0.92
        if wanted >= MIN_SCALE * 2 or stride * 2 >= len(durations):
            scale = wanted
        else:  # small already: half the frames instead, at the size that had to shrink
            stride *= 2
            scale = max(scale, MIN_SCALE * 2)
        if scale < MIN_SCALE:
            raise TavoloError("web.replay_too_big", mb=f"{max_bytes / 1e6:g}")


def _pad(frame: Image.Image, width: int, height: int) -> Image.Image:
    """A picture smaller than the largest (a board that grew): centred on the first pixel's colour."""
    canvas = Image.new("RGB", (width, height), frame.getpixel((0, 0)))  # type: ignore[arg-type]
    canvas.paste(frame, ((width - frame.width) // 2, (height - frame.height) // 2))
    return canvas
