"""Issue 27, Mage Knight combat: what a group hit on its first evening, each reproduced through the
console (the real cogs) or the table, in English and Italian."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from common.i18n import t
from console.runner import Console
from engines.mageknight.state import State
from gm.context import Place
from gm.games.mageknight.text import rep_text, summary, why_block
from renderers import kit
from renderers.mageknight import render
from tests.mageknight.builders import act, combat

CHALLENGE = ["/as alice", '/game new mageknight options:"tier:2 site:rampaging seed:2"', "/game start"]
# Seed 2: Quickstep kills the Tusk Raiders at range; two units and Improvise block the Cinder Shamans, the
# last attacker, so the commit skips the damage phase and lands in the attack phase in the same message.
BLOCK_EVERYTHING = [*CHALLENGE, "/mk target enemies:tusk", "/mk play card:quickstep", "/mk commit", "/mk next",
                    "/mk target enemies:cinder", "/mk unit unit:pikes", "/mk unit unit:archers",
                    "/mk play card:improvise side:basic", '/mk choose option:"calm breath"', "/mk commit"]


def out(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


async def phase(console: Console) -> str:
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    tables = console.bot.app.tables
    table = await tables.table_for(place) or await tables.finished_game(place)
    return table.state.phase if table is not None and isinstance(table.state, State) else "lobby"


async def test_manual_dice_is_refused_with_the_reason_and_the_assist_way(console: Console) -> None:
    """27.1: ``dice:manual`` was accepted and the Source rolled by the bot anyway."""
    await console.run(["/as alice", '/game new mageknight options:"mode:challenge dice:manual"'])
    assert ("⚠️ Mage Knight combat cannot take dice:manual: the Source is rolled when the combat is dealt"
            in out(console))
    assert 'open an assist table and type the Source you rolled: options:"mode:assist source:red,blue,gold' \
        in out(console)
    assert await phase(console) == "lobby" and "lobby opened" not in out(console)
    await console.run(["/lang it", '/game new mageknight options:"dice:manual"'])
    assert "Il combattimento di Mage Knight non accetta dice:manual" in out(console)


async def test_next_after_a_block_that_skipped_to_the_attack_phase_asks_before_ending(console: Console) -> None:
    """27.2: a block commit moved on to the attack phase, and the ``/mk next`` meant for the block
    phase ended the combat with the Cinder Shamans standing."""
    await console.run(BLOCK_EVERYTHING)
    assert await phase(console) == "attack" and console.errors == 0, out(console)[-2000:]
    start = len(out(console))
    await console.execute("/mk next")
    asked = out(console)[start:]
    assert asked.startswith("(only alice) End the combat now? Cinder Shamans are still standing and you can "
                            "still attack: Intimidate, Quickstep. Whatever still stands survives.")
    assert "[buttons] 1) End the combat" in asked
    assert await phase(console) == "attack"
    await console.run(["/lang it", "/mk next"])
    assert "Finire ora il combattimento? Sciamani della Cenere sono ancora in piedi" in out(console)
    await console.execute("/click Finisci il combattimento")
    assert await phase(console) == "over"


async def test_the_end_the_combat_button_asks_too_and_a_stale_confirmation_is_refused(console: Console) -> None:
    await console.run(BLOCK_EVERYTHING)
    await console.execute("/click End the combat")  # the board's button
    assert "End the combat now?" in out(console) and await phase(console) == "attack"
    await console.run(["/mk target enemies:cinder", "/mk takeback"])  # the position moved on
    await console.execute("/click End the combat")
    assert await phase(console) == "attack"


async def test_the_hand_panel_says_what_each_card_could_do_in_this_phase(console: Console) -> None:
    """27.3: every card read "no use now" until a target was opened (Quickstep's ranged attack too)."""
    await console.run([*CHALLENGE, "/mk hand"])
    text = out(console)
    assert "• Quickstep ×2 (white): Move 2 · powered (white mana): Ranged Attack 3\n" \
           "               once a target is open: powered: Ranged Attack 3 (white die)" in text
    assert "• Hill Archers: once a target is open: Ranged Attack 3" in text
    assert "• Calm Breath (green): Heal 1 · powered (green mana): Heal 2\n               no use now" in text
    await console.run(["/lang it", "/mk hand"])
    assert "con un bersaglio aperto: potenziata: Attacco a Distanza 3 (dado bianco)" in out(console)


async def test_sideways_in_the_ranged_phase_names_the_rule(console: Console) -> None:
    """27.4: it said "Choose a target first"."""
    await console.run([*CHALLENGE, "/mk sideways card:quickstep"])
    assert "⚠️ No card may be played sideways in the ranged and siege phase." in out(console)
    assert "Choose a target first" not in out(console)
    await console.run(["/mk target enemies:tusk", "/mk sideways card:quickstep"])
    assert out(console).count("No card may be played sideways in the ranged and siege phase.") == 2


async def test_overkill_is_said_before_the_commit_and_in_the_result(console: Console) -> None:
    """27.5: 3 against armor 2 was committed without a word; the column says what goes to waste while
    it can still be taken back, and the result says it again."""
    await console.run([*CHALLENGE, "/mk target enemies:tusk", "/mk play card:quickstep"])
    assert "Attack on Tusk Raiders: 3 of 2 — enough, 1 more than needed (wasted): commit, or take back and play " \
           "less" in out(console)
    assert "[buttons] 1) Commit · 2) Take back" in out(console)
    await console.run(["/mk commit"])
    assert "Attack on Tusk Raiders: 3 against armor 2 (1 wasted)." in out(console)
    await console.run(["/lang it", "/game undo", "/mk target enemies:tusk", "/mk play card:quickstep"])
    assert "basta, 1 in più del necessario (sprecato): conferma, oppure riprendi e gioca meno" in out(console)


async def test_daily_in_a_channel_with_a_game_says_where_to_play(console: Console) -> None:
    """27.6: ``/mk daily`` in a busy channel gave no pointer."""
    await console.run([*CHALLENGE, "/mk daily"])
    assert ("⚠️ This channel already has a Mage Knight table (in play). The daily challenge needs a channel of its "
            "own: open a thread or go to another channel and type /mk daily there.") in out(console)
    await console.run(["/channel daily", "/mk daily"])
    assert "Daily challenge of" in out(console)


async def test_game_help_without_a_game_lists_the_mk_commands(console: Console) -> None:
    """27.7."""
    await console.run(["/as alice", "/game help", "/lang it", "/game help"])
    assert "Each game's commands:\n             • /mk — Mage Knight combat: target, play, sideways" in out(console)
    assert "I comandi di ogni gioco:\n             • /mk — combattimento di Mage Knight:" in out(console)


async def test_typed_mana_that_pays_no_legal_way_says_so(console: Console) -> None:
    """Issue 26's follow-up: ``mana:crystal`` with no white crystal was refused as if the basic side were
    asked for."""
    await console.run([*CHALLENGE, "/mk target enemies:tusk", "/mk play card:quickstep mana:crystal"])
    assert "⚠️ “crystal” cannot pay for that card now. It can be paid: Quickstep ⚡ · Ranged Attack 3 (white die)" \
        in out(console)
    await console.run(["/lang it", "/mk play card:quickstep mana:cristallo"])
    assert "«cristallo» non può pagare quella carta ora." in out(console)


async def test_lobby_counts_one_player_in_the_singular(console: Console) -> None:
    """27.8: "(1 players)"."""
    await console.run(["/as alice", '/game new mageknight options:"tier:1"'])
    assert "Join with /game join (1 player), then /game start." in out(console)


def test_wording_articles_plurals_and_reputation_as_a_change() -> None:
    """27.8: "a ice attack", "up to 1 tokens", "Reputation 0" read as a total."""
    assert why_block("ice", "en") == "weak against an ice attack"
    assert why_block("fire", "en") == "weak against a fire attack"
    assert why_block("cold_fire", "it") == "poco efficace contro un attacco di fuoco freddo"
    assert t("mk.ev.pick_started", "en", count=1, budget=5).endswith("up to 1 token, for at most 5 Fame.")
    assert "fino a 1 segnalino," in t("mk.ev.pick_started", "it", count=1, budget=5)
    assert (rep_text(0), rep_text(2), rep_text(-1)) == ("±0", "+2", "-1")
    assert summary(combat(["Tusk Raiders"]), "en").startswith("Hero level 1 · Fame 0 · Reputation ±0 ·")


def _drawn(state: State, lang: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """Every string the board draws, with the height of its line."""
    texts: list[tuple[str, float]] = []
    original = kit.draw_text

    def spy(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        texts.append((text, xy[1]))
        return original(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(kit, "draw_text", spy)
    render(state, lang=lang)
    return texts


def test_board_legend_names_the_colour_letters_and_no_line_ends_on_a_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    """27.9: the W/K/G/Gr rings had no legend; "Armatura 3 ·" wrapped leaving the dot alone."""
    state = combat(["Tusk Raiders", "Rime Adepts"], level=3, source=["red"])
    act(state, "next")
    drawn = _drawn(state, "it", monkeypatch)
    texts = [text for text, _y in drawn]
    assert {"Ve", "verde", "Vi", "viola"} <= set(texts)
    assert "Predoni Zannuti" in " ".join(texts)  # enemy names in Italian
    assert "Armatura 3" in texts
    dangling = [text for (text, y), (_next, y_next) in pairwise(drawn)
                if text.rstrip().endswith("·") and y_next != y]  # a dot that ends its line
    assert dangling == []
    assert "Reputazione ±0" in texts
    english = [text for text, _y in _drawn(state, "en", monkeypatch)]
    assert {"G", "green", "V", "violet"} <= set(english)


async def test_refusals_that_list_enemies_name_them_in_the_readers_language(console: Console) -> None:
    """Issue 26's Italian names: "Resta Danno da assegnare: Cinder Shamans, Tusk Raiders" kept English."""
    await console.run([*CHALLENGE, "/mk next", "/mk next", "/lang it", "/mk assign to:hero", "/mk next"])
    assert "Indica il nemico di cui assegni il Danno: Sciamani della Cenere, Predoni Zannuti." in out(console)
    assert "Resta Danno da assegnare: Sciamani della Cenere, Predoni Zannuti." in out(console)
