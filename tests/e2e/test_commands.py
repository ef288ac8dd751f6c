"""Stateless commands of ``python bot.py`` — dice, rules, table errors, faults — on one bot.

One bot process serves the whole module (start-up costs seconds; these commands do
not depend on each other), so every test runs in the module's event loop. After each
test the fake must have seen no unknown route, invalid payload or missed deadline.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from engines.krosmaster import ENGINE
from tests.e2e.fake_discord import EPHEMERAL, FakeDiscord, FakeDiscordError, FakeFile, FakeMessage
from tests.e2e.harness import BotProcess
from tests.e2e.play import board_of, drive_krosmaster_setup, load_table, next_up, ok, open_krosmaster_game, png

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    root: Path = tmp_path_factory.mktemp("commands")
    fake = await FakeDiscord().start()
    bot = BotProcess(fake, root / "db.sqlite3", root / "work")
    try:
        await bot.start()
        yield fake, bot
    finally:
        code = await bot.stop()
        await fake.stop()
    assert code == 0, bot.log_tail()
    assert not bot.errors_logged(), "\n".join(bot.errors_logged())


@pytest.fixture
def fake(shared: tuple[FakeDiscord, BotProcess]) -> Iterator[FakeDiscord]:
    server, _ = shared
    seen = len(server.problems())
    yield server
    assert server.problems()[seen:] == []


@pytest.fixture
def bot(shared: tuple[FakeDiscord, BotProcess]) -> BotProcess:
    return shared[1]


# ------------------------------------------------------------------------------ dice


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


async def test_roll_public_total_is_consistent(fake: FakeDiscord) -> None:
    res = await ok(fake, await fake.slash("alice", "roll", {"expression": "2d6+3"}))
    assert res.callback_type == 4 and not res.ephemeral
    body = res.message.content
    dice_line = next(line for line in body.splitlines() if line.startswith("2d6"))
    first, second, modifier = _numbers(dice_line.removeprefix("2d6"))
    total = int(re.search(r"Total: (\d+)", body).group(1))  # type: ignore[union-attr]
    assert 1 <= first <= 6 and 1 <= second <= 6 and modifier == 3 and total == first + second + 3


async def test_private_roll_stays_private_and_is_hidden_from_others(fake: FakeDiscord) -> None:
    res = await ok(fake, await fake.slash("alice", "roll", {"expression": "1d20", "label": "sneak", "private": True}))
    assert res.ephemeral and res.message.flags & EPHEMERAL and "sneak" in res.text
    # a natural 20 is bold, a natural 1 underlined: "1d20 (**20**)", "1d20 (__1__)".
    value = re.search(r"1d20 \([*_]*(\d+)[*_]*\)", res.text).group(1)  # type: ignore[union-attr]
    hist = await ok(fake, await fake.slash("bob", "dice history", {"user": fake.users["alice"]}))
    assert hist.ephemeral and "🔒" in hist.text
    assert "sneak" not in hist.text and f"({value})" not in hist.text


async def test_roll_errors_are_private_and_localized(fake: FakeDiscord) -> None:
    res = await ok(fake, await fake.slash("alice", "roll", {"expression": "1d0"}))
    assert res.ephemeral and res.text.startswith("⚠️")
    res = await ok(fake, await fake.slash("alice", "roll", {"expression": "4d6kh3"}, locale="it"))
    assert "Totale" in res.text and not res.ephemeral


@pytest.mark.parametrize(
    ("command", "options", "image"),
    [
        ("dice wowminis", {"dice": 5, "rerolls": 2}, False),
        ("dice warlord", {"bonus": 3, "dc": 15}, False),
        ("dice krosmaster", {"dice": 3, "purpose": "armor"}, True),
        ("dice krosmaster-tension", {}, True),
        ("dice wowboard", {"threat": 4, "blue": 2, "red": 1, "green": 1}, True),
        ("dice mageknight", {"source": 5}, False),
    ],
)
async def test_each_dice_system(fake: FakeDiscord, command: str, options: dict[str, object], image: bool) -> None:
    res = await ok(fake, await fake.slash("carol", command, options))
    assert not res.ephemeral and "🎲" in res.text and "Carol" in res.text
    if image:
        assert png(res.message).size[0] > 0
    res = await ok(fake, await fake.slash("carol", command, options | {"private": True}, locale="it"))
    assert res.ephemeral


async def test_dice_history_lists_public_rolls(fake: FakeDiscord) -> None:
    await ok(fake, await fake.slash("bob", "dice mageknight", {"source": 3}, channel="table-2"))
    res = await ok(fake, await fake.slash("carol", "dice history", channel="table-2"))
    assert res.ephemeral and "Mage Knight" in res.text and "Bob" in res.text


# ------------------------------------------------------------------------------ rules


async def test_rules_search_buttons_open_sections(fake: FakeDiscord) -> None:
    res = await ok(fake, await fake.slash("alice", "rules search", {"query": "lock", "system": "krosmaster"}))
    assert not res.ephemeral and "310" in res.text
    hit = res.message.find_custom_id(r"^tv1:rules:open:\d+:310$")
    opened = await ok(fake, await fake.click(res.message, hit, user="bob"))
    assert opened.message.text.startswith("310") and opened.message is not res.message


async def test_rules_show_with_autocomplete_and_italian(fake: FakeDiscord) -> None:
    sections = await fake.autocomplete(
        "alice", "rules show", {"system": "krosmaster", "section": "31"}, focused="section"
    )
    values = [c["value"] for c in sections]
    assert "310" in values and all(v.startswith("31") for v in values)
    res = await ok(
        fake, await fake.slash("alice", "rules show", {"system": "krosmaster", "section": "310"}, locale="it")
    )
    assert "Blocco" in res.text
    res = await ok(fake, await fake.slash("alice", "rules show", {"system": "krosmaster", "section": "999"}))
    assert res.ephemeral and res.text.startswith("⚠️")


async def test_long_rule_pages_in_place(fake: FakeDiscord) -> None:
    """A section too long for one message gets page buttons that edit the same message."""
    for section in [
        c["value"]
        for c in await fake.autocomplete(
            "alice", "rules show", {"system": "krosmaster", "section": ""}, focused="section"
        )
    ]:
        res = await ok(fake, await fake.slash("alice", "rules show", {"system": "krosmaster", "section": section}))
        pages = [cid for cid in res.message.custom_ids() if ":page:" in cid]
        if pages:
            turned = await ok(fake, await fake.click(res.message, pages[-1], user="bob"))
            assert turned.callback_type == 7 and turned.updated is not None
            assert turned.updated.id == res.message.id and turned.updated.text != res.message.history[0].get("content")
            return
    pytest.skip("no krosmaster section is long enough to page")


async def test_rules_sources_is_private(fake: FakeDiscord) -> None:
    res = await ok(fake, await fake.slash("carol", "rules sources"))
    assert res.ephemeral and "krosmaster" in res.text


HOUSE_RULES = b"""# House rules for Krosmaster

