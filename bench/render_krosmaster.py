"""Render time of Krosmaster snapshots (ARCHITECTURE.md §6: draw the static arena once).

Run: ``python bench/render_krosmaster.py [--renders N] [--seconds S]``. Prints p50/p99 in
milliseconds for a mid-game snapshot (image + PNG, and the parts apart: drawing,
quantizing on the arena's palette, PNG encoding), an 8-vs-8 and a 2-vs-2 snapshot, move
and spell previews and the first, uncached render, each drawn with no compressed band of an
earlier picture to re-use (``renderers.kit_png``: the worst case); the render ÷ bare-encode
ratio (how much a snapshot costs beyond Pillow encoding its PNG; target ≤ 1.5), for one
picture and over a recorded game's consecutive pictures as render workers meet them (every
picture, as the pool's affinity gives a worker, and every other one), re-drawn only where they
changed (``renderers.kit_scene``); a lone picture's parts (recording, replaying, quantizing,
the PNG bands); the PNG sizes and the smallest text as players see it at
Discord's preview width (500 px, TABLE_UX.md); then renders per second of a game's pictures
through ``gm.workers.render_pool`` with 1 and 2 threads and 1 and 2 worker processes. Wall time is
printed next to CPU time because on a shared machine wall time also measures the neighbours.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import itertools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pipeline import measure_cpu
from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.rules_board import label
from engines.krosmaster.state import State
from renderers import kit, kit_png, kit_scene
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


async def _throughput(kind: str, workers: int, seconds: float) -> float:
    """Pictures per second through the render pool, with twice as many tables drawing at once
    as workers, each its game's pictures in order."""
    import gm.games.krosmaster.presenter  # registers the presenter the workers use
    from gm.workers import render_pool

    pool = render_pool.RenderPool(render_pool.PoolConfig(kind=kind, workers=workers))  # type: ignore[arg-type]
    presenter, states = gm.games.krosmaster.presenter.PRESENTER, _recorded_states()
    try:
        while kind == "process" and not all(w.ready for w in pool._workers):
            await asyncio.sleep(0.05)
        for state in states[:4 * workers]:  # warm every worker's caches
            await pool.render(presenter, state, lang="en", seat_names=["Ann", "Bob"], affinity=1)
        done = 0
        until = time.perf_counter() + seconds
        async def client(game: int) -> None:
            """One table: its game's pictures in order (from its own start), its own players."""
            nonlocal done
            pictures = itertools.islice(itertools.cycle(states), 37 * game, None)
            while time.perf_counter() < until:
                await pool.render(presenter, next(pictures), lang="en", seat_names=[f"Ann {game}", "Bob"],
                                  affinity=game)
                done += 1

        started = time.perf_counter()
        await asyncio.gather(*(client(game) for game in range(2 * workers)))
        return done / (time.perf_counter() - started)
    finally:
        pool.close()


@functools.lru_cache(maxsize=1)
def _recorded_states() -> list[State]:
    """Every position of a seeded game (bench/km_games.py), in order."""
    from bench.km_games import record

    return [State.model_validate_json(text) for text in record(1, every=1, tail=0).starts.values()]


def _game_pictures(rounds: int = 3) -> None:
    """A recorded game's consecutive pictures, as a render worker meets them: each is drawn again
    only in the bands that changed since the scene's last picture (``renderers.kit_scene``), and
    re-uses the compressed bands an earlier picture had (``renderers.kit_png``). The pool sends a
    game's pictures to one worker while it is free (``gm.workers.render_queue``); "every other picture"
    is a worker that only meets half of them (both busy, or no affinity).

    The renders are timed back to back, as a worker draws them, and Pillow's bare encodes of the
    same pictures in a pass of their own (medians of ``rounds`` passes); "interleaved" times each
    render right after the previous picture's reference encode, whose memory traffic evicts the
    render's caches: the pessimistic figure."""
    states = _recorded_states()
    arena_palette = palette.for_arena(states[0].board.arena.model_dump_json())
    for which, pictures in (("every picture", states), ("every other picture", states[::2])):
        quantized = [arena_palette.quantize(km.render_image(picture)) for picture in pictures]
        passes: list[list[float]] = []
        for _round in range(rounds):
            kit_png.CACHE.clear()
            kit_scene.forget()
            passes.append([_measure(lambda p=picture: km.render(p), 1)[1][0] for picture in pictures])
        redrawn = kit_scene.COUNTS.redrawn / max(1, kit_scene.COUNTS.bands)
        encodes = [_measure(lambda q=q: _encode(q), 1)[1][0] for q in quantized for _round in range(rounds)]
        kit_png.CACHE.clear()
        kit_scene.forget()
        interleaved = []
        for picture, q in zip(pictures, quantized, strict=True):
            _encode(q)
            interleaved += _measure(lambda p=picture: km.render(p), 1)[1]
        p50 = statistics.median(_pct(renders, .5) for renders in passes)
        mean = statistics.median(statistics.mean(renders) for renders in passes)
        encode_p50, encode_mean = _pct(encodes, .5), statistics.mean(encodes)
        print(f"a game's {len(pictures)} pictures, {which}: render cpu p50 {p50:.2f} mean {mean:.2f} ms, Pillow's "
              f"bare encode p50 {encode_p50:.2f} mean {encode_mean:.2f} ms: {p50 / encode_p50:.2f}x (means "
              f"{mean / encode_mean:.2f}x); interleaved p50 {_pct(interleaved, .5):.2f} ms, "
              f"{_pct(interleaved, .5) / encode_p50:.2f}x; bands re-drawn {redrawn:.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0, help="per pool configuration (0: skip)")
    args = parser.parse_args()
    n = args.renders

    from gm.workers.render_pool import tune_allocator

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
    static = km._static_layer(arena_json)
    entries = km._record(state, "en", None, None)
    record_ms = _pct(_measure(lambda: km._record(state, "en", None, None), n)[1], .5)
    replay_ms = _pct(_measure(lambda: kit_scene.replay(static.copy(), entries), n)[1], .5)
    quantize_ms = _pct(_measure(lambda: arena_palette.quantize(image), n)[1], .5)
    bands_ms = _pct(_measure(lambda: kit_png.encode(quantized, level=kit.PNG_LEVEL, cache=kit_png.BandCache()), n)[1],
                    .5)
    print(f"a lone picture's parts: recording the draw calls (the layout's Python) {record_ms:.2f} ms, the arena's "
          f"copy and replaying them {replay_ms:.2f}, quantizing {quantize_ms:.2f}, the PNG bands "
          f"({kit_png.DEFLATE}) {bands_ms:.2f}; Pillow's encode of the same picture {_pct(encode_cpu, .5):.2f}")
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
