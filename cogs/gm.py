"""/gm: game-master overrides for the game in this channel (GM role only, logged as actions).

The commands build ``gm_*`` actions that the channel's engine validates; pieces are
offered by the system's presenter so the GM picks from what is really on the table.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import Choices, ctx, respond, to_choices
from cogs.messages import lang_of
from gm import presenters
from gm.table.absent import set_policy
from gm.table.absent_policy import POLICIES
from gm.table.overrides import gm_commands, gm_override


class GameMaster(commands.Cog):
    gm = app_commands.Group(name="gm", description="Game-master overrides (GM role only)", guild_only=True)
    platform: frozenset[str] = frozenset({"absent"})  # table settings every game takes, not ``gm_*`` overrides

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _act(self, interaction: discord.Interaction, action: dict[str, Any]) -> None:
        """The override for the channel's game (``gm.table.overrides``): refused in words where the game
        has no such override, the piece named as the board shows it."""
        app, place, actor = ctx(interaction)
        command = interaction.command.name if interaction.command is not None else ""
        table = await app.tables.table_for(place)
        await respond(interaction, lambda: gm_override(app.tables, place, actor, command, action),
                      system=table.game.system if table else None)

    @staticmethod
    async def _applies(interaction: discord.Interaction) -> Any:
        """The channel's table when the typed ``/gm`` subcommand applies to its game, else None (its
        autocomplete then offers nothing)."""
        app, place, _ = ctx(interaction)
        table = await app.tables.table_for(place)
        command = interaction.command.name if interaction.command is not None else ""
        if table is None or table.state is None or command not in gm_commands(table.game.system):
            return None
        return table

    @gm.command(name="absent", description="Every game: what the table does for a player who does not move")
    @app_commands.describe(policy="wait (reminders only), autopilot, skip (pass) or forfeit (resign)",
                           after="How long a seat may wait first, e.g. 90m, 48h, 7d (default 48h; forfeit 7d)")
    @app_commands.choices(policy=[app_commands.Choice(name=p, value=p) for p in POLICIES])
    async def absent(self, interaction: discord.Interaction, policy: str,
                     after: app_commands.Range[str, 1, 20] | None = None) -> None:
        """A platform setting, not a game override: every game takes it (issue 32.2)."""
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: set_policy(app.tables, place, actor, policy, after))

    @gm.command(name="place", description="Put a piece on a square, or take it off the board")
    @app_commands.describe(piece="Which piece", square="Target square, e.g. C7 (empty: off the board)")
    async def place(self, interaction: discord.Interaction, piece: str, square: str | None = None) -> None:
        await self._act(interaction, {"kind": "gm_place", "piece": piece,
                                      "square": square.strip().upper() if square else None})

    @gm.command(name="wounds", description="Set a piece's wounds")
    @app_commands.describe(piece="Which piece", wounds="Number of wounds")
    async def wounds(self, interaction: discord.Interaction, piece: str,
                     wounds: app_commands.Range[int, 0, 99]) -> None:
        await self._act(interaction, {"kind": "gm_wounds", "piece": piece, "wounds": wounds})

    @gm.command(name="apmp", description="Set a piece's current AP/MP and tokens")
    @app_commands.describe(piece="Which piece", ap="Current AP", mp="Current MP", ap_tokens="AP tokens (+/-)",
                           mp_tokens="MP tokens (+/-)")
    async def apmp(self, interaction: discord.Interaction, piece: str,
                   ap: app_commands.Range[int, 0, 99] | None = None, mp: app_commands.Range[int, 0, 99] | None = None,
                   ap_tokens: app_commands.Range[int, -99, 99] | None = None,
                   mp_tokens: app_commands.Range[int, -99, 99] | None = None) -> None:
        await self._act(interaction, {"kind": "gm_apmp", "piece": piece, "ap": ap, "mp": mp,
                                      "ap_tokens": ap_tokens, "mp_tokens": mp_tokens})

    @gm.command(name="gg", description="Set a player's glory points (seat 0 = wild GG)")
    @app_commands.describe(seat="Player seat (1, 2…) or 0 for the wild GG", gg="New value")
    async def gg(self, interaction: discord.Interaction, seat: app_commands.Range[int, 0, 8],
                 gg: app_commands.Range[int, 0, 99]) -> None:
        await self._act(interaction, {"kind": "gm_gg", "seat": seat - 1 if seat else None, "gg": gg})

    # World of Warcraft Miniatures: health, clock, VP (engines/wowminis gm_*); place is shared above.
    @gm.command(name="health", description="WoW Miniatures: set a character's health")
    @app_commands.describe(piece="Which character", health="New health")
    async def health(self, interaction: discord.Interaction, piece: str,
                     health: app_commands.Range[int, 0, 60]) -> None:
        await self._act(interaction, {"kind": "gm_health", "piece": piece, "health": health})

    @gm.command(name="clock", description="WoW Miniatures: set a character's clock, in ticks ahead of the Master Clock")
    @app_commands.describe(piece="Which character", ahead="Ticks ahead of the Master Clock (0-9)")
    async def clock(self, interaction: discord.Interaction, piece: str, ahead: app_commands.Range[int, 0, 9]) -> None:
        await self._act(interaction, {"kind": "gm_clock", "piece": piece, "ahead": ahead})

    @gm.command(name="vp", description="WoW Miniatures: set a player's VP")
    @app_commands.describe(seat="Player seat (1 or 2)", vp="New VP")
    async def vp(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 2],
                 vp: app_commands.Range[int, 0, 500]) -> None:
        await self._act(interaction, {"kind": "gm_vp", "seat": seat - 1, "vp": vp})

    # Mage Knight combat: the hero's hand, a unit, an enemy, Fame and Reputation (engines/mageknight gm_*).
    @gm.command(name="hand-wounds", description="Mage Knight: put Wound cards into the hero's hand (negative: remove)")
    @app_commands.describe(add="Wound cards to add (negative to remove)")
    async def hand_wounds(self, interaction: discord.Interaction, add: app_commands.Range[int, -20, 20]) -> None:
        await self._act(interaction, {"kind": "gm_wounds", "add": add})

    @gm.command(name="unit", description="Mage Knight: set a unit's wounds, readiness or destruction")
    @app_commands.describe(unit="Which unit", wounds="Wounds (0-2)", ready="Ready to activate",
                           destroyed="Destroyed")
    async def unit(self, interaction: discord.Interaction, unit: str,
                   wounds: app_commands.Range[int, 0, 2] | None = None,
                   ready: bool | None = None, destroyed: bool | None = None) -> None:
        await self._act(interaction, {"kind": "gm_unit", "unit": unit, "wounds": wounds, "ready": ready,
                                      "destroyed": destroyed})

    @gm.command(name="enemy", description="Mage Knight: set an enemy alive, blocked or defeated")
    @app_commands.describe(enemy="Which enemy", status="Its new status")
    @app_commands.choices(status=[app_commands.Choice(name=s, value=s) for s in ("alive", "blocked", "defeated")])
    async def enemy(self, interaction: discord.Interaction, enemy: str, status: str) -> None:
        await self._act(interaction, {"kind": "gm_enemy", "enemy": enemy, "status": status})

    @gm.command(name="fame", description="Mage Knight: set Fame and/or Reputation")
    @app_commands.describe(fame="Fame (0-999)", reputation="Reputation (-30 to 30)")
    async def fame(self, interaction: discord.Interaction, fame: app_commands.Range[int, 0, 999] | None = None,
                   reputation: app_commands.Range[int, -30, 30] | None = None) -> None:
        await self._act(interaction, {"kind": "gm_fame", "fame": fame, "reputation": reputation})

    # Warlord: a card's state, a card to another zone, draws and notes (engines/warlord gm_*); wounds above.
    @gm.command(name="state", description="Warlord: set a character's or an item's state")
    @app_commands.describe(piece="Which card", state="ready, spent or stunned")
    @app_commands.choices(state=[app_commands.Choice(name=s, value=s) for s in ("ready", "spent", "stunned")])
    async def state(self, interaction: discord.Interaction, piece: str, state: str) -> None:
        await self._act(interaction, {"kind": "gm_state", "piece": piece, "state": state})

    @gm.command(name="move", description="Warlord: move a card to hand, discard, deck, removed or a rank")
    @app_commands.describe(piece="Which card", to="hand, discard, deck, removed, or rank:N",
                           position="Place in the rank, from the left (empty: the right end)")
    async def move(self, interaction: discord.Interaction, piece: str, to: str,
                   position: app_commands.Range[int, 0, 40] | None = None) -> None:
        await self._act(interaction, {"kind": "gm_move", "piece": piece, "to": to.strip().lower(),
                                      "position": position})

    @gm.command(name="draw", description="Warlord: a player draws cards")
    @app_commands.describe(seat="Player seat (1, 2…)", n="How many cards")
    async def draw(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 4],
                   n: app_commands.Range[int, 1, 10] = 1) -> None:
        await self._act(interaction, {"kind": "gm_draw", "seat": seat - 1, "n": n})

    @gm.command(name="note", description="Write a line in the log (a card text resolved by hand)")
    @app_commands.describe(text="What the GM resolved")
    async def note(self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 300]) -> None:
        await self._act(interaction, {"kind": "gm_note", "text": text})

    @gm.command(name="wowb-move", description="WoW board game: put a character in a region")
    @app_commands.describe(character="Which character", region="Which region")
    async def wowb_move(self, interaction: discord.Interaction, character: str, region: str) -> None:
        await self._act(interaction, {"kind": "gm_move", "character": character, "region": region})

    @gm.command(name="wowb-stat", description="WoW board game: set a character's health, energy, gold, XP, tokens")
    @app_commands.describe(character="Which character", stat="What to set", value="The new value")
    @app_commands.choices(stat=[app_commands.Choice(name=s, value=s)
                                for s in ("health", "energy", "gold", "xp", "stun", "curse", "actions")])
    async def wowb_stat(self, interaction: discord.Interaction, character: str, stat: str,
                        value: app_commands.Range[int, 0, 999]) -> None:
        await self._act(interaction, {"kind": "gm_stat", "character": character, "stat": stat, "value": value})

    @gm.command(name="wowb-give", description="WoW board game: give a character an item or a power")
    @app_commands.describe(character="Which character", card="An item (merchant or deck) or a power (class deck)")
    async def wowb_give(self, interaction: discord.Interaction, character: str, card: str) -> None:
        await self._act(interaction, {"kind": "gm_give", "character": character, "card": card})

    @gm.command(name="wowb-take", description="WoW board game: take an item or a power from a character")
    @app_commands.describe(character="Which character", card="A card of its Bag or Spellbook")
    async def wowb_take(self, interaction: discord.Interaction, character: str, card: str) -> None:
        await self._act(interaction, {"kind": "gm_take", "character": character, "card": card})

    @gm.command(name="wowb-spawn", description="WoW board game: a figure from the supply into a region")
    @app_commands.describe(creature="Creature type", tier="green, blue or red", region="Which region")
    @app_commands.choices(tier=[app_commands.Choice(name=s, value=s) for s in ("green", "blue", "red")])
    async def wowb_spawn(self, interaction: discord.Interaction, creature: str, tier: str, region: str) -> None:
        await self._act(interaction, {"kind": "gm_spawn", "creature": creature, "tier": tier, "region": region})

    @gm.command(name="wowb-remove", description="WoW board game: a figure back to the supply")
    @app_commands.describe(figure="Which figure")
    async def wowb_remove(self, interaction: discord.Interaction, figure: str) -> None:
        await self._act(interaction, {"kind": "gm_remove", "figure": figure})

    @gm.command(name="wowb-turn", description="WoW board game: move the turn marker")
    @app_commands.describe(turn="Turn 1 to 30, or 31 for the End space")
    async def wowb_turn(self, interaction: discord.Interaction, turn: app_commands.Range[int, 1, 31]) -> None:
        await self._act(interaction, {"kind": "gm_turn", "turn": turn})

    @wowb_move.autocomplete("character")
    @wowb_stat.autocomplete("character")
    @wowb_give.autocomplete("character")
    @wowb_take.autocomplete("character")
    async def _wowb_character_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._names_ac(interaction, "character", current)

    @wowb_move.autocomplete("region")
    @wowb_spawn.autocomplete("region")
    async def _wowb_region_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._names_ac(interaction, "region", current)

    @wowb_give.autocomplete("card")
    @wowb_take.autocomplete("card")
    async def _wowb_card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._names_ac(interaction, "card", current)

    @wowb_spawn.autocomplete("creature")
    async def _wowb_creature_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._names_ac(interaction, "creature", current)

    @wowb_remove.autocomplete("figure")
    async def _wowb_figure_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._names_ac(interaction, "figure", current)

    @unit.autocomplete("unit")
    async def _unit_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._names_ac(interaction, "unit", current)

    @enemy.autocomplete("enemy")
    async def _enemy_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._names_ac(interaction, "enemy", current)

    async def _names_ac(self, interaction: discord.Interaction, what: str, current: str) -> Choices:
        """Names the game knows for ``what`` (presenter hook ``gm_name_choices``)."""
        table = await self._applies(interaction)
        if table is None:
            return []
        lister = getattr(presenters.get(table.game.system), "gm_name_choices", None)
        if lister is None:
            return []
        return to_choices(lister(table.state, what, current, lang=lang_of(interaction)))  # the GM's language

    @place.autocomplete("piece")
    @wounds.autocomplete("piece")
    @apmp.autocomplete("piece")
    @health.autocomplete("piece")
    @clock.autocomplete("piece")
    @state.autocomplete("piece")
    @move.autocomplete("piece")
    async def _piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        table = await self._applies(interaction)
        if table is None:
            return []
        presenter = presenters.get(table.game.system)
        lister = getattr(presenter, "piece_choices", None)
        if lister is None:
            return []
        return to_choices(lister(table.state, current, lang=lang_of(interaction)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameMaster(bot))
