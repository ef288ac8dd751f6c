"""World of Warcraft Miniatures through ``python bot.py`` and the fake Discord (issue 15).

alice and bob open a game with parties, choose their action bars in secret (bob through the
private menu of selects, alice with the typed option while bob is half way): each bar reaches only its owner, in
ephemeral messages, and the channel learns nothing until both are in. Then the first character
spawns and moves with a hex picked from the bot's own autocomplete (compared with the engine's
``legal_actions`` read from the database), and the board image is posted.
"""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.state import State
from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.harness import BotProcess
from tests.e2e.play import board_of, load_table, ok, png, settled

pytestmark = pytest.mark.e2e

StartBot = Callable[..., Awaitable[BotProcess]]
BOB_CARDS = ("Sweeping Cleave", "Riposte", "Shadowstep", "Feint", "Ursine Form", "Stag Form")
ALICE_CARDS = ("Runed Arrow", "Thicket Ward", "Aegis of Light", "Veil of Sanctuary", "Renewing Light", "Umbral Form")


def _state(fake: FakeDiscord, bot: BotProcess) -> State:
    row = load_table(bot.db_path, fake.channels["games"].id)
    assert row.state_json is not None
    state = ENGINE.load_state(row.state_json)
    assert isinstance(state, State)
    return state


def _public_text(fake: FakeDiscord) -> str:
    return "\n".join(m.text for m in fake.channel_messages(fake.channels["games"]) if not m.ephemeral)


async def test_wowminis_secret_bars_a_move_and_the_board(fake: FakeDiscord, run_bot: StartBot) -> None:
    bot = await run_bot()
    alice, bob = fake.users["alice"], fake.users["bob"]
    await ok(fake, await fake.slash(alice, "game new", {"system": "wowminis", "options": "first:1 goal:4"}))
    res = await ok(fake, await fake.slash(alice, "wowm party", {"characters": "lyssara, brannoc, elowen"}))
    assert "Honor 13" in res.text
    await ok(fake, await fake.slash(bob, "game join"))
    party = await fake.autocomplete(bob, "wowm party", {"characters": "Grushka Bonesplitter, "},
                                    focused="characters")
    assert party and all("Horde" in c["name"] for c in party)  # one faction after the first pick
    await ok(fake, await fake.slash(bob, "wowm party", {"characters": "grushka, sereth, thrak"}))
    res = await ok(fake, await fake.slash(alice, "game start"))
    board = board_of(res, fake)
    assert png(board).size == (1000, 700) and "🤫" in board.text

    # bob opens the private menu (one select per character, every step ephemeral) and picks one
    # pair; alice types her whole bar meanwhile; bob's menu still works and finishes the set-up.
    menu = await ok(fake, await fake.slash(bob, "wowm bar"))
    pairs = ("Sweeping Cleave + Riposte", "Shadowstep + Feint", "Ursine Form + Stag Form")

    async def pick(step: int) -> None:
        nonlocal menu
        assert menu.ephemeral
        select = menu.message.selects()[0]
        value = next(o["value"] for o in select["options"] if o["label"] == pairs[step])
        menu = await ok(fake, await fake.select(menu.message, select["custom_id"], [value], user=bob),
                        followups=1 if step == 2 else 0)

    await pick(0)
    res = await ok(fake, await fake.slash(alice, "wowm bar", {"cards": "LYS: runed, thicket; BRA: aegis, veil; "
                                                                       "ELO: renewing, umbral"}), followups=1)
    assert res.ephemeral and "Your bars: Lyssara Windquill: Runed Arrow, Thicket Ward" in res.text
    public = _public_text(fake)
    assert "Alice has chosen the action bars" in public
    assert not [card for card in (*BOB_CARDS, *ALICE_CARDS) if card in public]
    assert _state(fake, bot).phase == "choose_bar"
    await pick(1)
    await pick(2)
    mine = [m for m in menu.messages if m.ephemeral]
    assert mine and "Your bars: Grushka Bonesplitter: Sweeping Cleave, Riposte" in mine[0].text
    board = board_of(menu, fake)
    assert "Both parties have chosen" in board.text
    png(board)
    assert not [card for card in (*BOB_CARDS, *ALICE_CARDS) if card in _public_text(fake)]

    # The first character, its spawn point (buttons) and a move picked from autocomplete.
    res = await ok(fake, await fake.slash(alice, "wowm next", {"character": "LYS"}))
    board = board_of(res, fake)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":choose:H12$"), user=alice))
    board = board_of(res, fake)
    state = _state(fake, bot)
    moves = await fake.autocomplete(alice, "wowm move", {"to": ""}, focused="to")
    assert {c["value"] for c in moves} == {a.to for a in ENGINE.legal_actions(state, 0) if isinstance(a, A.Move)}
    assert await fake.autocomplete(bob, "wowm move", {"to": ""}, focused="to") == []
    assert moves[0]["name"].endswith("1 MP")  # cheapest first
    res = await ok(fake, await fake.slash(alice, "wowm move", {"to": "H10"}))
    board = board_of(res, fake)
    png(board)
    assert "Lyssara Windquill moves H12 → H10" in res.text or "moves H12 → H10" in _public_text(fake)
    assert _state(fake, bot).chars["lyssara-1"].pos == "H10"
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":end$"), user=alice))
    board = board_of(res, fake)
    png(board)
    assert f"<@{bob.id}>" in res.text  # bob picks who acts among the characters tied at tick 1 (500.3c)

    # The line of sight, drawn in a render worker and shown to the asker only.
    res = await ok(fake, await fake.slash(bob, "wowm los", {"from": "LYS", "to": "P9"}))
    assert res.ephemeral and "Line of sight H10 → P9" in res.text
    png(res.message)


