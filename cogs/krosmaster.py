"""/km: Krosmaster Arena commands, autocomplete and buttons (thin: rules live in the engine, typed names
become actions in ``gm.games.krosmaster.actions``, previews and button menus are
``gm.games.krosmaster.menus``, lists ``gm.games.krosmaster.presenter``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    Choices,
    ctx,
    private_from_view,
    respond,
    respond_private,
    seat_choices,
    send_error,
    table_content,
    to_choices,
    typed,
)
from cogs.messages import app_of, register_handler
from cogs.packs import pack_admin_cog
from common.i18n import t
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.games.choices import Choice
from gm.games.krosmaster import actions, info, menus, names
from gm.games.krosmaster import presenter as km
from gm.reply import Reply

SYSTEM = "krosmaster"


async def _seat_choices(interaction: discord.Interaction, build: Callable[[Any, int], list[Choice]]) -> Choices:
    """Autocomplete for a seated player; no game here or a spectator simply gets no choices."""
    return await seat_choices(interaction, actions.current,
                              lambda state, seat, _lang: build(state, seat) if seat is not None else [])


class Krosmaster(commands.Cog):
    km_group = app_commands.Group(name="km", description="Krosmaster Arena: build, deploy, move, cast",
                                  guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler("km", self._on_component)

    # ------------------------------------------------------------------ helpers
    async def _act(self, interaction: discord.Interaction, action: dict[str, Any], ref: str | None = None,
                   build: actions.Build | None = None) -> None:
        """Act on the channel's game (``gm.games.krosmaster.actions.act``: ``build`` names what was typed)."""
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: actions.act(app, place, actor, action, ref=ref, build=build), system=SYSTEM)

    # ------------------------------------------------------------------ lobby
    @km_group.command(name="team", description="Choose your team for this channel's lobby")
    @app_commands.describe(figurines="Figurine names separated by commas (total level 12 in constructed)")
    async def team(self, interaction: discord.Interaction, figurines: str) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: actions.set_team(app, place, actor, figurines), system=SYSTEM)

    @team.autocomplete("figurines")
    async def _team_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        actor = ctx(interaction)[2]
        return to_choices(km.figurine_choices(current, actor.locale, await table_content(interaction, SYSTEM)))

    @km_group.command(name="figurines", description="List the figurines you can put in a team")
    async def figurines(self, interaction: discord.Interaction) -> None:
        async def work(_place: Place, actor: Actor) -> Reply:
            content = await table_content(interaction, SYSTEM)
            return Reply(title=t("km.ui.figurines_title", actor.locale),
                         text="\n".join(km.figurine_lines(actor.locale, content)), ephemeral=True)

        await respond_private(interaction, work, system=SYSTEM)

    # ------------------------------------------------------------------ set-up
    @km_group.command(name="order", description="Order your Krosmasters with equal initiative")
    @app_commands.describe(piece="The next piece in your timeline")
    async def order(self, interaction: discord.Interaction, piece: str) -> None:
        await self._act(interaction, {"kind": "order_ties", "piece": piece},
                        build=lambda state, seat, lang: actions.order_ties(state, seat, piece, lang))

    @km_group.command(name="deploy", description="Place one of your Krosmasters on a starting square")
    @app_commands.describe(piece="Which Krosmaster", square="A free starting square, e.g. B2")
    async def deploy(self, interaction: discord.Interaction, piece: str, square: str) -> None:
        await self._act(interaction, {"kind": "deploy", "piece": piece, "square": square.strip().upper()},
                        build=lambda state, seat, lang: actions.deploy(state, seat, piece, square, lang))

    @order.autocomplete("piece")
    @deploy.autocomplete("piece")
    async def _deploy_piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.deploy_piece_choices(state, seat, current, lang))

    @deploy.autocomplete("square")
    async def _deploy_square_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda state, seat: km.deploy_square_choices(state, seat, current))

    # ------------------------------------------------------------------ turn
    @km_group.command(name="move", description="Move the active Krosmaster")
    @app_commands.describe(square="Destination (autocomplete shows the MP cost)")
    async def move(self, interaction: discord.Interaction, square: str) -> None:
        await self._act(interaction, {"kind": "move", "to": square.strip().upper()})

    @move.autocomplete("square")
    async def _move_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.move_choices(state, seat, current, lang))

    @km_group.command(name="cast", description="Cast a spell of the active Krosmaster")
    @app_commands.describe(spell="Which spell", target="Target square (and direction if asked, e.g. C5 N)")
    async def cast(self, interaction: discord.Interaction, spell: str, target: str) -> None:
        square, _, direction = target.strip().upper().partition(" ")
        action: dict[str, Any] = {"kind": "cast", "spell": spell.strip(), "target": square}
        if direction.strip():
            action["direction"] = direction.strip()
        await self._act(interaction, action, build=lambda state, _seat, lang: actions.cast(state, spell, target, lang))

    @cast.autocomplete("spell")
    async def _spell_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.spell_choices(state, seat, current, lang))

    @cast.autocomplete("target")
    async def _target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        spell = typed(interaction, "spell") or None
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.target_choices(
            state, seat, names.try_spell(state, spell, lang), current, lang))

    @km_group.command(name="inspire", description="Place your inspiration dice on your Krosmasters (or keep them)")
    @app_commands.describe(first="Krosmaster for the first die", second="Krosmaster for the second die")
    async def inspire(self, interaction: discord.Interaction, first: str | None = None,
                      second: str | None = None) -> None:
        placements = [{"die": die, "piece": piece} for die, piece in ((0, first), (1, second)) if piece]
        await self._act(interaction, {"kind": "inspire", "placements": placements},
                        build=lambda state, seat, lang: actions.inspire(state, seat, placements, lang))

    @inspire.autocomplete("first")
    @inspire.autocomplete("second")
    async def _own_piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.own_piece_choices(state, seat, current, lang))

    @km_group.command(name="choose", description="Answer the open question (side, dice faces, effect order)")
    @app_commands.describe(option="Your answer")
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": option},
                        build=lambda state, _seat, lang: {"kind": "choose",
                                                          "value": names.resolve_option(state, option, lang)})

    @choose.autocomplete("option")
    async def _choose_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await seat_choices(interaction, actions.current,
                                  lambda state, _seat, lang: km.decision_choices(state, lang, current))

    @km_group.command(name="collect", description="Pick up a kama on the active Krosmaster's square (1 AP)")
    async def collect(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "collect"})

    # ------------------------------------------------------------------ kamas and rewards (304-306)
    @km_group.command(name="buy-gg", description="Buy a GG on a demon square (1 AP, 10 kamas, once per turn)")
    async def buy_gg(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "buy_gg"})

    @km_group.command(name="reward-buy", description="Buy a demonic reward on a demon square (1 AP + its price)")
    @app_commands.describe(pile="Which pile (its face-up reward, or blind)",
                           blind="Take the first face-down reward instead")
    async def reward_buy(self, interaction: discord.Interaction, pile: str, blind: bool = False) -> None:
        await self._act(interaction, {"kind": "buy_reward", "pile": pile.strip().lower(), "blind": blind},
                        build=lambda state, seat, lang: {"kind": "buy_reward", "blind": blind,
                                                         "pile": names.resolve_pile(state, seat, pile, lang)})

    @reward_buy.autocomplete("pile")
    async def _pile_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.pile_choices(state, seat, current, lang))

    @km_group.command(name="reward-assign", description="Place the reward you just bought on one of your Krosmasters")
    @app_commands.describe(reward="The reward just bought", piece="A Krosmaster with a free reward slot")
    async def reward_assign(self, interaction: discord.Interaction, reward: str, piece: str) -> None:
        await self._act(interaction, {"kind": "assign_reward", "reward": reward.strip(), "piece": piece.strip()},
                        build=lambda state, seat, lang: actions.assign_reward(state, seat, reward, piece, lang))

    @reward_assign.autocomplete("reward")
    async def _assign_reward_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.assign_reward_choices(state, seat, current,
                                                                                             lang))

    @reward_assign.autocomplete("piece")
    async def _assign_piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction, lambda state, seat: km.assign_piece_choices(state, seat, current,
                                                                                            lang))

    @km_group.command(name="reward-reveal",
                      description="Reveal a reward of the active Krosmaster (free, once per turn)")
    @app_commands.describe(reward="One of its face-down rewards")
    async def reward_reveal(self, interaction: discord.Interaction, reward: str) -> None:
        await self._act(interaction, {"kind": "reveal_reward", "reward": reward.strip()},
                        build=lambda state, seat, lang: actions.reveal_reward(state, seat, reward, lang))

    @reward_reveal.autocomplete("reward")
    async def _reveal_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction,
                                   lambda state, seat: km.reveal_reward_choices(state, seat, current, lang))

    @km_group.command(name="rewards", description="Show (only to you) your face-down rewards and the piles")
    async def rewards(self, interaction: discord.Interaction) -> None:
        await private_from_view(interaction, actions.game, menus.rewards_reply, system=SYSTEM)

    @km_group.command(name="end", description="End the active Krosmaster's turn")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "end_turn"})

    @km_group.command(name="preview", description="Show (only to you) where the active piece can move or cast")
    @app_commands.describe(spell="A spell to preview its targets", target="A target to preview the area")
    async def preview(self, interaction: discord.Interaction, spell: str | None = None,
                      target: str | None = None) -> None:
        await private_from_view(interaction, actions.game, lambda state, _seat, lang, ref: menus.preview_reply(
            state, ref, lang, spell, target), system=SYSTEM)

    preview.autocomplete("spell")(_spell_ac)
    preview.autocomplete("target")(_target_ac)

    # ------------------------------------------------------------------ information
    @km_group.command(name="info", description="Show (only to you) what a spell, reward, figurine, power or arena does")
    @app_commands.describe(name="A name in English or Italian, or its beginning")
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        async def work(_place: Place, actor: Actor) -> Reply:
            return info.info_reply(name, actor.locale, await table_content(interaction, SYSTEM))

        await respond_private(interaction, work, system=SYSTEM)

    @info.autocomplete("name")
    async def _info_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        app, place, actor = ctx(interaction)
        return to_choices(await actions.info_choices(app, place, actor, current))

    # ------------------------------------------------------------------ buttons
    async def _on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        """Buttons and selects carry ``<game>.<version>``; acting ones are checked under the lock."""
        if len(args) < 2:
            await send_error(interaction, TavoloError("common.stale_button"))
            return
        ref, verb, rest = args[0], args[1], args[2:]
        simple = {"end": {"kind": "end_turn"}, "keep": {"kind": "inspire", "placements": []},
                  "collect": {"kind": "collect"}, "buygg": {"kind": "buy_gg"}}
        if verb in simple:
            await self._act(interaction, simple[verb], ref)
        elif verb == "choose" and rest:
            await self._act(interaction, {"kind": "choose", "value": rest[-1]}, ref)
        elif verb == "buy" and rest:  # the select behind the buy button: "<pile>" or "<pile> blind"
            pile, _, blind = rest[-1].partition(" ")
            await self._act(interaction, {"kind": "buy_reward", "pile": pile, "blind": blind == "blind"}, ref)
        elif verb == "cast" and len(rest) >= 2:
            square, _, direction = rest[-1].partition(" ")
            action: dict[str, Any] = {"kind": "cast", "spell": rest[0], "target": square}
            if direction:
                action["direction"] = direction
            await self._act(interaction, action, ref)
        elif verb == "piles":
            app = app_of(interaction)
            await respond_private(interaction, lambda place, actor: menus.piles_menu(app, place, actor, ref),
                                  system=SYSTEM)
        elif verb in menus.PREVIEW_VERBS:
            app = app_of(interaction)
            await respond_private(interaction, lambda place, actor: menus.button_preview(
                app, place, actor, ref, verb, rest), system=SYSTEM)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))


KrosmasterAdmin = pack_admin_cog(
    system=SYSTEM, group="km-admin", description="Krosmaster content packs of this server (managers only)",
    contents="figurines, arenas", max_bytes=actions.MAX_PACK_BYTES,
    too_big_key="km.err.pack_too_big", importer=km.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Krosmaster(bot))
    await bot.add_cog(KrosmasterAdmin(bot))
