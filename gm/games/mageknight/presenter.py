"""Mage Knight combat at the table: presenter (image, summary, buttons, panel) and the act path.

The pieces live by concern: ``choices`` (autocomplete and typed names, from
``legal_actions``), ``text`` (position line, column, events, hand),
``info`` (what a card, unit, token or ability does) and ``scores``
(the challenge score, the daily puzzle and its leaderboard). This module ties them to the
table pipeline: ``act`` applies a command, rewords a short column with the numbers, and
stores a finished challenge's score.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import engines.mageknight  # noqa: F401  (registers the engine)
from common.i18n import humanize, t
from db.store import Store
from engines.core.errors import RuleError, TavoloError
from engines.core.events import Event
from engines.core.system_dice import mana_from_d6
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.content import MAX_PACK_BYTES, load_pack
from engines.mageknight.state import State
from gm import presenters
from gm.context import Actor, Place
from gm.games.choices import Choice, Ranked, rank
from gm.games.mageknight import choices, grammar, scores, text
from gm.games.mageknight.phase import attacks_left
from gm.games.seat_view import seat_view
from gm.packs import admin as pack_admin
from gm.reply import Button, Image, Reply, Select, SelectOption
from gm.table.model import game_ref, system_name

if TYPE_CHECKING:
    from gm.app import App
    from gm.table.model import Table

SYSTEM = "mageknight"
# Events that start a new board image (see MageKnightPresenter.image_policy): a phase starts, an
# enemy falls, damage lands, the combat starts or ends. Staging, targets, blocks and take backs
# edit the board already in the channel.
NEW_BOARD_EVENTS = frozenset({
    "combat_started", "combat_started_duel", "phase_ranged_siege", "phase_block", "phase_assign_damage",
    "phase_attack", "enemy_defeated", "combat_ended", "resigned", "unit_soaked", "unit_wounded", "unit_destroyed",
    "hero_wounded", "hero_poisoned",
})
Build = Callable[[State, int | None, str], dict[str, Any]]  # (state, seat, reader's language) -> action


# ---------------------------------------------------------------------------- acting
async def current(app: App, place: Place, actor: Actor) -> tuple[State | None, int | None, Table | None]:
    """The channel's combat as this user may see it (``gm.games.seat_view``: no hidden card, token or die
    face reaches an autocomplete list or a name error), the user's seat and the table (like every
    game's ``current``, so the cogs' shared helpers take it)."""
    return await seat_view(app, place, actor, SYSTEM, ENGINE, State)


async def act(app: App, place: Place, actor: Actor, action: dict[str, Any], *, ref: str | None = None,
              build: Build | None = None) -> Reply:
    """One command on the channel's combat. ``build`` turns what the player typed into ids from
    the position in play; a column that falls short is refused with its sums and why points
    were halved; a challenge that ends has its score stored."""
    state, seat, _table = await current(app, place, actor)
    named = build(state, seat, actor.locale) if state is not None and build is not None else action
    note = named.pop(choices.NOTE, None) if isinstance(named, dict) else None
    try:
        reply = await app.tables.act(place, actor, named, ref=ref)
    except RuleError as exc:
        raise _explained(exc, state, actor.locale) from None
    if note:  # the mana the bot chose, and how to pay the other way (the Source and crystals are public)
        reply.text = f"{reply.text}\n{note}".strip()
        if reply.brief:
            reply.brief = f"{reply.brief}\n{note}"
    await scores.record_last(app.store, app.tables, place)
    return reply


async def next_phase(app: App, place: Place, actor: Actor, ref: str | None = None) -> Reply:
    """``/mk next`` and the "End the combat" button. Ending the attack phase ends the combat for good
    (only the GM could undo it), so with enemies standing and attacks still open it asks first, with a
    confirmation button (TABLE_UX; issue 27.2: a block that blocked the last attacker moves straight on
    to the attack phase, and a ``next`` typed for the block phase must not end the combat)."""
    state, seat, table = await current(app, place, actor)
    if state is not None and table is not None and seat is not None and state.phase == "attack" \
            and state.staged is None and state.pending is None:
        left = [e for e in state.enemies if e.status != "defeated" and e.summoned_by is None]
        standing = [e.local_name(actor.locale) for e in left]
        # "… is still standing": one token with a plural name ("Tusk Raiders") takes the plural verb
        count = len(left) if len(left) != 1 else grammar.number(left[0].token.form(actor.locale))
        options = attacks_left(state, seat, actor.locale) if standing else []
        if options:
            now = game_ref(table)
            if ref is not None and ref != now:
                raise TavoloError("common.stale_button")
            lang = actor.locale
            return Reply(text=t("mk.ui.end_confirm", lang, enemies=", ".join(standing), count=count,
                                options=", ".join(options[:8])), ephemeral=True,
                         buttons=[Button(t("mk.ui.end_confirm_button", lang), f"tv1:mk:{now}:endnow", style="danger")])
    return await act(app, place, actor, {"kind": "next"}, ref=ref)


def _explained(exc: RuleError, state: State | None, lang: str) -> RuleError:
    """``not_enough`` with this column's own sums ("fire 5 (resists fire) ÷ 2 → 2; + 4 = 6 of 7")."""
    if exc.key == "mk.err.not_enough" and state is not None and state.staged is not None:
        column = text.column_line(state, lang)
        if column:
            return RuleError("mk.ui.not_enough", rule=exc.rule, column=column)
    return exc


