"""Manual dice at a Krosmaster table (TABLE_UX "Manual dice"): the right player, the whole roll
at once, the exact number of faces, and no impossible dice for the bot's own draws."""

from __future__ import annotations

from pathlib import Path

from console.runner import Console
from tests.krosmaster.conftest import console_output as _out
from tests.krosmaster.conftest import console_state as _state

SETUP = (Path(__file__).parent / "full_game.txt").read_text(encoding="utf-8").splitlines()[1:23]


async def _manual_game(console: Console) -> None:
    lines = [line.replace("/game new krosmaster", '/game new krosmaster options:"dice:manual"') for line in SETUP]
    await console.run(lines)
    assert console.errors == 0, _out(console)


async def _end_bobs_turn(console: Console) -> str:
    start = len(_out(console))
    await console.run(["/as bob"] + ["/km end"] * 5)
    return _out(console)[start:]


async def test_402_1_the_tension_roll_is_asked_of_the_player_whose_turn_begins(console: Console) -> None:
    await _manual_game(console)
    text = await _end_bobs_turn(console)
    assert "@alice, roll 2 Krosmaster dice for the tension roll" in text
    assert "@bob, roll" not in text


async def test_106_2_all_the_faces_of_one_roll_in_one_command_and_exactly_them(console: Console) -> None:
    await _manual_game(console)
    await _end_bobs_turn(console)
    start = len(_out(console))
    await console.run(["/as bob", '/game dice values:"1 2"', "/as alice", '/game dice values:"3"',
                       '/game dice values:"3 4 5"'])
    text = _out(console)[start:]
    assert "for @alice to roll" in text
    assert "needs exactly 2 faces (2 Krosmaster dice); you typed 1" in text
    assert "you typed 3" in text and console.errors == 3
    assert (await _state(console)).turn_number == 1  # nothing applied by the refused lines
    await console.execute('/game dice values:"contrasto fuga"')  # Italian face names work too
    state = await _state(console)
    assert state.turn_number == 2 and state.tension == ["lock", "dodge"]


async def test_306_2_reward_draws_are_made_by_the_bot_never_asked_as_a_d5(console: Console) -> None:
    await _manual_game(console)
    await _end_bobs_turn(console)
    start = len(_out(console))
    await console.run(["/as alice", '/game dice values:"lock dodge"'])
    text = _out(console)[start:]
    assert "turns up its top reward" in text  # 306.2: the piles were drawn from...
    assert "🎲 @" not in text and "d5" not in text  # no prompt at all for the four hidden draws
    piles = [p for p in (await _state(console)).rewards.piles if p.top is not None]
    assert piles  # ...by the bot, without a prompt
