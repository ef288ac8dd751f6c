"""Pillow's bare PNG encode of pictures, timed in a fresh process (for the render benches; not a bench).

Why a fresh process: ISA-L (``isal``, which ``renderers.kit_png`` deflates with) leaves the CPU's
upper vector state dirty (its AVX code returns without ``vzeroupper``), and on the machines these
benches run on (AMD EPYC, AVX-512) the SSE code of Pillow's zlib then runs about 2.5 times slower
until some other code cleans the state: a Warlord board's bare encode took 13 ms right after a render
and 5 ms otherwise. Timed in the process that renders, the floor of render ÷ bare encode moves with
whatever ran last, and the ratio flatters the renderer. A spawned process that never deflates with
ISA-L times the encode as Pillow alone would run it.
"""

from __future__ import annotations

import io
import multiprocessing
import statistics
import time

from PIL import Image

LEVEL = 2
"""zlib level of the bare encode: ``renderers.kit.PNG_LEVEL`` (not imported: the child stays bare)."""


def _time_encodes(pngs: list[bytes], rounds: int) -> list[float]:
    """In the child: each picture's median CPU ms of ``rounds`` encodes by Pillow."""
    medians = []
    for png in pngs:
        image = Image.open(io.BytesIO(png))
        image.load()
        times = []
        for _round in range(rounds):
            buf = io.BytesIO()
            started = time.process_time()
            image.save(buf, format="PNG", compress_level=LEVEL)
            times.append((time.process_time() - started) * 1000)
        medians.append(statistics.median(times))
    return medians


def encode_ms(pngs: list[bytes], rounds: int = 3) -> list[float]:
    """Each picture's (PNG bytes, as a renderer wrote them) median CPU ms of Pillow's encode of the
    same palette image at ``LEVEL``, timed in a spawned process."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_time_encodes, (pngs, rounds))