async def hand_reply(app: App, place: Place, actor: Actor) -> Reply:
    """``/mk hand``: the panel's words and the hand as a picture, only for the asker; drawn off
    the event loop. A spectator sees the hand only at an ``open_hand`` table."""
    table = await app.tables.table_for(place)
    if table is None or table.game.system != SYSTEM or not isinstance(table.state, State):
        raise TavoloError("mk.ui.no_combat")
    seat = table.seat_of(actor.user_id)
    state = table.state
    view = ENGINE.view(state, seat)
    assert isinstance(view, State)
    if seat is None and not state.open_hand:
        raise TavoloError("mk.ui.hand_private")
    reply = text.panel(view, seat if seat is not None else state.fighter, actor.locale)
    owner = state.fighter
    data = await asyncio.to_thread(_hand_png, view, owner, actor.locale)
    reply.image = Image(filename=f"mk-hand-{game_ref(table).replace('.', '-')}.png", data=data)
    return reply


def _hand_png(view: State, seat: int, lang: str) -> bytes:
    from renderers.mageknight import render_hand

    return render_hand(view, seat, lang=lang)


async def import_pack(store: Store, place: Place, actor: Actor, filename: str, data: bytes, name: str | None,
                      *, replace: bool = False) -> Reply:
    """Validate and store a server's pack; nothing is saved unless all of it is valid, and a pack of
    the same name is only overwritten with ``replace``."""
    pack = await pack_admin.read_upload(place, actor, data, filename, load_pack, max_bytes=MAX_PACK_BYTES,
                                        too_big="mk.err.pack_too_big", not_text="mk.ui.pack_not_text")
    name = pack_admin.pack_name(name or pack["name"] or filename.rsplit(".", 1)[0])
    replaced = await pack_admin.save(store, place, actor, SYSTEM, name, pack, replace)
    key = "mk.ui.pack_replaced" if replaced else "mk.ui.pack_saved"
    return Reply(text=t(key, actor.locale, name=name, enemies=len(pack["enemies"]), cards=len(pack["cards"]),
                        units=len(pack["units"])))


async def open_daily(app: App, place: Place, actor: Actor) -> Reply:
    """``/mk daily``: the server's puzzle of the day, opened and started at once (one seat)."""
    day = scores.today()
    puzzle = scores.daily_puzzle(place.guild_id, day)
    try:
        await app.tables.new(place, actor, SYSTEM, puzzle.options())
    except TavoloError as exc:  # issue 27.6: say where the daily can be played instead
        if exc.key in ("game.channel_busy", "game.channel_quarantined"):
            params = {**exc.params, "system": system_name(str(exc.params.get("system", SYSTEM)))}
            raise TavoloError("mk.ui.daily_busy", **params) from None
        raise
    reply = await app.tables.start(place, actor)
    intro = scores.daily_intro(puzzle, day, actor.locale)
    reply.text = f"{intro}\n{reply.text}".strip()
    if reply.brief:
        reply.brief = f"{intro}\n{reply.brief}"
    return reply


