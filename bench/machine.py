"""The machine's state beside a figure: its load, and its speed (not a bench itself)."""

from __future__ import annotations

import os
import time

SPEED_STEPS = 2_000_000


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def speed() -> float:
    """Milliseconds a fixed loop of Python (``SPEED_STEPS`` additions) takes here and now; lower is faster.

    Why beside the load: on this shared VM the load average of our own processes stayed at 1-2 while the
    same loop took 1.0, then 1.75 s for 10 M steps within the hour (2026-11-30). The neighbours a load
    average cannot see set the speed, and a figure in milliseconds follows it."""
    start = time.perf_counter()
    total = 0
    for step in range(SPEED_STEPS):
        total += step
    return (time.perf_counter() - start) * 1000


def line() -> str:
    """"load … on N cores, speed … ms": what a bench prints beside its figures."""
    return f"load {load()} on {os.cpu_count()} cores, speed {speed():.0f} ms ({SPEED_STEPS:,} loop steps)"