## 1 Zorblax
The zorblax rule: every Krosmaster may hop once per game over a tree.

## 2 Snacks
Whoever loses brings the snacks next time.
"""


async def test_rules_import_search_remove(fake: FakeDiscord) -> None:
    """A server admin uploads a rulebook (attachment option, fetched from the CDN), everyone can
    search it, the admin removes it again; other members may not import."""
    upload = FakeFile("file", "house.md", "text/markdown", HOUSE_RULES)
    with pytest.raises(FakeDiscordError, match="cannot see /rules-admin"):  # hidden from members by Discord
        await fake.slash("alice", "rules-admin import", {"system": "krosmaster", "file": upload})
    assert fake.command("rules").get("default_member_permissions") is None  # /rules itself: every member
    res = await ok(
        fake,
        await fake.slash("owner", "rules-admin import", {"system": "krosmaster", "file": upload, "language": "en"}),
        timeout=10,
    )
    assert "house" in res.text and "3 sections" in res.text
    assert any(r.route.startswith("GET /attachments") for r in fake.requests)
    res = await ok(fake, await fake.slash("bob", "rules search", {"query": "zorblax", "system": "krosmaster"}))
    assert "hop once per game" in res.text
    names = await fake.autocomplete("owner", "rules-admin remove", {"name": ""}, focused="name")
    assert [c["value"] for c in names] == ["house"]
    res = await ok(fake, await fake.slash("owner", "rules-admin remove", {"name": "house"}))
    assert not res.text.startswith("⚠️")
    res = await ok(fake, await fake.slash("bob", "rules search", {"query": "zorblax", "system": "krosmaster"}))
    assert "hop once per game" not in res.text


# ------------------------------------------------------------------------------ tables without a game


async def test_game_commands_without_a_game(fake: FakeDiscord) -> None:
    assert [c["value"] for c in await fake.autocomplete("alice", "game new", {"system": "kro"}, focused="system")] == [
        "krosmaster"
    ]
    for command in ("game start", "game status", "game undo", "game join"):
        res = await ok(fake, await fake.slash("alice", command, channel="general"))
        assert res.ephemeral and res.text.startswith("⚠️"), command
    res = await ok(fake, await fake.slash("alice", "game new", {"system": "chess"}, channel="general"))
    assert res.ephemeral and "chess" in res.text and "krosmaster" in res.text
    res = await ok(fake, await fake.slash("alice", "game help", channel="general", locale="it"))
    assert res.ephemeral and "krosmaster" in res.text


async def test_two_members_lobby_and_spectator(fake: FakeDiscord) -> None:
    alice, bob, carol = fake.users["alice"], fake.users["bob"], fake.users["carol"]
    res = await ok(fake, await fake.slash(alice, "game new", {"system": "krosmaster"}, channel="table-2"))
    assert not res.ephemeral
    res = await ok(fake, await fake.slash(alice, "game join", channel="table-2"))
    assert res.ephemeral and "already" in res.text
    res = await ok(fake, await fake.slash(bob, "game join", channel="table-2"))
    assert not res.ephemeral and "(2/2)" in res.text
    res = await ok(fake, await fake.slash(carol, "game join", channel="table-2"))
    assert res.ephemeral and "full" in res.text
    res = await ok(fake, await fake.slash(carol, "game status", channel="table-2"))
    assert "alice" in res.text.lower() and "bob" in res.text.lower()
    res = await ok(fake, await fake.slash(carol, "game list"))
    assert res.ephemeral and fake.channels["table-2"].mention in res.text
    res = await ok(fake, await fake.slash("gm", "game end", channel="table-2"))
    assert not res.ephemeral


async def test_my_games_lists_what_waits_on_me_with_a_link_to_each_channel(fake: FakeDiscord) -> None:
    """/game mine (issue 32.1): private, what waits on the asker first, a link button per channel."""
    alice, bob = fake.users["alice"], fake.users["bob"]
    await ok(fake, await fake.slash(alice, "game new", {"system": "mageknight"}, channel="games"))
    await ok(fake, await fake.slash(bob, "game new", {"system": "warlord"}, channel="table-2"))
    await ok(fake, await fake.slash(alice, "game join", channel="table-2"))
    await ok(fake, await fake.slash(bob, "game start", channel="table-2"))  # a Warlord army: both must choose
    res = await ok(fake, await fake.slash(alice, "game mine", channel="general"))
    assert res.ephemeral and not res.message.pinged_ids
    first, second = [line for line in res.text.splitlines() if line[:2] in ("1.", "2.")]
    assert fake.channels["table-2"].mention in first and "▶" in first and "your move" in first
    assert fake.channels["games"].mention in second and "lobby" in second
    links = [button for button in res.message.buttons() if button.get("style") == 5]
    assert [link["url"].rsplit("/", 1)[1] for link in links] == [
        str(fake.channels["table-2"].id), str(fake.channels["games"].id)]
    res = await ok(fake, await fake.slash(alice, "game mine", channel="general", locale="it"))
    assert "tocca a te" in res.text and "sala d'attesa" in res.text
    for channel in ("games", "table-2"):
        await ok(fake, await fake.slash("gm", "game end", channel=channel))


# ------------------------------------------------------------------------------ faults


@pytest.mark.parametrize(("status", "retry_after"), [(429, 0.4), (500, 0.0)])
async def test_callback_fault_is_retried(fake: FakeDiscord, status: int, retry_after: float) -> None:
    fake.fail_next("POST", "/interactions/{id}/{token}/callback", status=status, retry_after=retry_after)
    inter = await fake.slash("alice", "roll", {"expression": "1d6"})
    res = await ok(fake, inter, timeout=8)
    assert [a.status for a in inter.attempts] == [status, 200]
    assert "Total" in res.text and res.latency < 3.0


async def test_gateway_drop_is_resumed(fake: FakeDiscord) -> None:
    """Discord closes the gateway (code 4000, as on a server restart): the bot resumes its session
    and keeps answering."""
    await fake.disconnect_gateway(4000)
    await fake.wait_until(lambda: fake.resumes and fake.connected, timeout=15, what="RESUME")
    assert fake.resumes[-1]["session_id"] == "session-1" and len(fake.identifies) == 1
    res = await ok(fake, await fake.slash("bob", "roll", {"expression": "1d4"}))
    assert "Total" in res.text


# ------------------------------------------------------------------------------ a Krosmaster table


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def km_board(shared: tuple[FakeDiscord, BotProcess]) -> FakeMessage:
    """A Krosmaster game in #games with a piece active (opened once for the module)."""
    return await open_krosmaster_game(shared[0], "games")


