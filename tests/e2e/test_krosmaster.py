"""A Krosmaster game played through ``python bot.py`` and the fake Discord.

Two members open a lobby, pick teams, start, get through set-up by answering the
prompts, then play: autocomplete must offer only legal squares, a move and a spell come
back as a public board PNG, an illegal action and a wrong-turn action are answered
privately, the next player is mentioned, previews stay private, buttons work — and all
of it survives a restart of the bot process.
"""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable

import pytest

from engines.krosmaster import ENGINE
from engines.krosmaster import actions as A
from tests.e2e.fake_discord import EPHEMERAL, FakeDiscord, FakeMessage, FakeUser
from tests.e2e.harness import BotProcess
from tests.e2e.play import board_of, drive_krosmaster_setup, load_table, next_up, ok, open_krosmaster_game, png

pytestmark = pytest.mark.e2e

StartBot = Callable[..., Awaitable[BotProcess]]


async def _open_game(fake: FakeDiscord) -> FakeMessage:
    alice = fake.users["alice"]
    choices = await fake.autocomplete(alice, "km team", {"figurines": "bone"}, focused="figurines")
    assert [c["value"] for c in choices] == ["bone_crusher"]
    choices = await fake.autocomplete(alice, "km team", {"figurines": "bone_crusher, iron"}, focused="figurines")
    assert {c["value"] for c in choices} >= {"bone_crusher, iron_warden"}
    return await open_krosmaster_game(fake, buttons=True)  # questions answered by button + select


def _legal(fake: FakeDiscord, bot: BotProcess, user: FakeUser) -> tuple[set[str], set[tuple[str, str]]]:
    """Legal move squares and (spell, target) casts for ``user``, from the saved game state."""
    row = load_table(bot.db_path, fake.channels["games"].id)
    assert row.state_json is not None
    state = ENGINE.load_state(row.state_json)
    actions = ENGINE.legal_actions(state, row.seats[user.id])
    moves = {a.to for a in actions if isinstance(a, A.Move)}
    casts = {(a.spell, a.target + (f" {a.direction}" if a.direction else "")) for a in actions if isinstance(a, A.Cast)}
    return moves, casts


async def test_krosmaster_game(fake: FakeDiscord, run_bot: StartBot) -> None:
    bot = await run_bot()
    board = await _open_game(fake)
    player, _ = next_up(fake, board)
    other = fake.users["bob"] if player is fake.users["alice"] else fake.users["alice"]

    # Autocomplete offers exactly legal destinations (Discord shows at most 25).
    legal_moves, legal_casts = _legal(fake, bot, player)
    offered = [c["value"] for c in await fake.autocomplete(player, "km move", {"square": ""}, focused="square")]
    assert offered and set(offered) <= legal_moves and len(offered) == min(25, len(legal_moves))
    assert await fake.autocomplete(other, "km move", {"square": ""}, focused="square") == []

    # An illegal square and an out-of-turn action: private errors, nothing changes.
    actions_before = load_table(bot.db_path, fake.channels["games"].id).actions
    res = await ok(fake, await fake.slash(player, "km move", {"square": "Z99"}))
    assert res.ephemeral and res.message.flags & EPHEMERAL and "⚠️" in res.text
    res = await ok(fake, await fake.slash(player, "km move", {"square": "Z99"}, locale="it"))
    assert res.ephemeral and "(regola " in res.text
    assert any(b["label"].startswith("Regola ") for b in res.message.buttons())  # the rule button, in Italian
    res = await ok(fake, await fake.slash(other, "km end"))
    assert res.ephemeral and "not your turn" in res.text and player.mention in res.text
    assert res.message.pinged_ids == []
    assert load_table(bot.db_path, fake.channels["games"].id).actions == actions_before

    # A legal move: a public board with the PNG.
    res = await ok(fake, await fake.slash(player, "km move", {"square": offered[0]}))
    board = board_of(res, fake)
    assert png(board).size[0] >= 200
    assert offered[0] in res.text  # the reply says where the piece went; the board shows it

    # A spell, picked from autocomplete, aimed at an offered target.
    _, legal_casts = _legal(fake, bot, player)
    spells = await fake.autocomplete(player, "km cast", {"spell": ""}, focused="spell")
    assert spells and {s["value"] for s in spells} == {spell for spell, _ in legal_casts}
    spell = spells[0]["value"]
    targets = await fake.autocomplete(player, "km cast", {"spell": spell, "target": ""}, focused="target")
    assert targets and {t["value"] for t in targets} <= {tgt for s, tgt in legal_casts if s == spell}
    res = await ok(fake, await fake.slash(player, "km cast", {"spell": spell, "target": targets[0]["value"]}))
    board = board_of(res, fake)
    png(board)

    # A private preview stays private and carries its own image.
    res = await ok(fake, await fake.slash(other, "km preview"))
    assert res.ephemeral and res.message.pinged_ids == []
    res = await ok(fake, await fake.slash(player, "km preview"))
    assert res.ephemeral and png(res.message)

    # Finish set-up questions the spell may have raised, then end the turn with the button.
    board = await drive_krosmaster_setup(fake, board)
    player, _ = next_up(fake, board)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":end$"), user=player))
    board = board_of(res, fake)
    png(board)
    nxt, _ = next_up(fake, board)
    assert nxt.id in board.pinged_ids, "the next player must be notified"
    assert bot.running


async def test_restart_mid_game_keeps_everything(fake: FakeDiscord, run_bot: StartBot) -> None:
    bot = await run_bot()
    board = await _open_game(fake)
    player, _ = next_up(fake, board)
    choices = await fake.autocomplete(player, "km move", {"square": ""}, focused="square")
    nearest = next(c["value"] for c in choices if " 1 MP" in c["name"])  # MP left: the piece may still move
    board = board_of(await ok(fake, await fake.slash(player, "km move", {"square": nearest})), fake)
    before = load_table(bot.db_path, fake.channels["games"].id)

    assert await bot.stop(signal.SIGTERM) == 0  # a service manager's stop
    restarted = await run_bot()
    assert len(fake.identifies) == 2
    after = load_table(restarted.db_path, fake.channels["games"].id)
    assert (after.game_id, after.status, after.state_json, after.actions) == (
        before.game_id,
        before.status,
        before.state_json,
        before.actions,
    )

    # Buttons posted by the previous process still work: preview (private), then end turn.
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":moves$"), user=player))
    assert res.ephemeral and png(res.message)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":end$"), user=player))
    board = board_of(res, fake)
    nxt, _ = next_up(fake, board)
    assert nxt.id in board.pinged_ids
    assert load_table(restarted.db_path, fake.channels["games"].id).actions == before.actions + 1

    # And play continues with slash commands.
    board = await drive_krosmaster_setup(fake, board)
    player, _ = next_up(fake, board)
    res = await ok(fake, await fake.slash(player, "game status"))
    assert player.mention in res.text

    # A power cut (SIGKILL: no shutdown code runs) loses nothing that was answered.
    before = load_table(restarted.db_path, fake.channels["games"].id)
    await restarted.kill()
    again = await run_bot()
    assert load_table(again.db_path, fake.channels["games"].id) == before
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":moves$"), user=player))
    assert res.ephemeral and png(res.message)
