"""The attack order when one seat runs both characters of a fight (issue 26.6; combat-round.1, pvp-combat.2).

Who attacks first can change a fight (the first may end it; a card's "previous round" condition), so the
question is asked while two characters stand; but the usual answer, the order chosen last round, is the
first button, green and named "Same order", one click. With one character standing there is nothing to ask.
"""

from __future__ import annotations

from pathlib import Path

from console.runner import Console
from engines.wowboard.combat_state import Combat
from engines.wowboard.rules_fight import order_options
from engines.wowboard.state import State

SCRIPT = Path(__file__).resolve().parent / "full_game.txt"
SECOND_ORDER = 100  # the line of full_game.txt where bob orders his characters for the PvP's second round


def _lines() -> list[str]:
    return SCRIPT.read_text(encoding="utf-8").splitlines()[:SECOND_ORDER - 1]


def _out(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


async def test_the_second_round_offers_the_same_order_as_one_green_click(console: Console) -> None:
    lines = [line for line in _lines() if line.strip() and not line.startswith("#")]
    await console.run(lines)
    assert console.errors == 0
    tail = _out(console)[-700:]
    assert "1) Same order: Cantor → Ranger" in tail, tail
    mark = len(_out(console))
    await console.run(["/click 1"])
    clicked = _out(console)[mark:]
    assert console.errors == 0 and "Cantor" in clicked and "Same order" not in clicked  # answered, not asked again


async def test_in_italian_the_default_reads_come_prima(console: Console) -> None:
    lines = [line for line in _lines() if line.strip() and not line.startswith("#")]
    await console.run(["/lang it", *lines])
    assert "1) Come prima: Cantore → Ramingo" in _out(console)[-700:]


def test_one_character_standing_leaves_one_order_and_the_last_order_comes_first() -> None:
    combat = Combat(participants=["warden", "arcanist"], last_orders={"horde": ["arcanist", "warden"]})
    state = State.model_construct(combat=combat)
    assert order_options(state, combat, None)[0] == ["arcanist", "warden"]
    combat.fallen = ["arcanist"]
    assert order_options(state, combat, None) == [["warden"]]