async def test_gm_overrides_need_the_gm_role(fake: FakeDiscord, km_board: FakeMessage) -> None:
    res = await ok(fake, await fake.slash("bob", "gm gg", {"seat": 1, "gg": 3}))
    assert res.ephemeral and "GM" in res.text
    pieces = await fake.autocomplete("gm", "gm wounds", {"piece": ""}, focused="piece")
    assert len(pieces) == 7  # every piece of both teams, for the GM
    res = await ok(fake, await fake.slash("gm", "gm gg", {"seat": 1, "gg": 3}))
    assert not res.ephemeral and "GG of Alice set to 3" in res.text and not res.message.files
    # Bookkeeping: the board already posted was edited in place (new text, new image), not re-posted.
    edited = [m for m in fake.messages.values() if m.history and "Alice 3" in m.text]
    assert edited and png(edited[-1]) is not None
    res = await ok(fake, await fake.slash("owner", "gm wounds", {"piece": pieces[0]["value"], "wounds": 1}))
    assert not res.ephemeral  # server admins count as GM
    log = await ok(fake, await fake.slash("carol", "game log", {"count": 5}))
    assert log.ephemeral and "Setting GG (GM)" in log.text and "Setting wounds (GM)" in log.text
    assert "gm_gg" not in log.text and "#11 <@" in log.text  # the unseated GM as a mention, never a bare id


