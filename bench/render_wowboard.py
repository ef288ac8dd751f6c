"""Render cost of the WoW board game's pictures against Pillow's bare PNG encode (issue 28; numbers
for bench/README.md, never for a timed test).

Run: ``python bench/render_wowboard.py [--rounds N] [--runs N] [--profile]``. The scripted full game
(``tests/wowboard/full_game.txt``, seed 1) is played in the console and every picture it posts is kept
(``bench.scripted_pictures``): the map, crops around the regions an action touched, combat panels.
Printed, with the machine's load beside each figure, as ``bench/render_krosmaster.py`` prints them:

- render ÷ bare PNG encode of one picture of each kind drawn again and again with no band to re-use;
- the same over the game's consecutive pictures as a render worker meets them (every picture, and
  every other one; re-drawn only where they changed, ``renderers.kit_scene``), and for a lone picture:
  each of the game's pictures drawn as a table's first (no scene, no cached band); then both per kind;
- the private character sheet, lone;
- with ``--profile``: cProfile of lone pictures of each kind.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pipeline import measure_cpu
from bench.scripted_pictures import ROOT, _load, _pct, bare_encoder, print_one, print_ratios, record
from gm.workers.render_pool import tune_allocator
from renderers import wowboard as wb

SCRIPT = ROOT / "tests" / "wowboard" / "full_game.txt"
KINDS = ("map", "crop", "combat")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="passes over the game's pictures")
    parser.add_argument("--runs", type=int, default=100, help="renders of the one picture of each kind")
    parser.add_argument("--profile", action="store_true", help="cProfile of lone pictures of each kind")
    args = parser.parse_args()
    tune_allocator()  # as the bot and its render workers do at start
    pictures = record(SCRIPT)
    wb.warm_up()
    for kind in KINDS:
        some = [picture for picture in pictures if picture.kind == kind]
        print_one(f"WoW Board {kind} (picture {pictures.index(some[len(some) // 2])})", some[len(some) // 2],
                  args.runs)
    print_ratios("WoW Board", pictures, args.rounds)
    maps = [picture for picture in pictures if picture.kind == "map"]
    sheets = [(picture.view, cid) for picture in maps[::6] for cid in sorted(picture.view.characters)[:1]]
    renders = [statistics.median(measure_cpu(lambda v=v, c=c: wb.render_sheet(v, c, "en"), args.rounds,
                                             fresh_bands=True)[1]) for v, c in sheets]
    encodes = [statistics.median(measure_cpu(bare_encoder(wb.render_sheet(v, c, "en")), args.rounds)[1])
               for v, c in sheets]
    print(f"  sheet   x{len(sheets):<4} (private) lone {_pct(renders, .5):.2f} ÷ {_pct(encodes, .5):.2f} ms = "
          f"{_pct(renders, .5) / _pct(encodes, .5):.2f}x  [{_load()}]")
    if args.profile:
        for kind in KINDS:
            some = [picture for picture in pictures if picture.kind == kind]
            profile = cProfile.Profile()
            profile.enable()
            for picture in some:
                measure_cpu(picture.render, 1, fresh_bands=True)
            profile.disable()
            print(f"\n-- {kind}: {len(some)} lone pictures")
            pstats.Stats(profile).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
