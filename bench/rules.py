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

Also on PostgreSQL, unless ``--no-before``: "PostgreSQL 012", a third schema migrated only up to 012,
searched the way the code did before migration 013 (``_LegacyRules``: the vocabulary statement over
``rules_terms``' per-document rows, with every glossary stem of the system looked up; ``_LegacyPool``: the
ranked match whose generic plan parsed the query once per section). It takes its turn
with the others, so before and after are measured in one run under the same load, and every query's hits
are compared with the current path's (they must be the same sections in the same order).
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
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from db import rules as repo
from db.backend import open_store
from db.database import migration_files
from db.pg import PG_MIGRATIONS_DIR, PgPool, open_pool
from db.pg import migrate as pg_migrate
from db.pg_store import PgStore
from db.store import Store
from gm.rules.search import GlossaryIndex, query_forms, words
from gm.rules.service import TYPO_MIN_LEN, RulesService

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


async def _server_pids(store: Store) -> list[int]:
    """The PostgreSQL backends of a store's pool (none on SQLite): every connection it holds, taken at
    once so that each is a different one, asked for its process id."""
    pool = getattr(store.conn, "pool", None)
    if pool is None:
        return []
    held = [await pool.acquire() for _ in range(pool.get_size())]
    try:
        return [int(await conn.fetchval("SELECT pg_backend_pid()")) for conn in held]
    finally:
        for conn in held:
            await pool.release(conn)


