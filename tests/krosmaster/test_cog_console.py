"""The /km and /gm commands through the console (real cog callbacks, fake interactions)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from console.runner import Console
from engines.krosmaster.engine import reachable_squares
from engines.krosmaster.state import State
from gm.context import Place
from tests.krosmaster.conftest import console_output as _out
from tests.krosmaster.conftest import console_state as _state

LOBBY = """
/as alice
/game new krosmaster
/km team figurines:"iron_warden, ember_witch, gale_archer, tide_healer"
/as bob
/game join
/km team figurines:"bone_crusher, shadow_rogue, cloud_sage, mire_imp, root_druid"
/game start
"""




async def _to_first_piece_turn(console: Console) -> State:
    """Play the set-up with the first legal choice each time, as the players would."""
    from tools.km_autoplay import choose

    for _ in range(40):
        state = await _state(console)
        table = await console.bot.app.tables.table_for(Place(channel_id=console.channel.id,
                                                             guild_id=console.guild.id))
        assert table is not None
        if state.phase == "turn":
            return state
        seat = table.engine.decision(state).seats[0]  # type: ignore[union-attr]
        await console.execute(f"/as {table.seats[seat].name}")
        await console.execute(choose(state, seat, table.engine.legal_actions(state, seat)))
    raise AssertionError("set-up did not reach a piece turn")


async def _as_active_player(console: Console) -> tuple[State, str, str]:
    """Play the lobby and set-up, then switch to the active player: (state, active, other) names."""
    await console.run(LOBBY.splitlines())
    state = await _to_first_piece_turn(console)
    table = await console.bot.app.tables.table_for(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert table is not None
    active, other = table.seats[state.active_seat].name, table.seats[1 - state.active_seat].name
    await console.execute(f"/as {active}")
    return state, active, other


async def test_101_team_rule_is_named_when_a_team_is_refused(console: Console) -> None:
    await console.run(["/as alice", "/game new krosmaster", '/km team figurines:"iron_warden, ember_witch"'])
    assert "(only alice) ⚠️" in _out(console) and "(rule 101" in _out(console)
    assert console.errors == 1


async def test_move_autocomplete_offers_exactly_the_reachable_squares(console: Console) -> None:
    state, _, _ = await _as_active_player(console)
    start = len(console.transcript.messages)
    await console.execute("/complete /km move square:")
    offered = {c.value for c in console.transcript.messages[start].choices or []}
    expected = set(reachable_squares(state))
    assert offered and offered <= expected and len(offered) == min(25, len(expected))


async def test_illegal_move_is_private_and_changes_nothing(console: Console) -> None:
    state, active_user, other_user = await _as_active_player(console)
    await console.execute("/km move square:A1")
    assert f"(only {active_user}) ⚠️" in _out(console)
    await console.execute(f"/as {other_user}")
    await console.execute("/km end")
    assert f"(only {other_user}) ⚠️ It is not your turn" in _out(console)
    assert (await _state(console)).model_dump() == state.model_dump()


async def test_preview_is_an_ephemeral_image(console: Console) -> None:
    await _as_active_player(console)
    start = len(console.transcript.messages)
    await console.execute("/km preview")
    message = console.transcript.messages[start]
    assert message.ephemeral and message.files and "reachable squares" in (message.content or "")


async def test_a_failed_preview_picture_answers_in_words(console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    """Previews draw in the render pool like boards; when the picture fails, the squares come as text."""
    from gm.workers import render_pool

    async def broken(*_args: object, **_kwargs: object) -> object:
        raise render_pool.RenderFailed("worker crashed")

    await _as_active_player(console)
    monkeypatch.setattr(render_pool.pool(), "call", broken)
    start = len(console.transcript.messages)
    await console.execute("/km preview")
    message = console.transcript.messages[start]
    assert message.ephemeral and not message.files and "reachable squares" in (message.content or "")
    assert re.search(r"[A-L]\d+ \(\d\)", message.content or ""), message.content


async def test_gm_overrides_need_the_role_and_are_logged(console: Console) -> None:
    await console.run(LOBBY.splitlines())
    await _to_first_piece_turn(console)
    await console.execute("/as alice")
    await console.execute("/gm wounds piece:1a wounds:3")
    assert "Only the GM role may do that." in _out(console)
    await console.execute("/as judge gm")
    await console.execute("/gm wounds piece:1a wounds:3")
    assert (await _state(console)).pieces["1a"].wounds == 3
    await console.execute("/game log count:1")
    assert "Setting wounds (GM)" in _out(console) and "gm_wounds" not in _out(console)
    assert "#13 @judge: Setting wounds (GM)" in _out(console)  # the unseated GM by name, not by id


async def test_server_content_pack_is_validated_stored_and_playable(console: Console, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "broken", "figurines": [{"id": "x"}]}), encoding="utf-8")
    await console.run(["/as alice", f"/km-admin pack file:{bad}"])
    assert "figurines.0" in _out(console)  # the error names the field
    pack = {"name": "duelists", "figurines": [], "arenas": [
        {**json.loads(json.dumps(_builtin_arena())), "id": "tiny_duel", "name": "Tiny Duel"}]}
    good = tmp_path / "duel.json"
    good.write_text(json.dumps(pack), encoding="utf-8")
    await console.execute(f"/km-admin pack file:{good}")
    assert 'Content pack "duelists" saved' in _out(console)
    await console.execute('/game new krosmaster options:"pack:duelists arena:tiny_duel"')
    assert "lobby opened" in _out(console)
    await console.execute("/game end")
    await console.execute('/game new krosmaster options:"pack:nothere"')
    assert 'no krosmaster content pack named "nothere"' in _out(console)


async def test_a_pack_is_never_replaced_by_surprise_and_can_be_removed(console: Console, tmp_path: Path) -> None:
    pack = {"name": "duelists", "figurines": [], "arenas": [
        {**json.loads(json.dumps(_builtin_arena())), "id": "tiny_duel", "name": "Tiny Duel"}]}
    first, second = tmp_path / "duel.json", tmp_path / "duel2.json"
    first.write_text(json.dumps(pack), encoding="utf-8")
    second.write_text(json.dumps({**pack, "arenas": []}), encoding="utf-8")
    await console.run(["/as alice", f"/km-admin pack file:{first}", f"/km-admin pack file:{second}"])
    assert "replace:true" in _out(console) and console.errors == 1
    await console.run(['/game new krosmaster options:"pack:duelists arena:tiny_duel"',
                       "/km-admin pack-remove name:duelists"])
    assert "used by the table" in _out(console)  # a table in play keeps its pack
    await console.run([f"/km-admin pack file:{second} replace:true", "/game end"])
    assert 'Content pack "duelists" replaced' in _out(console)
    await console.run(["/complete /km-admin pack-remove name:du", "/km-admin pack-remove name:duelists",
                       "/km-admin packs", "/km-admin pack-remove name:duelists"])
    out = _out(console)
    assert "duelists  →  duelists" in out and "was removed" in out
    assert "No krosmaster packs in this server yet" in out and 'no krosmaster pack named "duelists"' in out


def _builtin_arena() -> dict:
    from engines.krosmaster.content import builtin_pack

    return builtin_pack().arenas[0].model_dump(mode="json")


async def test_rewards_commands_are_private_and_follow_the_engine(console: Console) -> None:
    state, active_user, _ = await _as_active_player(console)
    start = len(console.transcript.messages)
    await console.execute("/km rewards")
    message = console.transcript.messages[start]
    text = (message.content or "") + "".join(e.description or "" for e in message.embeds)
    assert message.ephemeral and "Granite 1: 3 face down, on top: —" in text and "Your face-down rewards" in text
    assert "granite1" not in text  # the pile's id is an internal word
    start = len(console.transcript.messages)
    await console.execute("/complete /km reward-buy pile:")
    assert not console.transcript.messages[start].choices  # not on a demon square (306.4)
    await console.execute('/km reward-buy pile:"granito 1" blind:true')  # the pile as people name it
    assert f"(only {active_user}) ⚠️" in _out(console) and "(rule 306.4)" in _out(console)
    await console.execute("/km buy-gg")
    assert "(rule 305.3)" in _out(console)
    assert (await _state(console)).model_dump() == state.model_dump()


async def test_701_2_four_player_lobby_takes_two_krosmaster_teams_and_starts(console: Console) -> None:
    lines = ["/as alice", '/game new krosmaster options:"mode:teams"']
    teams = {"alice": "vesk_grifter, sage_baltus", "bob": "rimewarden, sleet_sprite",
             "carol": "iron_warden, ember_witch", "dave": "beast_caller, coinpurse"}
    for name, team in teams.items():
        lines += [f"/as {name}", *(["/game join"] if name != "alice" else []), f'/km team figurines:"{team}"']
    await console.run([*lines, "/game start"])
    assert "(4 players)" in _out(console) and console.errors == 0, _out(console)
    state = await _state(console)
    assert state.multi is not None and state.multi.mode == "teams" and len(state.players) == 4
    await console.execute('/km team figurines:"iron_warden, ember_witch"')
    assert console.errors == 1 and "already started" in _out(console)  # the lobby is closed


NAMED_LOBBY = """
/as alice
/game new krosmaster
/km team figurines:"Iron Warden, ember witch, gale, tide healer"
/as bob
/game join
/km team figurines:"bone crusher shadow rogue cloud sage mire imp root druid"
/game start
/km order piece:"Cloud Sage"
"""


async def test_team_order_and_deploy_take_the_names_the_board_shows(console: Console) -> None:
    """Bug: `/km team` refused display names and lists without commas; `/km deploy piece:SHA`
    failed with "SHA is not one of your pieces" (103.9) and wanted the id `0b`."""
    await console.run(NAMED_LOBBY.splitlines())
    assert console.errors == 0, _out(console)
    state = await _state(console)
    assert [p.figurine.id for p in state.pieces.values() if p.owner == 1][:2] == ["bone_crusher", "shadow_rogue"]
    await console.run(["/as alice", "/km choose option:north", "/as bob", "/km deploy piece:SHA square:J12",
                       "/km deploy piece:bone square:I12"])
    assert console.errors == 0, _out(console)
    deployed = {p.short: p.pos for p in (await _state(console)).pieces.values() if p.pos}
    assert deployed == {"SHA": "J12", "BON": "I12"}
    await console.execute("/km deploy piece:SHA square:H12")
    assert "SHA (Shadow Rogue) is already on the board. (rule 103.9)" in _out(console)
    await console.execute("/km deploy piece:zz square:H12")
    assert '"zz" is not one of your pieces. Choose among: BON (Bone Crusher), SHA (Shadow Rogue)' in _out(console)


async def test_103_2_the_side_autocomplete_offers_in_italian_is_accepted_typed(console: Console) -> None:
    """Bug: autocomplete offered `nord`, but typing `/km choose option:nord` was refused."""
    await console.run([*LOBBY.splitlines(), "/km order piece:1c", "/as alice", "/lang it",
                       "/complete /km choose option:"])
    assert "  · nord  →  north" in _out(console)
    await console.execute("/km choose option:nord")
    assert console.errors == 0, _out(console)
    assert (await _state(console)).player(0).side == "north"


async def test_km_info_is_private_in_the_readers_language_and_autocompletes(console: Console) -> None:
    await console.run(["/as alice", "/km info name:\"fire bolt\"", "/lang it", "/km info name:contrasto",
                       "/complete /km info name:pyr"])
    out = _out(console)
    assert "(only alice) == Fire Bolt — spell ==" in out and "Cost: 3 AP" in out
    assert "== Contrasto — potere ==" in out and "Regola: 307.3" in out
    assert "Pira — incantesimo · 5 PA · 1 danno Fuoco" in out and "→  spell:pyre" in out


async def test_cast_takes_the_spell_name_and_the_target_by_piece_or_italian_direction(console: Console) -> None:
    state, active, _ = await _as_active_player(console)
    piece = state.pieces[state.active_piece or ""]
    spell = piece.figurine.spells[0]
    await console.execute(f'/km cast spell:"{spell.name.upper()}" target:"Z99"')
    assert "(only " + active + ") ⚠️" in _out(console) and "Z99" in _out(console)
    assert "is not a spell of" not in _out(console)  # the name was understood
    await console.execute('/km cast spell:"nothing like it" target:A1')
    assert f'"nothing like it" is not a spell of {piece.short}. Choose among: ' in _out(console)


async def test_gm_overrides_name_pieces_as_the_board_shows(console: Console) -> None:
    await console.run(LOBBY.splitlines())
    await _to_first_piece_turn(console)
    state = await _state(console)
    target = next(p for p in state.pieces.values() if p.owner == 1)
    await console.run(["/as judge gm", f"/gm wounds piece:{target.short} wounds:2"])
    assert console.errors == 0, _out(console)
    assert (await _state(console)).pieces[target.id].wounds == 2
    await console.execute("/gm wounds piece:nobody wounds:2")
    assert '"nobody" is not a piece of this game. Choose among: ' in _out(console)
