"""/wowm: World of Warcraft Miniatures commands, autocomplete and buttons (thin: rules live in
the engine, names and lists in ``gm.games.wowminis.choices``, actions that need more than a name and
the secret bars in ``gm.games.wowminis.actions``, replies in ``gm.games.wowminis.presenter``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    ActionBuild,
    Choices,
    act_from_view,
    act_privately,
    ctx,
    private_from_view,
    respond,
    respond_private,
    seat_choices_of,
    send_error,
    table_content,
    to_choices,
    typed_text,
)
from cogs.messages import app_of, register_handler
from cogs.packs import pack_admin_cog
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.games.wowminis import actions, choices, limited
from gm.games.wowminis import presenter as wm
from gm.reply import Reply

SYSTEM = "wowminis"


_seat_choices = seat_choices_of(wm.current)


async def _content(interaction: discord.Interaction) -> dict[str, Any] | None:
    return await table_content(interaction, SYSTEM)


class WowMinis(commands.Cog):
    wowm_group = app_commands.Group(name="wowm", description="World of Warcraft Miniatures: party, bars, move, play",
                                    guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler("wowm", self._on_component)

    # ------------------------------------------------------------------ helpers
    async def _act(self, interaction: discord.Interaction, action: dict[str, Any], ref: str | None = None,
                   build: ActionBuild | None = None) -> None:
        """Act on the channel's game (``cogs.common.act_from_view``: ``build`` names what was typed)."""
        await act_from_view(interaction, wm.current, build, typed_action=action, ref=ref, system=SYSTEM)

    # ------------------------------------------------------------------ lobby
    @wowm_group.command(name="party", description="Choose your party of three characters of one faction")
    @app_commands.describe(characters="Character names separated by commas (autocomplete keeps one faction)")
    async def party(self, interaction: discord.Interaction, characters: str) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: wm.set_party(app, place, actor, characters), system=SYSTEM)

    @party.autocomplete("characters")
    async def _party_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(actions.party_choices(await _content(interaction), current, actor.locale))

    @wowm_group.command(name="characters", description="Show (only to you) every character you can put in a party")
    async def characters(self, interaction: discord.Interaction) -> None:
        async def work(_place: Place, actor: Actor) -> Reply:
            return wm.characters_reply(await _content(interaction), actor.locale)

        await respond_private(interaction, work, system=SYSTEM)

    # ------------------------------------------------------------------ limited formats (100.3)
    @wowm_group.command(name="pick", description="Booster draft: take one item of the booster you hold (secret)")
    @app_commands.describe(item="A character or card of your booster (autocomplete lists them)")
    async def pick(self, interaction: discord.Interaction, item: str) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: limited.secret_act(app, place, actor, {"kind": "draft_pick", "item": item}),
                      system=SYSTEM, ephemeral_defer=True)

    @pick.autocomplete("item")
    async def _pick_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: limited.pick_choices(v, seat, current, lang))

    @wowm_group.command(name="build", description="Sealed or draft: your party and its cards, in secret")
    @app_commands.describe(party="Character names separated by commas, from your pool",
                           cards="Cards per character: \"Ysolde: war drums, sunward; Vessa: …\"")
    async def build(self, interaction: discord.Interaction, party: str, cards: str | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: limited.secret_act(app, place, actor, limited.build_action(party, cards)),
                      system=SYSTEM, ephemeral_defer=True)

    @wowm_group.command(name="suggest", description="Show (only to you) a legal, balanced party and why")
    async def suggest(self, interaction: discord.Interaction) -> None:
        app, _place, _actor = ctx(interaction)

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, table = await wm.current(app, place, actor)
            options = table.game.options if table is not None else None  # a lobby's scenario and goal (102.1)
            return limited.suggest_reply(view, seat, await _content(interaction), actor.locale, options)

        await respond_private(interaction, work, system=SYSTEM)

    # ------------------------------------------------------------------ set-up
    @wowm_group.command(name="bar", description="Choose your action bars in secret (only you see your choice)")
    @app_commands.describe(cards="Optional, 2 cards each: \"ELO: renewing, umbral; BRA: aegis, veil; …\" (else a menu)")
    async def bar(self, interaction: discord.Interaction, cards: str | None = None) -> None:
        if not cards:
            await private_from_view(interaction, wm.game,
                                    lambda v, seat, lang, ref: wm.bar_menu(v, seat, lang, ref, []), system=SYSTEM)
            return
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wm.game(app, place, actor)
            return await actions.choose_bar(app, place, actor, choices.resolve_bar(view, seat, cards))

        await respond(interaction, work, system=SYSTEM, ephemeral_defer=True)

    @bar.autocomplete("cards")
    async def _bar_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.bar_choices(v, seat, current, lang))

    # ------------------------------------------------------------------ play
    @wowm_group.command(name="next", description="Choose which character acts now (tied clocks, 500.3c)")
    @app_commands.describe(character="One of the characters offered")
    async def next_char(self, interaction: discord.Interaction, character: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": character}, build=lambda v, seat, lang: {
            "kind": "choose", "value": choices.resolve_option(v, seat, character, lang)})

    @next_char.autocomplete("character")
    async def _next_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.option_choices(
            v, seat, current, lang, ("first_character", "next_character")))

    @wowm_group.command(name="spawn", description="Choose the spawn point your character enters play from")
    @app_commands.describe(point="A spawn point of your side, or a neutral one")
    async def spawn(self, interaction: discord.Interaction, point: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": point}, build=lambda v, seat, lang: {
            "kind": "choose", "value": choices.resolve_option(v, seat, point, lang)})

    @spawn.autocomplete("point")
    async def _spawn_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.option_choices(
            v, seat, current, lang, ("spawn_point", "spawn_placement")))

    @wowm_group.command(name="move",
                        description="Move the active character (up to 2 hexes; cover and elevation cost 2)")
    @app_commands.describe(to="A hex (autocomplete lists the reachable ones with their cost)")
    async def move(self, interaction: discord.Interaction, to: str) -> None:
        await self._act(interaction, {"kind": "move", "to": to.strip()})

    @move.autocomplete("to")
    async def _move_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.move_choices(v, seat, current, lang))

    @wowm_group.command(name="play", description="Play an ability or action card of the active character")
    @app_commands.describe(ability="An ability (autocomplete: cost → resulting tick; only what you can play)",
                           target="Its target(s) (autocomplete: only legal ones; an area shows where it points)")
    async def play(self, interaction: discord.Interaction, ability: str, target: str | None = None) -> None:
        await self._act(interaction, {"kind": "play", "ability": ability},
                        build=lambda v, seat, lang: wm.play_action(v, seat, ability, target, lang))

    @play.autocomplete("ability")
    async def _ability_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.ability_choices(v, seat, current, lang))

    @play.autocomplete("target")
    async def _target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        ability = typed_text(interaction, "ability")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.target_choices(
            v, seat, ability, current, lang))

    @wowm_group.command(name="react", description="Play a react card in the open window")
    @app_commands.describe(card="One of your react cards that fits this window",
                           target="Its target, when it needs one")
    async def react(self, interaction: discord.Interaction, card: str, target: str | None = None) -> None:
        await self._act(interaction, {"kind": "react", "card": card},
                        build=lambda v, seat, lang: actions.react(v, seat, card, target, lang))

    @react.autocomplete("card")
    async def _react_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.react_choices(v, seat, current, lang))

    @react.autocomplete("target")
    async def _react_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        card = typed_text(interaction, "card")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.react_target_choices(
            v, seat, card, current, lang))

    @wowm_group.command(name="pass", description="Play no react in this window")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "pass"})

    @wowm_group.command(name="reroll", description="Reroll some dice (numbered from 1), or keep them all")
    @app_commands.describe(dice="Dice positions, e.g. \"1 3\", or keep")
    async def reroll(self, interaction: discord.Interaction, dice: str = "keep") -> None:
        await self._act(interaction, {"kind": "reroll", "dice": []}, build=lambda _v, _s, _l: {
            "kind": "reroll", "dice": choices.parse_dice(dice)})

    @reroll.autocomplete("dice")
    async def _reroll_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.reroll_choices(v, seat, current, lang))

    @wowm_group.command(name="choose", description="Answer the open question (protector, order, placement…)")
    @app_commands.describe(option="One of the answers offered")
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": option}, build=lambda v, seat, lang: {
            "kind": "choose", "value": choices.resolve_option(v, seat, option, lang)})

    @choose.autocomplete("option")
    async def _choose_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.option_choices(v, seat, current, lang))

    @wowm_group.command(name="end", description="End the active character's turn")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "end_turn"})

    @wowm_group.command(name="reveal", description="Turn one of your face-down cards face up (any time, 300.1)")
    @app_commands.describe(card="One of your face-down cards")
    async def reveal(self, interaction: discord.Interaction, card: str) -> None:
        await self._act(interaction, {"kind": "reveal", "card": card}, build=lambda v, seat, lang: {
            "kind": "reveal", "card": choices.resolve_react_card(v, seat, card, lang)})

    @reveal.autocomplete("card")
    async def _reveal_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.reveal_choices(v, seat, current, lang))

    @wowm_group.command(name="leave-form", description="Leave the active character's form (an instant, 302.4)")
    async def leave_form(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "leave_form"})

    @wowm_group.command(name="prefs", description="Your table comfort: pass react windows, reroll failures")
    @app_commands.describe(auto_pass="never, always, or unless you can react (tells others you can)",
                           auto_reroll="ask, or reroll failed dice by yourself")
    async def prefs(self, interaction: discord.Interaction, auto_pass: str | None = None,
                    auto_reroll: str | None = None) -> None:
        await act_privately(interaction, lambda: {"kind": "prefs", **choices.resolve_prefs(auto_pass, auto_reroll)},
                            system=SYSTEM)

    @prefs.autocomplete("auto_pass")
    async def _auto_pass_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(choices.pref_choices("auto_pass", current, actor.locale))

    @prefs.autocomplete("auto_reroll")
    async def _auto_reroll_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(choices.pref_choices("auto_reroll", current, actor.locale))

    # ------------------------------------------------------------------ information
    @wowm_group.command(name="preview",
                        description="Show (only to you) the active character's moves, or what an ability reaches")
    @app_commands.describe(ability="An ability: its range and sight, its legal targets (empty: the move)")
    async def preview(self, interaction: discord.Interaction, ability: str | None = None) -> None:
        app = app_of(interaction)

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, table = await wm.game(app, place, actor)
            if ability:
                return await wm.ability_preview_reply(view, seat, ability, actor.locale, wm.game_ref(table),
                                                      table.seat_names)
            return await wm.preview_reply(view, seat, actor.locale, wm.game_ref(table), table.seat_names)

        await respond_private(interaction, work, system=SYSTEM)

    @preview.autocomplete("ability")
    async def _preview_ability_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.ability_choices(v, seat, current, lang))

    @wowm_group.command(name="los", description="Show (only to you) the line of sight between two hexes")
    @app_commands.describe(frm="From: a hex or a character", to="To: a hex or a character")
    @app_commands.rename(frm="from")
    async def los(self, interaction: discord.Interaction, frm: str, to: str) -> None:
        app = app_of(interaction)

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, table = await wm.game(app, place, actor)
            return await wm.los_reply(view, seat, frm, to, actor.locale, wm.game_ref(table), table.seat_names)

        await respond_private(interaction, work, system=SYSTEM)

    @los.autocomplete("frm")
    async def _los_from_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, _seat, lang: choices.hex_choices(v, current, lang))

    @los.autocomplete("to")
    async def _los_to_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, _seat, lang: choices.hex_choices(v, current, lang))

    @wowm_group.command(name="cards", description="Show (only to you) your action bars, face-down cards included")
    async def cards(self, interaction: discord.Interaction) -> None:
        await private_from_view(interaction, wm.game, wm.cards_reply, system=SYSTEM)

    @wowm_group.command(name="clock", description="Show (only to you) the Master Clock and every character's tick")
    async def clock(self, interaction: discord.Interaction) -> None:
        await private_from_view(interaction, wm.game, lambda v, _seat, lang, _ref: wm.clock_reply(v, lang),
                                system=SYSTEM)

    @wowm_group.command(name="info", description="Show (only to you) what a character or an action card does")
    @app_commands.describe(name="A name, or its beginning")
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        async def work(_place: Place, actor: Actor) -> Reply:
            return wm.info_reply(name, await _content(interaction), actor.locale)

        await respond_private(interaction, work, system=SYSTEM)

    @info.autocomplete("name")
    async def _info_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(actions.info_choices(await _content(interaction), current, actor.locale))

    # ------------------------------------------------------------------ buttons
    async def _on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        """Buttons and selects carry ``<game>.<version>``: acting ones are checked under the lock,
        menus are built only for the position they were asked from."""
        if len(args) < 2:
            await send_error(interaction, TavoloError("common.stale_button"))
            return
        ref, verb, rest = args[0], args[1], args[2:]
        simple = {"end": {"kind": "end_turn"}, "pass": {"kind": "pass"}, "keep": {"kind": "reroll", "dice": []}}
        value = rest[-1] if rest else ""
        if verb == "autopass" and value in ("never", "always", "targeted", "my_turn"):  # said to the seat alone
            await act_privately(interaction, lambda: {"kind": "prefs", "auto_pass": value}, system=SYSTEM)
        elif verb in simple:
            await self._act(interaction, simple[verb], ref)
        elif verb == "choose" and value:
            await self._act(interaction, {"kind": "choose", "value": value}, ref)
        elif verb == "movesel" and value:
            await self._act(interaction, {"kind": "move", "to": value}, ref)
        elif verb == "rerollsel" and value:
            await self._act(interaction, {"kind": "reroll", "dice": choices.parse_dice(value)}, ref)
        elif verb == "reactsel" and value:
            await self._act(interaction, {"kind": "react", "card": value}, ref)
        elif verb == "aoeview" and len(rest) >= 2:  # issue 29.6: the area preview, pointing the chosen way
            app = app_of(interaction)

            async def again(place: Place, actor: Actor) -> Reply:
                view, seat, table = await wm.game(app, place, actor)
                return await wm.ability_preview_reply(view, seat, rest[0], actor.locale, wm.game_ref(table),
                                                      table.seat_names, placement=value)

            await respond_private(interaction, again, system=SYSTEM)
        elif verb == "playsel" and len(rest) >= 2:
            await self._act(interaction, {"kind": "play", "ability": rest[0]}, ref,
                            build=lambda v, seat, _l: wm.play_action(v, seat, rest[0], rest[-1]))
        elif verb == "barpick" and rest:
            await self._bar_pick(interaction, ref, rest)
        elif verb in wm.MENU_VERBS:
            app = app_of(interaction)
            await respond_private(interaction, lambda place, actor: wm.button_menu(app, place, actor, ref, verb),
                                  system=SYSTEM)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))

    async def _bar_pick(self, interaction: discord.Interaction, ref: str, rest: list[str]) -> None:
        """One character's pair picked (the select's value; the pairs before it ride in its id)."""
        app, place, actor = ctx(interaction)
        picked = wm.parse_picked("-".join(rest[:-1]) + "-" + rest[-1] if len(rest) > 1 else rest[-1])
        await respond(interaction, lambda: actions.bar_pick(app, place, actor, ref, picked), system=SYSTEM,
                      ephemeral_defer=True)


WowMinisAdmin = pack_admin_cog(
    system=SYSTEM, group="wowm-admin", description="WoW Miniatures content packs of this server (managers only)",
    contents="characters, action cards, maps", max_bytes=actions.MAX_PACK_BYTES,
    too_big_key="wowm.ui.pack_too_big", importer=wm.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WowMinis(bot))
    await bot.add_cog(WowMinisAdmin(bot))
