"""What the playtester found at a two-seat table (set-up B: Warden and Arcanist for the Horde, Ranger and
Cantor for the Alliance), each answer pinned: the private panel names regions as the public question
does, an attack order outside a fight says none is asked, a character without dice is warned about before
it challenges, an item its class can never wear is labelled, the Equip… menu says which pre-printed power
it covers, a bad yes/no lobby option is refused, and the start line says "game" once."""

from __future__ import annotations

from typing import Any

import pytest

from common.i18n import t
from console.runner import Console
from engines.wowboard import ENGINE
from engines.wowboard import actions as A
from engines.wowboard.state import State
from gm.context import Place
from gm.games.wowboard import choices, presenter, text
from tests.wowboard.console_reads import out, state_of

START_B = ["/as alice", "/game new system:wowboard", "/as bob", "/game join", "/game start", "/as alice",
           "/wowb class name:war", "/as asked", "/wowb class name:ranger", "/as asked",
           "/wowb class name:arcanist", "/as alice"]


async def _set_up_b(console: Console, lang: str = "en") -> State:
    await console.run([*(["/lang it"] if lang == "it" else []), *START_B])
    state = await state_of(console)
    assert state.phase == "play" and console.errors == 0, out(console)[-2000:]
    return state


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_panel_names_the_respawn_regions_as_the_public_question_does(console: Console, lang: str) -> None:
    await _set_up_b(console, lang)
    await console.run(["/wowb travel character:warden to:kilnwatch", "/wowb challenge character:warden target:dunecur"])
    for _ in range(8):  # the Warden rolls until it falls (seed 1: two rounds)
        decision = ENGINE.decision(await state_of(console))
        if decision is not None and decision.kind == "respawn":
            break
        await console.run(["/wowb roll"])
    state = await state_of(console)
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "respawn", out(console)[-2000:]
    ids = [o for o in str(decision.params["options"]).split(", ") if o]
    start = len(out(console))
    await console.run(["/wowb panel"])
    shown = out(console)[start:]
    for region in ids:
        assert text.name(state, region, lang) in shown
        assert region not in shown  # "old_quarry" is an id, never a word a player reads


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_an_attack_order_outside_a_fight_says_no_order_is_asked(console: Console, lang: str) -> None:
    before = await _set_up_b(console, lang)
    start = len(out(console))
    await console.run(["/wowb order order:foo"])
    shown = out(console)[start:]
    assert t("wowboard.ui.no_order", lang) in shown
    assert "foo" not in shown  # not "“foo” is not one of the characters you can name here: —"
    assert (await state_of(console)).model_dump() == before.model_dump()


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_challenge_by_a_character_without_dice_is_labelled_before_it_starts(
        console: Console, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """challenge.1–4 set no dice requirement, so the Cantor may challenge: the label warns instead."""
    view = await _set_up_b(console, lang)
    assert choices.has_no_dice(view, "cantor") and not choices.has_no_dice(view, "warden")
    target = "group:saintsbridge:grave_eater:alliance"
    offered = [A.Challenge(character="cantor", target=target)]
    monkeypatch.setattr(choices, "legal", lambda _v, _s: offered)
    warning = t("wowboard.ui.no_dice_warning", lang, name=text.name(view, "cantor", lang))
    assert warning in choices.challenge_choices(view, 1, "cantor", "", lang)[0].label
    assert warning in presenter.action_label(view, offered[0], lang)  # the Challenge… menu
    assert "—" not in presenter.action_label(view, A.Challenge(character="warden", target=target), lang)


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_an_item_the_class_can_never_wear_is_offered_but_labelled(
        console: Console, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """merchant.2: anyone may buy any item; equipping.3: the Cantor has no area for a leather helm, the Ranger has."""
    view = await _set_up_b(console, lang)
    assert not choices.wearable(view, "cantor", "leather_cap") and choices.wearable(view, "ranger", "leather_cap")
    offered: list[Any] = [A.Town(character="cantor", buy=["leather_cap", "healing_draught"])]
    monkeypatch.setattr(choices, "legal", lambda _v, _s: offered)
    note = t("wowboard.ui.not_wearable", lang, name=text.name(view, "cantor", lang))
    labels = {c.value: c.label for c in choices.buy_choices(view, 1, "cantor", "", lang)}
    assert note in labels["leather_cap"] and note not in labels["healing_draught"]
    built = presenter.builder(view, 1, "town", "cantor", lang, "ref")
    assert any(note in o.label for o in built.selects[0].options if o.value == "buy|leather_cap")
    assert note in presenter.action_label(view, offered[0], lang)


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_equip_menu_says_which_printed_power_an_equip_covers(console: Console, lang: str) -> None:
    view = await _set_up_b(console, lang)
    covered = presenter.action_label(view, A.Equip(character="arcanist", card="ember_bolt", area="instant"), lang)
    free = presenter.action_label(view, A.Equip(character="arcanist", card="ember_bolt", area="instant_2"), lang)
    spark = choices.covered_printed(view, "arcanist", "instant", lang)
    assert spark and t("wowboard.ui.covers", lang, name=spark) in covered
    assert choices.covered_printed(view, "arcanist", "instant_2", lang) is None and "—" not in free


@pytest.mark.parametrize(("lang", "typed"), [("en", "maybe"), ("it", "forse")])
async def test_a_bad_yes_no_lobby_option_is_refused_and_opens_no_lobby(console: Console, lang: str, typed: str) -> None:
    await console.run([*(["/lang it"] if lang == "it" else []), "/as alice",
                       f'/game new system:wowboard options:"duel:{typed}"'])
    assert t("wowboard.err.bad_switch", lang, option="duel", value=typed) in out(console)
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    assert await console.bot.app.tables.table_for(place) is None


@pytest.mark.parametrize("word", ["yes", "sì", "no", "off"])
async def test_yes_no_lobby_option_takes_its_words_in_either_language(console: Console, word: str) -> None:
    await console.run(["/as alice", f'/game new system:wowboard options:"duel:{word}"'])
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    assert await console.bot.app.tables.table_for(place) is not None, out(console)[-1000:]


async def test_the_start_line_says_game_once(console: Console) -> None:
    await _set_up_b(console)
    await console.run(["/game log"])
    shown = out(console)
    assert "game game" not in shown and t("game.started", "en", system="WoW board game") in shown


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_typed_challenge_without_dice_goes_ahead_and_warns_its_player_alone(
        console: Console, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """challenge.1–4: a typed challenge has no autocomplete label to carry the no-dice warning, so the
    player is told beside the result (the Warden stands in for a character without dice)."""
    await _set_up_b(console, lang)
    monkeypatch.setattr(choices, "has_no_dice", lambda _view, char: char == "warden")
    await console.run(["/wowb travel character:warden to:kilnwatch"])
    start = len(out(console))
    await console.run(["/wowb challenge character:warden target:dunecur"])
    shown = out(console)[start:]
    warning = "⚠️ " + t("wowboard.ui.no_dice_warning", lang, name=text.name(await state_of(console), "warden", lang))
    assert f"(only alice) {warning}" in shown, shown[-1500:]
    assert (await state_of(console)).combat is not None  # the challenge went ahead (the rules allow it)
