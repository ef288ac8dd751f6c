"""``python bot.py --check-db``: what the configured database is and holds, before a bot starts on it.

An operator moving a server to PostgreSQL, or starting a second process, wants to know at a glance
that the settings point where they think (which backend, which database), that the schema is at the
migration level this code expects (``schema_migrations``), and roughly what is there (games by status,
actions, rolls, rules, packs). Read-only: opening the store applies pending migrations, as a start
would, and nothing else is written.
"""

from __future__ import annotations

from typing import Any

from common.i18n import t

TABLES = ("games", "seats", "actions", "rolls", "content_packs", "guild_settings", "rules_documents",
          "rules_sections", "mk_scores")


async def report(store: Any, lang: str, where: str, backend: str) -> list[str]:
    """Lines for the operator: backend and location, migration level against the code's, counts."""
    from db.database import migration_files

    conn = store.conn
    expected = max(n for n, _ in migration_files())
    rows = await conn.execute_fetchall("SELECT MAX(version) FROM schema_migrations")
    level = rows[0][0] if rows and rows[0][0] is not None else 0
    lines = [t("cli.check_db.backend", lang, backend=backend, where=where),
             t("cli.check_db.migrations", lang, level=level, expected=expected,
               state=t("cli.check_db.current" if level == expected else "cli.check_db.behind", lang))]
    counts = []
    for table in TABLES:
        found = await conn.execute_fetchall(f"SELECT COUNT(*) FROM {table}")  # fixed names, never input
        counts.append(f"{table} {found[0][0]}")
    lines.append(t("cli.check_db.counts", lang, counts=", ".join(counts)))
    statuses = await conn.execute_fetchall("SELECT status, COUNT(*) FROM games GROUP BY status ORDER BY status")
    if statuses:
        lines.append(t("cli.check_db.games", lang, games=", ".join(f"{r[0]} {r[1]}" for r in statuses)))
    return lines
