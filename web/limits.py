"""Rate limits per client address and per token: token buckets, bounded in memory.

A page at 4× play asks for about eight things a second (a picture and a step's words, four times), so a
viewer never meets the limit; a script hammering one address or one link does, and gets 429 with a
``Retry-After``. Each bucket map keeps at most ``max_keys`` keys, the least recently used dropped first,
so a flood of fresh addresses costs bounded memory (a dropped key starts again with a full bucket,
which only makes the limit kinder).
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    burst: float  # requests a key may make at once
    per_second: float  # requests it may keep making


class Buckets:
    def __init__(self, rate: Rate, max_keys: int = 10000) -> None:
        self.rate = rate
        self.max_keys = max_keys
        self._buckets: collections.OrderedDict[str, tuple[float, float]] = collections.OrderedDict()

    def take(self, key: str, now: float | None = None) -> float:
        """0 when the request may go on, else the seconds until it could."""
        now = time.monotonic() if now is None else now
        level, at = self._buckets.pop(key, (self.rate.burst, now))
        level = min(self.rate.burst, level + (now - at) * self.rate.per_second)
        wait = 0.0
        if level >= 1:
            level -= 1
        else:
            wait = (1 - level) / self.rate.per_second
        self._buckets[key] = (level, now)
        if len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait
