"""Rules corpus benchmark: import time per rulebook and search latency.

Run: ``python bench/rules.py [--seeds DIR] [--queries N]``. With the five seed rulebooks
present (default ``../shared/seeds`` next to the repository) each is imported and timed;
otherwise a generated corpus of the same size is used. Then N queries (section ids, one to
three words, typos, English terms) are timed through ``RulesService.search``. Prints a table;
the numbers go into closing notes, never into timed unit tests.

``--postgres URL`` (default: ``TAVOLO_TEST_POSTGRES``) runs the same on PostgreSQL too, in a schema of
its own (created, then dropped with everything in it): the same corpus, then the same queries with the
two backends taking turns query by query, printed side by side with the machine's load
(``os.getloadavg``), as issue 28's target (PostgreSQL search p99 ≤ 10 ms) is read in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from db import rules as repo
from db.backend import open_store
from db.store import Store
from gm.rules.search import words
from gm.rules.service import RulesService

ROOT = Path(__file__).resolve().parent.parent
SEED_SYSTEMS = {"000": "wowminis", "001": "warlord", "002": "krosmaster", "003": "mageknight", "004": "wowboard"}
SEED_SIZES = (60_853, 38_403, 114_527, 6_082, 128_946)
ENGLISH = ["line of sight", "lock", "reroll", "attack", "damage", "wound", "turn", "summon", "spell", "range",
           "dice", "critical", "armor", "health", "quest", "initiative", "glory", "taunt", "elevated"]


def _seed_files(folder: Path) -> list[tuple[str, Path]]:
    if not folder.is_dir():
        return []
    found = [(SEED_SYSTEMS[p.name[:3]], p) for p in sorted(folder.glob("0*.txt")) if p.name[:3] in SEED_SYSTEMS]
    return found if len(found) == 5 else []


def _generated(rng: random.Random) -> list[tuple[str, str, bytes]]:
    """Numbered Italian-looking rulebooks of the seeds' sizes (synthetic words)."""
    syllables = ["ca", "ro", "ten", "di", "lo", "mar", "vi", "sta", "pe", "gio", "ne", "tra", "so", "li", "za"]
    vocabulary = ["".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(3000)]
    docs = []
    for index, size in enumerate(SEED_SIZES):
        lines: list[str] = []
        total = 0
        section = 100
        while total < size:
            title = " ".join(rng.choices(vocabulary, k=3)).capitalize()
            lines.append(f"{section}. {title}")
            for sub in range(1, rng.randint(3, 9)):
                text = " ".join(rng.choices(vocabulary, k=rng.randint(12, 60))).capitalize() + "."
                lines += [f"{section}.{sub}.", text]
                total += len(text) + 12
            section += 1
        system = list(SEED_SYSTEMS.values())[index]
        docs.append((system, f"generated_{index}.txt", "\n".join(lines).encode()))
    return docs


