"""/mk: Mage Knight combat commands, autocomplete and buttons (thin: rules live in the engine,
names and previews in ``gm.games.mageknight.choices``, the actions that read several options together in
``gm.games.mageknight.actions``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import Choices, ctx, respond, respond_private, seat_choices_of, send_error, to_choices, typed
from cogs.messages import app_of, register_handler
from cogs.packs import pack_admin_cog
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.games.mageknight import actions, choices, info, scores
from gm.games.mageknight import presenter as mk
from gm.reply import Reply

SYSTEM = "mageknight"


_seat_choices = seat_choices_of(mk.current)


class MageKnight(commands.Cog):
    mk_group = app_commands.Group(name="mk", description="Mage Knight combat: target, play, block, assign damage",
                                  guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler("mk", self._on_component)

    async def _act(self, interaction: discord.Interaction, action: dict[str, Any], ref: str | None = None,
                   build: mk.Build | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: mk.act(app, place, actor, action, ref=ref, build=build), system=SYSTEM)

    # ------------------------------------------------------------------ columns
    @mk_group.command(name="target", description="Open an attack on one enemy or a group, or a block on one")
    @app_commands.describe(enemies="Enemy names separated by commas (autocomplete shows what beats them)")
    async def target(self, interaction: discord.Interaction, enemies: str) -> None:
        await self._act(interaction, {"kind": "target", "enemies": [enemies]}, build=lambda state, seat, lang: {
            "kind": "target", "enemies": choices.resolve_targets(state, seat, enemies, lang)})

    @target.autocomplete("enemies")
    async def _target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda s, seat, lang: choices.target_choices(s, seat, current, lang))

    @mk_group.command(name="play", description="Play a card into the open attack or block")
    @app_commands.describe(card="A card and what it adds (autocomplete shows the total against the need)",
                           side="basic or powered (when the card name alone is not enough)",
                           mana="How to pay a powered card: die, crystal or token")
    async def play(self, interaction: discord.Interaction, card: str, side: str | None = None,
                   mana: str | None = None) -> None:
        await self._act(interaction, {"kind": "play", "card": card}, build=lambda state, seat, lang:
                        choices.resolve_play(state, seat, card, side, mana, lang))

    @play.autocomplete("card")
    async def _play_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda s, seat, lang: choices.play_choices(s, seat, current, lang))

    @mk_group.command(name="sideways", description="Play a card sideways: Attack 1 or Block 1")
    @app_commands.describe(card="A card from your hand (cards with no use in this fight come first)")
    async def sideways(self, interaction: discord.Interaction, card: str) -> None:
        await self._act(interaction, {"kind": "sideways", "card": card}, build=lambda state, seat, lang: {
            "kind": "sideways", "card": choices.resolve_card(state, seat, card, lang)})

    @sideways.autocomplete("card")
    async def _sideways_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction,
                                   lambda s, seat, lang: choices.sideways_choices(s, seat, current, lang))

    @mk_group.command(name="unit", description="Activate a ready unit's ability into the open attack or block")
    @app_commands.describe(unit="A unit and the ability to use", mana="How to pay an ability that needs mana")
    async def unit(self, interaction: discord.Interaction, unit: str, mana: str | None = None) -> None:
        await self._act(interaction, {"kind": "activate", "unit": unit}, build=lambda state, seat, lang:
                        choices.resolve_unit(state, seat, unit, mana, lang))

    @unit.autocomplete("unit")
    async def _unit_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda s, seat, lang: choices.unit_choices(s, seat, current, lang))

    @mk_group.command(name="add", description="Assist mode: declare an attack or block you play at your table")
    @app_commands.describe(effect="e.g. attack, ranged fire attack, ice block, sideways block",
                           amount="How many points", unit="The unit that gives it (it is then spent)",
                           label="What to call it on the board (a card's name)")
    async def add(self, interaction: discord.Interaction, effect: str, amount: app_commands.Range[int, 1, 99],
                  unit: str | None = None, label: str | None = None) -> None:
        await self._act(interaction, {"kind": "add", "amount": amount, "effect": effect},
                        build=lambda state, _seat, lang: actions.add(state, amount, effect, unit, label, lang))

    @add.autocomplete("effect")
    async def _add_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        text = str(typed(interaction, "amount") or "").strip()
        amount = int(text) if text.isdecimal() and len(text) <= 2 else None
        return await _seat_choices(interaction, lambda s, seat, lang: choices.add_choices(s, seat, current, amount,
                                                                                          lang))

    @add.autocomplete("unit")
    async def _add_unit_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda s, _seat, lang: choices.ready_unit_choices(s, current, lang))

    @mk_group.command(name="commit", description="Resolve the open attack or block")
    async def commit(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "commit"})

    @mk_group.command(name="takeback", description="Take back the open attack or block: cards, units and mana return")
    async def takeback(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "take_back"})

    @mk_group.command(name="next", description="End this phase (in the attack phase: end the combat)")
    async def next_phase(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)  # ending the combat with attacks left asks first (issue 27.2)
        await respond(interaction, lambda: mk.next_phase(app, place, actor), system=SYSTEM)

    # ------------------------------------------------------------------ damage and questions
    @mk_group.command(name="assign", description="Assign an unblocked enemy's damage to a unit or the hero")
    @app_commands.describe(to="A unit or the hero (autocomplete shows what each would take)",
                           enemy="Whose damage (needed when several enemies hit you)")
    async def assign(self, interaction: discord.Interaction, to: str, enemy: str | None = None) -> None:
        await self._act(interaction, {"kind": "assign", "to": to, "enemy": enemy},
                        build=lambda state, _seat, lang: actions.assign(state, to, enemy, lang))

    @assign.autocomplete("enemy")
    async def _assign_enemy_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction,
                                   lambda s, seat, lang: choices.damage_enemy_choices(s, seat, current, lang))

    @assign.autocomplete("to")
    async def _assign_to_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        named = typed(interaction, "enemy")
        return await _seat_choices(interaction, lambda s, seat, lang: actions.recipient_choices(
            s, seat, named, current, lang))

    @mk_group.command(name="choose", description="Answer the open question (summoned token, Improvise, combat die)")
    @app_commands.describe(option="Your answer (a summoned token may also be a stat line: armor 5 attack 4 fire)")
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": option}, build=lambda state, _seat, lang: {
            "kind": "choose", "value": choices.resolve_option(state, option, lang)})

    @choose.autocomplete("option")
    async def _choose_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda s, seat, lang: choices.decision_choices(s, lang, current, seat))

    # ------------------------------------------------------------------ information
    @mk_group.command(name="hand", description="Show (only to you) your hand, what each card does now, and a picture")
    async def hand(self, interaction: discord.Interaction) -> None:
        app = app_of(interaction)
        await respond_private(interaction, lambda place, actor: mk.hand_reply(app, place, actor), system=SYSTEM)

    @mk_group.command(name="info", description="Show (only to you) what an enemy, card, unit or ability does")
    @app_commands.describe(name="A name in English or Italian, or its beginning")
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        app = app_of(interaction)

        async def work(place: Place, actor: Actor) -> Reply:
            view, _seat, table = await mk.current(app, place, actor)
            return info.info_reply(name, actor.locale, table.content if view is not None else None, view)

        await respond_private(interaction, work, system=SYSTEM)

    @info.autocomplete("name")
    async def _info_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        app, place, actor = ctx(interaction)
        view, _seat, table = await mk.current(app, place, actor)
        return to_choices(info.info_choices(current, actor.locale, table.content if view is not None else None, view))

    @mk_group.command(name="score", description="Show (only to you) this combat's score and how it is made")
    async def score(self, interaction: discord.Interaction) -> None:
        app = app_of(interaction)
        await respond_private(interaction, lambda place, actor: scores.score_reply(app.store, app.tables, place, actor),
                              system=SYSTEM)

    @mk_group.command(name="leaderboard", description="The best scores on this server's daily challenge")
    @app_commands.describe(day="A past day, e.g. 2025-01-31 (today by default, UTC)")
    async def leaderboard(self, interaction: discord.Interaction, day: str | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: scores.leaderboard_reply(app.store, place, actor, day), system=SYSTEM)

    @mk_group.command(name="daily", description="Play this server's challenge of the day (the same deal for everyone)")
    async def daily(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: mk.open_daily(app, place, actor), system=SYSTEM)

    # ------------------------------------------------------------------ buttons
    async def _on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        """Buttons and selects carry ``<game>.<version>``: acting ones are checked under the lock,
        menus are built only for the position they were asked from."""
        if len(args) < 2:
            await send_error(interaction, TavoloError("common.stale_button"))
            return
        ref, verb, rest = args[0], args[1], args[2:]
        simple = {"commit": {"kind": "commit"}, "takeback": {"kind": "take_back"}, "endnow": {"kind": "next"}}
        if verb in simple:
            await self._act(interaction, simple[verb], ref)
        elif verb == "next":
            app, place, actor = ctx(interaction)
            await respond(interaction, lambda: mk.next_phase(app, place, actor, ref), system=SYSTEM)
        elif verb == "hero":
            await self._act(interaction, {"kind": "assign", "to": "hero", "enemy": rest[0] if rest else None}, ref)
        elif verb == "assignto" and rest:
            enemy, _, to = rest[-1].partition(">")
            await self._act(interaction, {"kind": "assign", "to": to, "enemy": enemy or None}, ref)
        elif verb == "targetsel" and rest:
            await self._act(interaction, {"kind": "target", "enemies": rest[-1].split(",")}, ref)
        elif verb == "choose" and rest:
            await self._act(interaction, {"kind": "choose", "value": rest[-1]}, ref)
        elif verb == "hand":
            app = app_of(interaction)
            await respond_private(interaction, lambda place, actor: mk.hand_reply(app, place, actor), system=SYSTEM)
        elif verb in mk.MENU_VERBS:
            app = app_of(interaction)
            await respond_private(interaction, lambda place, actor: mk.button_menu(app, place, actor, ref, verb),
                                  system=SYSTEM)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))


MageKnightAdmin = pack_admin_cog(
    system=SYSTEM, group="mk-admin", description="Mage Knight content packs of this server (managers only)",
    contents="enemies, cards, units", max_bytes=actions.MAX_PACK_BYTES,
    too_big_key="mk.err.pack_too_big", importer=mk.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MageKnight(bot))
    await bot.add_cog(MageKnightAdmin(bot))
