"""/warlord: Warlord: Saga of the Storm commands, autocomplete and buttons (thin: rules live in the
engine, names and lists in ``gm.warlord_choices``, replies in ``gm.warlord``)."""

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
from engines.warlord import ENGINE
from engines.warlord import actions as A
from engines.warlord.content import MAX_PACK_BYTES
from engines.warlord.rules_setup import pack_for
from engines.warlord.state import State
from gm import warlord as wl
from gm import warlord_choices as choices
from gm import warlord_orders as orders
from gm.choices import Choice
from gm.context import Actor, Place
from gm.reply import Reply

SYSTEM = "warlord"
Build = Callable[[State, int | None, str], dict[str, Any]]  # (view, seat, reader's language) -> action


async def _seat_choices(interaction: discord.Interaction,
                        build: Callable[[State, int | None, str], list[Choice]]) -> Choices:
    return await seat_choices(interaction, wl.current, build)


async def _content(interaction: discord.Interaction) -> dict[str, Any] | None:
    return await table_content(interaction, SYSTEM)


def _position(raw: str | None) -> int | None:
    raw = (raw or "").strip().split(" ")[0]
    if not raw:
        return None
    if not raw.isdecimal() or int(raw) > 40:
        raise TavoloError("warlord.ui.bad_position", value=raw[:12])
    return int(raw)


def _typed(interaction: discord.Interaction, name: str) -> str | None:
    value = typed(interaction, name)
    return str(value) if value else None


