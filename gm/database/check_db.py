"""``python bot.py --check-db``: what the configured database is and holds, before a bot starts on it.

An operator moving a server to PostgreSQL, or starting a second process, wants to know at a glance
that the settings point where they think (which backend, which database), that the schema is at the
migration level this code expects (``schema_migrations``), and roughly what is there (games by status,
actions, rolls, rules, packs). Read-only: opening the store applies pending migrations, as a start
would, and nothing else is written.

The tables of issue 32 (migrations 017, 019 and 020: ratings, vacations, chosen reminders, turn clocks)
and the end-of-game summaries kept in finished games' options are also checked row by row (``PROBLEMS``):
rows of a seat or game that is not there (nothing deletes games, and SQLite enforces foreign keys only on a
connection that asks), and rows this code would misread (a stamp ``gm.timefmt`` did not write, a negative
bank, a quiet hour out of the day, a time zone ``zoneinfo`` does not know, a summary ``gm.table.summary``
cannot word). Each check is one count; every finding is a line naming the table, the count and why.
"""

from __future__ import annotations

import json
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from common.i18n import t
from gm.table.summary import SUMMARY

TABLES = ("games", "seats", "actions", "rolls", "content_packs", "guild_settings", "rules_documents",
          "rules_sections", "mk_scores", "ratings", "rating_changes", "vacations", "notify_prefs",
          "reminder_outbox", "seat_clocks", "away_spans")


def _bad_stamp(column: str) -> str:
    """A stamp not as ``gm.timefmt.iso`` writes it (``2026-03-01T12:00:00.000Z``): string order is time order
    only for those. The same SQL on both backends (``_`` is LIKE's one-character wildcard in both)."""
    return f"({column} IS NOT NULL AND (length({column}) <> 24 OR {column} NOT LIKE '____-__-__T__:__:__.___Z'))"


_SPAN = f"x.ends_at <= x.starts_at OR {_bad_stamp('x.starts_at')} OR {_bad_stamp('x.ends_at')}"
_NO_GAME = "NOT EXISTS (SELECT 1 FROM games g WHERE g.id = x.game_id)"
# (table, why, rows that are wrong): counted as ``SELECT COUNT(*) FROM table x WHERE …``; fixed text, never input
PROBLEMS: tuple[tuple[str, str, str], ...] = (
    ("seat_clocks", "cli.check_db.why.no_seat",
     "NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = x.game_id AND s.seat = x.seat)"),
    ("seat_clocks", "cli.check_db.why.bad_clock",
     "x.bank_s < 0 OR x.flagged NOT IN (0, 1) OR (x.since IS NULL) <> (x.zero_at IS NULL)"
     f" OR {_bad_stamp('x.since')} OR {_bad_stamp('x.zero_at')}"),
    ("away_spans", "cli.check_db.why.bad_span", _SPAN),
    ("vacations", "cli.check_db.why.bad_span", _SPAN),
    ("notify_prefs", "cli.check_db.why.bad_prefs",
     "x.quiet_start < 0 OR x.quiet_start > 23 OR x.quiet_end < 0 OR x.quiet_end > 23"
     " OR (x.quiet_start IS NULL) <> (x.quiet_end IS NULL) OR x.digest NOT IN (0, 1)"),
    ("reminder_outbox", "cli.check_db.why.no_game", _NO_GAME),
    ("reminder_outbox", "cli.check_db.why.bad_stamp",
     f"{_bad_stamp('x.updated_at')} OR {_bad_stamp('x.send_after')} OR {_bad_stamp('x.claimed_at')}"),
    ("rating_changes", "cli.check_db.why.no_game", _NO_GAME),
    ("rating_changes", "cli.check_db.why.bad_rating", "x.sigma_before <= 0 OR x.sigma_after <= 0"),
)


def summary_readable(summary: Any) -> bool:
    """A stored summary as ``gm.table.summary.build`` writes it: ``turns`` a count or None, ``moment`` None or
    the decisive moment's numbers and names, ``finale`` (when an engine named the action that decided the
    game) its number, turn, catalog key and parameters (what ``summary.lines`` reads)."""
    if not isinstance(summary, dict) or not isinstance(summary.get("turns"), int | None):
        return False
    finale = summary.get("finale")
    if finale is not None and not (isinstance(finale, dict) and isinstance(finale.get("seq"), int)
                                   and isinstance(finale.get("turn"), int) and isinstance(finale.get("key"), str)
                                   and isinstance(finale.get("params"), dict)):
        return False
    moment = summary.get("moment")
    if moment is None:
        return True
    return (isinstance(moment, dict) and all(isinstance(moment.get(k), int) for k in ("seq", "turn", "seat", "gain"))
            and isinstance(moment.get("swing"), int) and all(isinstance(moment.get(k), str) for k in ("name", "kind")))


async def problems(conn: Any) -> list[tuple[str, str, int]]:
    """Every finding as (table, why, rows): the ``PROBLEMS`` counts, then the time zones and the summaries,
    which are read in Python (``zoneinfo``, JSON)."""
    found = []
    for table, why, where in PROBLEMS:
        rows = await conn.execute_fetchall(f"SELECT COUNT(*) FROM {table} x WHERE {where}")
        if rows[0][0]:
            found.append((table, why, int(rows[0][0])))
    zones = await conn.execute_fetchall("SELECT tz, COUNT(*) FROM notify_prefs WHERE tz IS NOT NULL GROUP BY tz")
    unknown = sum(int(count) for tz, count in zones if not _zone_known(str(tz)))
    if unknown:
        found.append(("notify_prefs", "cli.check_db.why.bad_tz", unknown))
    options = await conn.execute_fetchall(
        "SELECT options FROM games WHERE status = 'finished' AND options LIKE ?", (f'%"{SUMMARY}"%',))
    unreadable = 0
    for (text,) in options:
        try:
            kept = json.loads(text)
        except ValueError:
            kept = None
        unreadable += isinstance(kept, dict) and SUMMARY in kept and not summary_readable(kept[SUMMARY])
    if unreadable:
        found.append((f"games.options.{SUMMARY}", "cli.check_db.why.bad_summary", unreadable))
    return found


def _zone_known(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


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
    found = await problems(conn)
    lines += [t("cli.check_db.problem", lang, table=table, count=count, why=t(why, lang))
              for table, why, count in found] or [t("cli.check_db.no_problems", lang)]
    return lines
