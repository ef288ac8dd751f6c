"""The fuzz harness's command line, for local work::

    python -m tests.fuzz.harness --seed 1 --lines 100000      # a long run
    python -m tests.fuzz.harness --replay out.jsonl             # the lines of a failed run, again
    python -m tests.fuzz.harness --replay out.jsonl --minimize  # the fewest lines that still fail

Every run writes the lines it executed (JSON, one per line, so NUL and friends survive)
to ``--record``; the first entry holds the seed. Replaying them from a fresh console with
that seed repeats the run exactly: dice, lines and the games they build.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.fuzz.harness import fuzz
from tests.fuzz.replay import minimize, read_record, replay


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=3600)
    parser.add_argument("--record", type=Path, help="where to write the lines run (default: tavolo-fuzz-SEED.jsonl"
                        " in the temporary folder)")
    parser.add_argument("--replay", type=Path, help="run the lines recorded by an earlier run")
    parser.add_argument("--minimize", action="store_true", help="with --replay: the fewest lines that still fail")
    parser.add_argument("--signature", help="with --minimize: the failure to keep (default: the first)")
    parser.add_argument("--verbose", action="store_true", help="print every line and its output")
    args = parser.parse_args(argv)
    if args.replay:
        seed, lines = read_record(args.replay)
        if args.minimize:
            small, signature = asyncio.run(minimize(seed, lines, args.signature))
            print(f"seed {seed}; {len(small)} lines reproduce: {signature}")
            for line in small:
                print(json.dumps(line, ensure_ascii=False))
            return 0
        report = asyncio.run(replay(seed, lines, verbose=args.verbose))
    else:
        record = args.record or Path(tempfile.gettempdir()) / f"tavolo-fuzz-{args.seed}.jsonl"
        with tempfile.TemporaryDirectory(prefix="tavolo-fuzz-") as folder:
            report = asyncio.run(fuzz(args.seed, Path(folder), max_lines=args.lines, max_seconds=args.seconds,
                                      record=record, verbose=args.verbose))
    print(report.describe())
    return 1 if report.failures or report.db_problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