# ---------------------------------------------------------------------------- button menus
MENU_VERBS = ("assign", "target", "answer")


async def button_menu(app: App, place: Place, actor: Actor, ref: str, verb: str) -> Reply:
    """The private select behind a board button (one of ``MENU_VERBS``): damage recipients, targets,
    or the open question's answers, only for the position the button was posted with."""
    table = await app.tables.table_for(place)
    if table is None or table.game.system != SYSTEM or not isinstance(table.state, State):
        raise TavoloError("common.stale_button")
    now = game_ref(table)
    if now != ref:
        raise TavoloError("common.stale_button")
    state, seat, lang = table.state, table.seat_of(actor.user_id), actor.locale
    if verb == "answer":
        select = PRESENTER.decision_select(now, state, lang)
        reply = Reply(text=decision_prompt(state, lang), ephemeral=True)
        if select is not None:
            reply.selects.append(select)
        return reply
    if verb == "assign":
        options = [SelectOption(label, value) for value, label in choices.assign_options(state, seat, lang)]
        custom, prompt = f"tv1:mk:{now}:assignto", "mk.ui.pick_recipient"
    else:
        options = [SelectOption(c.label, c.value) for c in choices.target_choices(state, seat, "", lang)]
        custom, prompt = f"tv1:mk:{now}:targetsel", "mk.ui.pick_target"
    if not options:
        raise TavoloError("common.stale_button")
    return Reply(text=t(prompt, lang), ephemeral=True,
                 selects=[Select(custom_id=custom, placeholder=t(prompt, lang), options=tuple(options[:25]))])