async def test_rule_button_on_an_error_opens_the_rule(fake: FakeDiscord, km_board: FakeMessage) -> None:
    player, _ = next_up(fake, km_board)
    res = await ok(fake, await fake.slash(player, "km move", {"square": "Z99"}))
    assert res.ephemeral
    button = res.message.find_custom_id(r"^tv1:rules:show:krosmaster:")
    opened = await ok(fake, await fake.click(res.message, button, user=player))
    assert not opened.text.startswith("⚠️"), opened.text


async def _current_board(fake: FakeDiscord) -> FakeMessage:
    """A fresh board with a piece active (answering any pending question first)."""
    res = await ok(fake, await fake.slash("carol", "game status"))
    return await drive_krosmaster_setup(fake, board_of(res, fake))


async def test_undo_only_own_last_move(fake: FakeDiscord, bot: BotProcess, km_board: FakeMessage) -> None:
    board = await _current_board(fake)
    player, _ = next_up(fake, board)
    before = load_table(bot.db_path, fake.channels["games"].id)
    squares = await fake.autocomplete(player, "km move", {"square": ""}, focused="square")
    await ok(fake, await fake.slash(player, "km move", {"square": squares[0]["value"]}))
    assert load_table(bot.db_path, fake.channels["games"].id).actions == before.actions + 1
    res = await ok(fake, await fake.slash("carol", "game undo"))
    assert res.ephemeral and res.text.startswith("⚠️")
    res = await ok(fake, await fake.slash(player, "game undo"))
    assert not res.ephemeral and player.mention in res.text
    after = load_table(bot.db_path, fake.channels["games"].id)
    assert (after.actions, after.state_json) == (before.actions, before.state_json)


