"""Render time of Krosmaster snapshots (DESIGN.md §6: draw the static arena once).

Run: ``python bench/render_krosmaster.py [--renders N] [--seconds S]``. Prints p50/p99 in
milliseconds for a mid-game snapshot (image + PNG, and the parts apart: drawing,
quantizing on the arena's palette, PNG encoding), an 8-vs-8 and a 2-vs-2 snapshot, move
and spell previews and the first, uncached render, each drawn with no compressed band of an
earlier picture to re-use (``renderers.kit_png``: the worst case); the render ÷ bare-encode
ratio (how much a snapshot costs beyond Pillow encoding its PNG; target ≤ 1.5), for one
picture and over a recorded game's consecutive pictures as render workers meet them (every
picture, and every other one, as two workers share a table), and the same ratio with nothing
drawn (copying the arena, quantizing and encoding: how much of the 1.5 drawing may use) and
with drawing's own Python alone; the PNG sizes and the smallest text as players see it at
Discord's preview width (500 px, TABLE_UX.md); then renders per second of a game's pictures
through ``gm.render_pool`` with 1 and 2 threads and 1 and 2 worker processes. Wall time is
printed next to CPU time because on a shared machine wall time also measures the neighbours.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import io
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pipeline import measure_cpu
from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.rules_board import label
from engines.krosmaster.state import State
from renderers import kit, kit_png
from renderers import krosmaster as km
from renderers.krosmaster import palette
from tests.renderers.states import big_teams, midgame
from tests.renderers.states_four import four_players


def _measure(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    return measure_cpu(fn, runs)


def _measure_fresh(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    return measure_cpu(fn, runs, fresh_bands=True)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _report(name: str, wall: list[float], cpu: list[float]) -> None:
    print(f"{name:<28} wall p50 {_pct(wall, .5):6.1f}  p99 {_pct(wall, .99):6.1f}   "
          f"cpu p50 {_pct(cpu, .5):6.1f}  p99 {_pct(cpu, .99):6.1f}  ms")


def _encode(image: Image.Image) -> bytes:
    """A bare PNG encode: the same picture, already on its palette, same settings, nothing else."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=kit.PNG_LEVEL)
    return buf.getvalue()


@contextlib.contextmanager
def _pillow_draws_nothing() -> Iterator[None]:
    """Every ``ImageDraw`` made inside gets a C drawing object that does nothing.

    Why: what is left is the Python a snapshot runs whatever it draws with (layout, text
    and mask look-ups, the arena's copy), the part no faster pixel path can remove."""
    original = ImageDraw.ImageDraw.__init__

    class _Nothing:
        def __getattr__(self, name: str) -> Callable[..., None]:
            return lambda *args, **kwargs: None

    def init(self: ImageDraw.ImageDraw, im: Image.Image, mode: str | None = None) -> None:
        original(self, im, mode)
        self.draw = _Nothing()  # type: ignore[assignment]

    ImageDraw.ImageDraw.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        ImageDraw.ImageDraw.__init__ = original  # type: ignore[method-assign]


async def _throughput(kind: str, workers: int, seconds: float) -> float:
    """Pictures per second through the render pool, with twice as many in flight as workers."""
    import gm.krosmaster  # registers the presenter the workers use
    from gm import render_pool

    pool = render_pool.RenderPool(render_pool.PoolConfig(kind=kind, workers=workers))  # type: ignore[arg-type]
    presenter, states = gm.krosmaster.PRESENTER, _recorded_states()
    try:
        while kind == "process" and not all(w.ready for w in pool._workers):
            await asyncio.sleep(0.05)
        for state in states[:4 * workers]:  # warm every worker's caches
            await pool.render(presenter, state, lang="en", seat_names=["Ann", "Bob"])
        done = 0
        until = time.perf_counter() + seconds
        pictures = itertools.cycle(states)  # a game's pictures in order, not one picture again and again

        async def client() -> None:
            nonlocal done
            while time.perf_counter() < until:
                await pool.render(presenter, next(pictures), lang="en", seat_names=["Ann", "Bob"])
                done += 1

        started = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(2 * workers)))
        return done / (time.perf_counter() - started)
    finally:
        pool.close()


@functools.lru_cache(maxsize=1)
def _recorded_states() -> list[State]:
    """Every position of a seeded game (bench/km_games.py), in order."""
    from bench.km_games import record

    return [State.model_validate_json(text) for text in record(1, every=1, tail=0).starts.values()]