# ---------------------------------------------------------------------------- the presenter
class MageKnightPresenter:
    system = SYSTEM
    # the /gm overrides of this game (gm.table.overrides)
    gm_commands = frozenset({"hand-wounds", "unit", "enemy", "fame"})
    locale_namespace = "mk"  # ``mk.action.<kind>`` names actions in the log and in undo

    wants_log_lines = True
    # The only rolled event, the Source (``source_rolled``), says its colours: the d6 numbers behind them
    # (system_dice's 1-6 → red … black) mean nothing at the table, so no "🎲 2 5 1" after it.
    words_rolls = True

    def render(self, view: State, *, viewer: int | None, lang: str, seat_names: list[str],  # type: ignore[override]
               log_lines: list[str] | None = None) -> bytes | None:
        """The public board; ``log_lines`` (the last events' text) are drawn under the units when
        the table passes them."""
        from renderers.mageknight import render

        return render(view, lang=lang, seat_names=dict(enumerate(seat_names)), log_lines=log_lines)

    def summary(self, view: State, *, lang: str, seat_names: list[str]) -> str:  # type: ignore[override]
        return text.summary(view, lang)

    def buttons(self, ref: str, view: State, *, seat: int | None, lang: str) -> list[Button]:  # type: ignore[override]
        """Only buttons that lead somewhere now: Commit when the column is enough, Take back with a
        column open, Next phase, and in the damage phase All to hero and the recipients' menu."""
        if seat is None or view.phase == "over":
            return []
        prefix = f"tv1:mk:{ref}"
        legal = ENGINE.legal_actions(view, seat)
        kinds = {a.kind for a in legal}
        decision = ENGINE.decision(view)
        found: list[Button] = []
        if decision is not None and decision.kind not in ("turn", "assign_damage"):
            found.append(Button(t("mk.ui.button.answer", lang), f"{prefix}:answer", style="primary"))
        if "commit" in kinds:
            found.append(Button(t("mk.ui.button.commit", lang), f"{prefix}:commit", style="success"))
        if "take_back" in kinds:
            found.append(Button(t("mk.ui.button.take_back", lang), f"{prefix}:takeback"))
        if "target" in kinds:
            found.append(Button(t("mk.ui.button.target", lang), f"{prefix}:target"))
        hero = hero_assign(view, legal)
        if hero is not None:
            found.append(Button(t("mk.ui.button.all_to_hero", lang), f"{prefix}:hero{hero}", style="danger"))
        if "assign" in kinds:
            found.append(Button(t("mk.ui.button.assign", lang), f"{prefix}:assign", style="primary"))
        if "next" in kinds:
            key = "mk.ui.button.end_combat" if view.phase == "attack" else "mk.ui.button.next"
            found.append(Button(t(key, lang), f"{prefix}:next"))
        return found[:10]

    def private_panel(self, view: State, *, seat: int, lang: str, ref: str) -> Reply:
        """"Show my hand / My options": each card's sides and what it does now, the units, the mana;
        the picture of the hand is one click away (drawn off the loop, ``hand_reply``)."""
        reply = text.panel(view, seat, lang)
        if seat == view.fighter or view.open_hand:
            reply.buttons.append(Button(t("mk.ui.button.hand_picture", lang), f"tv1:mk:{ref}:hand"))
        return reply

    def image_policy(self, events: list[Event]) -> str:
        """TABLE_UX "the channel is a shared space": a new board when a phase starts, an enemy is
        defeated, damage is assigned or the combat ends; targets, staged cards, blocks and take
        backs update the board already posted."""
        keys = {e.key.removeprefix("mk.ev.") for e in events if not e.private_to}
        return "new" if keys & NEW_BOARD_EVENTS else "update"

    def player_turns(self, view: State) -> frozenset[tuple[object, ...]]:
        """The player turns under way, for the image budget (TABLE_UX: about two new pictures per player
        turn). A combat is one turn of the board game (M46), but it is played as four phases (ranged and
        siege, block, assign damage, attack), each a round of the fighter's own decisions that ends in
        a new position to look at: a phase counts as a player turn. Set-up (a duel's picks) and the end
        are nobody's turn."""
        return frozenset({(view.phase,)}) if view.phase not in ("setup", "over") else frozenset()

    def seat_line(self, config: dict[str, Any], options: dict[str, Any], lang: str,
                  content: dict[str, Any] | None = None) -> str:
        """The lobby card: what this table deals the fighter (there is nothing to choose per seat)."""
        mode = str(options.get("mode", "challenge"))
        site = t(f"mk.site.{options.get('site', 'rampaging')}", lang)
        time = t(f"mk.ui.time.{options.get('time', 'day')}", lang)
        if mode == "assist":
            return t("mk.ui.lobby_assist", lang, level=options.get("level", 1), site=site, time=time,
                     enemies=", ".join(_token_name(e.get("token", {}), lang) for e in options.get("enemies", [])),
                     units=len(options.get("units", [])))
        tier = int(options.get("tier", 1))
        seed = options.get("seed")
        line = t("mk.ui.lobby_challenge", lang, tier=tier, level=(1, 3, 5, 7)[tier - 1], site=site, time=time)
        if seed is not None:
            line += " · " + t("mk.ui.lobby_seed", lang, seed=seed)
        if options.get("open_hand"):
            line += " · " + t("mk.ui.lobby_open_hand", lang)
        if mode == "duel":
            line += " · " + t("mk.ui.lobby_duel", lang)
        return line

    def event_text(self, event: Event, lang: str) -> str | None:
        return text.event_text(event, lang)

    def decision_select(self, ref: str, view: State, lang: str) -> Select | None:
        from gm.games.mageknight.choices import decision_choices

        options = decision_choices(view, lang, "")
        if not options:
            return None
        return Select(custom_id=f"tv1:mk:{ref}:choose", placeholder=t("mk.ui.button.answer", lang),
                      options=tuple(SelectOption(label=o.label[:100], value=o.value) for o in options[:25]))

    def gm_name_choices(self, view: State, what: str, current: str, lang: str = "en") -> list[Choice]:
        """Units or enemies for the GM overrides (``/gm unit``, ``/gm enemy``), named as the board shows them
        in the GM's language; either language's name is typed."""
        things = view.units if what == "unit" else view.enemies
        found = []
        for thing in things:
            found.append(Ranked(Choice(f"{thing.local_name(lang)} ({thing.uid})", thing.uid),
                                aliases=tuple(dict.fromkeys(thing.local_name(other) for other in ("en", "it")))))
        return rank(found, current)

    def gm_resolve(self, view: State, action: dict[str, Any], lang: str = "en") -> dict[str, Any]:
        """``/gm unit``, ``/gm enemy``: the unit or enemy named as people read it, in either language, by
        the shared resolver (a typo is forgiven, a miss lists the names)."""
        named = dict(action)
        if isinstance(named.get("unit"), str) and named["unit"].strip():
            named["unit"] = choices.resolve_unit_name(view, named["unit"], lang)
        if isinstance(named.get("enemy"), str) and named["enemy"].strip():
            named["enemy"] = choices.resolve_damage_enemy(view, named["enemy"], lang) or named["enemy"]
        return named

    def error_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """A refusal's lists of candidates ("Cinder Shamans (e1), Village Pikes (u3)", a duel's "Armored Brutes
        (4)") in the reader's language, item by item with the tag kept, from the ``names_<lang>`` pairs the
        engine attaches (``rules_base.add_listed_names``); a whole name is left to ``common.i18n.local_names``."""
        return listed_names(params, lang)

    def warm_up(self) -> None:
        """Fonts, arenas and palettes, drawn once per render worker (``gm.presenters.warm_up_all``)."""
        from renderers.mageknight import warm_up

        warm_up()

    def help_text(self, lang: str) -> str:
        return t("mk.ui.help", lang)

    def help_line(self, lang: str) -> str:
        """This game's commands in one line, for ``/game help`` in a channel with no game (issue 27.7)."""
        return t("mk.ui.help_line", lang)

    def die_faces(self, sides: int) -> dict[int, str] | None:
        """The mana die's colours (a d6: 1 red … 6 black), for typing physical dice in manual mode."""
        if sides != 6:
            return None
        return {value: f"mk.face.{mana_from_d6(value).value}" for value in range(1, 7)}


