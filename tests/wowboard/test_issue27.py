"""Issue 27 (WoW board game at a real table): what a first evening hit, replayed through the console.

Seed 3, two seats: the Horde (alice) drafts the Arcanist and the Cantor, whose printed instants (Spark, Mend)
must be usable from the first challenge (equipping.1, power-cards.3, dice-pool.1); four seats: a teammate's
character can be invited (challenge.5); equipping over a printed power is ranked last and said (equipping.1).
"""

from __future__ import annotations

import pytest

from console.runner import Console
from gm.games.wowboard import actions, choices
from tests.conftest import ConsoleOf
from tests.wowboard.console_reads import out, state_of

TWO = ["/as alice", "/game new system:wowboard", "/as bob", "/game join", "/game start",
       "/as alice", "/wowb class name:arcanist", "/as bob", "/wowb class name:warden",
       "/as alice", "/wowb class name:cantor", "/as alice"]
ZEALOT = "group:redthorn_pass:zealot:horde"


@pytest.fixture
async def console3(console_of: ConsoleOf) -> Console:
    return await console_of(3)  # seed 3: Horde drafts Arcanist and Cantor (issue 27.1's reproduction)


async def _since(console: Console, lines: list[str]) -> str:
    mark = len(out(console))
    await console.run(lines)
    return out(console)[mark:]


async def test_power_cards_3_the_printed_spark_is_offered_named_and_paid(console3: Console) -> None:
    # wowboard:power-cards.3 wowboard:equipping.1 wowboard:dice-pool.1
    await console3.run([*TWO, "/wowb travel character:arcanist to:redthorn_pass",
                        f"/wowb challenge character:arcanist target:{ZEALOT}"])
    shown = out(console3)[-600:]
    assert "Roll + Spark (1 energy)" in shown, shown  # a button for the printed power
    offered = await _since(console3, ["/complete /wowb roll instants:"])
    assert "Spark (1 energy)" in offered, offered
    energy = (await state_of(console3)).characters["arcanist"].energy
    rolled = await _since(console3, ["/wowb roll instants:spark"])
    assert "Arcanist pays 1 energy for Spark." in rolled, rolled
    assert (await state_of(console3)).characters["arcanist"].energy == energy - 1
    assert "B" in rolled.split("Arcanist rolls:")[1].split("\n")[0]  # Spark's two blue dice are in the pool
    assert console3.errors == 0


async def test_power_cards_3_an_unknown_instant_is_refused_with_the_valid_names(console3: Console) -> None:
    # wowboard:power-cards.3
    await console3.run([*TWO, "/wowb travel character:arcanist to:redthorn_pass",
                        f"/wowb challenge character:arcanist target:{ZEALOT}"])
    energy = (await state_of(console3)).characters["arcanist"].energy
    refused = await _since(console3, ["/wowb roll instants:frostbolt"])
    assert "⚠️" in refused and "Spark" in refused and "rolls" not in refused, refused
    assert (await state_of(console3)).characters["arcanist"].energy == energy  # nothing paid, nothing rolled
    italian = await _since(console3, ["/wowb roll instants:scintilla"])  # the Italian name works too
    assert "pays 1 energy for Spark" in italian, italian


async def test_dice_pool_1_a_cantor_without_dice_says_so_and_mend_heals(console3: Console) -> None:
    # wowboard:dice-pool.1 wowboard:reroll.1 wowboard:power-cards.3
    await console3.run([*TWO, "/wowb travel character:cantor to:redthorn_pass",
                        f"/wowb challenge character:cantor target:{ZEALOT}"])
    early = await _since(console3, ["/wowb roll instants:mend"])
    assert "Mend cannot be used now" in early  # nobody is wounded yet: the heal would give nothing
    first = await _since(console3, ["/wowb roll"])
    assert "Cantor has no dice to roll." in first and "rolls: ." not in first, first
    assert "reroll up to" not in first  # no dice, nothing to reroll: the step passes (reroll.1)
    cantor = (await state_of(console3)).characters["cantor"]
    assert cantor.health < 6
    healed = await _since(console3, ["/wowb roll instants:mend"])
    assert "Cantor uses Mend: Cantor regains 2 health." in healed, healed


