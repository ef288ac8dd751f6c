"""What reading a position back costs, for all five games: the whole parse then, the schema's load now.

Run: ``python bench/state_parse.py [--acts N] [--games warlord,...]``.

The table parses its committed state before every act (``gm.table.core._working``: a private copy for the
engine to change), on the event loop, and a render worker parses each picture's view. Each game's own bench
policy plays ``--acts`` actions through ``TableManager`` (``bench/state_codec.py``'s pairs), and for every
committed state and its public view, side by side in this process, the two ways take turns state by state:

- the whole JSON through pydantic (``model_validate_json``), what every load did before;
- ``engine.load_state`` (the state) and ``state_versions.parse_json`` (the view), what the table and the
  worker do now: a schema with a shared part (Warlord's card definitions, ``SharedPart``) parses it once per
  distinct text.

Printed: median and p99 CPU ms per state, the ratio of the medians, with the load and the machine's speed.
The parsed results are compared (equal, or the run stops).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.state_codec import _pairs, per_game


def _turns(texts: list[str], then: Callable[[str], object], now: Callable[[str], object]
           ) -> tuple[list[float], list[float]]:
    """CPU ms of each way, the two taking turns text by text, the best of three passes each."""
    best_then, best_now = [float("inf")] * len(texts), [float("inf")] * len(texts)
    for _ in range(3):
        for k, text in enumerate(texts):
            start = time.process_time()
            then(text)
            middle = time.process_time()
            now(text)
            best_then[k] = min(best_then[k], middle - start)
            best_now[k] = min(best_now[k], time.process_time() - middle)
    return [v * 1000 for v in best_then], [v * 1000 for v in best_now]


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def report(game: str, acts: int) -> None:
    from engines import registry
    from engines.core.state_versions import parse_json

    states = [text for text, _dictionary in asyncio.run(_pairs(game, acts))]
    engine = registry.get(game)
    assert engine is not None
    model = type(engine.load_state(states[0]))
    views = [engine.view(engine.load_state(text), None).model_dump_json() for text in states]
    for text in states[:20]:
        assert engine.load_state(text) == model.model_validate_json(text)
    for text in views[:20]:
        assert parse_json(model, text) == model.model_validate_json(text)
    for label, texts, now in (("state", states, engine.load_state), ("view", views, lambda t: parse_json(model, t))):
        then_ms, now_ms = _turns(texts, model.model_validate_json, now)
        kb = statistics.median(len(t) for t in texts) / 1000
        print(f"{game:11s} {label:5s} {len(texts):5d} {kb:6.1f}"
              f"   {statistics.median(then_ms):6.3f} / {_p99(then_ms):6.3f}"
              f"   {statistics.median(now_ms):6.3f} / {_p99(now_ms):6.3f}"
              f"   {statistics.median(now_ms) / statistics.median(then_ms):5.2f}x")


def main() -> None:
    per_game(__doc__.split("\n\n")[0],
             ["CPU ms per text, median / p99; now ÷ then of the medians",
              "game        what   texts     KB   whole parse (then)   the schema's load (now)   ratio"], report)


if __name__ == "__main__":
    main()
