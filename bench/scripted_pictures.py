"""The pictures a game's scripted full game posts, in order, for the render benches (issue 28).

Why: a render ÷ encode ratio over made-up positions flatters a renderer (or wrongs it); the figure
the bot pays is the one over the pictures a real game posts one after the other, which a render
worker meets in that order (``gm.workers.render_queue``: a game's pictures go to one worker). The
script is played in the console on the real cogs (seed 1, as its tests do), and every picture the
table asks of ``gm.workers.render_pool._render_here`` is kept with what it was drawn from: the view,
language, names, log lines, the presenter's hints (a crop's focus…) and the table's game id.
"""

from __future__ import annotations

import asyncio
import io
import os
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from bench.bare_encode import Floor
from bench.pipeline import measure_cpu
from gm.workers import render_pool
from renderers import kit, kit_png, kit_replay, kit_scene

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Picture:
    """One picture a table asked for, as the render pool would draw it."""

    presenter: Any
    view: Any
    lang: str
    seat_names: tuple[str, ...]
    log_lines: tuple[str, ...] | None
    hints: tuple[tuple[str, Any], ...]
    table: object

    def render(self, table: object = ...) -> bytes | None:
        """Draw it as a render worker does (``table``: the scene's table, by default the game's)."""
        return _DRAW_HERE(self.presenter, self.view, self.lang, list(self.seat_names),
                          list(self.log_lines) if self.log_lines is not None else None, dict(self.hints),
                          self.table if table is ... else table)

    @property
    def kind(self) -> str:
        """What the picture shows, for the benches' per-kind lines: a crop (the presenter's hint), the
        WoW board game's map or combat panel, or another game's board."""
        if dict(self.hints).get("focus"):
            return "crop"
        if hasattr(self.view, "characters"):  # the WoW board game: its map, or its combat panel
            return "combat" if getattr(self.view, "combat", None) is not None else "map"
        return "board"


_DRAW_HERE: Callable[..., bytes | None] = render_pool._render_here
"""The render pool's own drawing, kept before ``record`` wraps it."""


def record(script: Path, *, seed: int = 1) -> list[Picture]:
    """Play ``script`` in the console and return every picture it drew, in order."""
    return asyncio.run(_record(script, seed))


async def _record(script: Path, seed: int) -> list[Picture]:
    from cogs.client import TavoloBot
    from console.runner import Console
    from gm.app import App
    from gm.settings import Settings

    original = _DRAW_HERE
    pictures: list[Picture] = []

    def keep(presenter: Any, view: Any, lang: str, seat_names: list[str], log_lines: list[str] | None = None,
             hints: dict[str, Any] | None = None, table: object = None) -> bytes | None:
        copy = view.model_copy(deep=True) if hasattr(view, "model_copy") else view
        pictures.append(Picture(presenter, copy, lang, tuple(seat_names),
                                tuple(log_lines) if log_lines is not None else None,
                                tuple(sorted((hints or {}).items())), table))
        return original(presenter, view, lang, seat_names, log_lines, hints, table)

    render_pool._render_here = keep  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings(DATABASE_PATH=Path(folder) / "bench.sqlite3", RENDER_POOL="thread",
                                _env_file=None)  # type: ignore[call-arg]
            app = await App.open(settings, seed=seed)
            bot = TavoloBot(settings, app=app)
            await bot.load_tavolo()
            try:
                console = Console(bot, out_dir=Path(folder) / "out", output=io.StringIO())
                for line in script.read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        await console.execute(line)
                if console.errors:
                    raise SystemExit(f"{script.name}: the console refused {console.errors} lines")
            finally:
                await app.close()
                await bot.http.close()
    finally:
        render_pool._render_here = original  # type: ignore[assignment]
    return pictures


# -- the render ÷ bare encode ratios ----------------------------------------------------------------


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def bare_encoder(png: bytes) -> Callable[[], bytes]:
    """Pillow's own encode of the picture ``png`` holds (its palette image, zlib ``kit.PNG_LEVEL``):
    the floor a render is compared with. Measured with the CPU's vector registers clean
    (``kit_replay.settle``): after ISA-L ran in a thread, zlib there is 2.2-2.5 times slower until they
    are, which would make any render look cheap against it."""
    image = Image.open(io.BytesIO(png))
    image.load()

    def encode() -> bytes:
        kit_replay.settle()
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=kit.PNG_LEVEL)
        return buf.getvalue()

    return encode


def _cpu(fn: Callable[[], object]) -> float:
    return measure_cpu(fn, 1)[1][0]