async def test_challenge_5_a_teammates_character_can_be_invited_and_decides(console3: Console) -> None:
    # wowboard:challenge.5 wowboard:challenge.6
    await console3.run(["/as alice", "/game new system:wowboard", "/as bob", "/game join", "/as carol",
                        "/game join", "/as dave", "/game join", "/game start",  # Horde: bob, dave
                        "/as bob", "/wowb class name:arcanist", "/as carol", "/wowb class name:warden",
                        "/as dave", "/wowb class name:cantor",
                        "/as bob", "/wowb travel character:arcanist to:redthorn_pass",
                        "/as dave", "/wowb travel character:cantor to:redthorn_pass", "/as bob"])
    offered = await _since(console3, ["/complete /wowb challenge character:arcanist invite:"])
    assert "Cantor (dave)" in offered, offered
    asked = await _since(console3, ["/wowb challenge character:arcanist target:zealot invite:cantor"])
    assert "Arcanist invites Cantor to the fight." in asked and "@dave" in asked, asked
    assert (await state_of(console3)).combat is None  # the fight waits for dave's answer
    joined = await _since(console3, ["/as dave", "/wowb choose option:accept"])
    assert "Cantor joins Arcanist's fight." in joined and "Fight: Arcanist, Cantor" in joined, joined
    state = await state_of(console3)
    assert state.characters["cantor"].actions_left == 0  # travel + joining
    assert console3.errors == 0


async def test_equipping_1_the_printed_area_comes_last_and_says_what_it_covers(console3: Console) -> None:
    # wowboard:equipping.1 wowboard:power-cards.3
    await console3.run(TWO)
    state = (await state_of(console3)).model_copy(deep=True)
    arcanist = state.characters["arcanist"]
    arcanist.spellbook.append("ember_bolt")
    state.phase = "management"
    areas = choices.area_choices(state, arcanist.seat, "arcanist", "ember_bolt", "", "en")
    assert areas[-1].value == "instant" and "covers Spark" in areas[-1].label, areas
    assert areas[0].value != "instant"
    italian = choices.area_choices(state, arcanist.seat, "arcanist", "ember_bolt", "", "it")
    assert "copre Scintilla" in italian[-1].label


async def test_an_equipped_card_is_named_as_equipped_not_missing(console3: Console) -> None:
    # wowboard:equipping.2
    await console3.run(TWO)
    state = (await state_of(console3)).model_copy(deep=True)
    arcanist = state.characters["arcanist"]
    arcanist.sheet["instant_2"].card = "ember_bolt"
    state.phase = "management"
    from engines.core.errors import TavoloError

    with pytest.raises(TavoloError) as caught:
        actions.equip(state, arcanist.seat, "arcanist", "ember bolt", "instant", "en")
    assert caught.value.key == "wowboard.ui.already_equipped"


def _rolled_hits(rolled: str, threat: int) -> dict[str, int]:
    """Hits per colour counted from the line "X rolls: R8 G7 B3." (blue → damage, red → defense, green → armor)."""
    dice = rolled.split("rolls: ")[1].split(".")[0].split()
    count = {"B": 0, "R": 0, "G": 0}
    for die in dice:
        if int(die[1:].strip("*⟳↻")) >= threat:
            count[die[0]] += 1
    return {"damage": count["B"], "defense": count["R"], "armor": count["G"]}