class Warlord(commands.Cog):
    warlord_group = app_commands.Group(name="warlord", description="Warlord: Saga of the Storm: deck, army, orders",
                                       guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler(wl.AREA, self._on_component)

    # ------------------------------------------------------------------ helpers
    async def _act(self, interaction: discord.Interaction, action: dict[str, Any], ref: str | None = None,
                   build: Build | None = None) -> None:
        """Act on the channel's game; ``build`` turns what the player typed into the action from the
        position they see (their own ``view``)."""
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wl.current(app, place, actor)
            named = build(view, seat, actor.locale) if view is not None and build is not None else action
            return await app.tables.act(place, actor, named, ref=ref)

        await respond(interaction, work, system=SYSTEM)

    async def _secret(self, interaction: discord.Interaction, build: Build, ref: str | None = None) -> None:
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wl.game(app, place, actor)
            return await wl.secret_act(app, place, actor, build(view, seat, actor.locale), ref)

        await respond(interaction, work, system=SYSTEM, ephemeral_defer=True)


    def _app(self) -> Any:
        return self.bot.app  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ lobby and set-up
    @warlord_group.command(name="deck", description="Choose your deck (checked against the deck-building rules)")
    @app_commands.describe(deck="A deck of this table (autocomplete: its Warlord and size)")
    async def deck(self, interaction: discord.Interaction, deck: str) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: wl.set_deck(app, place, actor, deck), system=SYSTEM)

    @deck.autocomplete("deck")
    async def _deck_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(choices.deck_choices(pack_for(await _content(interaction)), current, actor.locale))

    @warlord_group.command(name="army", description="Choose your starting army in secret (only you see it)")
    @app_commands.describe(warlord="Your Warlord (empty: the suggested army)",
                           level1="Three level 1 characters, separated by commas",
                           level2="Two level 2 characters, separated by commas")
    async def army(self, interaction: discord.Interaction, warlord: str | None = None, level1: str | None = None,
                   level2: str | None = None) -> None:
        app = self._app()
        if not (warlord or level1 or level2):
            async def menu(place: Place, actor: Actor) -> Reply:
                view, seat, table = await wl.game(app, place, actor)
                return wl.army_reply(view, seat, actor.locale, wl.ref_of(table))

            await respond_private(interaction, menu, system=SYSTEM)
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
            app = self._app()

            async def menu(place: Place, actor: Actor) -> Reply:
                view, seat, table = await wl.game(app, place, actor)
                return wl.discard_menu(view, seat, actor.locale, wl.ref_of(table))

            await respond_private(interaction, menu, system=SYSTEM)
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
        await self._act(interaction, {"kind": "attack", "attacker": attacker}, build=lambda v, seat, _l: {
            "kind": "attack", "attacker": choices.resolve_card(
                v, [a.attacker for a in choices.legal(v, seat) if isinstance(a, A.Attack)], attacker)})

    @attack.autocomplete("attacker")
    async def _attacker_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.attacker_choices(v, seat, current, lang))

    @warlord_group.command(name="strike", description="The target of your attack's next strike")
    @app_commands.describe(target="An enemy within one rank (autocomplete: the d20 it needs)")
    async def strike(self, interaction: discord.Interaction, target: str) -> None:
        await self._act(interaction, {"kind": "strike", "target": target}, build=lambda v, seat, _l: {
            "kind": "strike", "target": choices.resolve_card(
                v, [a.target for a in choices.legal(v, seat) if isinstance(a, A.Strike)], target)})

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
        await self._act(interaction, {"kind": "recruit", "card": card}, build=lambda v, seat, _l: {
            "kind": "recruit", "position": _position(position), "card": choices.resolve_card(
                v, [a.card for a in choices.legal(v, seat) if isinstance(a, A.Recruit)] + list(
                    v.player(seat).hand if seat is not None else []), card)})

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
        def build(v: State, seat: int | None, _l: str) -> dict[str, Any]:
            options = [a for a in choices.legal(v, seat) if isinstance(a, A.Equip)]
            hand = list(v.player(seat).hand) if seat is not None else []
            uid = choices.resolve_card(v, [a.item for a in options] + hand, item)
            host = choices.resolve_card(v, [a.host for a in options if a.item == uid] + list(v.chars), on)
            return {"kind": "equip", "item": uid, "host": host}

        await self._act(interaction, {"kind": "equip", "item": item, "host": on}, build=build)

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
        def build(v: State, seat: int | None, _l: str) -> dict[str, Any]:
            options = [a for a in choices.legal(v, seat) if isinstance(a, A.PlayOrder)]
            hand = list(v.player(seat).hand) if seat is not None else []
            uid = choices.resolve_card(v, [a.card for a in options] + hand, card)
            mine = [a for a in options if a.card == uid]
            who = choices.resolve_card(v, [a.performer for a in mine] + list(v.chars), by)
            k = choices.parse_mode(mode)
            chosen = [a for a in mine if a.performer == who and a.ability == k]
            return {"kind": "play_order", "card": uid, "ability": k, "performer": who,
                    "target": choices.resolve_target(v, chosen, target)}

        await self._act(interaction, {"kind": "play_order", "card": card, "performer": by}, build=build)

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
        def build(v: State, seat: int | None, _l: str) -> dict[str, Any]:
            src = choices.resolve_source(v, seat, source)
            options = [a for a in choices.legal(v, seat) if isinstance(a, A.UseOrder) and a.source == src]
            who = choices.resolve_card(v, [a.performer for a in options if a.performer] + list(v.chars),
                                       by) if by else None
            if who is None and src.startswith("feat:"):
                who = next((a.performer for a in options if a.performer), None)
            mark = choices._word_value("mark", choices.MARKS, marksmanship) if marksmanship else None
            chosen = [a for a in options if (who is None or a.performer in (None, who)) and a.marksmanship == mark]
            return {"kind": "use_order", "source": src, "ability": options[0].ability if options else 0,
                    "performer": who, "target": choices.resolve_target(v, chosen, target),
                    "marksmanship": mark or (marksmanship or None)}

        await self._act(interaction, {"kind": "use_order", "source": source}, build=build)

    @use.autocomplete("source")
    async def _use_source_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.use_source_choices(
            v, seat, current, lang))

    @use.autocomplete("by")
    async def _use_by_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        source = _typed(interaction, "source")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.performer_choices(
            v, seat, choices.resolve_source(v, seat, source or ""), current, lang, A.UseOrder))

    @use.autocomplete("target")
    async def _use_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        source, by = _typed(interaction, "source"), _typed(interaction, "by")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.target_choices(
            v, seat, choices.resolve_source(v, seat, source or ""), by, None, current, lang, A.UseOrder))

    @use.autocomplete("marksmanship")
    async def _use_mark_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        source = _typed(interaction, "source")
        return await _seat_choices(interaction, lambda v, seat, lang: choices.mark_choices(
            v, seat, choices.resolve_source(v, seat, source or ""), current, lang))

    @warlord_group.command(name="move", description="Order: spend a ready character to move it one rank, or shift")
    @app_commands.describe(char="One of your ready characters", to="forward, back or shift (within its rank)",
                           position="Where in the new rank, from the left (empty: the right end)")
    async def move(self, interaction: discord.Interaction, char: str, to: str, position: str | None = None) -> None:
        await self._act(interaction, {"kind": "maneuver", "char": char, "to": "forward"}, build=lambda v, seat, _l: {
            "kind": "maneuver", "to": choices.resolve_direction(to), "position": _position(position),
            "char": choices.resolve_card(v, [a.char for a in choices.legal(v, seat) if isinstance(a, A.Maneuver)]
                                         + list(v.chars), char)})

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
        def build(v: State, seat: int | None, _l: str) -> dict[str, Any]:
            decision = ENGINE.decision(v)
            if decision is not None and decision.kind == "react" and seat in decision.seats:
                return {"kind": "pass_react", "yield_for": "none"}
            return {"kind": "pass"}

        await self._act(interaction, {"kind": "pass"}, build=build)

    @warlord_group.command(name="reform", description="Your army falls forward: move a character of an illegal rank")
    @app_commands.describe(char="A character of an illegal rank",
                           position="Where in the rank in front, from the left (empty: the right end)")
    async def reform(self, interaction: discord.Interaction, char: str, position: str | None = None) -> None:
        await self._act(interaction, {"kind": "reform", "char": char}, build=lambda v, seat, _l: {
            "kind": "reform", "position": _position(position), "char": choices.resolve_card(
                v, [a.char for a in choices.legal(v, seat) if isinstance(a, A.Reform)] + list(v.chars), char)})

    @reform.autocomplete("char")
    async def _reform_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.reform_choices(v, seat, current, lang))

    @warlord_group.command(name="react", description="Play a react in the open reaction window")
    @app_commands.describe(source="A react card, an item or a feat (only what fits this moment)",
                           by="Who performs it", target="Its target, if it has one")
    async def react(self, interaction: discord.Interaction, source: str, by: str | None = None,
                    target: str | None = None) -> None:
        def build(v: State, seat: int | None, _l: str) -> dict[str, Any]:
            action = orders.resolve_react(v, seat, source, by)
            if target:
                action["target"] = target
            return action

        await self._act(interaction, {"kind": "react", "source": source}, build=build)

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
        app, place, actor = ctx(interaction)
        if not moments:  # what the seat has now, privately
            async def show(_place: Place, _actor: Actor) -> Reply:
                view, seat, _table = await wl.game(app, place, actor)
                return wl.stops_reply(view, seat, actor.locale)

            await respond_private(interaction, show, system=SYSTEM)
            return

        async def work() -> Reply:  # a private preference: answered privately, nothing in the channel
            reply = await app.tables.act(place, actor, {"kind": "set_stops", "stops": orders.resolve_stops(moments)})
            return Reply(text="\n".join(e.text for e in reply.extra if e.ephemeral) or reply.text, ephemeral=True)

        await respond(interaction, work, system=SYSTEM, ephemeral_defer=True)

    @stops.autocomplete("moments")
    async def _stops_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        _app, _place, actor = ctx(interaction)
        return to_choices(orders.stop_choices(current, actor.locale))

    # ------------------------------------------------------------------ information
    @warlord_group.command(name="hand", description="Show (only to you) your hand, your army and what you can do")
    async def hand(self, interaction: discord.Interaction) -> None:
        app = self._app()

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, table = await wl.game(app, place, actor)
            return wl.hand_reply(view, seat, actor.locale, wl.ref_of(table))

        await respond_private(interaction, work, system=SYSTEM)

    @warlord_group.command(name="card", description="Show (only to you) what a card you can see does")
    @app_commands.describe(name="A card name, or its beginning")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        app = self._app()

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, _table = await wl.current(app, place, actor)
            return wl.card_reply(view, seat, name, await _content(interaction), actor.locale)

        await respond_private(interaction, work, system=SYSTEM)

    @card.autocomplete("name")
    async def _card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        app, place, actor = ctx(interaction)
        view, seat, _table = await wl.current(app, place, actor)
        if view is not None:
            return to_choices(orders.card_choices(view, seat, current, actor.locale))
        pack = pack_for(await _content(interaction))
        from gm import warlord_text as text
        from gm.choices import Ranked, rank

        return to_choices(rank([Ranked(Choice(text.card_short(d, actor.locale), d.name)) for d in pack.cards],
                               current))

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
        if verb in simple:
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
        elif verb in ("orders", "attack", "react", "reformmenu", "army", "discardmenu"):
            await respond_private(interaction, lambda place, actor: self._menu(place, actor, ref, verb), system=SYSTEM)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))

    async def _menu(self, place: Place, actor: Actor, ref: str, verb: str) -> Reply:
        """The private menu behind a button, from the clicker's own view."""
        view, seat, table = await wl.current(self._app(), place, actor)
        now = wl.check_ref(table, ref, same_game=verb in ("army", "discardmenu"))
        assert view is not None
        lang = actor.locale
        if seat is None:
            raise TavoloError("game.panel_spectator")
        if verb == "orders":
            return wl.orders_menu(view, seat, lang, now)
        if verb == "attack":
            return wl.orders_menu(view, seat, lang, now, only="attack")
        if verb == "react":
            return wl.react_menu(view, seat, lang, now)
        if verb == "reformmenu":
            return wl.reform_menu(view, seat, lang, now)
        if verb == "army":
            return wl.army_reply(view, seat, lang, now)
        return wl.discard_menu(view, seat, lang, now)


WarlordAdmin = pack_admin_cog(
    system=SYSTEM, group="warlord-admin", description="Warlord card packs and decks of this server (managers only)",
    contents="cards, decks", max_bytes=MAX_PACK_BYTES, too_big_key="warlord.err.pack_too_big",
    importer=wl.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Warlord(bot))
    await bot.add_cog(WarlordAdmin(bot))
