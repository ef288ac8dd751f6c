"""Pillow's bare PNG encode of pictures, timed in a fresh process (for the render benches; not a bench).

Why a fresh process: ISA-L (``isal``, which ``renderers.kit_png`` deflates with) leaves the CPU's
upper vector state dirty (its AVX code returns without ``vzeroupper``), and on the machines these
benches run on (AMD EPYC, AVX-512) the SSE code of Pillow's zlib then runs about 2.5 times slower
until some other code cleans the state: a Warlord board's bare encode took 13 ms right after a render
and 5 ms otherwise. Timed in the process that renders, the floor of render ÷ bare encode moves with
whatever ran last, and the ratio flatters the renderer. A spawned process that never deflates with
ISA-L times the encode as Pillow alone would run it.

Two more things keep the floor honest (issue 28, measured on a 2-core AMD EPYC under a shared load):
- the child tunes glibc's allocator as the bot and its render workers do (``render_pool.tune_allocator``).
  Untuned, each encode maps and unmaps zlib's state and buffers afresh: ~66 page faults an encode, 0.4-0.8 ms
  of a ~5 ms floor quiet and far more under load (a hypervisor's page faults cost what the neighbours
  leave), so the floor moved with the load and flattered the renders, which ran tuned;
- ``Floor`` keeps the child and times each picture's encode when asked, so a bench can time a render and
  its floor one right after the other: timed minutes apart, a ratio measured the load's drift (the same
  Krosmaster figure read 1.19x and 2.32x in one run at load ~1-6).
"""

from __future__ import annotations

import io
import multiprocessing
import statistics
import time
from typing import Any

from PIL import Image

LEVEL = 2
"""zlib level of the bare encode: ``renderers.kit.PNG_LEVEL`` (not imported: the child stays bare)."""


def _tune() -> None:
    """In the child: glibc's allocator as a render worker has it (see the module's docstring)."""
    from gm.workers.render_pool import tune_allocator  # ctypes only: nothing here deflates with ISA-L

    tune_allocator()


def _time_encodes(pngs: list[bytes], rounds: int) -> list[float]:
    """In the child: each picture's median CPU ms of ``rounds`` encodes by Pillow."""
    _tune()
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


def _serve(conn: Any) -> None:
    """In the child: answer each (PNG bytes, rounds) with its median CPU ms (``_time_encodes``); None ends."""
    while True:
        asked = conn.recv()
        if asked is None:
            conn.close()
            return
        png, rounds = asked
        conn.send(_time_encodes([png], rounds)[0])


class Floor:
    """A spawned process that times Pillow's bare encode of one picture when asked: the floor timed
    right beside the render it is compared with (same moment, same load), not in a pass of its own."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child,), daemon=True)
        self._process.start()
        child.close()

    def encode_ms(self, png: bytes, rounds: int = 3) -> float:
        """The median CPU ms of ``rounds`` encodes of ``png``'s picture, timed in the child."""
        self._conn.send((png, rounds))
        return float(self._conn.recv())

    def close(self) -> None:
        self._conn.send(None)
        self._process.join(10)
        self._conn.close()

    def __enter__(self) -> Floor:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