def _game_pictures() -> None:
    """A recorded game's consecutive pictures, as a render worker meets them: each render
    re-uses the compressed bands an earlier picture had (``renderers.kit_png``). Two workers
    share a table's pictures, so each sees every other one: fewer bands in common."""
    states = _recorded_states()
    for which, pictures in (("every picture", states), ("every other picture", states[::2])):
        kit_png.CACHE.clear()
        renders: list[float] = []
        encodes: list[float] = []
        for picture in pictures:
            renders += _measure(lambda p=picture: km.render(p), 1)[1]
            quantized = palette.for_arena(picture.board.arena.model_dump_json()).quantize(km.render_image(picture))
            encodes += _measure(lambda q=quantized: _encode(q), 1)[1]
        hits = kit_png.CACHE.hits / max(1, kit_png.CACHE.hits + kit_png.CACHE.misses)
        print(f"a game's {len(pictures)} pictures, {which}: render cpu p50 {_pct(renders, .5):.2f} p99 "
              f"{_pct(renders, .99):.2f} ms, bare encode p50 {_pct(encodes, .5):.2f} ms: "
              f"{_pct(renders, .5) / _pct(encodes, .5):.2f}x; bands reused {hits:.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0, help="per pool configuration (0: skip)")
    args = parser.parse_args()
    n = args.renders

    from gm.render_pool import tune_allocator

    tune_allocator()  # as the bot and its render workers do at start
    state = midgame()
    km._static_layer.cache_clear()
    palette.for_arena.cache_clear()
    wall, cpu = _measure(lambda: km.render(state), 1)
    _report("first render (cold cache)", wall, cpu)

    render_wall, render_cpu = _measure_fresh(lambda: km.render(state), n)  # the worst case
    _report("snapshot: render(), no band reused", render_wall, render_cpu)
    image = km.render_image(state)
    arena_palette = palette.for_arena(state.board.arena.model_dump_json())
    quantized = arena_palette.quantize(image)
    _report("  of which drawing", *_measure(lambda: km.render_image(state), n))
    _report("  of which quantizing", *_measure(lambda: arena_palette.quantize(image), n))
    encode_wall, encode_cpu = _measure(lambda: _encode(quantized), n)
    _report("  of which PNG encoding", encode_wall, encode_cpu)
    ratio_cpu, ratio_wall = _pct(render_cpu, .5) / _pct(encode_cpu, .5), _pct(render_wall, .5) / _pct(encode_wall, .5)
    print(f"render ÷ bare PNG encode (Pillow's) of the same picture, no band reused: {ratio_cpu:.2f}x (cpu p50), "
          f"{ratio_wall:.2f}x (wall p50)")
    _game_pictures()
    arena_json = state.board.arena.model_dump_json()
    _wall, copy_cpu = _measure(lambda: km._static_layer(arena_json).copy(), n)
    _wall, quantize_cpu = _measure(lambda: arena_palette.quantize(image), n)
    copy_ms, quantize_ms, encode_ms = _pct(copy_cpu, .5), _pct(quantize_cpu, .5), _pct(encode_cpu, .5)
    floor = copy_ms + quantize_ms + encode_ms
    print(f"the same with nothing drawn (copy the arena {copy_ms:.2f} + quantize {quantize_ms:.2f} + encode "
          f"{encode_ms:.2f} ms): {floor / encode_ms:.2f}x, so drawing may take {max(0.0, 1.5 * encode_ms - floor):.2f} "
          f"ms for 1.5x (it takes {_pct(render_cpu, .5) - floor:.2f})")
    _wall, draw_cpu = _measure(lambda: km.render_image(state), n)
    with _pillow_draws_nothing():
        _wall, logic_cpu = _measure(lambda: km.render_image(state), n)
    logic_ms, pillow_ms = _pct(logic_cpu, .5), _pct(draw_cpu, .5) - _pct(logic_cpu, .5)
    without_quantizing = (logic_ms + pillow_ms + encode_ms) / encode_ms
    print(f"drawing's own Python (layout, text look-ups, the arena's copy; Pillow's draw calls made no-ops) "
          f"{logic_ms:.2f} ms + Pillow drawing {pillow_ms:.2f} ms: with no quantizing at all and the same drawing "
          f"the snapshot would be {without_quantizing:.2f}x its encode; for 1.5x the layout leaves "
          f"{max(0.0, 0.5 * encode_ms - logic_ms):.2f} ms for every draw call")
    big = big_teams()
    _report("8 v 8 snapshot", *_measure_fresh(lambda: km.render(big), n))
    teams = four_players()
    _report("2 v 2 snapshot", *_measure_fresh(lambda: km.render(teams), n))
    costs = {sq: opt.cost for sq, opt in reachable_squares(state).items()}
    _report("move preview", *_measure_fresh(lambda: km.render_preview(state, costs, "move"), n))
    targets = {label(p.target) for p in spell_targets(state, "fireball")}
    aim = sorted(targets)[0]
    area = area_for(state, "fireball", aim)
    _report("spell preview", *_measure_fresh(lambda: km.render_preview(state, targets, "spell", area, target=aim), n))
    for name, png in (("midgame", km.render(state)), ("8 v 8", km.render(big)), ("2 v 2", km.render(teams)),
                      ("move preview", km.render_preview(state, costs, "move"))):
        print(f"PNG {name:<13} {len(png) / 1024:6.1f} KiB, {km.WIDTH}x{km.HEIGHT}")
    scale = kit.Scale(km.WIDTH)
    with kit.recording() as marks:
        for picture in (state, big, teams):
            km.render_image(picture)
    texts = [m for m in marks if m.kind == "text"]
    smallest = min(texts, key=lambda m: m.size)
    print(f"smallest text at {kit.PREVIEW_WIDTH} px wide: {scale.preview(smallest.size):.1f} px ({smallest.text!r}); "
          f"panel {min(scale.preview(m.size) for m in texts if m.region == 'panel'):.1f} px")
    print(f"mean of 5 more renders {statistics.mean(_measure_fresh(lambda: km.render(state), 5)[0]):.1f} ms")
    if args.seconds:
        for kind in ("thread", "process"):
            for workers in (1, 2):
                rate = asyncio.run(_throughput(kind, workers, args.seconds))
                plural = ("es" if kind == "process" else "s") if workers > 1 else ""
                pool = f"{workers} {kind}{plural}:"
                print(f"render pool, {pool:<12} {rate:6.1f} renders/s")


if __name__ == "__main__":
    main()
