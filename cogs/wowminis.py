"""/wowm: World of Warcraft Miniatures commands, autocomplete and buttons (thin: rules live in
the engine, names and lists in ``gm.wowminis_choices``, replies in ``gm.wowminis``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    Choices,
    ctx,
    respond,
    respond_private,
    seat_choices,
    send_error,
    table_content,
    to_choices,
    typed,
)
from cogs.components import register_handler
from cogs.packs import pack_admin_cog
from engines.core.errors import TavoloError
from engines.wowminis.content import MAX_PACK_BYTES, pack_for
from engines.wowminis.state import State
from gm import wowminis as wm
from gm import wowminis_choices as choices
from gm.choices import Choice
from gm.context import Actor, Place
from gm.reply import Reply

SYSTEM = "wowminis"
Build = Callable[[State, int | None, str], dict[str, Any]]  # (view, seat, reader's language) -> action



async def _seat_choices(interaction: discord.Interaction,
                        build: Callable[[State, int | None, str], list[Choice]]) -> Choices:
    return await seat_choices(interaction, wm.current, build)



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
                   build: Build | None = None) -> None:
        """Act on the channel's game; ``build`` turns what the player typed into the action from
        the position they see (their own ``view``)."""
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wm.current(app, place, actor)
            named = build(view, seat, actor.locale) if view is not None and build is not None else action
            return await app.tables.act(place, actor, named, ref=ref)

        await respond(interaction, work, system=SYSTEM)


    def _app(self) -> Any:
        return self.bot.app  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ lobby
    @wowm_group.command(name="party", description="Choose your party of three characters of one faction")
    @app_commands.describe(characters="Character names separated by commas (autocomplete keeps one faction)")
    async def party(self, interaction: discord.Interaction, characters: str) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: wm.set_party(app, place, actor, characters), system=SYSTEM)

    @party.autocomplete("characters")
    async def _party_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(choices.party_choices(pack_for(await _content(interaction)), current, actor.locale))

    @wowm_group.command(name="characters", description="Show (only to you) every character you can put in a party")
    async def characters(self, interaction: discord.Interaction) -> None:
        async def work(_place: Place, actor: Actor) -> Reply:
            return wm.characters_reply(await _content(interaction), actor.locale)

        await respond_private(interaction, work, system=SYSTEM)

    # ------------------------------------------------------------------ set-up
    @wowm_group.command(name="bar", description="Choose your action bars in secret (only you see your choice)")
    @app_commands.describe(cards="Optional, 2 cards each: \"ELO: renewing, umbral; BRA: aegis, veil; …\" (else a menu)")
    async def bar(self, interaction: discord.Interaction, cards: str | None = None) -> None:
        app = self._app()
        if not cards:
            async def menu(place: Place, actor: Actor) -> Reply:
                view, seat, table = await wm.game(app, place, actor)
                return wm.bar_menu(view, seat, actor.locale, wm.game_ref(table), [])

            await respond_private(interaction, menu, system=SYSTEM)
            return
        _, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wm.game(app, place, actor)
            return await self._choose_bar(place, actor, choices.resolve_bar(view, seat, cards))

        await respond(interaction, work, system=SYSTEM, ephemeral_defer=True)

    async def _choose_bar(self, place: Place, actor: Actor, bars: dict[str, list[str]], ref: str | None = None
                          ) -> Reply:
        """The secret answer goes out privately; the channel only learns that this seat chose."""
        reply = await self._app().tables.act(place, actor, {"kind": "choose_bar", "bars": bars}, ref=ref)
        private = [extra for extra in reply.extra if extra.ephemeral]
        if reply.update_board:  # one seat is in: a line, not a new picture (TABLE_UX: set-up steps)
            public = Reply(text=reply.brief, mentions=reply.mentions, buttons=reply.buttons)
        else:  # every bar is in: the board, revealed together
            public = Reply(text=reply.text, image=reply.image, buttons=reply.buttons, mentions=reply.mentions,
                           board=reply.board)
        body = "\n".join(p.text for p in private) or reply.text
        return Reply(text=body, ephemeral=True, extra=[public])

    @bar.autocomplete("cards")
    async def _bar_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.bar_choices(v, seat, current, lang))

    # ------------------------------------------------------------------ play
    @wowm_group.command(name="next", description="Choose which of your characters acts now (tied clocks, 500.3c)")
    @app_commands.describe(character="One of the characters offered")
    async def next_char(self, interaction: discord.Interaction, character: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": character}, build=lambda v, _s, _l: {
            "kind": "choose", "value": choices.resolve_option(v, character)})

    @next_char.autocomplete("character")
    async def _next_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.option_choices(
            v, seat, current, lang, ("first_character", "next_character")))

    @wowm_group.command(name="spawn", description="Choose the spawn point your character enters play from")
    @app_commands.describe(point="A spawn point of your side, or a neutral one")
    async def spawn(self, interaction: discord.Interaction, point: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": point}, build=lambda v, _s, _l: {
            "kind": "choose", "value": choices.resolve_option(v, point)})

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
                        build=lambda v, _s, _l: wm.play_action(v, ability, target))

    @play.autocomplete("ability")
    async def _ability_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.ability_choices(v, seat, current, lang))

    @play.autocomplete("target")
    async def _target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        ability = typed(interaction, "ability")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.target_choices(
            v, seat, str(ability) if ability else None, current, lang))

    @wowm_group.command(name="react", description="Play a react card in the open window")
    @app_commands.describe(card="One of your react cards that fits this window",
                           target="Its target, when it needs one")
    async def react(self, interaction: discord.Interaction, card: str, target: str | None = None) -> None:
        def build(view: State, seat: int | None, _lang: str) -> dict[str, Any]:
            action: dict[str, Any] = {"kind": "react", "card": choices.resolve_react_card(view, seat, card)}
            decoded = choices.decode_play(view, target or "")
            decoded.pop("orientation", None)
            action.update(decoded)
            return action

        await self._act(interaction, {"kind": "react", "card": card}, build=build)

    @react.autocomplete("card")
    async def _react_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.react_choices(v, seat, current, lang))

    @react.autocomplete("target")
    async def _react_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        card = typed(interaction, "card")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.react_target_choices(
            v, seat, str(card) if card else None, current, lang))

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
        await self._act(interaction, {"kind": "choose", "value": option}, build=lambda v, _s, _l: {
            "kind": "choose", "value": choices.resolve_option(v, option)})

    @choose.autocomplete("option")
    async def _choose_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.option_choices(v, seat, current, lang))

    @wowm_group.command(name="end", description="End the active character's turn")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "end_turn"})

    @wowm_group.command(name="reveal", description="Turn one of your face-down cards face up (any time, 300.1)")
    @app_commands.describe(card="One of your face-down cards")
    async def reveal(self, interaction: discord.Interaction, card: str) -> None:
        await self._act(interaction, {"kind": "reveal", "card": card}, build=lambda v, seat, _l: {
            "kind": "reveal", "card": choices.resolve_react_card(v, seat, card)})

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
        app, place, actor = ctx(interaction)

        async def work() -> Reply:  # the seat's own comfort: answered privately, nothing in the channel
            action = {"kind": "prefs", **choices.resolve_prefs(auto_pass, auto_reroll)}
            reply = await app.tables.act(place, actor, action)
            return Reply(text="\n".join(e.text for e in reply.extra if e.ephemeral) or reply.text, ephemeral=True)

        await respond(interaction, work, system=SYSTEM, ephemeral_defer=True)

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
        app = self._app()

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
        app = self._app()

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
        app = self._app()

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, table = await wm.game(app, place, actor)
            return wm.cards_reply(view, seat, actor.locale, wm.game_ref(table))

        await respond_private(interaction, work, system=SYSTEM)

    @wowm_group.command(name="clock", description="Show (only to you) the Master Clock and every character's tick")
    async def clock(self, interaction: discord.Interaction) -> None:
        app = self._app()

        async def work(place: Place, actor: Actor) -> Reply:
            view, _seat, _table = await wm.game(app, place, actor)
            return wm.clock_reply(view, actor.locale)

        await respond_private(interaction, work, system=SYSTEM)

    @wowm_group.command(name="info", description="Show (only to you) what a character or an action card does")
    @app_commands.describe(name="A name, or its beginning")
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        async def work(_place: Place, actor: Actor) -> Reply:
            return wm.info_reply(name, await _content(interaction), actor.locale)

        await respond_private(interaction, work, system=SYSTEM)

    @info.autocomplete("name")
    async def _info_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(choices.info_choices(pack_for(await _content(interaction)), current, actor.locale))

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
        if verb in simple:
            await self._act(interaction, simple[verb], ref)
        elif verb == "choose" and value:
            await self._act(interaction, {"kind": "choose", "value": value}, ref)
        elif verb == "movesel" and value:
            await self._act(interaction, {"kind": "move", "to": value}, ref)
        elif verb == "rerollsel" and value:
            await self._act(interaction, {"kind": "reroll", "dice": choices.parse_dice(value)}, ref)
        elif verb == "reactsel" and value:
            await self._act(interaction, {"kind": "react", "card": value}, ref)
        elif verb == "playsel" and len(rest) >= 2:
            await self._act(interaction, {"kind": "play", "ability": rest[0]}, ref,
                            build=lambda v, _s, _l: wm.play_action(v, rest[0], rest[-1]))
        elif verb == "barpick" and rest:
            await self._bar_pick(interaction, ref, rest)
        elif verb in ("bar", "react", "attack", "move", "answer", "rerollmenu"):
            await respond_private(interaction, lambda place, actor: self._menu(place, actor, ref, verb), system=SYSTEM)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))

    async def _menu(self, place: Place, actor: Actor, ref: str, verb: str) -> Reply:
        """The private select behind a button, from the clicker's own view."""
        view, seat, table = await wm.current(self._app(), place, actor)
        now = wm.check_ref(table, ref, same_game=verb == "bar")
        assert view is not None
        lang = actor.locale
        if verb == "bar":
            return wm.bar_menu(view, seat, lang, now, [])
        if verb == "react":
            return wm.react_menu(view, seat, lang, now)
        if verb == "attack":
            return wm.target_menu(view, seat, lang, now, "main")
        if verb == "move":
            return wm.move_menu(view, seat, lang, now)
        if verb == "rerollmenu":
            return wm.reroll_menu(view, seat, lang, now)
        return wm.answer_menu(view, seat, lang, now)

    async def _bar_pick(self, interaction: discord.Interaction, ref: str, rest: list[str]) -> None:
        """One character's pair picked: ask for the next one, or send the whole secret bar."""
        _, place, actor = ctx(interaction)
        picked = wm.parse_picked("-".join(rest[:-1]) + "-" + rest[-1] if len(rest) > 1 else rest[-1])

        async def work() -> Reply:
            view, seat, table = await wm.current(self._app(), place, actor)
            now = wm.check_ref(table, ref, same_game=True)  # the other seat may answer meanwhile
            assert view is not None
            if seat is None:
                raise TavoloError("game.panel_spectator")
            heroes = [c for c in view.chars.values() if c.owner == seat and c.kind == "hero"]
            if len(picked) < len(heroes):
                return wm.bar_menu(view, seat, actor.locale, now, picked)
            return await self._choose_bar(place, actor, wm.bars_from_picks(view, seat, picked))

        await respond(interaction, work, system=SYSTEM, ephemeral_defer=True)


WowMinisAdmin = pack_admin_cog(
    system=SYSTEM, group="wowm-admin", description="WoW Miniatures content packs of this server (managers only)",
    contents="characters, action cards, maps", max_bytes=MAX_PACK_BYTES,
    too_big_key="wowm.ui.pack_too_big", importer=wm.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WowMinis(bot))
    await bot.add_cog(WowMinisAdmin(bot))
