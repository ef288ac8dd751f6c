"""Upload parsing under one server's flood: how long another server's small pack import waits.

    python bench/offload_fairness.py [--seconds 10] [--bombs 2] [--runs 3]

The offload pool (``gm.workers.offload``) runs every server's upload parsing in a few child
slots. Server A's manager sends ``--bombs`` PDF bombs through ``/rules import`` (each one a
400-page PDF sharing one huge stream: it runs until the rules budget, ``--seconds``, kills it);
while they run, server B imports a 40 KB Krosmaster pack (the built-in one). The bench prints
B's wall time from the command to the saved pack, through the real services
(``RulesService.import_document`` and ``gm.games.krosmaster.presenter.import_pack``), in two
set-ups on the same machine in one run:

- then: one shared first-come queue (as before issue 28.2): ``per_guild`` = ``max_jobs``;
- now: parse jobs fair per guild (``per_guild`` = 1): A's bombs queue behind each other.

The real rules budget is 60 s; a smaller ``--seconds`` keeps the run short and changes only
"then" (B waits for a bomb's deadline). A bench, not a test: the exit code is always 0.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.games.krosmaster import presenter as km
from gm.rules.service import ensure_rules_service
from gm.settings import Settings
from gm.workers import offload
from tests.hostile import shared_stream_pdf

GUILD_A, GUILD_B = 1, 2
ADMIN = Actor(user_id=1, name="bench", can_manage_guild=True)
PACK = (Path(__file__).resolve().parent.parent / "engines" / "krosmaster" / "data" / "builtin.json").read_bytes()


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} CPUs"


async def one_run(app: App, bomb: bytes, bombs: int, run: int) -> float:
    """B's pack import time while A's bombs run; A's bombs are stopped afterwards."""
    service = await ensure_rules_service(app)
    flood = [asyncio.ensure_future(service.import_document(GUILD_A, "krosmaster", f"bomb{run}-{n}.pdf", bomb, "en"))
             for n in range(bombs)]
    while not offload._runner.queue.snapshot()[0].get(GUILD_A):  # A's first bomb is running
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)  # and every other one that may start has started
    started = time.perf_counter()
    await km.import_pack(app.store, Place(channel_id=2, guild_id=GUILD_B), ADMIN, "builtin.json", PACK,
                         f"b{run}", replace=True)
    waited = time.perf_counter() - started
    for task in flood:
        task.cancel()  # kills a running bomb's child, withdraws a queued one
    for outcome in await asyncio.gather(*flood, return_exceptions=True):
        if not isinstance(outcome, (asyncio.CancelledError, TavoloError)):
            print(f"  unexpected: a bomb ended with {outcome!r}")
    return waited


async def main(seconds: float, bombs: int, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as tmp:
        settings = Settings(DATABASE_PATH=Path(tmp) / "bench.sqlite3", RULES_IMPORT_SECONDS=seconds, _env_file=None)
        app = await App.open(settings, seed=None)
        await offload.warm_up()
        await (await ensure_rules_service(app)).ready()
        fair = offload.limits()
        shared = dataclasses.replace(fair, per_guild=fair.max_jobs)
        bomb = shared_stream_pdf(390_000, pages=400)
        print(f"{bombs} PDF bombs ({len(bomb) // 1024} KB each) from server A, rules budget {seconds:g} s, "
              f"{fair.max_jobs} slots; server B imports a {len(PACK) // 1024} KB pack. {load()}")
        results: dict[str, list[float]] = {"then: one shared queue": [], "now: fair per guild": []}
        for run in range(runs):
            for (name, waits), limits in zip(results.items(), (shared, fair), strict=True):
                offload.configure(limits)
                waits.append(await one_run(app, bomb, bombs, run))
                print(f"  run {run + 1} {name:<24} B waited {waits[-1]:7.2f} s   {load()}")
        offload.configure(fair)
        await app.close()
    print(f"{'set-up':<26} {'B median s':>10} {'B max s':>8}")
    for name, waits in results.items():
        print(f"{name:<26} {statistics.median(waits):>10.2f} {max(waits):>8.2f}")
    print(load())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="the rules import budget (the default is 60)")
    parser.add_argument("--bombs", type=int, default=2, help="PDF bombs server A sends at once")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.bombs, args.runs))
    sys.exit(0)