def _cpu_ms(pids: list[int]) -> float:
    """CPU time (user + system) the processes ``pids`` used so far, from ``/proc`` (the server runs on
    this machine in the bench; 0 for a process that is gone or unreadable)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of the line)
    return total * 1000 / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# The vocabulary statement as it was before migration 013 (db/rules.py at 012): the lookups read
# ``rules_terms``, one row per (term, document), and ``rules_similar_terms`` is 011's, grouping its copies.
_LEGACY_FIRSTS = (
    "firsts AS MATERIALIZED (SELECT e.form, e.prefix, (SELECT t.term FROM rules_terms t WHERE t.term >= e.form"
    " ORDER BY t.term LIMIT 1) AS first FROM unnest(CAST(:forms AS text[]), CAST(:prefix AS boolean[]))"
    " AS e(form, prefix))"
)
_LEGACY_ANY_TERM = "SELECT CASE WHEN EXISTS (SELECT FROM rules_terms) THEN NULL ELSE '' END"
# The ranked match before issue 28: the tsquery subquery could be flattened, so a generic plan (asyncpg's
# prepared statements get one after five runs) parsed the query text again for every section it tested.
_QUERY_ONCE, _LEGACY_QUERY = " AS query OFFSET 0) q", " AS query) q"


class _LegacyPool(PgPool):
    """``Store.conn`` of the "PostgreSQL 012" schema: the current repository's statements, with the ranked
    match written as it was before issue 28."""

    async def _run(self, sql: str, params: Any) -> Any:
        return await super()._run(sql.replace(_QUERY_ONCE, _LEGACY_QUERY), params)


class _LegacyRules(RulesService):
    """``RulesService`` planning PostgreSQL queries as before migration 013: every glossary stem of the
    system looked up in every query, the lookups and the typo search over ``rules_terms``. Only for a
    schema migrated up to 012 (``_store(…, before=True)``)."""

    async def _vocab_for(self, query: str, glossary: GlossaryIndex) -> tuple[list[str], bool]:
        forms = query_forms(query)
        every = {form for _, alternatives in forms for form in alternatives}
        typo_forms: list[str] = []
        typo_words: list[int] = []
        for index, (word, alternatives) in enumerate(forms):
            if len(word) >= TYPO_MIN_LEN:
                typo_forms += sorted(alternatives)
                typo_words += [index] * len(alternatives)
        rows = await self.store.conn.execute_fetchall(
            f"WITH {_LEGACY_FIRSTS}, found AS ({repo._FOUND}),"
            " typo AS (SELECT w.form, w.word FROM unnest(CAST(:typo_forms AS text[]), CAST(:typo_words AS int[]))"
            " AS w(form, word)),"
            " misspelled AS (SELECT DISTINCT y.form FROM typo y WHERE NOT EXISTS"
            " (SELECT FROM typo o JOIN found f ON f.form = o.form WHERE o.word = y.word))"
            f" SELECT form FROM found UNION ALL {repo._PREFIX_FIRSTS} UNION ALL {_LEGACY_ANY_TERM}"
            " UNION ALL SELECT * FROM rules_similar_terms(ARRAY(SELECT form FROM misspelled ORDER BY form), 40)",
            {**repo._lookups(every | set(glossary.by_stem), {form for form in every if len(form) >= 3}),
             "typo_forms": typo_forms, "typo_words": typo_words},
        )
        found, indexed = repo._found(rows)
        return sorted(found), indexed


@asynccontextmanager
async def _store(postgres: str | None, before: bool = False) -> AsyncIterator[Store]:
    """A SQLite file in a temporary folder, or a new schema on the PostgreSQL server (dropped after);
    ``before``: that schema migrated up to 012 only (the schema ``_LegacyRules`` reads)."""
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
        url = urlunsplit(parts._replace(query=query))
        if before:
            with tempfile.TemporaryDirectory() as tmp:
                for number, path in migration_files(PG_MIGRATIONS_DIR):
                    if number <= 12:
                        (Path(tmp) / path.name).write_bytes(path.read_bytes())
                pool = await open_pool(url)
                await pg_migrate(pool, Path(tmp))
            assert _QUERY_ONCE in repo._pg_match("m", None)[0], "bench/rules.py: update _QUERY_ONCE"
            store: Store = PgStore(_LegacyPool(pool), url)
        else:
            store = await open_store(url)
        try:
            yield store
        finally:
            await store.close()
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


async def main(seeds: Path, n_queries: int, postgres: str | None = None, before: bool = True) -> None:
    """Every backend open at once (PostgreSQL when a URL is known, and its path before 013 unless
    ``before`` is false), the same corpus imported into each, then the same queries taking turns query
    by query, so all meet the same machine load."""
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.1f}' for x in os.getloadavg())}; cores: {os.cpu_count()}")
    async with AsyncExitStack() as stack:
        stores = {"SQLite": await stack.enter_async_context(_store(None))}
        services: dict[str, RulesService] = {"SQLite": RulesService(stores["SQLite"])}
        if postgres and before:
            stores["PostgreSQL 012"] = await stack.enter_async_context(_store(postgres, before=True))
            services["PostgreSQL 012"] = _LegacyRules(stores["PostgreSQL 012"])
        if postgres:
            stores["PostgreSQL"] = await stack.enter_async_context(_store(postgres))
            services["PostgreSQL"] = RulesService(stores["PostgreSQL"])
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
        differing: list[str] = []  # queries whose hits on PostgreSQL differ from its path before 013
        for service in services.values():
            await service.search(1, "warm up", None, "en")
        # CPU per query, the load-proof figure: this process's (the client's, and SQLite's thread) around
        # each search, plus the server's backends over the whole loop (each serves one store only)
        client_cpu = dict.fromkeys(services, 0.0)
        pids = {name: await _server_pids(store) for name, store in stores.items()}
        server_cpu = {name: -_cpu_ms(pids[name]) for name in services}
        for query, system in queries:
            results = {}
            for name, service in services.items():
                started, cpu = time.perf_counter(), time.process_time()
                found = await service.search(1, query, system, "it")
                client_cpu[name] += (time.process_time() - cpu) * 1000
                latencies[name].append((time.perf_counter() - started) * 1000)
                hits[name] += bool(found)
                results[name] = [(hit.document, hit.section_id) for hit in found]
            if "PostgreSQL 012" in results and results["PostgreSQL 012"] != results["PostgreSQL"]:
                differing.append(query)
        server_cpu = {name: spent + _cpu_ms(pids[name]) for name, spent in server_cpu.items()}
    print(f"Search latency over {n_queries} queries (ms), the backends taking turns query by query; "
          f"load now {os.getloadavg()[0]:.1f}")
    print(f"{'backend':15} {'p50':>7} {'p99':>7} {'max':>7} {'mean':>7} {'with hits':>10} {'p99 ÷ SQLite':>13}"
          f"  CPU per query: {'client':>6} {'server':>6} {'total':>6} {'÷ SQLite':>8}")
    sqlite_p99 = _pct(latencies["SQLite"], 0.99)
    n = len(queries)
    sqlite_cpu = client_cpu["SQLite"] / n
    for name, values in latencies.items():
        cpu = (client_cpu[name] + server_cpu[name]) / n
        print(f"{name:15} {statistics.median(values):7.2f} {_pct(values, 0.99):7.2f} {max(values):7.2f} "
              f"{statistics.fmean(values):7.2f} {hits[name]:10d} {_pct(values, 0.99) / sqlite_p99:12.2f}×"
              f"  {'':14} {client_cpu[name] / n:6.2f} {server_cpu[name] / n:6.2f} {cpu:6.2f} {cpu / sqlite_cpu:7.2f}×")
    if "PostgreSQL 012" in latencies:
        print(f"PostgreSQL p99 ÷ its path before 013: "
              f"{_pct(latencies['PostgreSQL'], 0.99) / _pct(latencies['PostgreSQL 012'], 0.99):.2f}; "
              f"queries whose hits differ between the two: {len(differing)} of {len(queries)} {differing[:5]}")


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
    parser.add_argument("--no-before", action="store_true",
                        help="skip PostgreSQL's search path before migration 013 (``PostgreSQL 012``)")
    args = parser.parse_args()
    asyncio.run(main(args.seeds, args.queries, args.postgres, before=not args.no_before))
