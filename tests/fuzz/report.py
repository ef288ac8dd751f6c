"""What a fuzz run found: each failure (the line, where, what kind, a signature that
groups repeats of one bug) and the run's report — counts, rate, how to run it again, and
every distinct failure once with its traceback.

Kept apart from the harness so a report can be read, printed and asserted on without
the bot.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Failure:
    index: int
    line: str
    kind: str  # unexpected | traceback | logged | hang | output
    detail: str
    channel: str
    user: str
    signature: str = ""

    def short(self) -> str:
        last = next((ln for ln in reversed(self.detail.splitlines()) if ln.strip()), "")
        return (f"#{self.index} [{self.kind}] in #{self.channel} as {self.user}: {self.line[:300]!r}\n"
                f"    {self.signature} — {last.strip()[:200]}")


@dataclass
class Report:
    seed: int
    lines: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    db_problems: list[str] = field(default_factory=list)
    families: Counter[str] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    record: Path | None = None
    stopped_by: str = "lines"

    @property
    def rate(self) -> float:
        return self.lines / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        families = ", ".join(f"{k} {v} ({self.accepted[k]} accepted)" for k, v in sorted(self.families.items()))
        games = ", ".join(f"{k} {v}" for k, v in sorted(self.games.items()))
        text = (f"console fuzz seed={self.seed}: {self.lines} lines in {self.seconds:.1f} s "
                f"({self.rate:.0f} lines/s, stopped by {self.stopped_by}); {families}; games: {games}; "
                f"{len(self.failures)} failures, {len(self.db_problems)} database problems")
        text += (f"\n  run it again: python -m tests.fuzz.harness --seed {self.seed} --lines {self.lines}"
                 " (same lines, same dice)")
        if self.record:
            text += (f"\n  lines recorded in {self.record}; python -m tests.fuzz.harness --replay FILE"
                     " [--minimize] replays them")
        if self.warnings:
            text += "\n  warnings logged: " + "; ".join(f"{n}× {w}" for w, n in self.warnings.most_common(8))
        return text

    def describe(self, limit: int = 15) -> str:
        """Every distinct failure once (first occurrence), with the traceback."""
        out = [self.summary()]
        seen: dict[str, int] = Counter()  # type: ignore[assignment]
        for failure in self.failures:
            seen[failure.signature] += 1
        shown: set[str] = set()
        for failure in self.failures:
            if failure.signature in shown or len(shown) >= limit:
                continue
            shown.add(failure.signature)
            out.append(f"\n--- {seen[failure.signature]}× {failure.short()}\n{failure.detail.rstrip()}")
        out += [f"\n--- database: {p}" for p in self.db_problems]
        return "\n".join(out)
