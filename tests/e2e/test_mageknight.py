"""A Mage Knight challenge played to victory through ``python bot.py`` and the fake Discord.

alice opens a seeded challenge and plays every phase with the commands, buttons and menus a
player would use, picking values from the bot's own autocomplete; each list is compared with
the engine's ``legal_actions`` read from the database. Her hand (text and picture) must only
ever reach her in ephemeral messages; bob, watching, gets nothing of it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.state import State
from gm.games.mageknight import choices
from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.harness import BotProcess
from tests.e2e.play import board_of, load_table, ok, png

pytestmark = pytest.mark.e2e

StartBot = Callable[..., Awaitable[BotProcess]]


def _state(fake: FakeDiscord, bot: BotProcess) -> State:
    row = load_table(bot.db_path, fake.channels["games"].id)
    assert row.state_json is not None
    state = ENGINE.load_state(row.state_json)
    assert isinstance(state, State)
    return state


def _hand_is_private(fake: FakeDiscord, state: State) -> None:
    """No public message carries the hand: no card list, no hand picture, and no card still in the
    hand (played, sideways and discarded cards are public once they leave it)."""
    gone = {state.cards[c].name for c in (*state.hero.play_area, *state.hero.discard) if c in state.cards}
    held = {state.cards[c].name for c in state.hero.hand if c in state.cards} - gone  # a copy played is public
    for message in fake.channel_messages(fake.channels["games"]):
        if message.ephemeral:
            continue
        text = message.text
        assert "Your hand" not in text and "your hand and options" not in text
        assert not any(f.filename.startswith("mk-hand") for f in message.files.values())
        shown = [name for name in held if name in text]
        assert not shown, f"{shown} still in the hand, shown publicly:\n{text}"


async def test_mageknight_challenge_to_victory(fake: FakeDiscord, run_bot: StartBot) -> None:
    bot = await run_bot()
    alice, bob = fake.users["alice"], fake.users["bob"]
    res = await ok(fake, await fake.slash(alice, "game new", {"system": "mageknight",
                                                               "options": "tier:2 site:rampaging seed:2"}))
    assert "fights a tier 2 challenge" in res.text or "Mage Knight" in res.text
    res = await ok(fake, await fake.slash(alice, "game start"), followups=1)
    board = board_of(res, fake)
    assert png(board).size == (1000, 700)
    private = [m for m in res.messages if m.ephemeral]
    assert private and "Your hand: Calm Breath, Quickstep, Intimidate, Quickstep, Improvise." in private[0].text
    _hand_is_private(fake, _state(fake, bot))  # all five cards, before anything is played

    # The hand, privately, as words and a picture; bob only learns that it is private.
    res = await ok(fake, await fake.slash(alice, "mk hand"))
    assert res.ephemeral and png(res.message) and "Improvise (red): discard another card" in res.text
    res = await ok(fake, await fake.slash(bob, "mk hand"))
    assert res.ephemeral and "The hand is private" in res.text and not res.files

    # Ranged phase: targets and plays offered are exactly the legal ones.
    state = _state(fake, bot)
    targets = await fake.autocomplete(alice, "mk target", {"enemies": ""}, focused="enemies")
    legal_targets = {",".join(a.enemies) for a in ENGINE.legal_actions(state, 0) if isinstance(a, A.Target)}
    assert {c["value"] for c in targets} == legal_targets
    assert await fake.autocomplete(bob, "mk target", {"enemies": ""}, focused="enemies") == []
    tusk = next(c["value"] for c in targets if c["name"].startswith("Tusk Raiders —"))
    res = await ok(fake, await fake.slash(alice, "mk target", {"enemies": tusk}))
    board = board_of(res, fake)
    state = _state(fake, bot)
    plays = await fake.autocomplete(alice, "mk play", {"card": ""}, focused="card")
    legal_plays = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, A.Play)]
    assert plays and all(A.Play(**{k: v for k, v in (choices.parse_play_value(c["value"]) or {}).items()
                                   if k != "kind"}) in legal_plays for c in plays)
    # 27.5: the overkill is said before the commit
    assert plays[0]["name"] == "Quickstep ⚡ · Ranged Attack 3 (white die) → 3 vs armor 2 ✓ (1 wasted)"
    res = await ok(fake, await fake.slash(alice, "mk play", {"card": plays[0]["value"]}))
    board = board_of(res, fake)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":commit$"), user=alice))
    board = board_of(res, fake)
    assert "Tusk Raiders are defeated: +2 Fame, Reputation +1." in res.text
    assert alice.id in board.pinged_ids or alice.id in board.mentioned_ids

    # Block phase passed with the button; the damage menu is private and acts on the board.
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":next$"), user=alice))
    board = board_of(res, fake)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":next$"), user=alice))
    board = board_of(res, fake)
    menu = await ok(fake, await fake.click(board, board.find_custom_id(r":assign$"), user=alice))
    assert menu.ephemeral
    select = menu.message.selects()[0]
    pikes = next(o["value"] for o in select["options"] if "Village Pikes" in o["label"])
    res = await ok(fake, await fake.select(menu.message, select["custom_id"], [pikes], user=alice))
    board = board_of(res, fake)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":hero$"), user=alice))
    board = board_of(res, fake)
    assert _state(fake, bot).phase == "attack"

    # Attack phase with slash commands picked from autocomplete, Italian names typed in between.
    await ok(fake, await fake.slash(alice, "mk target", {"enemies": "cinder"}))
    res = await ok(fake, await fake.slash(alice, "mk play", {"card": "improvise"}))
    answers = await fake.autocomplete(alice, "mk choose", {"option": ""}, focused="option")
    assert {c["value"] for c in answers} == {a.value for a in ENGINE.legal_actions(_state(fake, bot), 0)
                                            if isinstance(a, A.Choose)}
    await ok(fake, await fake.slash(alice, "mk choose", {"option": "calm"}, locale="it"))
    sideways = await fake.autocomplete(alice, "mk sideways", {"card": ""}, focused="card")
    assert {c["value"] for c in sideways} == {a.card for a in ENGINE.legal_actions(_state(fake, bot), 0)
                                              if isinstance(a, A.Sideways)}
    await ok(fake, await fake.slash(alice, "mk sideways", {"card": sideways[0]["value"]}))
    res = await ok(fake, await fake.slash(alice, "mk commit"))
    final: FakeMessage = board_of(res, fake)
    png(final)
    assert "🏆 Game over — winner: <@" in final.text and "score 5" in final.text
    assert _state(fake, bot).phase == "over"
    _hand_is_private(fake, _state(fake, bot))  # Calm Breath was discarded; what is left stays private

    res = await ok(fake, await fake.slash(alice, "mk score"))
    assert res.ephemeral and "Score: 5." in res.text
    assert bot.running
