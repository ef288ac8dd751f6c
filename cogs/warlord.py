"""/warlord: Warlord: Saga of the Storm commands, autocomplete and buttons (thin: rules live in the
engine, typed options become actions in ``gm.games.warlord.actions``, names and lists in
``gm.games.warlord.choices``, replies in ``gm.games.warlord.presenter``)."""

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
)
from cogs.common import typed_text as _typed
from cogs.messages import app_of, register_handler
from cogs.packs import pack_admin_cog
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.games.warlord import actions, choices, orders
from gm.games.warlord import presenter as wl
from gm.games.warlord.typed import collect_notes
from gm.reply import Reply

SYSTEM = "warlord"


_seat_choices = seat_choices_of(wl.current)


async def _content(interaction: discord.Interaction) -> dict[str, Any] | None:
    return await table_content(interaction, SYSTEM)


class Warlord(commands.Cog):
    warlord_group = app_commands.Group(name="warlord", description="Warlord: Saga of the Storm: deck, army, orders",
                                       guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler(wl.AREA, self._on_component)

    # ------------------------------------------------------------------ helpers
    async def _act(self, interaction: discord.Interaction, action: dict[str, Any], ref: str | None = None,
                   build: ActionBuild | None = None) -> None:
        """Act on the channel's game (``cogs.common.act_from_view``: ``build`` names what was typed). A name
        that fits identical copies takes one of them: which one is told to the player alone."""
        if build is None:
            await act_from_view(interaction, wl.current, build, typed_action=action, ref=ref, system=SYSTEM)
            return
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wl.current(app, place, actor)
            notes = collect_notes()
            named = build(view, seat, actor.locale) if view is not None else action
            reply = await app.tables.act(place, actor, named, ref=ref)
            reply.extra.extend(Reply(text=note, ephemeral=True) for note in notes)
            return reply

        await respond(interaction, work, system=SYSTEM)

    async def _secret(self, interaction: discord.Interaction, build: ActionBuild, ref: str | None = None) -> None:
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wl.game(app, place, actor)
            return await wl.secret_act(app, place, actor, build(view, seat, actor.locale), ref)

        await respond(interaction, work, system=SYSTEM, ephemeral_defer=True)

    # ------------------------------------------------------------------ lobby and set-up
    @warlord_group.command(name="deck", description="Choose your deck (checked against the deck-building rules)")
    @app_commands.describe(deck="A deck of this table (autocomplete: its Warlord and size)")
    async def deck(self, interaction: discord.Interaction, deck: str) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: wl.set_deck(app, place, actor, deck), system=SYSTEM)

    @deck.autocomplete("deck")
    async def _deck_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(actions.deck_choices(await _content(interaction), current, actor.locale))

    @warlord_group.command(name="army", description="Choose your starting army in secret (only you see it)")
    @app_commands.describe(warlord="Your Warlord (empty: the suggested army)",
                           level1="Three level 1 characters, separated by commas",
                           level2="Two level 2 characters, separated by commas")
    async def army(self, interaction: discord.Interaction, warlord: str | None = None, level1: str | None = None,
                   level2: str | None = None) -> None:
        if not (warlord or level1 or level2):
            await private_from_view(interaction, wl.game, wl.army_reply, system=SYSTEM)
            return
        await self._secret(interaction, lambda v, seat, _l: wl.army_action(v, seat, warlord, level1, level2))

    @army.autocomplete("warlord")
    async def _army_warlord_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.army_warlord_choices(
            v, seat, current, lang))

    @army.autocomplete("level1")
    async def _army_l1_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lord = _typed(interaction, "warlord")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.army_level_choices(
            v, seat, 1, lord, current, lang))

    @army.autocomplete("level2")
    async def _army_l2_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lord = _typed(interaction, "warlord")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.army_level_choices(
            v, seat, 2, lord, current, lang))

    @warlord_group.command(name="discard", description="Draw phase: the cards you discard before drawing (secret)")
    @app_commands.describe(cards="Cards from your hand separated by commas, or none")
    async def discard(self, interaction: discord.Interaction, cards: str | None = None) -> None:
        if not cards:
            await private_from_view(interaction, wl.game, wl.discard_menu, system=SYSTEM)
            return
        await self._secret(interaction, lambda v, seat, _l: {
            "kind": "draw_discard", "cards": choices.resolve_discards(v, seat, cards)})

    @discard.autocomplete("cards")
    async def _discard_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.discard_choices(v, seat, current, lang))

    # ------------------------------------------------------------------ orders
    @warlord_group.command(name="attack", description="Order: spend a ready character to make its melee strikes")
    @app_commands.describe(attacker="One of your ready characters with an enemy within one rank")
    async def attack(self, interaction: discord.Interaction, attacker: str) -> None:
        await self._act(interaction, {"kind": "attack", "attacker": attacker},
                        build=lambda v, seat, lang: actions.attack(v, seat, attacker, lang))

    @attack.autocomplete("attacker")
    async def _attacker_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.attacker_choices(v, seat, current, lang))

    @warlord_group.command(name="strike", description="The target of your attack's next strike")
    @app_commands.describe(target="An enemy within one rank (autocomplete: the d20 it needs)")
    async def strike(self, interaction: discord.Interaction, target: str) -> None:
        await self._act(interaction, {"kind": "strike", "target": target},
                        build=lambda v, seat, lang: actions.strike(v, seat, target, lang))

    @strike.autocomplete("target")
    async def _strike_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.strike_choices(v, seat, current, lang))

    @warlord_group.command(name="stop", description="Stop your attack: give up its remaining strikes")
    async def stop(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "stop_attack"})

    @warlord_group.command(name="recruit", description="Order: bring a character from your hand into play")
    @app_commands.describe(card="A character in your hand (it enters the rank of its level)",
                           position="Where in that rank, from the left (empty: the right end)")
    async def recruit(self, interaction: discord.Interaction, card: str, position: str | None = None) -> None:
        await self._act(interaction, {"kind": "recruit", "card": card},
                        build=lambda v, seat, lang: actions.recruit(v, seat, card, position, lang))

    @recruit.autocomplete("card")
    async def _recruit_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.recruit_choices(v, seat, current, lang))

    @recruit.autocomplete("position")
    async def _recruit_pos_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        card = _typed(interaction, "card")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.position_choices(
            v, seat, choices.card_rank(v, card, seat), current, lang))

    @warlord_group.command(name="equip", description="Order: put an item from your hand on one of your characters")
    @app_commands.describe(item="An item in your hand (autocomplete: the level + rank it needs)",
                           on="The character who carries it")
    async def equip(self, interaction: discord.Interaction, item: str, on: str) -> None:
        await self._act(interaction, {"kind": "equip", "item": item, "host": on},
                        build=lambda v, seat, lang: actions.equip(v, seat, item, on, lang))

    @equip.autocomplete("item")
    async def _equip_item_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.equip_item_choices(
            v, seat, current, lang))

    @equip.autocomplete("on")
    async def _equip_on_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        item = _typed(interaction, "item")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.equip_host_choices(
            v, seat, item, current, lang))

    @warlord_group.command(name="play", description="Order: play an Order action card from your hand")
    @app_commands.describe(card="An Order card in your hand", by="The character who performs it",
                           mode="Which order, for a card that offers a choice", target="Its target, if it has one")
    async def play(self, interaction: discord.Interaction, card: str, by: str, mode: str | None = None,
                   target: str | None = None) -> None:
        await self._act(interaction, {"kind": "play_order", "card": card, "performer": by},
                        build=lambda v, seat, lang: actions.play_order(v, seat, card, by, mode, target, lang))

    @play.autocomplete("card")
    async def _play_card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.play_card_choices(
            v, seat, current, lang))

    @play.autocomplete("by")
    async def _play_by_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        card = _typed(interaction, "card")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.performer_choices(
            v, seat, card, current, lang))

    @play.autocomplete("mode")
    async def _play_mode_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        card = _typed(interaction, "card")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.mode_choices(v, seat, card, current,
                                                                                            lang))

    @play.autocomplete("target")
    async def _play_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        card, by, mode = _typed(interaction, "card"), _typed(interaction, "by"), _typed(interaction, "mode")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.target_choices(
            v, seat, card, by, mode, current, lang))

    @warlord_group.command(name="use", description="Order: use an order printed on your card, or a feat order")
    @app_commands.describe(source="A character, an item or a feat (Medicine, Riding…)",
                           by="Who performs a feat order", target="Its target, if it has one",
                           marksmanship="Marksmanship on a ranged strike: range, roll or wound")
    async def use(self, interaction: discord.Interaction, source: str, by: str | None = None,
                  target: str | None = None, marksmanship: str | None = None) -> None:
        await self._act(interaction, {"kind": "use_order", "source": source}, build=lambda v, seat, lang:
                        actions.use_order(v, seat, source, by, target, marksmanship, lang))

    @use.autocomplete("source")
    async def _use_source_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.use_source_choices(
            v, seat, current, lang))

    @use.autocomplete("by")
    async def _use_by_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        source = _typed(interaction, "source")
        return await _seat_choices(interaction, lambda v, seat, lang: actions.use_performer_choices(
            v, seat, source, current, lang))

    @use.autocomplete("target")
    async def _use_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        source, by = _typed(interaction, "source"), _typed(interaction, "by")
        return await _seat_choices(interaction, lambda v, seat, lang: actions.use_target_choices(
            v, seat, source, by, current, lang))

    @use.autocomplete("marksmanship")
    async def _use_mark_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        source = _typed(interaction, "source")
        return await _seat_choices(interaction, lambda v, seat, lang: actions.use_mark_choices(
            v, seat, source, current, lang))

    @warlord_group.command(name="move", description="Order: spend a ready character to move it one rank, or shift")
    @app_commands.describe(char="One of your ready characters", to="forward, back or shift (within its rank)",
                           position="Where in the new rank, from the left (empty: the right end)")
    async def move(self, interaction: discord.Interaction, char: str, to: str, position: str | None = None) -> None:
        await self._act(interaction, {"kind": "maneuver", "char": char, "to": "forward"},
                        build=lambda v, seat, lang: actions.maneuver(v, seat, char, to, position, lang))

    @move.autocomplete("char")
    async def _move_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.move_char_choices(
            v, seat, current, lang))

    @move.autocomplete("to")
    async def _move_to_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        char = _typed(interaction, "char")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.direction_choices(
            v, seat, char, current, lang))

    @warlord_group.command(name="pass", description="Give no order now (or pass in a reaction window)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "pass"}, build=lambda v, seat, _l: actions.pass_now(v, seat))

    @warlord_group.command(name="reform", description="Your army falls forward: move a character of an illegal rank")
    @app_commands.describe(char="A character of an illegal rank",
                           position="Where in the rank in front, from the left (empty: the right end)")
    async def reform(self, interaction: discord.Interaction, char: str, position: str | None = None) -> None:
        await self._act(interaction, {"kind": "reform", "char": char},
                        build=lambda v, seat, lang: actions.reform(v, seat, char, position, lang))

    @reform.autocomplete("char")
    async def _reform_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.reform_choices(v, seat, current, lang))

    @warlord_group.command(name="react", description="Play a react in the open reaction window")
    @app_commands.describe(source="A react card, an item or a feat (only what fits this moment)",
                           by="Who performs it", target="Its target, if it has one")
    async def react(self, interaction: discord.Interaction, source: str, by: str | None = None,
                    target: str | None = None) -> None:
        await self._act(interaction, {"kind": "react", "source": source},
                        build=lambda v, seat, lang: actions.react(v, seat, source, by, target, lang))

    @react.autocomplete("source")
    async def _react_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: orders.react_choices(v, seat, current, lang))

    @warlord_group.command(name="yield", description="Pass, and skip reaction windows for the window, attack or turn")
    @app_commands.describe(for_="window, attack or turn")
    @app_commands.rename(for_="for")
    async def yield_(self, interaction: discord.Interaction, for_: str) -> None:
        await self._act(interaction, {"kind": "pass_react"}, build=lambda _v, _s, _l: {
            "kind": "pass_react", "yield_for": orders.resolve_yield(for_)})

    @yield_.autocomplete("for_")
    async def _yield_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(orders.yield_choices(current, actor.locale))

    @warlord_group.command(name="stops", description="The moments you want to be asked about (react_prompts:stops)")
    @app_commands.describe(moments="Moments separated by commas, or none (empty: show yours)")
    async def stops(self, interaction: discord.Interaction, moments: str | None = None) -> None:
        if not moments:  # what the seat has now, privately
            await private_from_view(interaction, wl.game, lambda v, seat, lang, _ref: wl.stops_reply(v, seat, lang),
                                    system=SYSTEM)
            return
        await act_privately(interaction, lambda: {"kind": "set_stops", "stops": orders.resolve_stops(moments)},
                            system=SYSTEM)

    @stops.autocomplete("moments")
    async def _stops_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(orders.stop_choices(current, actor.locale))

    # ------------------------------------------------------------------ information
    @warlord_group.command(name="hand", description="Show (only to you) your hand, your army and what you can do")
    async def hand(self, interaction: discord.Interaction) -> None:
        await private_from_view(interaction, wl.game, wl.hand_reply, system=SYSTEM)

    @warlord_group.command(name="card", description="Show (only to you) what a card you can see does")
    @app_commands.describe(name="A card name, or its beginning")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        app = app_of(interaction)

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, _table = await wl.current(app, place, actor)
            return wl.card_reply(view, seat, name, await _content(interaction), actor.locale)

        await respond_private(interaction, work, system=SYSTEM)

    @card.autocomplete("name")
    async def _card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        app, place, actor = ctx(interaction)
        view, seat, _table = await wl.current(app, place, actor)
        content = await _content(interaction) if view is None else None  # before a game: the pack's cards
        return to_choices(actions.card_choices(view, seat, content, current, actor.locale))

    @warlord_group.command(name="status", description="Post the table again: armies, turn, who acts")
    async def status(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.status(place, actor), system=SYSTEM)

    @warlord_group.command(name="log", description="Show (only to you) the latest orders and what they did")
    @app_commands.describe(count="How many actions (default 10)")
    async def log(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 50] = 10) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.log_reply(place, actor, count), ephemeral_defer=True)

    # ------------------------------------------------------------------ buttons
    async def _on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        """Buttons and selects carry ``<game>.<version>``: acting ones are checked under the lock,
        menus are built only for the position they were asked from."""
        if len(args) < 2:
            await send_error(interaction, TavoloError("common.stale_button"))
            return
        ref, verb, rest = args[0], args[1], args[2:]
        value = rest[-1] if rest else ""
        simple = {"pass": {"kind": "pass"}, "stop": {"kind": "stop_attack"},
                  "rpass": {"kind": "pass_react", "yield_for": "none"}}
        if verb == "preset" and value in ("none", "targeted", "turn"):  # a seat's setting: said to it alone
            await act_privately(interaction, lambda: {"kind": "set_preset", "preset": value}, system=SYSTEM)
        elif verb in simple:
            await self._act(interaction, simple[verb], ref)
        elif verb == "ryield" and value in choices.YIELDS:
            await self._act(interaction, {"kind": "pass_react", "yield_for": value}, ref)
        elif verb == "strike" and value:
            await self._act(interaction, {"kind": "strike", "target": value}, ref)
        elif verb == "reform" and len(rest) >= 1:
            await self._act(interaction, {"kind": "reform", "char": rest[0],
                                          "position": int(rest[1]) if len(rest) > 1 and rest[1].isdecimal()
                                          else None}, ref)
        elif verb == "reformsel" and value:
            char, _, pos = value.partition("|")
            await self._act(interaction, {"kind": "reform", "char": char,
                                          "position": int(pos) if pos.isdecimal() else None}, ref)
        elif verb == "do" and value:
            await self._act(interaction, orders.decode_order(value), ref)
        elif verb == "reactsel" and value:
            await self._act(interaction, {"kind": "react"}, ref,
                            build=lambda v, seat, _l: orders.resolve_react(v, seat, value, None))
        elif verb == "armyok":
            await self._secret(interaction, lambda v, seat, _l: wl.army_action(v, seat, None, None, None), ref)
        elif verb == "keep":
            await self._secret(interaction, lambda _v, _s, _l: {"kind": "draw_discard", "cards": []}, ref)
        elif verb == "discardsel" and value:
            await self._secret(interaction, lambda v, seat, _l: {
                "kind": "draw_discard", "cards": choices.resolve_discards(v, seat, value)}, ref)
        elif verb in wl.MENU_VERBS:
            app = app_of(interaction)
            await respond_private(interaction, lambda place, actor: wl.button_menu(app, place, actor, ref, verb),
                                  system=SYSTEM)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))


WarlordAdmin = pack_admin_cog(
    system=SYSTEM, group="warlord-admin", description="Warlord card packs and decks of this server (managers only)",
    contents="cards, decks", max_bytes=actions.MAX_PACK_BYTES, too_big_key="warlord.err.pack_too_big",
    importer=wl.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Warlord(bot))
    await bot.add_cog(WarlordAdmin(bot))
