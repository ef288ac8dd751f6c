"""Rules corpus benchmark: import time per rulebook and search latency.

Run: ``python bench/rules.py [--seeds DIR] [--queries N]``. With the five seed rulebooks
present (default ``../shared/seeds`` next to the repository) each is imported and timed;
otherwise a generated corpus of the same size is used. Then N queries (section ids, one to
three words, typos, English terms) are timed through ``RulesService.search``. Prints a table;
the numbers go into closing notes, never into timed unit tests.

``--postgres URL`` runs the same on PostgreSQL too, in a schema of its own (created, then dropped
with everything in it), after the SQLite run: the same corpus, the same queries.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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
    await _run(seeds, n_queries, None)
    if postgres:
        print()
        await _run(seeds, n_queries, postgres)


async def _run(seeds: Path, n_queries: int, postgres: str | None) -> None:
    rng = random.Random(4)
    async with _store(postgres) as store:
        service = RulesService(store)
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
        await service.search(1, "warm up", None, "en")
        latencies: list[float] = []
        hits = 0
        for query, system in queries:
            started = time.perf_counter()
            found = await service.search(1, query, system, "it")
            latencies.append((time.perf_counter() - started) * 1000)
            hits += bool(found)

    print(f"Rules import ({corpus}) on {'PostgreSQL' if postgres else 'SQLite'}")
    print(f"{'document':34} {'system':11} {'importer':10} {'sections':>8} {'seconds':>8}")
    for name, system, importer, sections, seconds in rows:
        print(f"{name[:34]:34} {system:11} {importer:10} {sections:8d} {seconds:8.3f}")
    total = sum(r[4] for r in rows[1:])
    print(f"{'total (rulebooks)':34} {'':11} {'':10} {sum(r[3] for r in rows[1:]):8d} {total:8.3f}")
    print()
    print(f"Search latency over {len(latencies)} queries (ms): "
          f"p50 {statistics.median(latencies):.2f} · p99 {_pct(latencies, 0.99):.2f} · "
          f"max {max(latencies):.2f} · mean {statistics.fmean(latencies):.2f} · with hits {hits}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds")
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--postgres", metavar="URL", help="also run on this PostgreSQL server (own schema)")
    args = parser.parse_args()
    asyncio.run(main(args.seeds, args.queries, args.postgres))
