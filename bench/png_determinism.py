"""Whether the same positions give the same PNG bytes in fresh processes, and, where they do not,
whether the pixels still agree (issue 28's review: "the same state gives the same bytes").

Why: a renderer promises byte-identical pictures for identical states, and tests compare pictures
byte for byte (a scene's re-drawn bands against the whole picture). In the eleventh session, 2 runs
in about 14 of a thousand pictures came out with different bytes. This script draws the same tables
(two consecutive positions each, in English and Italian, as a render worker draws a table's next
picture) in ``--runs`` fresh processes, compares every picture's bytes with the first run's and
decodes the pictures to compare pixels too.

``--deflate zlib`` compresses the PNG bands with the standard library's zlib instead of ISA-L
(``renderers.kit_png``), and ``--isal-level`` sets ISA-L's own level: the two ways to tell whether the
band compressor is what varies.

``python bench/png_determinism.py --runs 8 --tables 300`` (about a minute a run on a 2-core machine)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import io
import json
import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine
from bench.live_fixtures import recorded


def _child(fixtures: Path, tables: int, seed: int, deflate: str, isal_level: int | None) -> list[list[str]]:
    """Draw the chosen tables as a warmed render worker would; per picture: system, step, language,
    bytes hash, pixels hash."""
    from PIL import Image

    from gm import presenters
    from gm.app import GAME_MODULES
    from gm.workers.render_pool import _render_here, tune_allocator
    from renderers import kit_png

    if deflate == "zlib":
        import zlib

        kit_png._deflate = zlib  # type: ignore[assignment]
    if isal_level is not None:
        kit_png.deflate_level = lambda _level: isal_level  # type: ignore[assignment]
    tune_allocator()
    for module in GAME_MODULES:
        importlib.import_module(module)
    from engines import registry

    presenters.warm_up_all()
    scripts, states = pickle.loads(fixtures.read_bytes())
    rng = random.Random(seed)
    chosen = [(k, j) for k in range(len(scripts)) for j in range(0, len(states[k]) - 1, 2)]
    rng.shuffle(chosen)
    rows: list[list[str]] = []
    for table_id, (k, j) in enumerate(chosen[:tables], 1):
        script = scripts[k]
        engine, presenter = registry.get(script.system), presenters.get(script.system)
        assert engine is not None and presenter is not None
        names = [name for _seat, name, _team, _config in script.seats]
        for lang in ("en", "it"):
            for step in (j, j + 1):
                view = engine.view(engine.load_state(states[k][step]), None)
                view = type(view).model_validate_json(view.model_dump_json())  # as a worker gets it
                png = _render_here(presenter, view, lang, names, None, None, table_id)
                assert png is not None
                pixels = Image.open(io.BytesIO(png))
                pixel_hash = hashlib.sha256(pixels.convert("RGB").tobytes()).hexdigest()[:16]
                rows.append([script.system, str(step), lang, hashlib.sha256(png).hexdigest()[:16], pixel_hash])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8, help="fresh processes drawing the same pictures")
    parser.add_argument("--tables", type=int, default=150, help="tables drawn by each run (4 pictures each)")
    parser.add_argument("--scripts", type=int, default=40, help="recorded games the tables start from")
    parser.add_argument("--states", type=int, default=75,
                        help="positions kept of each recorded game (the tables are drawn from their pairs)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--deflate", choices=("isal", "zlib"), default="isal")
    parser.add_argument("--isal-level", type=int, default=None, help="ISA-L's own level (0-3) for the bands")
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        rows = _child(args.child, args.tables, args.seed, args.deflate, args.isal_level)
        sys.stdout.write(json.dumps(rows))
        return

    print(f"machine: load {machine.load()}; bands deflated by {args.deflate}"
          + (f" (ISA-L level {args.isal_level})" if args.isal_level is not None else ""))
    with tempfile.TemporaryDirectory(prefix="tavolo-determinism-") as folder:
        fixtures = Path(folder, "fixtures.pickle")
        fixtures.write_bytes(pickle.dumps(recorded(args.scripts, args.scripts * args.states)))
        command = [sys.executable, __file__, "--child", str(fixtures), "--tables", str(args.tables),
                   "--seed", str(args.seed), "--deflate", args.deflate]
        if args.isal_level is not None:
            command += ["--isal-level", str(args.isal_level)]
        first: list[list[str]] | None = None
        odd_runs = byte_pictures = pixel_pictures = 0
        for run in range(1, args.runs + 1):
            done = subprocess.run(command, check=True, capture_output=True, text=True)
            rows = json.loads(done.stdout)
            if first is None:
                first = rows
                print(f"run 1: {len(rows)} pictures   [load {machine.load()}]")
                continue
            by_bytes = [i for i, (a, b) in enumerate(zip(first, rows, strict=True)) if a[3] != b[3]]
            by_pixels = [i for i, (a, b) in enumerate(zip(first, rows, strict=True)) if a[4] != b[4]]
            odd_runs += bool(by_bytes)
            byte_pictures += len(by_bytes)
            pixel_pictures += len(by_pixels)
            where = ", ".join(f"{first[i][0]} step {first[i][1]} {first[i][2]}" for i in by_bytes[:3])
            shown = f" ({where}{', …' if len(by_bytes) > 3 else ''})" if by_bytes else ""
            print(f"run {run}: {len(by_bytes)} pictures with other bytes, {len(by_pixels)} with other pixels"
                  f"{shown}   [load {machine.load()}]")
    print(f"\n{odd_runs} of {args.runs - 1} runs gave other bytes than the first ({byte_pictures} pictures);"
          f" {pixel_pictures} pictures had other pixels")


if __name__ == "__main__":
    main()
