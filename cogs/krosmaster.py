"""/km: Krosmaster Arena commands, autocomplete and buttons (thin: rules live in the engine)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import Choices, ctx, respond, respond_private, send_error, to_choices, typed
from cogs.components import register_handler
from cogs.packs import pack_admin_cog
from common.i18n import humanize, t
from engines.core.errors import RuleError, TavoloError
from engines.krosmaster import actions as A
from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.state import State
from gm import krosmaster as km
from gm import krosmaster_info as info
from gm import krosmaster_names as names
from gm.context import Actor, Place
from gm.reply import Image, Reply, Select, SelectOption
from gm.tables import game_ref

SYSTEM = "krosmaster"



async def _seat_choices(interaction: discord.Interaction, build: Callable[[State, int], list[km.Choice]]) -> Choices:
    """Autocomplete for a seated player; no game here or a spectator simply gets no choices."""
    state, seat, _ = await _game(interaction)
    return to_choices(build(state, seat)) if state is not None and seat is not None else []


Build = Callable[[State, int | None, str], dict[str, Any]]  # (state, seat, reader's language) -> action


async def _game(interaction: discord.Interaction) -> tuple[State | None, int | None, int | None]:
    """The channel's Krosmaster state, the user's seat and the game id (for autocomplete)."""
    app, place, actor = ctx(interaction)
    table = await app.tables.table_for(place)
    if table is None or table.game.system != SYSTEM or not isinstance(table.state, State):
        return None, None, None
    return table.state, table.seat_of(actor.user_id), table.game.id


class Krosmaster(commands.Cog):
    km_group = app_commands.Group(name="km", description="Krosmaster Arena: build, deploy, move, cast",
                                  guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler("km", self._on_component)

    # ------------------------------------------------------------------ helpers
    async def _act(self, interaction: discord.Interaction, action: dict[str, Any], ref: str | None = None,
                   build: Build | None = None) -> None:
        """Act on the channel's game. ``build`` turns the names a player typed ("SHA", "Fire Bolt",
        "nord") into the ids of the action, from the position in play; without a Krosmaster game
        here ``action`` goes as typed and the table says what is wrong. An engine error that names
        a piece by id names it as the board does."""
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            state, seat = None, None
            table = await app.tables.table_for(place)
            if table is not None and table.game.system == SYSTEM and isinstance(table.state, State):
                state, seat = table.state, table.seat_of(actor.user_id)
            try:
                named = build(state, seat, actor.locale) if state is not None and build is not None else action
                return await app.tables.act(place, actor, named, ref=ref)
            except RuleError as exc:
                raise names.name_error(exc, state, actor.locale) from None

        await respond(interaction, work, system=SYSTEM)


    async def _table_state(self, place: Place, actor: Actor) -> tuple[State, int | None, str]:
        app = self.bot.app  # type: ignore[attr-defined]
        table = await app.tables.table_for(place)
        if table is None:
            raise TavoloError("game.none_here")
        if table.game.system != SYSTEM:
            raise TavoloError("km.ui.not_krosmaster", system=table.game.system)
        if not isinstance(table.state, State):
            raise TavoloError("game.not_started")
        return table.state, table.seat_of(actor.user_id), game_ref(table)

    # ------------------------------------------------------------------ lobby
    @km_group.command(name="team", description="Choose your team for this channel's lobby")
    @app_commands.describe(figurines="Figurine names separated by commas (total level 12 in constructed)")
    async def team(self, interaction: discord.Interaction, figurines: str) -> None:
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            table = await app.tables.table_for(place)
            if table is None or table.game.system != SYSTEM:
                raise TavoloError("km.ui.no_lobby")
            ids = names.resolve_figurines(figurines, table.content)  # names, ids, prefixes; commas or spaces
            reply = await app.tables.configure_seat(place, actor, {"team": ids})  # 101, or 701.2 in four
            team = km.figurine_names(ids, table.content)
            reply.text = t("km.ui.team_set", actor.locale, user=actor.mention, team=", ".join(team))
            return reply

        await respond(interaction, work, system=SYSTEM)

    @team.autocomplete("figurines")
    async def _team_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        app, place, actor = ctx(interaction)
        table = await app.tables.table_for(place)
        content = table.content if table is not None and table.game.system == SYSTEM else None
        return to_choices(km.figurine_choices(current, actor.locale, content))

    @km_group.command(name="figurines", description="List the figurines you can put in a team")
    async def figurines(self, interaction: discord.Interaction) -> None:
        app = self.bot.app  # type: ignore[attr-defined]

        async def work(place: Place, actor: Actor) -> Reply:
            table = await app.tables.table_for(place)
            content = table.content if table is not None and table.game.system == SYSTEM else None
            return Reply(title=t("km.ui.figurines_title", actor.locale),
                         text="\n".join(km.figurine_lines(actor.locale, content)), ephemeral=True)

        await respond_private(interaction, work, system=SYSTEM)

    # ------------------------------------------------------------------ set-up
    @km_group.command(name="order", description="Order your Krosmasters with equal initiative")
    @app_commands.describe(piece="The next piece in your timeline")
    async def order(self, interaction: discord.Interaction, piece: str) -> None:
        await self._act(interaction, {"kind": "order_ties", "piece": piece}, build=lambda state, seat, _lang: {
            "kind": "order_ties", "piece": _own_piece(state, seat, piece)})

    @km_group.command(name="deploy", description="Place one of your Krosmasters on a starting square")
    @app_commands.describe(piece="Which Krosmaster", square="A free starting square, e.g. B2")
    async def deploy(self, interaction: discord.Interaction, piece: str, square: str) -> None:
        action = {"kind": "deploy", "piece": piece, "square": square.strip().upper()}
        await self._act(interaction, action,
                        build=lambda state, seat, _lang: {**action, "piece": _own_piece(state, seat, piece)})

    @order.autocomplete("piece")
    @deploy.autocomplete("piece")
    async def _deploy_piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda state, seat: km.deploy_piece_choices(state, seat, current))

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
        await self._act(interaction, action, build=lambda state, _seat, lang: _cast_action(state, spell, target, lang))

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

        def build(state: State, seat: int | None, _lang: str) -> dict[str, Any]:
            mine = [p for p in state.pieces.values() if p.owner == seat or seat is None]
            return {"kind": "inspire", "placements": [
                {"die": p["die"], "piece": names.resolve_piece(state, p["piece"], mine, what="km.ui.what.your_piece")}
                for p in placements]}

        await self._act(interaction, {"kind": "inspire", "placements": placements}, build=build)

    @inspire.autocomplete("first")
    @inspire.autocomplete("second")
    async def _own_piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda state, seat: km.own_piece_choices(state, seat, current))

    @km_group.command(name="choose", description="Answer the open question (side, dice faces, effect order)")
    @app_commands.describe(option="Your answer")
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._act(interaction, {"kind": "choose", "value": option},
                        build=lambda state, _seat, lang: {"kind": "choose",
                                                          "value": names.resolve_option(state, option, lang)})

    @choose.autocomplete("option")
    async def _choose_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        state, _, _ = await _game(interaction)
        return to_choices(km.decision_choices(state, ctx(interaction)[2].locale, current)) if state else []

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
        def build(state: State, seat: int | None, _lang: str) -> dict[str, Any]:
            view = km.ENGINE.view(state, seat)
            pending = [view.rewards.pending] if view.rewards.pending else []
            mine = [p for p in state.pieces.values() if p.owner == seat or seat is None]
            return {"kind": "assign_reward", "reward": names.resolve_card(pending, reward) if pending else reward,
                    "piece": names.resolve_piece(state, piece, mine, what="km.ui.what.your_piece",
                                                 prefer=_legal(state, seat, A.AssignReward, "piece"))}

        await self._act(interaction, {"kind": "assign_reward", "reward": reward.strip(), "piece": piece.strip()},
                        build=build)

    @reward_assign.autocomplete("reward")
    async def _assign_reward_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda state, seat: km.assign_reward_choices(state, seat, current))

    @reward_assign.autocomplete("piece")
    async def _assign_piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await _seat_choices(interaction, lambda state, seat: km.assign_piece_choices(state, seat, current))

    @km_group.command(name="reward-reveal",
                      description="Reveal a reward of the active Krosmaster (free, once per turn)")
    @app_commands.describe(reward="One of its face-down rewards")
    async def reward_reveal(self, interaction: discord.Interaction, reward: str) -> None:
        def build(state: State, seat: int | None, _lang: str) -> dict[str, Any]:
            view = km.ENGINE.view(state, seat)
            active = view.pieces.get(view.active_piece or "")
            cards = [c for c in active.rewards if not c.face_up] if active is not None else []
            return {"kind": "reveal_reward", "reward": names.resolve_card(cards, reward) if cards else reward.strip()}

        await self._act(interaction, {"kind": "reveal_reward", "reward": reward.strip()}, build=build)

    @reward_reveal.autocomplete("reward")
    async def _reveal_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = ctx(interaction)[2].locale
        return await _seat_choices(interaction,
                                   lambda state, seat: km.reveal_reward_choices(state, seat, current, lang))

    @km_group.command(name="rewards", description="Show (only to you) your face-down rewards and the piles")
    async def rewards(self, interaction: discord.Interaction) -> None:
        async def work(place: Place, actor: Actor) -> Reply:
            state, seat, _ = await self._table_state(place, actor)
            return Reply(title=t("km.ui.rewards_title", actor.locale), text=km.rewards_text(state, seat, actor.locale),
                         ephemeral=True)

        await respond_private(interaction, work, system=SYSTEM)

    @km_group.command(name="end", description="End the active Krosmaster's turn")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, {"kind": "end_turn"})

    @km_group.command(name="preview", description="Show (only to you) where the active piece can move or cast")
    @app_commands.describe(spell="A spell to preview its targets", target="A target to preview the area")
    async def preview(self, interaction: discord.Interaction, spell: str | None = None,
                      target: str | None = None) -> None:
        async def work(place: Place, actor: Actor) -> Reply:
            state, _, ref = await self._table_state(place, actor)
            return await self._preview_reply(state, ref, actor.locale, spell, target)

        await respond_private(interaction, work, system=SYSTEM)

    preview.autocomplete("spell")(_spell_ac)
    preview.autocomplete("target")(_target_ac)

    async def _preview_reply(self, state: State, ref: str, lang: str, spell: str | None,
                             target: str | None, with_select: bool = False) -> Reply:
        if state.phase != "turn" or state.active_piece is None:
            raise TavoloError("km.ui.no_active_piece")
        if spell is None:
            options = reachable_squares(state)
            squares: dict[str, int] = {s: o.cost for s, o in options.items()}
            data = await km.preview_png(state, squares, "move", None, None, lang)
            text = t("km.ui.preview_moves", lang, count=len(squares))
            if data is None:  # the picture failed: the squares in words instead
                return Reply(text=text + "\n" + ", ".join(f"{s} ({c})" for s, c in sorted(squares.items())),
                             ephemeral=True)
            return Reply(text=text, image=Image(f"km-{ref.replace('.', '-')}-moves.png", data), ephemeral=True)
        spell = names.resolve_spell(state, spell, lang)
        plans = spell_targets(state, spell)
        if not plans:
            raise TavoloError("km.ui.no_targets", spell=km.spell_title(state, spell, lang))
        target_labels = sorted({_label(p.target) for p in plans})
        area: list[str] | None = None
        square = None
        if target:
            square, direction = names.parse_target(state, target, lang)
            area = area_for(state, spell, square, direction)
        data = await km.preview_png(state, target_labels, "spell", area, square, lang)
        reply = Reply(text=t("km.ui.preview_targets", lang, count=len(target_labels)), ephemeral=True)
        if data is None:  # the picture failed: the targets in words instead
            reply.text += "\n" + ", ".join(target_labels)
        else:
            reply.image = Image(f"km-{ref.replace('.', '-')}-{spell}.png", data)
        if with_select:
            seat = state.active_seat
            options = km.target_choices(state, seat, spell, "", lang)
            if options:
                reply.selects.append(Select(custom_id=f"tv1:km:{ref}:cast:{spell}",
                                            placeholder=t("km.ui.pick_target", lang),
                                            options=tuple(SelectOption(o.label, o.value) for o in options)))
        return reply

    # ------------------------------------------------------------------ information
    @km_group.command(name="info", description="Show (only to you) what a spell, reward, figurine, power or arena does")
    @app_commands.describe(name="A name in English or Italian, or its beginning")
    async def info(self, interaction: discord.Interaction, name: str) -> None:
        app = self.bot.app  # type: ignore[attr-defined]

        async def work(place: Place, actor: Actor) -> Reply:
            table = await app.tables.table_for(place)
            content = table.content if table is not None and table.game.system == SYSTEM else None
            return info.info_reply(name, actor.locale, content)

        await respond_private(interaction, work, system=SYSTEM)

    @info.autocomplete("name")
    async def _info_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        app, place, actor = ctx(interaction)
        table = await app.tables.table_for(place)
        content = table.content if table is not None and table.game.system == SYSTEM else None
        state = table.state if table is not None and isinstance(table.state, State) else None
        return to_choices(info.info_choices(current, actor.locale, content, state))

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
            async def piles(place: Place, actor: Actor) -> Reply:
                state, seat, current = await self._table_state(place, actor)
                if current != ref:
                    raise TavoloError("common.stale_button")
                options = km.pile_choices(state, seat, "", actor.locale, both=True) if seat is not None else []
                if not options:
                    raise TavoloError("common.stale_button")
                return Reply(text=t("km.ui.pick_pile", actor.locale), ephemeral=True, selects=[
                    Select(custom_id=f"tv1:km:{current}:buy", placeholder=t("km.ui.pick_pile", actor.locale),
                           options=tuple(SelectOption(o.label, o.value) for o in options))])

            await respond_private(interaction, piles, system=SYSTEM)
        elif verb in ("moves", "spell", "ask"):
            async def work(place: Place, actor: Actor) -> Reply:
                state, _, current = await self._table_state(place, actor)
                if current != ref:
                    raise TavoloError("common.stale_button")
                if verb == "ask":
                    decision = km.ENGINE.decision(state)
                    prompt = decision.prompt_key if decision and decision.prompt_key else "km.ui.answer"
                    params = humanize(decision.params, actor.locale, "km") if decision else {}
                    reply = Reply(text=t(prompt, actor.locale, **params), ephemeral=True)
                    select = km.PRESENTER.decision_select(current, state, actor.locale)
                    if select is not None:
                        reply.selects.append(select)
                    return reply
                spell = rest[0] if verb == "spell" and rest else None
                return await self._preview_reply(state, current, actor.locale, spell, None, with_select=True)

            await respond_private(interaction, work, system=SYSTEM)
        else:
            await send_error(interaction, TavoloError("common.stale_button"))


def _label(square: Any) -> str:
    from engines.krosmaster.rules_board import label

    return label(square)


def _legal(state: State, seat: int | None, kind: type[Any], field: str) -> set[str]:
    """The values of ``field`` in the seat's legal actions of one kind (to settle a shared name)."""
    if seat is None:
        return set()
    return {getattr(a, field) for a in km.ENGINE.legal_actions(state, seat) if isinstance(a, kind)}


def _own_piece(state: State, seat: int | None, text: str) -> str:
    """One of the seat's pieces by what the board shows; the legal ones win a shared name."""
    mine = [p for p in state.pieces.values() if p.owner == seat or seat is None]
    prefer = _legal(state, seat, A.Deploy, "piece") | _legal(state, seat, A.OrderTies, "piece")
    return names.resolve_piece(state, text, mine, what="km.ui.what.your_piece", prefer=prefer)


def _cast_action(state: State, spell: str, target: str, lang: str) -> dict[str, Any]:
    """``/km cast``: the spell by name, the target as a square (``D8 S``, ``d8 sud``) or a piece."""
    square, direction = names.parse_target(state, target, lang)
    action: dict[str, Any] = {"kind": "cast", "spell": names.resolve_spell(state, spell, lang), "target": square}
    if direction:
        action["direction"] = direction
    return action


KrosmasterAdmin = pack_admin_cog(
    system=SYSTEM, group="km-admin", description="Krosmaster content packs of this server (managers only)",
    contents="figurines, arenas", max_bytes=km.MAX_PACK_BYTES,
    too_big_key="km.err.pack_too_big", importer=km.import_pack)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Krosmaster(bot))
    await bot.add_cog(KrosmasterAdmin(bot))
