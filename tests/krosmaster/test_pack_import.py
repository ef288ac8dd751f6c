"""/km pack through the function the command uses (``gm.games.krosmaster.presenter.import_pack``): the file
is parsed and validated in an offload child, hostile packs are refused with a clear error,
and nothing is saved unless the whole pack is valid."""

from __future__ import annotations

import json

import pytest

from db.content_packs import list_packs
from engines.core.errors import RuleError, TavoloError
from engines.krosmaster.content import load_pack
from gm.app import App
from gm.context import Actor, Place
from gm.games.krosmaster import presenter as km
from gm.packs.reading import parse_pack
from tests.hostile import billion_laughs, deep_nesting

ADMIN = Actor(user_id=1, name="alice", can_manage_guild=True)
PLACE = Place(channel_id=100, guild_id=1)

ANCHORED_PACK = """\
name: anchored
figurines:
  - &imp
    id: imp_0
    name: Imp 0
    level: 1
    initiative: 1
    ap: 6
    mp: 3
    hp: 9
    spells:
      - &nip {id: nip, name: Nip, range: {type: melee}, amount: 1}
  - {<<: *imp, id: imp_1, name: Imp 1, spells: [*nip]}
  - {<<: *imp, id: imp_2, name: Imp 2, hp: 12}
  - {<<: *imp, id: imp_3, name: Imp 3, spells: [*nip, {<<: *nip, id: bite, name: Bite}]}
"""

async def _refused(app: App, filename: str, text: str) -> TavoloError:
    with pytest.raises(TavoloError) as err:
        await km.import_pack(app.store, PLACE, ADMIN, filename, text.encode(), None)
    assert await list_packs(app.store.conn, PLACE.guild_id, "krosmaster") == []
    return err.value


@pytest.mark.parametrize("levels", [8, 9])
async def test_billion_laughs_pack_is_refused_with_the_expansion_error(app: App, levels: int) -> None:
    assert (await _refused(app, "laughs.yaml", billion_laughs(levels))).key == "data.too_many_values"


@pytest.mark.parametrize("filename", ["deep.json", "deep.yaml"])
async def test_deeply_nested_pack_is_refused(app: App, filename: str) -> None:
    assert (await _refused(app, filename, deep_nesting(100_000))).key == "data.too_deep"


async def test_self_referencing_alias_pack_is_refused(app: App) -> None:
    assert (await _refused(app, "loop.yaml", "figurines: &a [*a]\n")).key == "data.recursive_alias"


async def test_validation_errors_come_back_from_the_child_naming_the_field(app: App) -> None:
    error = await _refused(app, "bad.json", json.dumps({"name": "broken", "figurines": [{"id": "x"}]}))
    assert isinstance(error, RuleError) and error.key == "km.err.pack_invalid"
    assert error.params["field"].startswith("figurines.0")


async def test_a_pack_reusing_an_anchor_loads_and_is_saved(app: App) -> None:
    reply = await km.import_pack(app.store, PLACE, ADMIN, "anchored.yaml", ANCHORED_PACK.encode(), None)
    assert 'Content pack "anchored" saved: 4 figurines' in reply.text
    assert await list_packs(app.store.conn, PLACE.guild_id, "krosmaster") == ["anchored"]


_BUDGET_CHECK = """
import asyncio
from engines.core.errors import TavoloError
from engines.krosmaster.content import load_pack
from gm.workers import offload
from gm.packs.reading import read_pack

TEXT = "name: &n " + "x" * 60_000 + "\\njunk: [" + ", ".join(["*n"] * 30) + "]\\n"


async def main() -> None:
    for budget in (offload.Budget(seconds=30, memory_mb=1), None):
        try:
            await read_pack(TEXT, "big.yaml", load_pack, **({"budget": budget} if budget else {}))
        except TavoloError as exc:
            print(exc.key, exc.params.get("memory_mb", ""))

asyncio.run(main())
"""


def test_pack_reading_has_its_own_budget() -> None:
    """Within the expansion bounds (1.8 MB of text once expanded), but load_pack's size check
    serializes the expanded data: too big for a 1 MB budget, refused by size otherwise.

    In a fresh interpreter: the budget caps a child's address space at its size when forked plus
    the budget, and a child forked from a fork server that has drawn the render warm-up (another
    test may have started it) finds megabytes of freed heap to parse in without growing, so 1 MB
    would not bind there. Real budgets (256 MB for packs) dwarf that slack."""
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run([sys.executable, "-c", _BUDGET_CHECK], capture_output=True, text=True, timeout=120,
                          check=True, cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.splitlines() == ["limits.too_much_memory 1", "km.err.pack_too_big "]


def test_yaml_and_json_pack_text() -> None:
    text = "name: mine\nfigurines:\n  - id: blob\n    name: Blob\n    level: 12\n    initiative: 1\n" \
           "    ap: 6\n    mp: 3\n    hp: 9\n    spells:\n      - id: ooze\n        name: Ooze\n" \
           "        range: {type: melee}\n        amount: 1\n"
    assert parse_pack(text, "mine.yaml", load_pack)["figurines"][0]["id"] == "blob"
    assert parse_pack(json.dumps({"name": "j"}), "j.json", load_pack)["name"] == "j"