def _typo(rng: random.Random, word: str) -> str:
    if len(word) < 5:
        return word
    i = rng.randrange(1, len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@asynccontextmanager
async def _store(postgres: str | None) -> AsyncIterator[Store]:
    """A SQLite file in a temporary folder, or a new schema on the PostgreSQL server (dropped after)."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as tmp:
            store = await Store.open(Path(tmp) / "bench.sqlite3")
            try:
                yield store
            finally:
                await store.close()
        return
    import asyncpg

    schema = f"tavolo_bench_{uuid.uuid4().hex[:12]}"
    parts = urlsplit(postgres)
    query = f"{parts.query}&search_path={schema}" if parts.query else f"search_path={schema}"
    admin = await asyncpg.connect(postgres)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        store = await open_store(urlunsplit(parts._replace(query=query)))
        try:
            yield store
        finally:
            await store.close()
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


async def main(seeds: Path, n_queries: int, postgres: str | None = None) -> None:
    """Both backends open at once (PostgreSQL when a URL is known), the same corpus imported into each,
    then the same queries taking turns query by query, so both meet the same machine load."""
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.1f}' for x in os.getloadavg())}; cores: {os.cpu_count()}")
    async with AsyncExitStack() as stack:
        stores = {"SQLite": await stack.enter_async_context(_store(None))}
        if postgres:
            stores["PostgreSQL"] = await stack.enter_async_context(_store(postgres))
        services = {name: RulesService(store) for name, store in stores.items()}
        corpus = ""
        for name, service in services.items():
            corpus, rows = await _import(service, seeds)
            print(f"Rules import ({corpus}) on {name} (load {os.getloadavg()[0]:.1f})")
            print(f"{'document':34} {'system':11} {'importer':10} {'sections':>8} {'seconds':>8}")
            for document, system, importer, sections, seconds in rows:
                print(f"{document[:34]:34} {system:11} {importer:10} {sections:8d} {seconds:8.3f}")
            total = sum(r[4] for r in rows[1:])
            print(f"{'total (rulebooks)':34} {'':11} {'':10} {sum(r[3] for r in rows[1:]):8d} {total:8.3f}")
            print()
        queries = await _queries(stores["SQLite"], services["SQLite"], n_queries)
        latencies: dict[str, list[float]] = {name: [] for name in services}
        hits = dict.fromkeys(services, 0)
        for service in services.values():
            await service.search(1, "warm up", None, "en")
        for query, system in queries:
            for name, service in services.items():
                started = time.perf_counter()
                found = await service.search(1, query, system, "it")
                latencies[name].append((time.perf_counter() - started) * 1000)
                hits[name] += bool(found)
    print(f"Search latency over {n_queries} queries (ms), the backends taking turns query by query; "
          f"load now {os.getloadavg()[0]:.1f}")
    print(f"{'backend':12} {'p50':>7} {'p99':>7} {'max':>7} {'mean':>7} {'with hits':>10}")
    for name, values in latencies.items():
        print(f"{name:12} {statistics.median(values):7.2f} {_pct(values, 0.99):7.2f} {max(values):7.2f} "
              f"{statistics.fmean(values):7.2f} {hits[name]:10d}")


async def _import(service: RulesService, seeds: Path) -> tuple[str, list[tuple[str, str, str, int, float]]]:
    """The digests and the rulebooks (the seeds, else a generated corpus of their sizes), each timed."""
    rng = random.Random(4)
    rows: list[tuple[str, str, str, int, float]] = []
    started = time.perf_counter()
    await service.load_builtin_digests()
    elapsed = time.perf_counter() - started
    digests = await service.sources(None)
    rows.append((f"{len(digests)} digests", "all", "digest", sum(d.sections for d in digests), elapsed))
    files = _seed_files(seeds)
    inputs = [(s, p.name, p.read_bytes()) for s, p in files] or _generated(rng)
    corpus = "seed rulebooks" if files else "generated corpus (seeds not found)"
    for system, name, data in inputs:
        started = time.perf_counter()
        info = await service.import_document(1, system, name, data)
        rows.append((name, system, info.importer, info.sections, time.perf_counter() - started))
    return corpus, rows


async def _queries(store: Store, service: RulesService, n_queries: int) -> list[tuple[str, str | None]]:
    """Section ids, one to three words, typos, English terms, drawn from the imported corpus."""
    rng = random.Random(4)
    conn = store.conn
    section_ids: list[tuple[str, str]] = []
    texts: list[tuple[str, str]] = []
    for source in await service.sources(1):
        for prefix in ("1", "2", "3", "4", "5", "6", "7", "a", "c", "p"):
            for row in await repo.section_ids(conn, 1, source.system, prefix, 40):
                section_ids.append((row.system, row.section_id))
                texts.append((row.system, row.text))
    pool = [(system, w) for system, text in texts for w in words(text) if len(w) > 3]
    queries: list[tuple[str, str | None]] = []
    for i in range(n_queries):
        kind = i % 5
        if kind == 0:
            system, sid = rng.choice(section_ids)
            queries.append((sid, system))
        elif kind == 1:
            system, word = rng.choice(pool)
            queries.append((word, system))
        elif kind == 2:
            system = rng.choice(pool)[0]
            queries.append((" ".join(w for _, w in rng.sample(pool, 3)), system))
        elif kind == 3:
            system, word = rng.choice(pool)
            queries.append((_typo(rng, word), system))
        else:
            queries.append((rng.choice(ENGLISH), rng.choice([None, *SEED_SYSTEMS.values()])))
    return queries


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds")
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--postgres", metavar="URL", default=os.environ.get("TAVOLO_TEST_POSTGRES") or None,
                        help="also run on this PostgreSQL server, in a schema of its own (default: "
                             "TAVOLO_TEST_POSTGRES; none: SQLite alone)")
    args = parser.parse_args()
    asyncio.run(main(args.seeds, args.queries, args.postgres))
