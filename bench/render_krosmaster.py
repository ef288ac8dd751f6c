"""Render time of Krosmaster snapshots (ARCHITECTURE.md §6: draw the static arena once).

Run: ``python bench/render_krosmaster.py [--renders N] [--rounds N] [--seconds S] [--profile]``.
First issue 28's two figures, with the machine's load beside each: render ÷ Pillow's bare PNG encode
(level 2) of the same picture, for a game's consecutive pictures as a render worker meets them and for a
lone picture (a table's first: no scene, no cached band). Pillow's encode is timed with the CPU's vector
registers clean (``kit_replay.settle``, ``bench.scripted_pictures.bare_encoder``) and again in a fresh
process (``bench.bare_encode``, ``ratios_clean_floor``): once ISA-L (``kit_png``) has run in a thread,
zlib there is 2.2-2.5 times slower until they are, and a reference timed right after a render flatters
the renderer (bench/README.md, the Mage Knight / WoW Board entry). Two games: the seeded game of
``bench/km_games.py`` (every position) and the scripted full game ``tests/krosmaster/full_game.txt``
played in the console (the pictures the table posts).

Then p50/p99 in milliseconds of a mid-game snapshot and its parts (recording the draw calls, drawing
them, the PNG bands), an 8-vs-8 and a 2-vs-2 snapshot, move and spell previews, the first (uncached)
render, the PNG sizes, the smallest text as players see it at Discord's preview width (500 px,
TABLE_UX.md), and renders per second through ``gm.workers.render_pool`` with 1 and 2 threads and 1
and 2 worker processes. Wall time is printed next to CPU time because on a shared machine wall time
also measures the neighbours. ``--profile``: cProfile of the game's pictures drawn as lone pictures.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import io
import itertools
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pipeline import measure_cpu
from bench.scripted_pictures import (
    ROOT,
    Picture,
    _load,
    print_one,
    print_ratios,
    ratios_clean_floor,
    record,
)
from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.rules_board import label
from engines.krosmaster.state import State
from renderers import kit, kit_png, kit_replay
from renderers import krosmaster as km
from renderers.krosmaster import palette
from tests.renderers.states import big_teams, midgame
from tests.renderers.states_four import four_players

SCRIPT = ROOT / "tests" / "krosmaster" / "full_game.txt"


def _measure(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    return measure_cpu(fn, runs)


def _measure_fresh(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    return measure_cpu(fn, runs, fresh_bands=True)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _report(name: str, wall: list[float], cpu: list[float]) -> None:
    print(f"{name:<34} wall p50 {_pct(wall, .5):6.1f}  p99 {_pct(wall, .99):6.1f}   "
          f"cpu p50 {_pct(cpu, .5):6.1f}  p99 {_pct(cpu, .99):6.1f}  ms  [{_load()}]")


def _encode(image: Image.Image) -> bytes:
    """A bare PNG encode: the same picture, already on its palette, same settings, nothing else;
    with the vector registers clean first (``kit_replay.settle``), as Pillow alone would run."""
    kit_replay.settle()
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
    from bench.km_games import record as record_game

    return [State.model_validate_json(text) for text in record_game(1, every=1, tail=0).starts.values()]


def _recorded_pictures() -> list[Picture]:
    """The seeded game's positions as the render pool draws them: one table (its game id), the
    players' names, English."""
    import gm.games.krosmaster.presenter

    presenter = gm.games.krosmaster.presenter.PRESENTER
    return [Picture(presenter, state, "en", ("Ann", "Bob"), None, (), 1) for state in _recorded_states()]


def _ratios(rounds: int, runs: int) -> list[Picture]:
    """Issue 28's two figures for both games, each floor timed both ways (clean registers in this
    process; a fresh process). Returns the scripted game's pictures."""
    seeded = _recorded_pictures()
    middle = seeded[len(seeded) // 2]
    print_one(f"Krosmaster (seeded game, picture {len(seeded) // 2})", middle, runs)
    print_ratios("Krosmaster seeded game", seeded, rounds)
    ratios_clean_floor("Krosmaster seeded game", seeded, rounds)
    try:
        scripted = record(SCRIPT)
    except Exception as error:  # the console is shared code: a neighbour's half-done edit skips this game only
        print(f"Krosmaster full_game.txt: not played in the console ({type(error).__name__}: {error}); skipped")
        return seeded
    print_ratios("Krosmaster full_game.txt", scripted, rounds)
    ratios_clean_floor("Krosmaster full_game.txt", scripted, rounds)
    return scripted


def _profile(pictures: list[Picture]) -> None:
    """cProfile of the pictures drawn as lone pictures (a table's first)."""
    profile = cProfile.Profile()
    profile.enable()
    for picture in pictures:
        measure_cpu(picture.render, 1, fresh_bands=True)
    profile.disable()
    print(f"\n-- cProfile: {len(pictures)} lone pictures  [{_load()}]")
    pstats.Stats(profile).sort_stats("tottime").print_stats(24)


def _parts(state: State, runs: int) -> None:
    """A lone picture's parts: the layout's Python (recording the calls), drawing them on the arena's
    palette indexes, the PNG bands; against Pillow's bare encode of the same picture."""
    arena_json = state.board.arena.model_dump_json()
    arena_palette = palette.for_arena(arena_json)
    static = km._static_layer(arena_json)
    entries = km._record(state, "en", None, None)
    record_ms = _pct(_measure(lambda: km._record(state, "en", None, None), runs)[1], .5)

    def drawn() -> Image.Image:
        image = kit_replay.layer(static, arena_palette)
        kit_replay.replay(image, entries, arena_palette, kept=True)
        return image

    indexed = drawn()
    replay_ms = _pct(_measure(drawn, runs)[1], .5)
    bands_ms = _pct(_measure(lambda: kit_png.encode(indexed, level=kit.PNG_LEVEL, cache=kit_png.BandCache()),
                             runs)[1], .5)
    settle_ms = _pct(_measure(kit_replay.settle, runs)[1], .5)
    encode_ms = _pct(_measure(lambda: _encode(indexed), runs)[1], .5)
    print(f"a lone picture's parts: recording the draw calls (the layout's Python) {record_ms:.2f} ms, the "
          f"arena's indexes and the calls on them {replay_ms:.2f}, the PNG bands ({kit_png.DEFLATE}) "
          f"{bands_ms:.2f}, settle {settle_ms:.3f}; Pillow's encode of the same picture {encode_ms:.2f}  "
          f"[{_load()}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--renders", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3, help="passes over a game's pictures")
    parser.add_argument("--seconds", type=float, default=5.0, help="per pool configuration (0: skip)")
    parser.add_argument("--profile", action="store_true", help="cProfile of lone pictures")
    parser.add_argument("--ratios-only", action="store_true", help="issue 28's figures, nothing else")
    args = parser.parse_args()
    n = args.renders

    from gm.workers.render_pool import tune_allocator

    tune_allocator()  # as the bot and its render workers do at start
    state = midgame()
    km._static_layer.cache_clear()
    palette.for_arena.cache_clear()
    wall, cpu = _measure(lambda: km.render(state), 1)
    _report("first render (cold cache)", wall, cpu)
    scripted = _ratios(args.rounds, n)
    if args.profile:
        _profile(scripted)
    if args.ratios_only:
        return

    _report("snapshot: render(), no band reused", *_measure_fresh(lambda: km.render(state), n))
    _parts(state, n)
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
                print(f"render pool, {pool:<12} {rate:6.1f} renders/s  [{_load()}]")


if __name__ == "__main__":
    main()
