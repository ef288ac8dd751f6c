"""Issue 29.4 through the real cogs in the console: a game opened with a scenario other than the
standard one (``options:scenario:crossroads``) plays its first turns, with the scenario's party and bar
rules, and its neutral spawn points changing side (406.3b); the lobby words it in both languages."""

from __future__ import annotations

from console.runner import Console
from tests.conftest import ConsoleOf

CROSSROADS = [
    "/as alice",
    '/game new wowminis options:"scenario:crossroads first:1"',
    '/wowm party characters:"brannoc, grushka, mossback"',  # 100.1: any factions in this scenario
    "/as bob",
    "/game join",
    '/wowm party characters:"lyssara, sereth, skarn"',
    "/game start",
    '/wowm bar cards:"LYS: runed; SER: shadowstep; SKA: hobbling"',  # one card each, out of two
    "/as alice",
    '/wowm bar cards:"BRA: aegis; GRU: sweeping; MOS: battle"',
    "/wowm next character:BRA",
    "/wowm spawn point:E1",
    "/wowm end",
    "/as bob",
    "/wowm next character:LYS",
    "/wowm spawn point:F8",
    "/wowm end",
    "/as asked",
    "/wowm next character:SER",
    "/as asked",
    "/wowm spawn point:J5",
    "/wowm move to:I5",
    "/wowm end",
]


def _out(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


async def test_100_1_406_3b_a_crossroads_game_plays_its_first_turns(console: Console) -> None:
    await console.run(CROSSROADS)
    out = _out(console)
    assert console.errors == 0, out[-3000:]
    assert "Each player picks a party of 3 characters of any factions" in out
    assert "Scenario **Crossroads** on Twin Fords:" in out
    assert "Choose secretly 1 card of your pool" in out  # bar_per_char 1
    assert "Brannoc Emberforge ends its turn on the neutral spawn point E1: from now on it belongs to alice's side." \
        in out
    assert "Lyssara Windquill ends its turn on the neutral spawn point F8: from now on it belongs to bob's side." in out
    spawn_menus = [line for line in out.splitlines() if line.startswith("[buttons] 1) J5")]
    assert spawn_menus and all("E1" not in line for line in spawn_menus)  # bob may no longer use alice's point
    assert "Sereth Duskblade moves J5 → I5" in out


async def test_the_scenario_lobby_in_italian(console_of: ConsoleOf) -> None:
    console = await console_of(2)
    await console.run(["/lang it", "/as alice", "/game new wowminis options:scenario:last_stand", "/game end",
                       "/game new wowminis", "/game end",
                       *[line for line in CROSSROADS[1:] if not line.startswith("/wowm end")][:7]])
    out = _out(console)
    assert console.errors == 0, out[-3000:]
    assert "Ogni giocatore sceglie un gruppo di 2 personaggi di una fazione" in out
    assert "Scenario **Ultima difesa** su Campo di Prova: Due personaggi di una fazione" in out
    assert "Altri scenari, con `options:scenario:<id>`: `short` (Breve), `last_stand` (Ultima difesa)," in out
    assert "Scenario **Crocevia** su Guadi Gemelli" in out
    assert "Scegli in segreto 1 carta della tua riserva" in out


async def test_100_1_a_last_stand_party_of_three_is_refused_in_the_lobby(console: Console) -> None:
    await console.run(["/as alice", "/game new wowminis options:scenario:last_stand",
                       '/wowm party characters:"brannoc, lyssara, elowen"', '/wowm party characters:"brannoc, elowen"'])
    out = _out(console)
    assert "This scenario's party is 2 characters: you named 3." in out and "Rule 100.1" in out
    assert "@alice's party: Brannoc Emberforge, Elowen Brightvow" in out
