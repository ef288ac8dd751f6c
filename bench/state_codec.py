"""The bytes and CPU of a stored and of a cached position, for all five games: zlib then, zstd now.

Run: ``python bench/state_codec.py [--acts N]``.

Each game's own bench policy plays ``--acts`` actions through ``TableManager`` (pictures drawn in a
thread: they are not stored), and every ``(state, dictionary)`` pair a commit hands to
``db.state_codec.encode`` is kept.
Then, for those pairs, side by side in this process:

- the action row's ``state_before``: zlib level 6 against the dictionary (what issue 18 stored, format 1)
  against ``db.state_codec.encode`` now (zstd against the whole dictionary, format 2): bytes, encode and
  decode CPU, median per state;
- the table cache's packed state: zlib level 1 against the dictionary's last 32 KB (what the cache kept
  before) against ``db.reference_zstd`` at the cache's level.

Why it matters (issue 28): the encode runs on the event loop at every commit, and the packed states
are most of what 5,000 live games keep in the bot's memory.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine

GAMES = ("krosmaster", "mageknight", "wowminis", "warlord", "wowboard")
WINDOW = 32 * 1024  # zlib's reach back: what the old cache kept of a preset dictionary


def zlib_row(text: str, dictionary: str) -> bytes:
    """Format 1 as issue 18 wrote it: zlib level 6 with the game's dictionary preset."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, zdict=dictionary.encode("utf-8"))
    return bytes([1]) + packer.compress(text.encode("utf-8")) + packer.flush()


def zlib_row_back(stored: bytes, dictionary: str) -> str:
    unpacker = zlib.decompressobj(zdict=dictionary.encode("utf-8"))
    return (unpacker.decompress(stored[1:]) + unpacker.flush()).decode("utf-8")


def zlib_packed(text: str, dictionary: str) -> bytes:
    """The cache's packed state before zstd: level 1, against what zlib could reach of the dictionary."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY,
                              zdict=dictionary.encode("utf-8")[-WINDOW:])
    return packer.compress(text.encode("utf-8")) + packer.flush()


async def _pairs(game: str, acts: int) -> list[tuple[str, str]]:
    """The (state, dictionary) pairs the commits of ``acts`` actions of ``game`` encode."""
    import db.games
    from bench import pipeline
    from db import state_codec

    pipeline.POOL = ("thread", 1)
    seen: list[tuple[str, str]] = []
    real = state_codec.encode

    def keep(text: str, dictionary: str | None) -> bytes:
        if dictionary:
            seen.append((text, dictionary))
        return real(text, dictionary)

    db.games.state_codec.encode = keep  # type: ignore[attr-defined]
    try:
        if game == "krosmaster":
            from bench import krosmaster

            await krosmaster.pipeline(acts, 0, "thread", 1)
        else:
            await __import__(f"bench.{game}", fromlist=["pipeline"]).pipeline(acts)
    finally:
        db.games.state_codec.encode = real  # type: ignore[attr-defined]
    return seen


def _ms_each(fn: Callable[[str, str], object], pairs: list[tuple[str, str]]) -> float:
    """Median CPU ms of ``fn`` over the pairs (three passes, the best of each)."""
    best = [float("inf")] * len(pairs)
    for _ in range(3):
        for k, (text, dictionary) in enumerate(pairs):
            start = time.process_time()
            fn(text, dictionary)
            best[k] = min(best[k], time.process_time() - start)
    return statistics.median(best) * 1000


def _decode_ms(encoded: list[tuple[bytes, str]], back: Callable[[bytes, str], object]) -> float:
    return _ms_each(lambda blob, dictionary: back(blob, dictionary),  # type: ignore[arg-type]
                    encoded)  # type: ignore[arg-type]


def report(game: str, pairs: list[tuple[str, str]]) -> None:
    from db import reference_zstd, state_codec
    from gm.table import cache

    text_kb = statistics.median(len(t) for t, _ in pairs) / 1000
    dict_kb = statistics.median(len(d) for _, d in pairs) / 1000
    old_rows = [(zlib_row(t, d), d) for t, d in pairs]
    new_rows = [(state_codec.encode(t, d), d) for t, d in pairs]
    assert all(state_codec.decode(b, d) == t for (b, d), (t, _) in zip(new_rows, pairs, strict=True))
    assert all(zlib_row_back(b, d) == t for (b, d), (t, _) in zip(old_rows, pairs, strict=True))
    old_bytes = statistics.median(len(b) for b, _ in old_rows)
    new_bytes = statistics.median(len(b) for b, _ in new_rows)
    old_enc, new_enc = _ms_each(zlib_row, pairs), _ms_each(state_codec.encode, pairs)
    old_dec = _decode_ms(old_rows, zlib_row_back)
    new_dec = _decode_ms(new_rows, state_codec.decode)

    def zstd_packed(text: str, dictionary: str) -> bytes:
        return reference_zstd.compress(text.encode("utf-8"), dictionary.encode("utf-8"), cache.LEVEL)

    old_pack = statistics.median(len(zlib_packed(t, d)) for t, d in pairs)
    new_pack = statistics.median(len(zstd_packed(t, d)) for t, d in pairs)
    old_pack_ms, new_pack_ms = _ms_each(zlib_packed, pairs), _ms_each(zstd_packed, pairs)
    print(f"{game:11s} {len(pairs):5d}  {text_kb:5.1f} {dict_kb:5.1f}   "
          f"{old_bytes:6,.0f} → {new_bytes:5,.0f} B  {old_enc:5.3f} → {new_enc:5.3f} ms  "
          f"{old_dec:5.3f} → {new_dec:5.3f} ms    {old_pack:6,.0f} → {new_pack:5,.0f} B  "
          f"{old_pack_ms:5.3f} → {new_pack_ms:5.3f} ms")


def per_game(description: str, header: list[str], each: Callable[[str, int], None]) -> None:
    """The command line the position benches share (this one and ``state_parse.py``): ``--acts`` actions of
    each of ``--games``, one report a game, the machine's load and speed before and after."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--acts", type=int, default=150, help="actions played per game")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    print(f"machine: {machine.line()}")
    print("\n".join(header))
    for game in args.games.split(","):
        each(game, args.acts)
    print(f"machine: {machine.line()}")


def main() -> None:
    per_game(__doc__.split("\n\n")[0],
             ["medians per state; 'then → now': zlib → zstd",
              "game         rows  text  dict KB   stored row             encode               decode"
              "                cached state (packed)"],
             lambda game, acts: report(game, asyncio.run(_pairs(game, acts))))


if __name__ == "__main__":
    main()