async def test_stale_board_button_does_not_act(fake: FakeDiscord, bot: BotProcess, km_board: FakeMessage) -> None:
    old = await _current_board(fake)
    player, _ = next_up(fake, old)
    # Ending an activation edits the channel's last board in place (TABLE_UX: a new picture per player
    # turn), so the move is made on a board posted below ``old``, and ``old`` keeps its now stale buttons.
    below = board_of(await ok(fake, await fake.slash("carol", "game status")))
    new = board_of(await ok(fake, await fake.click(below, below.find_custom_id(r":end$"), user=player)), fake)
    new = await drive_krosmaster_setup(fake, new)
    actor, _ = next_up(fake, new)
    before = load_table(bot.db_path, fake.channels["games"].id).actions
    res = await ok(fake, await fake.click(old, old.find_custom_id(r":end$"), user=actor))
    assert res.ephemeral, f"a stale button acted: {res.text}"
    assert load_table(bot.db_path, fake.channels["games"].id).actions == before


async def test_double_click_acts_once(fake: FakeDiscord, bot: BotProcess, km_board: FakeMessage) -> None:
    # Make sure the active piece is not its player's last, so a second 'end' has something to act on.
    for _ in range(10):
        board = await _current_board(fake)
        player, _ = next_up(fake, board)
        state = ENGINE.load_state(load_table(bot.db_path, fake.channels["games"].id).state_json or "")
        timeline = [p for p in state.player(state.active_seat).timeline if not state.pieces[p].ko]
        if timeline.index(state.active_piece or "") < len(timeline) - 1:
            break
        await ok(fake, await fake.click(board, board.find_custom_id(r":end$"), user=player))
    before = load_table(bot.db_path, fake.channels["games"].id).actions
    end = board.find_custom_id(r":end$")
    first, second = await fake.click(board, end, user=player), await fake.click(board, end, user=player)
    await ok(fake, first)
    await ok(fake, second)
    assert load_table(bot.db_path, fake.channels["games"].id).actions == before + 1


async def test_status_by_a_spectator_pings_nobody(fake: FakeDiscord, km_board: FakeMessage) -> None:
    res = await ok(fake, await fake.slash("carol", "game status"))
    assert res.message.pinged_ids == []


async def test_resign_names_the_winner_and_retires_buttons(fake: FakeDiscord, km_board: FakeMessage) -> None:
    board = await _current_board(fake)
    alice, bob = fake.users["alice"], fake.users["bob"]
    res = await ok(fake, await fake.slash(bob, "game resign"))  # asks first, privately
    assert res.ephemeral and "winner" not in res.text.lower()
    res = await ok(fake, await fake.click(res.message, res.message.find_custom_id(r":resign:\d+$"), user=bob))
    assert not res.ephemeral and alice.id in res.message.pinged_ids and "winner" in res.text.lower()
    player, _ = next_up(fake, board)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":end$"), user=player))
    assert res.ephemeral and res.text.startswith("⚠️")
    res = await ok(fake, await fake.slash("carol", "game list"))
    assert fake.channels["games"].mention not in res.text