POSITIONAL = {"game new": ("system",)}




def _command(line: str) -> tuple[str, dict[str, str]]:
    """``/wowm play ability:"twin daggers" target:LYS`` → ("wowm play", {"ability": ..., "target": ...})."""
    words = shlex.split(line.lstrip("/"))
    names = [w for w in words if ":" not in w]
    options = dict(w.split(":", 1) for w in words if ":" in w)
    for name, value in zip(POSITIONAL.get(" ".join(names[:2]), ()), names[2:], strict=False):
        options[name] = value  # the console also takes a command's first option without its name
    return " ".join(names[:2]), options


def _button(fake: FakeDiscord, label: str) -> tuple[FakeMessage, str]:
    """The newest public message with a button labelled ``label`` (what a player would click);
    a number is the console's way to say "the n-th button of the newest message with buttons"."""
    for message in reversed(fake.channel_messages(fake.channels["games"])):
        if message.ephemeral or message.deleted or not message.buttons():
            continue
        if label.isdigit():
            return message, message.buttons()[int(label) - 1]["custom_id"]
        for button in message.buttons():
            if button.get("label") == label:
                return message, button["custom_id"]
    raise AssertionError(f"no button {label!r} in the channel")


async def test_wowminis_full_game_to_victory_with_autocomplete_from_legal_actions(
        fake: FakeDiscord, run_bot: StartBot) -> None:
    """``tests/wowminis/full_game.txt`` played through the real client: every command, click and
    autocomplete goes through Discord's interaction flow; each move and play autocomplete is
    compared with the engine's ``legal_actions`` for the seat asking, and no pool card reaches the
    channel before both secret bars are in."""
    bot = await run_bot(TAVOLO_DICE_SEED="1")  # the script's rolls, as `--seed 1` gives them in the console
    script = (Path(__file__).resolve().parents[1] / "wowminis" / "full_game.txt").read_text(encoding="utf-8")
    user = fake.users["alice"]
    bars_in = False
    for raw in script.splitlines():
        line = raw.split("  #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("/as "):
            user = fake.users[line.split()[1]]
            continue
        if line.startswith("/pick "):  # bob's private bar menu
            menu = [m for m in fake.channel_messages(fake.channels["games"]) if m.ephemeral and m.selects()][-1]
            select = menu.selects()[0]
            label = shlex.split(line)[1]
            value = next(o["value"] for o in select["options"] if label in (o["label"], o["value"]))
            picked = await ok(fake, await fake.select(menu, select["custom_id"], [value], user=user))
            await settled(fake)
            assert "⚠️" not in picked.text, f"{line}: {picked.text}"
            continue
        if line.startswith("/click "):
            message, custom_id = _button(fake, line.split(" ", 1)[1])
            clicked = await ok(fake, await fake.click(message, custom_id, user=user))
            await settled(fake)
            assert "⚠️" not in clicked.text, f"{line}: {clicked.text}"
            continue
        if line.startswith("/complete "):
            command, options = _command(line.split(" ", 1)[1])
            focused = list(options)[-1]
            offered = await fake.autocomplete(user, command, options, focused=focused)
            if command == "wowm move" and _state(fake, bot).phase != "over":
                state = _state(fake, bot)
                seat = 0 if user is fake.users["alice"] else 1
                assert {c["value"] for c in offered} == {a.to for a in ENGINE.legal_actions(state, seat)
                                                         if isinstance(a, A.Move)}
            elif command == "wowm play" and focused == "ability":
                state = _state(fake, bot)
                seat = 0 if user is fake.users["alice"] else 1
                legal = ENGINE.legal_actions(state, seat)
                assert offered and all(any(isinstance(a, A.Play) for a in legal) for _ in offered)
            continue
        command, options = _command(line)
        res = await ok(fake, await fake.slash(user, command, options))
        await settled(fake)
        assert "⚠️" not in res.text, f"{line}: {res.text}"
        if "Both parties have chosen" in _public_text(fake):
            bars_in = True
        elif not bars_in:
            public = _public_text(fake)
            assert not [card for card in (*BOB_CARDS, *ALICE_CARDS) if card in public], line
    assert _state(fake, bot).phase == "over"
    assert "🏆" in _public_text(fake) and f"<@{fake.users['alice'].id}>" in _public_text(fake).split("🏆")[-1]
    final = [m for m in fake.channel_messages(fake.channels["games"]) if not m.ephemeral and m.files][-1]
    png(final)


# ---------------------------------------------------------------------------- issue 29: 4 players and a draft
SCRIPTS = Path(__file__).resolve().parents[1] / "wowminis"
# the fake guild has no "dave": its owner (olga) takes the fourth seat
SEATED = {"alice": "alice", "bob": "bob", "carol": "carol", "dave": "owner"}


async def _replay(fake: FakeDiscord, script: Path, each: Callable[[str], Awaitable[None]] | None = None) -> None:
    """Every line of a console script as the member it names would send it (``/as``), through Discord's
    interaction flow; no answer may be a warning. ``each`` runs after every command."""
    user = fake.users["alice"]
    for raw in script.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("/as "):
            user = fake.users[SEATED[line.split()[1]]]
            continue
        command, options = _command(line)
        res = await ok(fake, await fake.slash(user, command, options))
        await settled(fake)
        assert "⚠️" not in res.text, f"{line}: {res.text}"
        if each is not None:
            await each(line)


async def test_wowminis_four_player_free_for_all_to_victory_with_a_spectator(
        fake: FakeDiscord, run_bot: StartBot) -> None:
    """``tests/wowminis/ffa4_game.txt`` through the real client, four members seated; half way, a member who
    never sat down (giulia) asks for the status and for cards: she gets the board and no hidden card."""
    from tests.wowminis.test_spectators import hidden_names

    bot = await run_bot(TAVOLO_DICE_SEED="1")
    script = SCRIPTS / "ffa4_game.txt"
    half = len([x for x in script.read_text(encoding="utf-8").splitlines() if x.startswith("/wowm")]) // 2
    sent = 0
    watched = False

    async def spectator(line: str) -> None:
        nonlocal sent, watched
        sent += line.startswith("/wowm")
        if watched or sent < half:
            return
        watched = True
        state = _state(fake, bot)
        assert len(state.players) == 4 and state.phase == "play"
        secret = hidden_names(state)
        assert secret  # face-down cards exist now: the check below can fail
        giulia = fake.users["gm"]
        status = await ok(fake, await fake.slash(giulia, "game status"))
        png(board_of(status, fake))
        cards = await ok(fake, await fake.slash(giulia, "wowm cards"))
        assert cards.ephemeral and "You are watching this game" in cards.text
        seen = status.text + cards.text
        assert not [name for name in secret if name in seen]

    await _replay(fake, script, spectator)
    state = _state(fake, bot)
    assert watched and state.phase == "over" and len(state.players) == 4
    assert state.winners == [2] and state.players[2].vp == 8  # as in the console: carol (the third seat), 8 VP
    assert f"<@{fake.users['carol'].id}>" in _public_text(fake).split("🏆")[-1]


async def test_wowminis_booster_draft_and_its_game_to_victory(fake: FakeDiscord, run_bot: StartBot) -> None:
    """``tests/wowminis/draft_game.txt`` through the real client: secret picks (each reaches only its seat, in
    an ephemeral answer, and no picked name reaches the channel before the parties are revealed), the builds,
    then the game to its end."""
    bot = await run_bot(TAVOLO_DICE_SEED="1")
    picked: set[str] = set()
    revealed = False

    async def secret(line: str) -> None:
        nonlocal revealed
        mine = [m for m in fake.channel_messages(fake.channels["games"]) if m.ephemeral]
        for message in mine:
            for part in message.text.split("Your pick: ")[1:]:
                picked.add(part.split(".")[0].strip())
        public = _public_text(fake)
        revealed = revealed or "Parties:" in public
        if not revealed:
            assert not [name for name in picked if name in public], line

    await _replay(fake, SCRIPTS / "draft_game.txt", secret)
    state = _state(fake, bot)
    assert picked and revealed
    assert state.limited is None and state.phase == "over" and state.winners
    assert "The draft is over" in _public_text(fake) and "🏆" in _public_text(fake)
