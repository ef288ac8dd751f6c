"""Recorded runs, again: read the lines a run recorded, replay them from a fresh console
with the same seed (same dice, same games), and minimize them — the fewest lines that
still fail the same way (delta debugging, by failure signature).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.fuzz.harness import FILES, Harness
from tests.fuzz.report import Report


def read_record(path: Path) -> tuple[int, list[str]]:
    """The seed and lines of a recorded run; its ``file:`` paths point at ``FILES`` again."""
    rows = [json.loads(r) for r in path.read_text(encoding="utf-8").splitlines() if r.strip()]
    old = rows[0].get("files")
    lines = [str(r) for r in rows[1:]]
    if old:
        lines = [line.replace(old, FILES) for line in lines]
    return int(rows[0]["seed"]), lines



async def replay(seed: int, lines: Sequence[str], *, verbose: bool = False) -> Report:
    with tempfile.TemporaryDirectory(prefix="tavolo-fuzz-") as folder:
        async with Harness(seed, Path(folder), max_lines=len(lines), max_seconds=float("inf"),
                           verbose=verbose) as harness:
            return await harness.replay(lines)


async def minimize(seed: int, lines: list[str], signature: str | None = None) -> tuple[list[str], str]:
    """Delta debugging: drop chunks of lines while the same failure (by signature) remains."""

    async def fails(candidate: list[str]) -> bool:
        report = await replay(seed, candidate)
        return any(f.signature == signature for f in report.failures)

    report = await replay(seed, lines)
    if not report.failures:
        raise SystemExit("the recorded lines do not fail any more")
    if signature is None:
        signature = report.failures[0].signature
    lines = lines[: next(f.index for f in report.failures if f.signature == signature) + 1]
    if await fails(lines[-1:]):
        return lines[-1:], signature
    chunks = 2
    while len(lines) >= 2:
        size = max(1, len(lines) // chunks)
        reduced = False
        for start in range(0, len(lines) - 1, size):
            candidate = lines[:start] + lines[start + size:]
            if candidate and candidate[-1] == lines[-1] and await fails(candidate):
                lines, chunks, reduced = candidate, max(chunks - 1, 2), True
                break
        if not reduced:
            if size == 1:
                break
            chunks = min(chunks * 2, len(lines))
    return lines, signature
