"""/wowb: World of Warcraft: The Board Game commands, autocomplete and buttons (thin: rules live in the
engine, names and lists in ``gm.wowboard_choices``, replies in ``gm.wowboard``)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import Choices, ctx, respond, respond_private, seat_choices, send_error, typed
from cogs.components import register_handler
from cogs.packs import pack_admin_cog
from engines.core.errors import TavoloError
from engines.wowboard.content import MAX_PACK_BYTES
from engines.wowboard.state import State
from gm import wowboard as wb
from gm import wowboard_choices as choices
from gm.choices import Choice
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table_model import game_ref

SYSTEM = "wowboard"
Build = Callable[[State, int | None, str], dict[str, Any]]  # (view, seat, reader's language) -> action


async def _seat_choices(interaction: discord.Interaction,
                        build: Callable[[State, int | None, str], list[Choice]]) -> Choices:
    return await seat_choices(interaction, wb.current, build)


def _typed_character(interaction: discord.Interaction, view: State, seat: int | None) -> str | None:
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

    def _app(self) -> Any:
        return self.bot.app  # type: ignore[attr-defined]

    async def _act(self, interaction: discord.Interaction, build: Build, ref: str | None = None) -> None:
        """Act on the channel's game; ``build`` turns what the player typed into the action from the
        position they see (their own ``view``)."""
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            view, seat, _table = await wb.game(app, place, actor)
            return await app.tables.act(place, actor, build(view, seat, actor.locale), ref=ref)

        await respond(interaction, work, system=SYSTEM)

    async def _private(self, interaction: discord.Interaction,
                       build: Callable[[State, int | None, str, str], Reply | Awaitable[Reply]]) -> None:
        """A reply for the asking user alone, from their own view (``build`` may be async: pictures)."""
        app = self._app()

        async def work(place: Place, actor: Actor) -> Reply:
            view, seat, table = await wb.game(app, place, actor)
            reply = build(view, seat, actor.locale, game_ref(table))
            return await reply if inspect.isawaitable(reply) else reply

        await respond_private(interaction, work, system=SYSTEM)

    # ------------------------------------------------------------------ set-up
    @wowb.command(name="class", description="Draft: the class of your next character")
    @app_commands.describe(name="A class nobody has picked yet")
    async def class_(self, interaction: discord.Interaction, name: str) -> None:
        await self._act(interaction, lambda v, seat, _l: {"kind": "pick_class",
                                                          "class_id": choices.resolve_class(v, seat, name)})

    @class_.autocomplete("name")
    async def _class_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.class_choices(v, seat, current))

    # ------------------------------------------------------------------ the five actions
    @wowb.command(name="travel", description="Action: move a character up to two regions (or fly)")
    @app_commands.describe(character="One of your characters with an action left",
                           to="A region it can reach (autocomplete: the path)")
    async def travel(self, interaction: discord.Interaction, character: str, to: str) -> None:
        def build(v: State, seat: int | None, _lang: str) -> dict[str, Any]:
            char = choices.resolve_character(v, seat, character)
            return {"kind": "travel", "character": char, "to": choices.resolve_destination(v, seat, char, to)}

        await self._act(interaction, build)

    @travel.autocomplete("character")
    async def _travel_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(
            v, seat, current, ("travel",)))

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
        def build(v: State, seat: int | None, _lang: str) -> dict[str, Any]:
            char = choices.resolve_character(v, seat, character)
            if health is None and energy is None:  # the split the engine suggests: health first
                offered = next((a for a in choices.legal(v, seat) if a.kind == "rest"
                                and getattr(a, "character", "") == char), None)
                if offered is not None:
                    return offered.model_dump()
            return {"kind": "rest", "character": char, "health": health or 0, "energy": energy or 0}

        await self._act(interaction, build)

    @rest.autocomplete("character")
    async def _rest_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(
            v, seat, current, ("rest", "pass")))

    @wowb.command(name="pass", description="Action: a character spends an action doing nothing")
    @app_commands.describe(character="One of your characters with an action left")
    async def pass_(self, interaction: discord.Interaction, character: str) -> None:
        await self._act(interaction, lambda v, seat, _l: {"kind": "pass",
                                                          "character": choices.resolve_character(v, seat, character)})

    @pass_.autocomplete("character")
    async def _pass_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(
            v, seat, current, ("pass",)))

    @wowb.command(name="challenge", description="Action: fight creatures, a boss, the Overlord or enemies here")
    @app_commands.describe(character="One of your characters with an action left",
                           target="What it fights (autocomplete: the legal targets in its region)",
                           invite="Your other character in the same region, to fight along")
    async def challenge(self, interaction: discord.Interaction, character: str, target: str,
                        invite: str | None = None) -> None:
        def build(v: State, seat: int | None, lang: str) -> dict[str, Any]:
            char = choices.resolve_character(v, seat, character)
            friends = [choices.resolve_character(v, seat, f) for f in (invite or "").split(",") if f.strip()]
            return {"kind": "challenge", "character": char,
                    "target": choices.resolve_target(v, seat, char, target, lang), "invite": friends}

        await self._act(interaction, build)

    @challenge.autocomplete("character")
    async def _challenge_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(
            v, seat, current, ("challenge",)))

    @challenge.autocomplete("target")
    async def _challenge_target_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, lang: choices.challenge_choices(
            v, seat, _typed_character(interaction, v, seat), current, lang))

    @challenge.autocomplete("invite")
    async def _challenge_invite_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.invite_choices(
            v, seat, _typed_character(interaction, v, seat), current))

    @wowb.command(name="train", description="Action: buy powers from your class deck (empty: a menu)")
    @app_commands.describe(character="One of your characters with an action left",
                           powers="Powers to buy, separated by commas")
    async def train(self, interaction: discord.Interaction, character: str, powers: str | None = None) -> None:
        if not powers:  # the builder: tick the powers, one action
            await self._private(interaction, lambda v, seat, lang, ref: wb.builder(
                v, seat, "train", choices.resolve_character(v, seat, character), lang, ref))
            return

        def build(v: State, seat: int | None, _lang: str) -> dict[str, Any]:
            char = choices.resolve_character(v, seat, character)
            return {"kind": "train", "character": char,
                    "powers": choices.resolve_cards(v, powers, v.class_decks.get(char, []))}

        await self._act(interaction, build)

    @train.autocomplete("character")
    async def _train_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(
            v, seat, current, ("train",)))

    @train.autocomplete("powers")
    async def _train_powers_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.power_choices(
            v, seat, _typed_character(interaction, v, seat), current))

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
                v, seat, "town", choices.resolve_character(v, seat, character), lang, ref))
            return

        def build(v: State, seat: int | None, _lang: str) -> dict[str, Any]:
            char = choices.resolve_character(v, seat, character)
            c = v.characters[char]
            return {"kind": "town", "character": char, "sell": choices.resolve_cards(v, sell, c.bag),
                    "buy": choices.resolve_cards(v, buy, v.merchant),
                    "powers": choices.resolve_cards(v, powers, v.class_decks.get(char, [])),
                    "health": health, "energy": energy}

        await self._act(interaction, build)

    @town.autocomplete("character")
    async def _town_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(
            v, seat, current, ("town",)))

    @town.autocomplete("sell")
    async def _town_sell_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.sell_choices(
            v, seat, _typed_character(interaction, v, seat), current))

    @town.autocomplete("buy")
    async def _town_buy_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.buy_choices(
            v, seat, _typed_character(interaction, v, seat), current))

    @town.autocomplete("powers")
    async def _town_powers_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.power_choices(
            v, seat, _typed_character(interaction, v, seat), current))

    # ------------------------------------------------------------------ management
    @wowb.command(name="equip", description="Management: put a power or an item into a card area")
    @app_commands.describe(character="One of your characters", card="A power of its Spellbook or an item of its Bag",
                           area="A card area that takes it")
    async def equip(self, interaction: discord.Interaction, character: str, card: str, area: str) -> None:
        def build(v: State, seat: int | None, _lang: str) -> dict[str, Any]:
            char = choices.resolve_character(v, seat, character)
            c = v.characters[char]
            found = choices.resolve_cards(v, card, [*c.spellbook, *c.bag])
            return {"kind": "equip", "character": char, "card": found[0] if found else card, "area": area.strip()}

        await self._act(interaction, build)

    @equip.autocomplete("character")
    async def _equip_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(v, seat, current))

    @equip.autocomplete("card")
    async def _equip_card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.equip_card_choices(
            v, seat, _typed_character(interaction, v, seat), current))

    @equip.autocomplete("area")
    async def _equip_area_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        def build(v: State, seat: int | None, _lang: str) -> list[Choice]:
            char = _typed_character(interaction, v, seat)
            raw = typed(interaction, "card")
            card = None
            if raw and char:
                c = v.characters[char]
                found = choices.resolve_cards(v, str(raw), [*c.spellbook, *c.bag])
                card = found[0] if found else None
            return choices.area_choices(v, seat, char, card, current)

        return await _seat_choices(interaction, build)

    @wowb.command(name="unequip", description="Management: take a card out of its area")
    @app_commands.describe(character="One of your characters", card="A card in one of its areas")
    async def unequip(self, interaction: discord.Interaction, character: str, card: str) -> None:
        def build(v: State, seat: int | None, _lang: str) -> dict[str, Any]:
            char = choices.resolve_character(v, seat, character)
            worn = [k for s in v.characters[char].sheet.values() for k in ([s.card] if s.card else []) + s.addons]
            found = choices.resolve_cards(v, card, worn)
            return {"kind": "unequip", "character": char, "card": found[0] if found else card}

        await self._act(interaction, build)

    @unequip.autocomplete("character")
    async def _unequip_char_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.character_choices(v, seat, current))

    @unequip.autocomplete("card")
    async def _unequip_card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.equipped_choices(
            v, seat, _typed_character(interaction, v, seat), current))

    @wowb.command(name="done", description="Management: your characters are ready, end your management step")
    async def done(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, lambda _v, _s, _l: {"kind": "management_done"})

    # ------------------------------------------------------------------ combat and questions
    @wowb.command(name="order", description="Combat: the attack order of your characters this round")
    @app_commands.describe(order="Characters in order, separated by commas")
    async def order(self, interaction: discord.Interaction, order: str) -> None:
        await self._act(interaction, lambda v, _s, _l: {"kind": "set_order", "order": choices.resolve_order(v, order)})

    @order.autocomplete("order")
    async def _order_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.order_choices(v, seat, current))

    @wowb.command(name="roll", description="Combat: roll your dice pool")
    @app_commands.describe(instants="Instant powers you pay energy for now, separated by commas",
                           stun="Dice you give up for Stun tokens: colours, e.g. red, red")
    async def roll(self, interaction: discord.Interaction, instants: str | None = None,
                   stun: str | None = None) -> None:
        def build(v: State, seat: int | None, _lang: str) -> dict[str, Any]:
            picked = [c.value for c in choices.instant_choices(v, seat, "")]
            colours = [c.strip().lower() for c in (stun or "").split(",") if c.strip()]
            return {"kind": "roll", "instants": choices.resolve_cards(v, instants, picked), "stun": colours}

        await self._act(interaction, build)

    @roll.autocomplete("instants")
    async def _roll_instants_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.instant_choices(v, seat, current))

    @wowb.command(name="reroll", description="Combat: reroll dice by their numbers (empty: pick them with buttons)")
    @app_commands.describe(dice="Die numbers as the picture shows them, e.g. 1 3 4; none keeps them all")
    async def reroll(self, interaction: discord.Interaction, dice: str | None = None) -> None:
        if dice is None:
            await self._private(interaction, lambda v, seat, lang, ref: wb.dice_panel(v, seat, lang, ref, []))
            return

        def build(v: State, _seat: int | None, _lang: str) -> dict[str, Any]:
            count = len(v.combat.attack.dice) if v.combat is not None and v.combat.attack is not None else 0
            keep = dice.strip().lower() in ("none", "nessuno", "-", "0")
            return {"kind": "reroll", "dice": [] if keep else choices.parse_dice(dice, count)}

        await self._act(interaction, build)

    @wowb.command(name="wounds", description="Combat: split the wounds among your characters in the fight")
    @app_commands.describe(split="e.g. warden 2, arcanist 1 (a single name takes them all)")
    async def wounds(self, interaction: discord.Interaction, split: str) -> None:
        await self._act(interaction, lambda v, seat, _l: {"kind": "assign_wounds",
                                                          "split": choices.parse_split(v, seat, split)})

    @wounds.autocomplete("split")
    async def _wounds_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.split_choices(v, seat, current))

    @wowb.command(name="choose", description="Answer the open question (respawn, item, talent, quest deck…)")
    @app_commands.describe(option="One of the options the question lists")
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._act(interaction, lambda v, seat, _l: {"kind": "choose",
                                                          "value": choices.resolve_answer(v, seat, option)})

    @choose.autocomplete("option")
    async def _choose_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda v, seat, _l: choices.answer_choices(v, seat, current))

    # ------------------------------------------------------------------ information
    @wowb.command(name="panel", description="Show (only to you) your characters and what you can do now")
    async def panel(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, seat, lang, ref: wb.panel(v, seat, lang, ref))

    @wowb.command(name="sheet", description="Show (only to you) a character's sheet")
    @app_commands.describe(character="Any character (empty: your first)")
    async def sheet(self, interaction: discord.Interaction, character: str | None = None) -> None:
        await self._private(interaction, lambda v, seat, lang, _r: wb.sheet_picture_reply(v, seat, character, lang))

    @sheet.autocomplete("character")
    async def _sheet_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        from gm.choices import Ranked, rank
        from gm.wowboard_text import char_label

        return await _seat_choices(interaction, lambda v, _s, _l: rank(
            [Ranked(Choice(char_label(v, c), c)) for c in v.characters], current))

    @wowb.command(name="map", description="Show (only to you) the whole map, or a crop around a region")
    @app_commands.describe(region="A region to look around (empty: the whole map)")
    async def map(self, interaction: discord.Interaction, region: str | None = None) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: wb.map_reply(v, region, lang))

    @map.autocomplete("region")
    async def _map_region_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        from engines.wowboard.rules_setup import pack_of
        from gm.choices import Ranked, rank

        return await _seat_choices(interaction, lambda v, _s, _l: rank(
            [Ranked(Choice(r.name, r.id)) for r in pack_of(v).regions], current))

    @wowb.command(name="quests", description="Show (only to you) the eligible quests of both factions")
    async def quests(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: wb.quests_reply(v, lang))

    @wowb.command(name="merchant", description="Show (only to you) what the merchant sells")
    async def merchant(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: wb.merchant_reply(v, lang))

    @wowb.command(name="combat", description="Show (only to you) the fight in progress")
    async def combat(self, interaction: discord.Interaction) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: wb.combat_reply(v, lang))

    @wowb.command(name="card", description="Show (only to you) what a card, creature, region or quest is")
    @app_commands.describe(name="A name, or its beginning")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await self._private(interaction, lambda v, _s, lang, _r: wb.card_reply(v, name, lang))

    @card.autocomplete("name")
    async def _card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        from engines.wowboard.rules_setup import pack_of
        from gm import wowboard_cards as cards

        def build(v: State, _seat: int | None, lang: str) -> list[Choice]:
            pack = pack_of(v)
            found = cards.find(pack, current, lang) if current.strip() else cards.catalogue(pack)
            return [Choice(cards.found_line(f, pack, lang), f.id) for f in found[:25]]

        return await _seat_choices(interaction, build)

    @wowb.command(name="status", description="Post the table again: the map, the turn, who acts")
    async def status(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.status(place, actor), system=SYSTEM)

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
            await self._act(interaction, lambda *_: {"kind": "roll"}, ref)
        elif verb in ("rr", "rrs"):  # keep (nothing picked) or reroll the dice picked in the panel
            picked = [int(x) for x in value.split(".") if x.isdecimal()]
            await self._act(interaction, lambda *_: {"kind": "reroll", "dice": picked}, ref)
        elif verb == "rrm":
            await self._act(interaction, lambda v, seat, _l: next(
                (a.model_dump() for a in choices.legal(v, seat) if a.kind == "reroll" and getattr(a, "dice", None)),
                {"kind": "reroll", "dice": []}), ref)
        elif verb == "rrt":
            picked = [int(x) for x in value.split(".") if x.isdecimal()]
            await self._private(interaction, lambda v, seat, lang, now: wb.dice_panel(
                v, seat, lang, wb.check_ref_value(ref, now), picked))
        elif verb == "wd" and value:
            await self._act(interaction, lambda v, _s, _l: {
                "kind": "assign_wounds", "split": {value: v.combat.pending_wounds if v.combat else 0}}, ref)
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
    contents="quests, items, events, classes, creatures", max_bytes=MAX_PACK_BYTES,
    too_big_key="wowboard.err.pack_too_big", importer=wb.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WowBoard(bot))
    await bot.add_cog(WowBoardAdmin(bot))
