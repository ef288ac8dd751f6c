"""Turning the repositories' SQLite-flavoured SQL into PostgreSQL's, once per statement text.

The repositories keep one SQL text for both engines. Most of it is standard SQL already;
what is not is rewritten here, outside string literals and quoted identifiers:

- placeholders: ``?`` (positional) and ``:name`` (named, with a dict of parameters) become
  ``$1, $2…`` (a named parameter used twice is one ``$n``);
- ``a IS ?`` / ``a IS b`` (SQLite's null-safe equality) becomes ``IS NOT DISTINCT FROM``
  (``IS NULL``, ``IS NOT …``, ``IS TRUE``… are left alone). The repositories keep ``IS``:
  ``IS NOT DISTINCT FROM`` needs SQLite 3.39, newer than some Pythons ship;
- ``strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`` becomes the same text from ``to_char`` (UTC,
  milliseconds: the format ``gm/timefmt.py`` parses);
- ``json_extract(column, '$.key')`` becomes ``(column::jsonb ->> 'key')``.

Translations are cached by statement text: the repositories build few distinct texts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

SQLITE_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
# statement_timestamp: one value per statement, like SQLite's 'now'; UTC; three decimals.
PG_NOW = "to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

_JSON_EXTRACT = re.compile(r"json_extract\(\s*([A-Za-z_][\w.]*)\s*,\s*'\$\.([A-Za-z_]\w*)'\s*\)", re.IGNORECASE)
_NULL_SAFE_IS = re.compile(r"\bIS\s+(?!NOT\b|NULL\b|TRUE\b|FALSE\b|DISTINCT\b|UNKNOWN\b)", re.IGNORECASE)
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|SHOW|EXPLAIN)\b|\bRETURNING\b", re.IGNORECASE)


@dataclass(frozen=True)
class Statement:
    """One translated statement: its PostgreSQL text and how to order its arguments."""

    sql: str
    names: tuple[str, ...]  # named parameters in ``$n`` order; empty for positional ones
    positional: int  # how many ``?`` it had
    returns_rows: bool  # run with fetch (SELECT, RETURNING), else execute for the row count

    def arguments(self, params: Sequence[Any] | Mapping[str, Any] | None) -> list[Any]:
        if params is None:
            params = ()
        if isinstance(params, Mapping):
            return [params[name] for name in self.names]
        if self.names:
            raise TypeError("named placeholders need a mapping of parameters")
        values = list(params)
        if len(values) != self.positional:
            raise ValueError(f"statement has {self.positional} placeholders, {len(values)} values given")
        return values


def _segments(sql: str) -> list[tuple[bool, str]]:
    """``(is_code, text)`` pieces: code outside literals, quoted identifiers and comments."""
    pieces: list[tuple[bool, str]] = []
    start = i = 0
    n = len(sql)
    while i < n:
        ch = sql[i]
        if ch in ("'", '"'):
            end = i + 1
            while end < n:
                if sql[end] == ch:
                    if end + 1 < n and sql[end + 1] == ch:  # '' or "" inside: an escaped quote
                        end += 2
                        continue
                    break
                end += 1
            pieces.append((True, sql[start:i]))
            pieces.append((False, sql[i:end + 1]))
            start = i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            pieces.append((True, sql[start:i]))
            pieces.append((False, sql[i:end]))
            start = i = end
        else:
            i += 1
    pieces.append((True, sql[start:]))
    return [(code, text) for code, text in pieces if text]


@lru_cache(maxsize=1024)
def translate(sql: str) -> Statement:
    """The PostgreSQL form of one repository statement (see the module docstring)."""
    sql = sql.replace(SQLITE_NOW, PG_NOW)
    sql = _JSON_EXTRACT.sub(r"(\1::jsonb ->> '\2')", sql)
    out: list[str] = []
    names: list[str] = []
    positional = 0
    returns_rows = False
    for is_code, text in _segments(sql):
        if not is_code:
            out.append(text)
            continue
        text = _NULL_SAFE_IS.sub("IS NOT DISTINCT FROM ", text)
        if "RETURNING" in text.upper():
            returns_rows = True
        pieces: list[str] = []
        for part in re.split(r"(\?)", text):
            if part == "?":
                positional += 1
                pieces.append(f"${positional}")
            else:
                pieces.append(_NAMED.sub(lambda m: _named(m.group(1), names), part))
        out.append("".join(pieces))
    if positional and names:
        raise ValueError("a statement mixes ? and :name placeholders")
    translated = "".join(out)
    returns_rows = returns_rows or bool(_RETURNS_ROWS.match(translated))
    return Statement(translated, tuple(names), positional, returns_rows)


def _named(name: str, names: list[str]) -> str:
    if name not in names:
        names.append(name)
    return f"${names.index(name) + 1}"
