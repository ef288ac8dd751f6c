"""Check that the built-in rules digests do not copy the seed rulebooks verbatim.

For every section of every digest (``gm/rules/digests/*.yaml``) this looks for
any run of N consecutive words (default 8) that also appears in the seed
rulebook of the same system. Words are compared case-insensitively, ignoring
punctuation and apostrophes, so OCR-style spacing does not hide a copy.

Usage::

    python tools/check_digest_originality.py /work/shared/seeds
    python tools/check_digest_originality.py SEEDS_DIR --window 8 --digests gm/rules/digests

Exit status is 1 when at least one copied run is found, 0 otherwise. The seed
files are not part of the repository, which is why this is a tool and not a test.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

# system id -> seed file name (see the seeds README)
SEED_FILES = {
    "wowminis": "000_1d2de6f2890ae553.txt",
    "warlord": "001_f00e41447e5bbb1b.txt",
    "krosmaster": "002_dedfa4eec9f56b93.txt",
    "mageknight": "003_2d112475ef977415.txt",
    "wowboard": "004_37cca2c8ab7fb3a1.txt",
}

DEFAULT_DIGESTS = Path(__file__).resolve().parent.parent / "gm" / "rules" / "digests"

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    """Lower-cased word tokens; apostrophes and punctuation split words."""
    return _WORD.findall(text.casefold())


def ngrams(tokens: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def check(seeds_dir: Path, digests_dir: Path, window: int) -> list[str]:
    hits: list[str] = []
    seed_grams: dict[str, set[tuple[str, ...]]] = {}
    for path in sorted(digests_dir.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        system = data.get("system")
        if system not in SEED_FILES:
            hits.append(f"{path.name}: unknown system {system!r}")
            continue
        if system not in seed_grams:
            seed_path = seeds_dir / SEED_FILES[system]
            seed_grams[system] = ngrams(words(seed_path.read_text(encoding="utf-8")), window)
        grams = seed_grams[system]
        for section in data.get("sections", []):
            for field in ("title", "text"):
                tokens = words(str(section.get(field, "")))
                for i in range(len(tokens) - window + 1):
                    run = tuple(tokens[i : i + window])
                    if run in grams:
                        hits.append(f"{path.name} [{section.get('id')}] {field}: {' '.join(run)}")
    return hits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=Path, help="directory holding the seed rulebook texts")
    parser.add_argument("--digests", type=Path, default=DEFAULT_DIGESTS)
    parser.add_argument("--window", type=int, default=8, help="words in a run (default 8)")
    args = parser.parse_args(argv)
    hits = check(args.seeds, args.digests, args.window)
    for hit in hits:
        print(hit)
    count = len(list(args.digests.glob("*.yaml")))
    print(f"{count} digest files checked, {len(hits)} copied run(s) of {args.window} words")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())
