"""Latency of the table pipeline with a no-op engine, and of a bare commit.

Run: ``python bench/tables.py [--actions N]``. Prints p50/p99 in milliseconds and
throughput; the numbers go into closing notes, never into timed unit tests.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from db import games as repo
from engines import registry
from engines.core.contract import GameState, Outcome, Setup
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.events import Event
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings


class NoopState(GameState):
    moves: int = 0


class Pass(BaseModel):
    kind: Literal["pass"] = "pass"


class NoopEngine:
    """Accepts ``pass`` from anyone, forever: measures the pipeline, not rules."""

    system: ClassVar[str] = "noop"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 2

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        return options

    def new_game(self, setup: Setup, dice: Dice) -> NoopState:
        return NoopState()

    def decision(self, state: NoopState) -> Decision:  # type: ignore[override]
        return Decision(seats=[0])

    def legal_actions(self, state: NoopState, seat: int) -> list[Pass]:  # type: ignore[override]
        return [Pass()]

    def parse_action(self, data: dict[str, Any]) -> Pass:
        return Pass.model_validate(data)

    def apply(self, state: NoopState, seat: int, action: Any, dice: Dice) -> list[Event]:  # type: ignore[override]
        state.moves += 1
        return [Event(key="game.dice_rolled", params={"rolls": []})]

    def view(self, state: NoopState, seat: int | None) -> NoopState:  # type: ignore[override]
        return state

    def outcome(self, state: NoopState) -> Outcome | None:  # type: ignore[override]
        return None

    def load_state(self, data: str) -> NoopState:
        return NoopState.model_validate_json(data)


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return p50 * 1000, p99 * 1000


async def main(actions: int) -> None:
    registry.register(NoopEngine())
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(DATABASE_PATH=Path(folder) / "bench.sqlite3", _env_file=None)
        app = await App.open(settings, seed=1)
        place, actor = Place(channel_id=1, guild_id=1), Actor(user_id=1, name="bench")
        await app.tables.new(place, actor, "noop")
        await app.tables.start(place, actor)

        act_samples = []
        start = time.perf_counter()
        for _ in range(actions):
            t0 = time.perf_counter()
            await app.tables.act(place, actor, {"kind": "pass"})
            act_samples.append(time.perf_counter() - t0)
        elapsed = time.perf_counter() - start

        commit_samples = []
        game = await repo.open_game(app.store.conn, 1)
        assert game is not None
        version = game.version
        for _ in range(actions):
            t0 = time.perf_counter()
            async with app.store.transaction() as conn:
                await repo.append_action(conn, game.id, user_id=1, seat=0, kind="pass", action={}, events=[],
                                         state_before=game.state, undoable=True)
                version = await repo.update_game(conn, game.id, version, state=game.state)
            commit_samples.append(time.perf_counter() - t0)
        await app.close()

    rows = [
        ("act pipeline (no-op engine)", *_percentiles(act_samples), actions / elapsed),
        ("commit (append + versioned update)", *_percentiles(commit_samples),
         len(commit_samples) / sum(commit_samples)),
    ]
    print(f"{'measure':<38}{'p50 ms':>10}{'p99 ms':>10}{'per s':>10}")
    for name, p50, p99, rate in rows:
        print(f"{name:<38}{p50:>10.3f}{p99:>10.3f}{rate:>10.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=2000)
    asyncio.run(main(parser.parse_args().actions))
