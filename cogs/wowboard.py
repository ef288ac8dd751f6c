"""/wowb: World of Warcraft: The Board Game commands, autocomplete and buttons (thin: rules live in the
engine, names and lists in ``gm.games.wowboard.choices``, actions that need more than a name in
``gm.games.wowboard.actions``, replies in ``gm.games.wowboard.presenter``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    ActionBuild,
    Choices,
    PrivateBuild,
    act_from_view,
    ctx,
    private_from_view,
    respond_private,
    seat_choices_of,
    send_error,
    typed,
    typed_text,
)
from cogs.messages import register_handler
from cogs.packs import pack_admin_cog
from engines.core.errors import TavoloError
from gm.games.wowboard import actions, choices, exchange, replies
from gm.games.wowboard import presenter as wb
from gm.games.wowboard import summary as recap

SYSTEM = "wowboard"


_seat_choices = seat_choices_of(wb.current)


def _typed_character(interaction: discord.Interaction, view: Any, seat: int | None) -> str | None:
    """The character already typed in the same command, as an id (None when not one of the seat's)."""
    raw = typed(interaction, "character")
    if not raw:
        return None
    try:
        return choices.resolve_character(view, seat, str(raw))
    except TavoloError:
        return None


class WowBoard(commands.Cog):
    wowb = app_commands.Group(name="wowb", description="World of Warcraft: The Board Game: travel, fight, quest",
                              guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler(wb.AREA, self._on_component)

    async def _act(self, interaction: discord.Interaction, build: ActionBuild, ref: str | None = None) -> None:
        """Act on the channel's game (``cogs.common.act_from_view``; ``wb.game``: also the last game, once
        it is over, whose table says so)."""
        await act_from_view(interaction, wb.game, build, ref=ref, system=SYSTEM)

    async def _private(self, interaction: discord.Interaction, build: PrivateBuild) -> None:
        """A reply for the asking user alone, from their own view (``cogs.common.private_from_view``)."""
        await private_from_view(interaction, wb.game, build, system=SYSTEM)

    # ------------------------------------------------------------------ set-up
    @wowb.command(name="class", description="Draft: the class of your next character")
    @app_commands.describe(name="A class nobody has picked yet")
    async def class_(self, interaction: discord.Interaction, name: str) -> None:
        await self._act(interaction, lambda v, seat, lang: {"kind": "pick_class",
                                                            "class_id": choices.resolve_class(v, seat, name, lang)})

    @class_.autocomplete("name")
    async def _class_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.class_choices(v, seat, current, lang))

    # ------------------------------------------------------------------ the five actions
    @wowb.command(name="travel", description="Action: move a character up to two regions (or fly)")
    @app_commands.describe(character="One of your characters with an action left",
                           to="A region it can reach (autocomplete: the path)")
    async def travel(self, interaction: discord.Interaction, character: str, to: str) -> None:
        await self._act(interaction, lambda v, seat, lang: actions.travel(v, seat, character, to, lang))

    @travel.autocomplete("character")
    async def _travel_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, ("travel",), lang))

    @travel.autocomplete("to")
    async def _travel_to_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.travel_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @wowb.command(name="rest", description="Action: regain health and energy (your split)")
    @app_commands.describe(character="One of your characters with an action left",
                           health="Health to regain (empty: as much as fits)", energy="Energy to regain")
    async def rest(self, interaction: discord.Interaction, character: str,
                   health: app_commands.Range[int, 0, 60] | None = None,
                   energy: app_commands.Range[int, 0, 60] | None = None) -> None:
        await self._act(interaction, lambda v, seat, lang: actions.rest(v, seat, character, health, energy, lang))

    @rest.autocomplete("character")
    async def _rest_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, ("rest", "pass"), lang))

    @wowb.command(name="pass", description="Action: a character spends an action doing nothing")
    @app_commands.describe(character="One of your characters with an action left")
    async def pass_(self, interaction: discord.Interaction, character: str) -> None:
        await self._act(interaction, lambda v, seat, lang: {"kind": "pass",
                                                            "character": choices.resolve_character(v, seat, character,
                                                                                                   lang)})

    @pass_.autocomplete("character")
    async def _pass_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, ("pass",), lang))

    @wowb.command(name="challenge", description="Action: fight creatures, a boss, the Overlord or enemies here")
    @app_commands.describe(character="One of your characters with an action left",
                           target="What it fights (autocomplete: the legal targets in its region)",
                           invite="Your other character in the same region, to fight along")
    async def challenge(self, interaction: discord.Interaction, character: str, target: str,
                        invite: str | None = None) -> None:
        await act_from_view(interaction, wb.game,
                            lambda v, seat, lang: actions.challenge(v, seat, character, target, invite, lang),
                            system=SYSTEM, notes=choices.challenge_notes)

    @challenge.autocomplete("character")
    async def _challenge_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, ("challenge",), lang))

    @challenge.autocomplete("target")
    async def _challenge_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.challenge_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @challenge.autocomplete("invite")
    async def _challenge_invite_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.invite_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @wowb.command(name="train", description="Action: buy powers from your class deck (empty: a menu)")
    @app_commands.describe(character="One of your characters with an action left",
                           powers="Powers to buy, separated by commas")
    async def train(self, interaction: discord.Interaction, character: str, powers: str | None = None) -> None:
        if not powers:  # the builder: tick the powers, one action
            await self._private(interaction, lambda v, seat, lang, ref: wb.builder(
                v, seat, "train", choices.resolve_character(v, seat, character, lang), lang, ref))
            return

        await self._act(interaction, lambda v, seat, lang: actions.train(v, seat, character, powers, lang))

    @train.autocomplete("character")
    async def _train_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, ("train",), lang))

    @train.autocomplete("powers")
    async def _train_powers_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.power_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @wowb.command(name="town", description="Action in a friendly town: sell, buy, train, heal (empty: a menu)")
    @app_commands.describe(character="One of your characters in a friendly town",
                           sell="Items of its Bag to sell, separated by commas",
                           buy="Merchant items to buy, separated by commas",
                           powers="Powers to buy, separated by commas",
                           health="Health to buy back (1 gold each)", energy="Energy to buy back (1 gold each)")
    async def town(self, interaction: discord.Interaction, character: str, sell: str | None = None,
                   buy: str | None = None, powers: str | None = None,
                   health: app_commands.Range[int, 0, 30] = 0, energy: app_commands.Range[int, 0, 30] = 0) -> None:
        if not (sell or buy or powers or health or energy):  # the builder: tick everything, one action
            await self._private(interaction, lambda v, seat, lang, ref: wb.builder(
                v, seat, "town", choices.resolve_character(v, seat, character, lang), lang, ref))
            return

        await self._act(interaction, lambda v, seat, lang: actions.town(v, seat, character, sell, buy, powers, health,
                                                                      energy, lang))

    @town.autocomplete("character")
    async def _town_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, ("town",), lang))

    @town.autocomplete("sell")
    async def _town_sell_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.sell_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @town.autocomplete("buy")
    async def _town_buy_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.buy_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @town.autocomplete("powers")
    async def _town_powers_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.power_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    # ------------------------------------------------------------------ management
    @wowb.command(name="equip", description="Management: put a power or an item into a card area")
    @app_commands.describe(character="One of your characters", card="A power of its Spellbook or an item of its Bag",
                           area="A card area that takes it")
    async def equip(self, interaction: discord.Interaction, character: str, card: str, area: str) -> None:
        await self._act(interaction, lambda v, seat, lang: actions.equip(v, seat, character, card, area, lang))

    @equip.autocomplete("character")
    async def _equip_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, lang=lang))

    @equip.autocomplete("card")
    async def _equip_card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.equip_card_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @equip.autocomplete("area")
    async def _equip_area_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        card = typed_text(interaction, "card")
        return await _seat_choices(interaction, lambda v, seat, lang: actions.area_choices(
            v, seat, _typed_character(interaction, v, seat), card, current, lang))

    @wowb.command(name="unequip", description="Management: take a card out of its area")
    @app_commands.describe(character="One of your characters", card="A card in one of its areas")
    async def unequip(self, interaction: discord.Interaction, character: str, card: str) -> None:
        await self._act(interaction, lambda v, seat, lang: actions.unequip(v, seat, character, card, lang))

    @unequip.autocomplete("character")
    async def _unequip_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.character_choices(
            v, seat, current, lang=lang))

    @unequip.autocomplete("card")
    async def _unequip_card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.equipped_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @wowb.command(name="done", description="Management: your characters are ready, end your management step")
    async def done(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, lambda _v, _s, _l: {"kind": "management_done"})

    # ------------------------------------------------------------------ combat and questions
    @wowb.command(name="order", description="Combat: the attack order of your characters this round")
    @app_commands.describe(order="Characters in order, separated by commas")
    async def order(self, interaction: discord.Interaction, order: str) -> None:
        await self._act(interaction, lambda v, _s, lang: {"kind": "set_order",
                                                            "order": choices.resolve_order(v, order, lang)})

    @order.autocomplete("order")
    async def _order_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.order_choices(v, seat, current, lang))

    @wowb.command(name="roll", description="Combat: roll your dice pool")
    @app_commands.describe(instants="Instant powers you pay energy for now, separated by commas",
                           stun="Dice you give up for Stun tokens: colours, e.g. red, red")
    async def roll(self, interaction: discord.Interaction, instants: str | None = None,
                   stun: str | None = None) -> None:
        await self._act(interaction, lambda v, seat, lang: actions.roll(v, seat, instants, stun, lang))

    @roll.autocomplete("instants")
    async def _roll_instants_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.instant_choices(v, seat, current, lang))

    @wowb.command(name="reroll", description="Combat: reroll dice by their numbers (empty: pick them with buttons)")
    @app_commands.describe(dice="Die numbers as the picture shows them, e.g. 1 3 4; none keeps them all")
    async def reroll(self, interaction: discord.Interaction, dice: str | None = None) -> None:
        if dice is None:
            await self._private(interaction, lambda v, seat, lang, ref: wb.dice_panel(v, seat, lang, ref, []))
            return

        await self._act(interaction, lambda v, _s, _l: actions.reroll(v, dice))

    @wowb.command(name="wounds", description="Combat: split the wounds among your characters in the fight")
    @app_commands.describe(split="e.g. warden 2, arcanist 1 (a single name takes them all)")
    async def wounds(self, interaction: discord.Interaction, split: str) -> None:
        await self._act(interaction, lambda v, seat, lang: {"kind": "assign_wounds",
                                                            "split": choices.parse_split(v, seat, split, lang)})

    @wounds.autocomplete("split")
    async def _wounds_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.split_choices(v, seat, current, lang))

    @wowb.command(name="choose", description="Answer the open question (respawn, item, talent, quest deck…)")
    @app_commands.describe(option="One of the options the question lists")
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._act(interaction, lambda v, seat, lang: {"kind": "choose",
                                                            "value": choices.resolve_answer(v, seat, option, lang)})

    @choose.autocomplete("option")
    async def _choose_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.answer_choices(v, seat, current, lang))

    # ------------------------------------------------------------------ trading (items.7), the auction (events.3)
    @wowb.command(name="trade", description="After an action: give or swap Bag items and gold with a friend here")
    @app_commands.describe(character="Your character that has acted", partner="A friendly character in its region",
                           give="Bag items it gives (comma-separated)", gold="Gold it gives",
                           take="The partner's Bag items it asks for", take_gold="Gold it asks for")
    async def trade(self, interaction: discord.Interaction, character: str, partner: str, give: str | None = None,
                    gold: app_commands.Range[int, 0, 999] = 0, take: str | None = None,
                    take_gold: app_commands.Range[int, 0, 999] = 0) -> None:
        await self._act(interaction, lambda v, seat, lang: exchange.trade(v, seat, character, partner, give, gold,
                                                                          take, take_gold, lang))

    @trade.autocomplete("character")
    async def _trade_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: exchange.trader_choices(v, seat, current, lang))

    @trade.autocomplete("partner")
    async def _trade_partner_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: exchange.partner_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @trade.autocomplete("give")
    async def _trade_give_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: exchange.item_choices(
            v, seat, _typed_character(interaction, v, seat), typed_text(interaction, "partner"), current, lang))

    @trade.autocomplete("take")
    async def _trade_take_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: exchange.item_choices(
            v, seat, _typed_character(interaction, v, seat), typed_text(interaction, "partner"), current, lang,
            theirs=True))

    @wowb.command(name="bid", description="Auction: seal your bid (only you see it until every bid is in)")
    @app_commands.describe(gold="Your bid (0: none)", character="The character that pays if it wins (default: richest)")
    async def bid(self, interaction: discord.Interaction, gold: app_commands.Range[int, 0, 999],
                  character: str | None = None) -> None:
        await self._act(interaction, lambda v, seat, lang: exchange.bid(v, seat, gold, character, lang))

    @bid.autocomplete("character")
    async def _bid_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: exchange.bid_character_choices(
            v, seat, current, lang))

    # ------------------------------------------------------------------ information
    @wowb.command(name="panel", description="Show (only to you) your characters and what you can do now")
    async def panel(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, seat, lang, ref: wb.panel(v, seat, lang, ref))

    # Discord allows 25 subcommands in a group: /wowb summary took the place of /wowb status, which only repeated
    # /game status (the table posted again); /game status stays the way to see the board publicly.
    @wowb.command(name="summary",
                  description="Catch up (only you): what your faction did since your last action, and what is open now")
    async def summary(self, interaction: discord.Interaction) -> None:
        app = ctx(interaction)[0]
        await respond_private(interaction, lambda place, actor: recap.summary_reply(app, place, actor), system=SYSTEM)

    @wowb.command(name="sheet", description="Show (only to you) a character's sheet")
    @app_commands.describe(character="Any character (empty: your first)")
    async def sheet(self, interaction: discord.Interaction, character: str | None = None) -> None:
        await self._private(interaction,
                            lambda v, seat, lang, _r: replies.sheet_picture_reply(v, seat, character, lang))

    @sheet.autocomplete("character")
    async def _sheet_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, _s, lang: actions.sheet_choices(v, current, lang))

    @wowb.command(name="map", description="Show (only to you) the whole map, or a crop around a region")
    @app_commands.describe(region="A region to look around (empty: the whole map)")
    async def map(self, interaction: discord.Interaction, region: str | None = None) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: replies.map_reply(v, region, lang))

    @map.autocomplete("region")
    async def _map_region_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, _s, lang: actions.region_choices(v, current, lang))

    @wowb.command(name="quests", description="Show (only to you) the eligible quests of both factions")
    async def quests(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: replies.quests_reply(v, lang))

    @wowb.command(name="merchant", description="Show (only to you) what the merchant sells")
    async def merchant(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: replies.merchant_reply(v, lang))

    @wowb.command(name="combat", description="Show (only to you) the fight in progress")
    async def combat(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: replies.combat_reply(v, lang))

    @wowb.command(name="card", description="Show (only to you) what a card, creature, region or quest is")
    @app_commands.describe(name="A name, or its beginning")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: replies.card_reply(v, name, lang))

    @card.autocomplete("name")
    async def _card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, _s, lang: actions.card_choices(v, current, lang))

    # ------------------------------------------------------------------ buttons
    async def _on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        """Buttons and selects carry ``<game>.<version>``: acting ones are checked under the lock,
        menus are built only for the position they were asked from."""
        if len(args) < 2:
            await send_error(interaction, TavoloError("common.stale_button"))
            return
        ref, verb, rest = args[0], args[1], args[2:]
        value = ":".join(rest)
        if verb == "cls" and value:
            await self._act(interaction, lambda *_: {"kind": "pick_class", "class_id": value}, ref)
        elif verb == "ch" and value:
            await self._act(interaction, lambda *_: {"kind": "choose", "value": value}, ref)
        elif verb == "ord" and value:
            await self._act(interaction, lambda *_: {"kind": "set_order", "order": value.split(",")}, ref)
        elif verb == "roll":
            await self._act(interaction, lambda *_: {"kind": "roll", "instants": [value] if value else []}, ref)
        elif verb in ("rr", "rrs"):  # keep (nothing picked) or reroll the dice picked in the panel
            picked = [int(x) for x in value.split(".") if x.isdecimal()]
            await self._act(interaction, lambda *_: {"kind": "reroll", "dice": picked}, ref)
        elif verb == "rrm":
            await self._act(interaction, lambda v, seat, _l: actions.suggested_reroll(v, seat), ref)
        elif verb == "rrt":
            picked = [int(x) for x in value.split(".") if x.isdecimal()]
            await self._private(interaction, lambda v, seat, lang, now: wb.dice_panel(
                v, seat, lang, wb.check_ref_value(ref, now), picked))
        elif verb == "wd" and value:
            await self._act(interaction, lambda v, _s, _l: actions.all_wounds(v, value), ref)
        elif verb == "done":
            await self._act(interaction, lambda *_: {"kind": "management_done"}, ref)
        elif verb == "menu" and value in wb.MENU_KINDS:
            await self._private(interaction, lambda v, seat, lang, now: wb.menu(
                v, seat, value, lang, wb.check_ref_value(ref, now)))
        elif verb in ("tb", "trb") and len(rest) >= 2:  # a builder's picks: one train or town action
            kind = "town" if verb == "tb" else "train"
            await self._act(interaction, lambda *_: wb.built_action(kind, rest[0], rest[1:]), ref)
        elif verb == "do" and value:
            await self._act(interaction, lambda *_: wb.decode(value), ref)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))


WowBoardAdmin = pack_admin_cog(
    system=SYSTEM, group="wowb-admin", description="WoW board game packs of this server (managers only)",
    contents="quests, items, events, classes, creatures", max_bytes=actions.MAX_PACK_BYTES,
    too_big_key="wowboard.err.pack_too_big", importer=wb.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WowBoard(bot))
    await bot.add_cog(WowBoardAdmin(bot))
