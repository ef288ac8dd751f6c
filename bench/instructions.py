"""Instructions a game's acts and pictures cost, counted by Valgrind: a figure the machine's speed cannot move
(issue 28).

Run: ``python bench/instructions.py [--game warlord] [--acts 60] [--root PATH ...]``; needs ``valgrind``
(``apt-get install valgrind``).

Why: on this shared VM the speed of the same loop wandered by 1.5x within minutes (``bench/machine.py``), so
two commits timed in turn differed by more than the change between them: a 0.3 ms saving a picture could
not be told from the wandering. Valgrind's ``cachegrind`` counts the instructions a process runs, which is
the same from run to run to within ~0.1 %. For each ``--root`` (a checkout: the one this script is in by
default; give two to compare commits) the game's bench policy plays ``--acts`` acts as ``bench/acts.py``
does, every picture drawn in a thread of the process (``bench/slow_pictures.py``), after every game's
warm-up; the same run with no acts is subtracted, so what is printed is the acts' own: the rules, the
database, the words and the pictures. The two runs of a root go side by side, one a core; under Valgrind a
run takes ~50x its time (~1 minute).

What it cannot show: page faults, cache misses and the allocator's wait for the kernel (a first picture's
cost is mostly those), and time spent in another process. Those are ``bench/acts.py``'s, on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("krosmaster", "mageknight", "wowminis", "warlord", "wowboard")
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")

_CHILD = """
import importlib, os, sys
root, game, acts = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, root)
os.chdir(root)
from bench import slow_pictures
from gm import presenters
from gm.app import GAME_MODULES
for module in GAME_MODULES:
    importlib.import_module(module)
presenters.warm_up_all()
if acts:
    slow_pictures._pictures(game, acts, set())
"""


def count(root: Path, game: str, acts: int) -> int:
    """Instructions of one run: every game's warm-up, then ``acts`` acts of ``game``."""
    found = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", _CHILD, str(root), game, str(acts)],
        capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
    match = _REFS.search(found.stderr)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output: {found.stderr[-500:]}")
    return int(match.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="warlord")
    parser.add_argument("--acts", type=int, default=60)
    parser.add_argument("--root", action="append", type=Path, help="a checkout to count (repeat to compare)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    roots = args.root or [ROOT]
    print(f"{args.game}: {args.acts} acts through the table, pictures drawn in this process; instructions "
          "(Valgrind's count, warm-up subtracted)")
    for root in roots:
        with ThreadPoolExecutor(2) as pool:
            idle, busy = pool.map(count, (root, root), (args.game, args.game), (0, args.acts))
        spent = busy - idle
        print(f"  {root}: {spent / 1e6:,.0f} M in all, {spent / args.acts / 1e6:.2f} M an act "
              f"(warm-up {idle / 1e6:,.0f} M)")


if __name__ == "__main__":
    main()