def listed_names(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """``params`` with each name inside a ", "-joined list, before its bracketed tag, in ``lang``.

    Why here and not in the engine: the engine is language-free and words its candidates in English, the
    Italian pairs beside them; only the wording of the reply knows who reads it (issue 27)."""
    table = params.get(f"names_{lang}")
    if not isinstance(table, dict) or not table:
        return params
    out = dict(params)
    for key, value in params.items():
        if key.startswith("names_") or key.endswith("_key") or not isinstance(value, str) or value in table:
            continue
        items = []
        for item in value.split(", "):
            name, bracket, tag = item.partition(" (") if item.endswith(")") else (item, "", "")
            items.append(f"{table.get(name, name)}{bracket}{tag}")
        out[key] = ", ".join(items)
    return out


def _token_name(token: dict[str, Any], lang: str) -> str:
    """An enemy of the lobby's options, in the reader's language."""
    return str((token.get("name_it") if lang == "it" else None) or token.get("name") or "?")


def hero_assign(view: State, legal: list[Any]) -> str | None:
    """The "All to hero" button's suffix: "" for the damage under way, ":<enemy>" when one enemy
    is left; None when the hero cannot take it or the player must pick an enemy first."""
    enemies = {a.enemy for a in legal if isinstance(a, A.Assign) and a.to == "hero"}
    if enemies == {None}:
        return ""
    if len(enemies) == 1:
        return f":{next(iter(enemies))}"
    return None


def decision_prompt(view: State, lang: str) -> str:
    decision = ENGINE.decision(view)
    if decision is None or not decision.prompt_key:
        return t("mk.ui.button.answer", lang)
    return t(decision.prompt_key, lang, **humanize(decision.params, lang, "mk"))


PRESENTER = presenters.register(MageKnightPresenter())