def consecutive(pictures: list[Picture], rounds: int = 3) -> dict[str, object]:
    """A game's pictures as its render worker meets them, as ``bench/render_krosmaster.py`` measures
    Krosmaster's: the renders timed back to back from empty caches (each picture re-drawn only where it
    changed since the table's last one, compressed bands re-used; the median of ``rounds`` passes), then
    Pillow's bare encodes of the same pictures in a pass of their own; "interleaved" times each render
    right after the previous picture's reference encode, whose memory traffic evicts the render's caches.
    CPU ms per picture."""
    passes: list[list[float]] = []
    encoders = [bare_encoder(picture.render() or b"") for picture in pictures]
    encode_passes: list[list[float]] = []
    kit_scene.forget()
    kit_scene.COUNTS.bands = kit_scene.COUNTS.redrawn = 0
    for _round in range(rounds):  # a pass of renders, then one of their floors: the two timed side by side
        kit_png.CACHE.clear()
        kit_scene.forget()
        passes.append([_cpu(picture.render) for picture in pictures])
        encode_passes.append([_cpu(encode) for encode in encoders])
    redrawn = kit_scene.COUNTS.redrawn / max(1, kit_scene.COUNTS.bands)
    encodes = [times[i] for i in range(len(pictures)) for times in encode_passes]
    kit_png.CACHE.clear()
    kit_scene.forget()
    interleaved = []
    for picture, encode in zip(pictures, encoders, strict=True):
        encode()
        interleaved.append(_cpu(picture.render))
    ratios = [_pct(one, .5) / _pct(floor, .5) for one, floor in zip(passes, encode_passes, strict=True)]
    return {"renders": [statistics.median(times) for times in zip(*passes, strict=True)],
            "ratios": ratios,
            "p50": statistics.median(_pct(one, .5) for one in passes),
            "mean": statistics.median(statistics.mean(one) for one in passes),
            "encodes": [statistics.median(encodes[i:i + rounds]) for i in range(0, len(encodes), rounds)],
            "encode_p50": _pct(encodes, .5), "encode_mean": statistics.mean(encodes),
            "interleaved": _pct(interleaved, .5), "redrawn": redrawn}


def lone(pictures: list[Picture], rounds: int = 3) -> tuple[list[float], list[float]]:
    """Each picture drawn as a table's first (no scene, no cached band), ``rounds`` times: each
    picture's median render and bare encode, CPU ms. Each render is followed by its floor's encode, so
    the two are timed at the same moment (timed in passes of their own, minutes apart on a shared
    machine, the ratio measured the load's drift)."""
    renders, encodes = [], []
    for picture in pictures:
        encode = bare_encoder(picture.render() or b"")
        times, floors = [], []
        for _round in range(rounds):
            times.append(measure_cpu(picture.render, 1, fresh_bands=True)[1][0])
            floors.append(_cpu(encode))
        renders.append(statistics.median(times))
        encodes.append(statistics.median(floors))
    return renders, encodes


def print_one(name: str, picture: Picture, runs: int = 100) -> None:
    """A lone picture as ``bench/render_krosmaster.py`` measures one: the same picture drawn ``runs``
    times with no scene and no band to re-use, against Pillow's bare encode of it as many times."""
    render_wall, render_cpu = measure_cpu(picture.render, runs, fresh_bands=True)
    encode_wall, encode_cpu = measure_cpu(bare_encoder(picture.render() or b""), runs)
    print(f"{name}: render ÷ bare PNG encode (Pillow's) of the same picture, no band reused: "
          f"{_pct(render_cpu, .5) / _pct(encode_cpu, .5):.2f}x (cpu p50), "
          f"{_pct(render_wall, .5) / _pct(encode_wall, .5):.2f}x (wall p50); render cpu p50 "
          f"{_pct(render_cpu, .5):.2f} ms, encode {_pct(encode_cpu, .5):.2f} ms  [{_load()}]", flush=True)


