"""Stored states are byte-deterministic for every game (issue 28.6).

The same seeded game must store the same bytes whatever the process: a state that depends on
PYTHONHASHSEED (a ``set`` turned into a list or a dict, as Mage Knight's dealt cards were: 16 of
17 stored states differed) makes two replays of one game disagree, and a saved game differ from
its copy. Each game's full console script is played in two processes with different hash seeds
(``stored_states_child.py``), and every stored row that holds a state or what made it is compared
byte for byte: the games' rows but their timestamps, the seats, the actions with their compressed
``state_before`` and the per-game compression dictionaries.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.db.stored_states_child import SCRIPTS, play_in_two_processes

HASH_SEEDS = ("1", "2")  # two seeds under which a set of Mage Knight card ids iterates differently
QUERIES = {
    "games": "SELECT id, guild_id, channel_id, system, status, options, state, version, created_by"
             " FROM games ORDER BY id",
    "seats": "SELECT * FROM seats ORDER BY game_id, seat",
    "actions": "SELECT game_id, seq, user_id, seat, kind, action, events, state_before, undoable, undone"
               " FROM actions ORDER BY game_id, seq",
    "state_dicts": "SELECT * FROM state_dicts ORDER BY game_id",
}


def _rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(db)
    try:
        return {table: conn.execute(sql).fetchall() for table, sql in QUERIES.items()}
    finally:
        conn.close()


def test_every_game_stores_the_same_bytes_under_two_hash_seeds(tmp_path: Path) -> None:
    runs = play_in_two_processes(tmp_path, HASH_SEEDS)
    first, second = HASH_SEEDS
    differences = []
    for game in SCRIPTS:
        one, two = _rows(runs[first] / f"{game}.sqlite3"), _rows(runs[second] / f"{game}.sqlite3")
        assert [row[4] for row in one["games"]] == ["finished"], f"{game}: the script no longer ends its game"
        assert len(one["actions"]) > 10, game
        for table in QUERIES:
            if len(one[table]) != len(two[table]):
                differences.append(f"{game}.{table}: {len(one[table])} rows against {len(two[table])}")
                continue
            differing = sum(a != b for a, b in zip(one[table], two[table], strict=True))
            if differing:
                differences.append(f"{game}.{table}: {differing} of {len(one[table])} rows differ")
    assert not differences, "stored bytes depend on PYTHONHASHSEED: " + "; ".join(differences)