async def test_token_placement_1_the_hits_line_says_what_the_dice_hit(console3: Console) -> None:
    # wowboard:token-placement.1 (issue 27.4: the hits of the dice, the box totals beside them)
    await console3.run([*TWO, "/wowb travel character:arcanist to:redthorn_pass",
                        f"/wowb challenge character:arcanist target:{ZEALOT}"])
    for _ in range(2):  # the second round's line must not repeat what the boxes already held
        combat = (await state_of(console3)).combat
        assert combat is not None and combat.attack is not None
        threat, before = combat.attack.threat, combat.boxes.model_copy()
        rolled = await _since(console3, ["/wowb roll"])
        hits = _rolled_hits(rolled, threat)
        line = next(x for x in rolled.splitlines() if "dice hit:" in x)
        assert line.startswith(f"Arcanist's dice hit: {hits['damage']} damage, {hits['defense']} defense, "
                               f"{hits['armor']} armor"), (line, rolled)
        assert f"the boxes now hold damage {before.damage + hits['damage']}" in line, line
        if (await state_of(console3)).combat is None:
            break
    italian = await _since(console3, ["/lang it", "/wowb roll"])
    if "colpiscono" in italian:
        assert "ora nelle caselle: danno" in italian, italian


async def test_setup_1_lobby_team_is_honoured_and_an_unknown_one_refused(console3: Console) -> None:
    # wowboard:setup.1 wowboard:setup.3 (issue 27.5)
    refused = await _since(console3, ["/as alice", "/game new system:wowboard", "/game join team:elves"])
    assert "team:elves is not a faction" in refused and "horde" in refused and "alleanza" in refused, refused
    italian = await _since(console3, ["/lang it", "/game join team:elfi"])
    assert "non è una fazione" in italian and "orda" in italian and "alliance" in italian, italian
    await console3.run(["/lang en", "/game join team:alleanza", "/as bob", "/game join", "/game start"])
    seats = {s.name: s.faction for s in (await state_of(console3)).seats}
    assert seats == {"alice": "alliance", "bob": "horde"}, seats  # without the preference seat 1 is the Horde


async def test_setup_3_four_seats_keep_compatible_teams_and_say_the_fallback(console3: Console) -> None:
    # wowboard:setup.3 (issue 27.5): three ask for the Horde; two get it, the third is told in words
    said = await _since(console3, ["/as alice", "/game new system:wowboard", "/game join team:horde",
                                   "/as bob", "/game join team:horde", "/as carol", "/game join team:orda",
                                   "/as dave", "/game join team:alliance", "/game start"])
    seats = {s.name: s.faction for s in (await state_of(console3)).seats}
    assert seats["dave"] == "alliance" and list(seats.values()).count("horde") == 2, seats
    bumped = next(n for n in ("alice", "bob", "carol") if seats[n] == "alliance")
    assert (f"{bumped} asked for the Horde, but only 2 seats can play it and the die gave them to others: "
            f"{bumped} plays the Alliance.") in said, said


async def test_end_of_faction_turn_4_the_gm_marker_hands_the_turn_to_its_faction(console3: Console) -> None:
    # wowboard:setup.8 wowboard:end-of-faction-turn.4 (issue 27.6): odd spaces are the Horde's, even the Alliance's
    await console3.run([*TWO, "/as bob", "/wowb class name:ranger", "/as gm gm"])
    moved = await _since(console3, ["/gm wowb-turn turn:28"])
    state = await state_of(console3)
    assert (state.turn, state.active, state.phase) == (28, "alliance", "play")
    assert all(c.actions_left == (2 if c.faction == "alliance" else 0) for c in state.characters.values())
    assert "Turn 28, the Alliance" in moved and "@bob" in moved, moved
    await console3.run(["/gm wowb-turn turn:29"])
    state = await state_of(console3)
    assert (state.turn, state.active) == (29, "horde")
    await console3.run(["/as alice", "/wowb travel character:arcanist to:redthorn_pass",
                        f"/wowb challenge character:arcanist target:{ZEALOT}", "/as gm gm"])
    busy = await _since(console3, ["/gm wowb-turn turn:30"])
    assert "Turn 30 belongs to the Alliance: end the fight" in busy, busy
    assert (await state_of(console3)).turn == 29  # refused whole: the marker did not move either


async def test_a_lobby_team_is_said_in_the_readers_words(console: Console) -> None:
    """Issue 26.2: "@alice ora è nella squadra Orda", never the stored id "horde"."""
    await console.run(["/lang it", "/as alice", "/game new system:wowboard", "/game join team:orda"])
    said = out(console)
    assert "squadra Orda" in said and "squadra horde" not in said, said[-400:]