def print_ratios(name: str, pictures: list[Picture], rounds: int = 3) -> None:
    """The two figures of issue 28's table for ``pictures`` (a game's, in order), with the machine's
    load beside each: render ÷ bare encode (CPU p50 ÷ p50) over the game's consecutive pictures (every
    picture, as the pool's affinity gives a worker, and every other one), and for a lone picture: each of
    the game's pictures drawn as a table's first. Then both per kind of picture when the game posts
    several."""
    for which, some in (("every picture", pictures), ("every other picture", pictures[::2])):
        got = consecutive(some, rounds)
        p50, mean = got["p50"], got["mean"]
        encode_p50, encode_mean = got["encode_p50"], got["encode_mean"]
        ratios = got["ratios"]
        print(f"{name}: a game's {len(some)} pictures, {which}: render cpu p50 {p50:.2f} mean {mean:.2f} ms, "
              f"Pillow's bare encode p50 {encode_p50:.2f} mean {encode_mean:.2f} ms: {p50 / encode_p50:.2f}x "
              f"(each pass ÷ its floor's: {min(ratios):.2f}-{max(ratios):.2f}x) "
              f"(means {mean / encode_mean:.2f}x); interleaved p50 {got['interleaved']:.2f} ms, "
              f"{got['interleaved'] / encode_p50:.2f}x; bands re-drawn {got['redrawn']:.0%}  [{_load()}]",
              flush=True)
        if which == "every picture":
            renders, encodes = got["renders"], got["encodes"]
    alone, alone_encodes = lone(pictures, rounds)
    print(f"{name}: a lone picture (each of the game's {len(pictures)} drawn as a table's first: no scene, no "
          f"cached band): render cpu p50 {_pct(alone, .5):.2f} ms, bare encode p50 {_pct(alone_encodes, .5):.2f} "
          f"ms: {_pct(alone, .5) / _pct(alone_encodes, .5):.2f}x  [{_load()}]", flush=True)
    kinds = sorted({picture.kind for picture in pictures})
    if len(kinds) > 1:
        for kind in kinds:
            which = [i for i, picture in enumerate(pictures) if picture.kind == kind]

            def ratio(times: list[float], floors: list[float], which: list[int] = which) -> float:
                return _pct([times[i] for i in which], .5) / _pct([floors[i] for i in which], .5)

            print(f"  {kind:<7} x{len(which):<4} consecutive {ratio(renders, encodes):.2f}x, "  # type: ignore[arg-type]
                  f"lone {ratio(alone, alone_encodes):.2f}x  [{_load()}]", flush=True)


def fresh(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """The same picture again and again as a table's first: no scene, no PNG band of an earlier run."""
    return measure_cpu(fn, runs, fresh_bands=True)


def _consecutive_cpu(pictures: list[Picture], rounds: int, floor: Floor) -> tuple[list[float], list[float], float]:
    """Each picture's median render (CPU ms) over ``rounds`` passes of the game's pictures in order, as
    its render worker meets them (from empty caches), each pass's ratio to its floor (``floor`` timing
    each picture's encode after the pass, before the next), and the share of bands found in the cache of
    compressed bands (``kit_png``: a band an earlier picture had is not compressed again)."""
    passes, ratios = [], []
    pngs = [picture.render() or b"" for picture in pictures]
    hits = misses = 0
    for _round in range(rounds):
        kit_png.CACHE.clear()
        kit_scene.forget()
        passes.append([measure_cpu(picture.render, 1)[1][0] for picture in pictures])
        hits, misses = hits + kit_png.CACHE.hits, misses + kit_png.CACHE.misses
        floors = [floor.encode_ms(png, 1) for png in pngs]
        ratios.append(_pct(passes[-1], .5) / _pct(floors, .5))
    return ([statistics.median(times) for times in zip(*passes, strict=True)], ratios,
            hits / max(1, hits + misses))


def _lone_cpu(pictures: list[Picture], rounds: int, floor: Floor) -> tuple[list[float], list[float]]:
    """Each picture's median render (CPU ms) drawn ``rounds`` times as a table's first (no scene, no
    cached band), and its floor timed by ``floor`` right after each render."""
    renders, floors = [], []
    for picture in pictures:
        png = picture.render() or b""
        times, encodes = [], []
        for _round in range(rounds):
            times.append(measure_cpu(picture.render, 1, fresh_bands=True)[1][0])
            encodes.append(floor.encode_ms(png, 1))
        renders.append(statistics.median(times))
        floors.append(statistics.median(encodes))
    return renders, floors


def ratios_clean_floor(name: str, pictures: list[Picture], rounds: int) -> None:
    """Issue 28's two figures with Pillow's encode timed in a fresh process (``bench.bare_encode``), beside
    the renders: each pass of consecutive renders is followed by its floors, each lone render by its own."""
    with Floor() as floor:
        renders, ratios, reused = _consecutive_cpu(pictures, rounds, floor)
        floors = [floor.encode_ms(picture.render() or b"", rounds) for picture in pictures]
        p50, low = _pct(renders, .5), _pct(floors, .5)
        print(f"{name}: a game's {len(pictures)} consecutive pictures: render cpu p50 {p50:.2f} ms, bare encode "
              f"(fresh process) p50 {low:.2f} ms: {statistics.median(ratios):.2f}x (each pass ÷ its floors: "
              f"{min(ratios):.2f}-{max(ratios):.2f}x); bands from the cache {reused:.0%}  [{_load()}]", flush=True)
        alone, alone_floors = _lone_cpu(pictures, rounds, floor)
    print(f"{name}: a lone picture (each of the game's, no scene, no cached band): render cpu p50 "
          f"{_pct(alone, .5):.2f} ms, bare encode (fresh process, beside it) p50 {_pct(alone_floors, .5):.2f} ms: "
          f"{_pct(alone, .5) / _pct(alone_floors, .5):.2f}x  [{_load()}]", flush=True)