# ------------------------------------------------------------------------------ every command


def _leaves(commands: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """(``"group sub"``, options) for every runnable chat-input command."""
    out: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(item: dict[str, Any], path: str) -> None:
        subs = [o for o in item.get("options") or [] if o["type"] in (1, 2)]
        if not subs:
            out.append((path, list(item.get("options") or [])))
        for sub in subs:
            walk(sub, f"{path} {sub['name']}")

    for cmd in commands:
        walk(cmd, cmd["name"])
    return out


async def _fill(fake: FakeDiscord, command: str, options: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Values a user could pick for the required options (from choices/autocomplete), or None to skip."""
    values: dict[str, Any] = {}
    for opt in options:
        if not opt.get("required"):
            continue
        if opt.get("choices"):
            values[opt["name"]] = opt["choices"][0]["value"]
        elif opt.get("autocomplete"):
            offered = await fake.autocomplete("gm", command, values, focused=opt["name"], channel="table-2")
            if not offered:
                return None
            values[opt["name"]] = offered[0]["value"]
        elif opt["type"] == 3:
            values[opt["name"]] = "1d6" if opt["name"] == "expression" else "x"
        elif opt["type"] in (4, 10):
            values[opt["name"]] = opt.get("min_value", 1)
        elif opt["type"] == 5:
            values[opt["name"]] = False
        elif opt["type"] == 6:
            values[opt["name"]] = fake.users["bob"]
        else:  # attachments etc.: covered by dedicated tests
            return None
    return values


async def test_every_command_answers_in_both_languages(fake: FakeDiscord, bot: BotProcess) -> None:
    """Each synced command, with the first value a user could pick for required options, answers
    in time, in English and Italian, without a payload Discord would reject or an 'unexpected error'.
    New cogs are covered automatically."""
    ran = []
    for command, options in _leaves(fake.commands()):
        for locale in ("en-US", "it"):
            values = await _fill(fake, command, options)
            if values is None:
                continue
            admin_only = fake.command(command.split()[0]).get("default_member_permissions") is not None
            user = "owner" if admin_only else "gm"  # members do not even see the admin groups
            res = await ok(fake, await fake.slash(user, command, values, channel="table-2", locale=locale))
            assert "error id" not in res.text and "codice errore" not in res.text, f"/{command}: {res.text}"
            ran.append(command)
    assert len(set(ran)) >= 25  # today ~30 of ~40; the rest need a game state or an upload
    assert not bot.errors_logged()


PYTHON_REPR = re.compile(r"[\[{(]'[^']*'(?:, |: )")


async def test_no_python_reprs_in_anything_users_saw(fake: FakeDiscord, km_board: FakeMessage) -> None:
    """Runs last: every message of the module (games, dice, rules) reads as prose, not as Python."""
    leaks = [line for m in fake.messages.values() for line in m.text.splitlines() if PYTHON_REPR.search(line)]
    assert not leaks, "\n".join(leaks[:5])


async def test_every_seat_gets_its_own_private_panel_from_the_public_board(fake: FakeDiscord) -> None:
    board = await open_krosmaster_game(fake, channel="general")  # its own table: others resign theirs
    seen = {}
    for name in ("alice", "bob"):
        res = await ok(fake, await fake.click(board, "tv1:game:me", user=name))
        assert res.ephemeral and res.message.flags & EPHEMERAL, res.text
        assert res.message.pinged_ids == []
        seen[name] = res.text
    assert "Alice: your hand and options" in seen["alice"] and "Bob: your hand and options" in seen["bob"]
    res = await ok(fake, await fake.click(board, "tv1:game:me", user="carol"))
    assert res.ephemeral and "watching" in res.text
    public = [m.text for m in fake.messages.values() if not m.ephemeral]
    assert not any("your hand and options" in text for text in public)
