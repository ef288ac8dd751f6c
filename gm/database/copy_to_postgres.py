"""Copy an SQLite database into PostgreSQL (issue 18): a server that grows moves its games, their
history, the rolls, the imported rulebooks and the content packs to the database several processes
can share, then checks the copy by counts and by loading every game.

Why a copy and not a dump: the two schemas differ in types (PostgreSQL has BYTEA, BOOLEAN and BIGINT
identities where SQLite has untyped columns), and old SQLite rows may still hold uncompressed history
(migration 004 converts them lazily on SQLite); each value is converted to its target column's type.
The target must be empty, so a copy can never mix two servers' data; identities continue after the
highest copied id.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from db import state_codec
from db.backend import open_store
from db.store import Store
from engines import registry
from gm.rules.corpus import index_missing

# Parents before children (foreign keys), as the migrations create them.
TABLES = ("games", "seats", "actions", "state_dicts", "reminder_claims", "rolls", "content_packs", "guild_settings",
          "rules_documents", "rules_sections", "mk_scores", "ratings", "rating_changes", "web_links", "web_secret",
          "vacations", "notify_prefs", "reminder_outbox", "seat_clocks", "away_spans")
BATCH = 500


class CopyRefused(Exception):
    """The copy cannot start (the target already holds data) or did not check out."""


@dataclass
class CopyReport:
    counts: dict[str, int] = field(default_factory=dict)
    games_loaded: int = 0
    games_unreadable: list[int] = field(default_factory=list)
    sections_indexed: int = 0


async def copy_database(source: Path, target_url: str, *, pool_size: int = 4) -> CopyReport:
    import importlib

    from gm.app import GAME_MODULES

    for module in GAME_MODULES:  # the engines that check every copied game loads
        importlib.import_module(module)
    if not Path(source).is_file():  # opening it would create an empty database and copy nothing
        raise CopyRefused(f"there is no SQLite database at {source}")
    async with contextlib.AsyncExitStack() as stores:
        # each store closed whatever fails next: an open SQLite connection's thread would keep the
        # process alive after the error was printed
        src = await open_store(source)
        stores.push_async_callback(src.close)
        dst = await open_store(target_url, pool_size=pool_size)
        stores.push_async_callback(dst.close)
        return await _copy(src, dst)


async def _copy(src: Store, dst: Store) -> CopyReport:
    """Every table into an empty target, then the counts and every game checked."""
    existing = await dst.conn.execute_fetchall("SELECT COUNT(*) FROM games")
    if existing[0][0]:
        raise CopyRefused(f"the target already holds {existing[0][0]} games: copy into an empty database")
    report = CopyReport()
    for table in TABLES:
        report.counts[table] = await _copy_table(src, dst, table)
    # SQLite's FTS5 index does not copy: PostgreSQL's is written from the sections' own text.
    report.sections_indexed = await index_missing(dst)
    await _check(dst, report)
    return report


async def _target_columns(dst: Store, table: str) -> dict[str, str]:
    rows = await dst.conn.execute_fetchall(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_name = ? AND table_schema = current_schema()", (table,))
    return {r[0]: r[1] for r in rows}


def _convert(value: Any, kind: str, table: str, column: str) -> Any:
    """A SQLite value as the PostgreSQL column wants it."""
    if value is None:
        return None
    if kind == "boolean":
        return bool(value)
    if kind == "bytea":
        if isinstance(value, str):  # history saved before migration 004 compressed it
            return state_codec.encode(value, None) if (table, column) == ("actions", "state_before") \
                else value.encode("utf-8")
        return bytes(value)
    if kind in ("bigint", "integer", "smallint") and isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    if kind in ("text", "character varying") and isinstance(value, bytes):
        return value.decode("utf-8")
    return value


async def _copy_table(src: Store, dst: Store, table: str) -> int:
    target = await _target_columns(dst, table)
    rows = await src.conn.execute_fetchall(f"PRAGMA table_info({table})")  # fixed names, never input
    columns = [r[1] for r in rows if r[1] in target]
    if not columns:
        return 0
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    data = await src.conn.execute_fetchall(f"SELECT {names} FROM {table} ORDER BY rowid")
    for start in range(0, len(data), BATCH):
        chunk = [tuple(_convert(row[i], target[c], table, c) for i, c in enumerate(columns))
                 for row in data[start:start + BATCH]]
        async with dst.transaction() as conn:
            await conn.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", chunk)
    if "id" in columns:  # new rows continue after the copied ids
        await dst.write(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 1),"
                        f" MAX(id) IS NOT NULL) FROM {table}")
    return len(data)


async def _check(dst: Store, report: CopyReport) -> None:
    """Counts equal table by table, and every saved game loads with this code's engines."""
    for table in TABLES:
        theirs = await dst.conn.execute_fetchall(f"SELECT COUNT(*) FROM {table}")
        if theirs[0][0] != report.counts[table]:
            raise CopyRefused(f"{table}: {report.counts[table]} rows read, {theirs[0][0]} in the target")
    games = await dst.conn.execute_fetchall("SELECT id, system, state FROM games WHERE state IS NOT NULL ORDER BY id")
    for game_id, system, state in games:
        engine = registry.get(system)
        try:
            if engine is None:
                raise LookupError(system)
            engine.load_state(state)
        except Exception:
            report.games_unreadable.append(game_id)
            continue
        report.games_loaded += 1
