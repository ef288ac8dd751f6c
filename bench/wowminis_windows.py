"""WoW Miniatures' zoomed windows made anew: cut from the whole map drawn large against drawn (issue 28).

Run: ``python bench/wowminis_windows.py [--passes 2]``.

Every window on every built-in map that zooms (around one hex, or two a few hexes apart: each size and scale a
picture about an action takes, ``layout.zoom_scales``) is made both ways, taking turns which goes first: its
palette form as a picture finds it when no cache holds it (``renderers.wowminis._window_form``), its hexes cut
from ``renderers.wowminis.window.whole_map`` or drawn hex by hex as before. Printed: CPU p50 and p90 a window
each way, and how many windows and pixels differ between the two (a few pixels of the outer rim, where the whole
map drew the neighbour outside the window too), with the machine's load and speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=2, help="passes over the windows")
    args = parser.parse_args()

    import renderers.wowminis as pictures
    from engines.wowminis.content import builtin_pack
    from renderers import kit
    from renderers.wowminis import window
    from renderers.wowminis.layout import zoom_for

    print(machine.line())
    pictures.warm_up()  # the whole maps are made there, as in the fork server
    sides = (("A", kit.team_colour(0)), ("B", kit.team_colour(1)))
    windows = []
    for board in builtin_pack().maps:
        found = {zoom for c in range(board.columns) for r in range(board.rows)
                 for dc, dr in ((0, 0), (3, 0), (4, 2), (0, 4), (5, 3), (2, 5), (6, 1))
                 if (zoom := zoom_for(board.columns, board.rows, [(c, r), (min(c + dc, board.columns - 1),
                                                                         min(r + dr, board.rows - 1))])) is not None}
        windows += [(board.model_dump_json(), zoom) for zoom in sorted(found, key=repr)]
    make = pictures._window_form.__wrapped__  # type: ignore[attr-defined]
    cut = window.cut

    def drawn(*_args: Any) -> bool:
        return False

    spent: dict[str, list[float]] = {"cut": [], "drawn": []}
    differ_windows = differ_pixels = 0
    for turn, (map_json, zoom) in enumerate(windows * args.passes):
        made = {}
        for way in (("cut", "drawn") if turn % 2 else ("drawn", "cut")):
            window.cut = cut if way == "cut" else drawn  # type: ignore[assignment]
            start = time.thread_time()
            made[way] = make(map_json, sides, zoom).tobytes()
            spent[way].append(time.thread_time() - start)
        window.cut = cut  # type: ignore[assignment]
        if turn < len(windows):
            pixels = sum(1 for a, b in zip(made["cut"], made["drawn"], strict=True) if a != b)
            differ_windows += bool(pixels)
            differ_pixels = max(differ_pixels, pixels)
    print(f"{len(windows)} windows of {len(set(m for m, _z in windows))} maps, {args.passes} passes  "
          f"[load {machine.load()}]")
    for way, times in spent.items():
        ordered = sorted(times)
        print(f"  {way:5}  CPU p50 {ordered[len(ordered) // 2] * 1000:.2f} ms, "
              f"p90 {ordered[int(len(ordered) * .9)] * 1000:.2f} ms")
    cut_p50 = sorted(spent["cut"])[len(spent["cut"]) // 2]
    drawn_p50 = sorted(spent["drawn"])[len(spent["drawn"]) // 2]
    print(f"  cut ÷ drawn {cut_p50 / drawn_p50:.2f}x; windows that differ {differ_windows} of {len(windows)}, "
          f"at most {differ_pixels} pixels")


if __name__ == "__main__":
    main()
