"""400.3-400.3c through the real cogs in the console: ``mind_control_game.txt`` (written by
``tools/wowm_mind_control.py --seed 1``) drafts the built-in Borrowed Will, plays it, and makes the taken
character attack one of its own party; control reverts at that turn's end and the game plays to its end.

The script: a booster draft for two; bob drafts Vessa Gravechant and Borrowed Will and takes alice's Brannoc
when Morvath, alice's too, stands in his reach; bob then plays Brannoc's turn (Hammer of Dawn on Morvath).
"""

from __future__ import annotations

from pathlib import Path

from common.i18n import t
from console.runner import Console
from engines.wowminis.rules_steps import card_option
from engines.wowminis.state import Pending
from gm.games.wowminis.choices import option_label, resolve_option
from tests.wowminis.builders import PACK, board, give
from tests.wowminis.test_ffa4_console import INTERNAL

SCRIPT = Path(__file__).resolve().parent / "mind_control_game.txt"


def _readable(output: str) -> list[str]:
    """What players read, less the "None" button: the English word for "no protector" (``wowm.ui.option_none``),
    which ``INTERNAL`` would take for a leaked Python ``None``."""
    none = f") {t('wowm.ui.option_none', 'en')} ·"
    return [line.split("  →  ")[0].replace(none, ") ·") for line in output.splitlines() if "[image]" not in line]


async def test_400_3_borrowed_will_played_in_the_console_turns_a_character_on_its_own_party(console: Console) -> None:
    lines = [x for x in SCRIPT.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    await console.run(lines)
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "(only bob) Your pick: Borrowed Will." in output  # drafted in secret (100.3)
    steps = [
        "Vessa Gravechant plays Borrowed Will (3 ticks, now at tick 5).",
        "Vessa Gravechant takes control of Brannoc Emberforge: bob plays its turn now, and its costs tick "
        "Vessa Gravechant too (400.3).",
        "➡️ Your turn, @bob. Brannoc Emberforge acts",  # the controller plays the nested turn (400.3, 501.2)
        "Vessa Gravechant's clock: 5 → 9 (cost of the character it controls (400.3a), 7 ahead).",
        "Brannoc Emberforge attacks Morvath the Hollow with Hammer of Dawn.",  # one of his own party (400.3a)
        "Morvath the Hollow takes 3 damage (4 health left).",
        "Brannoc Emberforge ends its turn.",
        "Brannoc Emberforge goes back to alice (400.3c).",
        "Vessa Gravechant's turn goes on.",
    ]
    at = 0
    for step in steps:  # in that order: taken, its turn, the cost on both clocks, the attack, back
        found = output.find(step, at)
        assert found >= 0, (step, output[at:at + 3000])
        at = found + len(step)
    assert "[buttons] 1) Face-down card 1 · 2) Face-down card 2" in output  # 602.2's question, no card ids (7.3)
    assert "🏆 Game over — winner: @alice (VP reached the goal)." in output
    assert [line for line in _readable(output) if INTERNAL.search(line)] == []



def test_602_2_a_card_answer_reads_as_its_name_or_its_slot_never_its_instance_id() -> None:
    """The 602.2 question the script meets: a face-up card by its name in the reader's language, a face-down one
    by its place in the bar (7.3), on the buttons and when typed back."""
    state = board()
    shown, = give(state, "brannoc-1", "aegis_of_light", face_up=True)
    hidden, = give(state, "brannoc-1", "veil_of_sanctuary")
    up, down = card_option(shown, 1), card_option(hidden, 2)
    assert option_label(state, up.value, up.params, "en") == "Aegis of Light"
    assert option_label(state, up.value, up.params, "it") == PACK.card("aegis_of_light").name_it
    assert option_label(state, down.value, down.params, "it") == "Carta coperta 2"
    state.pending = Pending(kind="exhaust_card", seat=0, params={"char": "Brannoc"}, options=[up, down])
    assert resolve_option(state, 0, "Face-down card 2") == hidden.id
