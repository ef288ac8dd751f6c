"""World of Warcraft Miniatures at the table: presenter (image, summary, buttons, panel) and the
replies behind ``/wowm`` that are more than one action (party, bar menus, los, preview, cards).

The pieces live by concern: ``choices`` (autocomplete and typed names, from
``legal_actions``) and ``text`` (summary, panel, info, dice words). Pictures come from
``renderers.wowminis`` and are all drawn in the render pool's workers (``gm.workers.render_pool``): the
board through ``render``, ``/wowm los`` and the move preview through ``los_job``/``move_job``
(the view goes as JSON), never on the event loop.
"""

from __future__ import annotations

import logging
from itertools import combinations
from typing import TYPE_CHECKING, Any

import engines.wowminis  # noqa: F401  (registers the engine)
from common.i18n import humanize, t
from db.store import Store
from engines.core.errors import RuleError, TavoloError
from engines.core.events import Event
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.content import MAX_PACK_BYTES, ScenarioDef, fits, load_pack, local_name, pack_for
from engines.wowminis.rules_setup import DEFAULT_MAP, SHORT, check_party
from engines.wowminis.state import State
from gm import presenters
from gm.context import Actor, Place
from gm.games.choices import Choice, Ranked, rank
from gm.games.seat_view import require_seat_view, seat_view
from gm.games.wowminis import choices, names, text
from gm.games.wowminis.jobs import ability_job, los_job, move_job
from gm.packs import admin as pack_admin
from gm.reply import Button, Image, Reply, Select, SelectOption
from gm.table.model import game_ref
from gm.workers import render_pool

if TYPE_CHECKING:
    from gm.app import App
    from gm.table.model import Table

SYSTEM = "wowminis"
log = logging.getLogger(__name__)
# Events that start a new board image (TABLE_UX: a move or a spell is worth seeing, but one turn of
# one character is one image): the bars are revealed, a character's turn starts, a character is
# destroyed, the game ends. Everything else in that turn edits the board already posted.
NEW_BOARD_EVENTS = frozenset({"bars_ready", "turn_started", "destroyed", "game_won", "resigned", "sudden_death",
                              "round_started"})
FULL_MAP_EVENTS = frozenset({"bars_ready", "round_started", "cards_readied", "game_won", "resigned", "sudden_death"})
"""Events after which the picture shows the whole map (a new round, the end): issue 27.5."""
# Pending questions answered with a button each when there are few options.
OPTION_BUTTONS = 6


# ---------------------------------------------------------------------------- the channel's game
async def current(app: App, place: Place, actor: Actor) -> tuple[State | None, int | None, Table | None]:
    """The channel's game as this user may see it (``gm.games.seat_view``), their seat and the table."""
    return await seat_view(app, place, actor, SYSTEM, ENGINE, State)


async def game(app: App, place: Place, actor: Actor) -> tuple[State, int | None, Table]:
    """Like ``current`` but an error when there is no started game of this system here."""
    return await require_seat_view(app, place, actor, SYSTEM, ENGINE, State, "wowm.ui.not_wowm")


# ---------------------------------------------------------------------------- lobby
async def set_party(app: App, place: Place, actor: Actor, typed: str) -> Reply:
    """``/wowm party``: the scenario's party (100.1; standard: three of one faction, 100.2, A3), checked
    before it is stored."""
    table = await app.tables.table_for(place)
    if table is None or table.game.system != SYSTEM:
        raise TavoloError("wowm.ui.no_lobby")
    fmt = str(table.game.options.get("format") or "").strip().lower()
    if fmt in ("sealed", "draft"):  # 100.3: a limited party is built from the pool after the start, never typed
        raise RuleError(f"wowm.err.party_limited_{fmt}", rule="100.3")
    pack = pack_for(table.content)
    ids = choices.resolve_party(pack, typed, actor.locale)
    # 100.1: the party rules are the table's scenario's (size, one faction or mixed, one legendary)
    scenario = pack.scenario(str(table.game.options.get("scenario") or "standard"))
    party = [pack.character(i) for i in ids]
    check_party(scenario, party)
    reply = await app.tables.configure_seat(place, actor, {"party": ids})
    # 102.1: the goal is the party's Honor unless the scenario (short: 5 VP) or a goal option sets it
    goal = scenario.goal(table.game.options)
    reply.text = t("wowm.ui.party_set_goal" if goal else "wowm.ui.party_set", actor.locale, user=actor.mention,
                   party=", ".join(local_name(c, actor.locale) for c in party), honor=sum(c.honor for c in party),
                   goal=goal)
    return reply


def characters_reply(content: dict[str, Any] | None, lang: str) -> Reply:
    pack = pack_for(content)
    lines = []
    for faction in ("alliance", "horde", "monster"):
        members = [c for c in pack.characters if c.faction == faction]
        if members:
            lines.append(f"**{t(f'wowm.ui.faction.{faction}', lang)}**")
            lines += ["• " + text.character_line(c, lang) for c in members]
    lines.append(t("wowm.ui.party_hint", lang))
    return Reply(title=t("wowm.ui.characters_title", lang), text="\n".join(lines), ephemeral=True)


def info_reply(name: str, content: dict[str, Any] | None, lang: str) -> Reply:
    kind, item = names.resolve_info(pack_for(content), name, lang)  # a miss lists the candidates
    body = text.character_info(item, lang) if kind == "char" else text.card_info(item, lang)
    return Reply(text=body, ephemeral=True)


# ---------------------------------------------------------------------------- private replies
def cards_reply(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    """``/wowm cards``: the seat's own bars, face-down cards by name (its own ``view``)."""
    if seat is None:
        raise TavoloError("game.panel_spectator")
    if view.limited is not None:  # 100.3: during a draft or a build the "cards" are the seat's booster and pool
        from gm.games.wowminis import limited

        return limited.panel(view, seat, lang, ref)
    return text.panel(view, seat, lang, ref, play_lines(view, seat, lang))


def play_lines(view: State, seat: int, lang: str) -> list[str]:
    """The panel's "what you can do now": legal abilities with cost → tick, or the reacts."""
    lines = [f"• {c.label}" for c in choices.ability_choices(view, seat, "", lang)[:10]]
    lines += [f"• {c.label}" for c in choices.react_choices(view, seat, "", lang)[:10]]
    moves = choices.move_choices(view, seat, "", lang)
    if moves:
        lines.append("• " + t("wowm.ui.panel_moves", lang, spaces=", ".join(c.value for c in moves[:12])))
    return lines


def clock_reply(view: State, lang: str) -> Reply:
    return Reply(title=t("wowm.ui.clock_title", lang), text="\n".join(text.clock_lines(view, lang)), ephemeral=True)


async def los_reply(view: State, seat: int | None, frm: str, to: str, lang: str, ref: str,
                    seat_names: list[str]) -> Reply:
    """``/wowm los``: drawn in a worker thread (the renderer is pure), shown to the asker only."""
    a, b = choices.resolve_hex(view, frm, lang), choices.resolve_hex(view, to, lang)
    data, clear = await _drawn(los_job, view.model_dump_json(), a, b, lang, seat, list(seat_names))
    verdict = "wowm.ui.los_clear" if clear else "wowm.ui.los_blocked"
    return Reply(text=t(verdict, lang, a=a, b=b), ephemeral=True,
                 image=Image(f"wowm-los-{ref.replace('.', '-')}-{a}-{b}.png", data))


async def preview_reply(view: State, seat: int | None, lang: str, ref: str, seat_names: list[str]) -> Reply:
    """``/wowm preview``: where the active character can move and what each hex costs (only you)."""
    c = choices.active(view)
    if c is None or view.phase != "play":
        raise TavoloError("wowm.ui.no_active")
    data = await _drawn(move_job, view.model_dump_json(), c.id, lang, seat, list(seat_names))
    moves = choices.move_choices(view, seat, "", lang) if seat == c.controller else []
    body = t("wowm.ui.preview_moves", lang, name=local_name(c.defn, lang), count=len(moves))
    if moves:
        body += "\n" + ", ".join(m.label for m in moves[:12])
    return Reply(text=body, ephemeral=True, image=Image(f"wowm-move-{ref.replace('.', '-')}.png", data))


async def ability_preview_reply(view: State, seat: int | None, key: str, lang: str, ref: str,
                                seat_names: list[str], placement: str | None = None) -> Reply:
    """``/wowm preview ability:``: the hexes an ability of the active character reaches (range and
    sight) and its legal targets now, as a picture and in words (only you). An area ability (407.2) shows
    ``placement`` (``SPACE/O``, else its first legal one) and a select of every orientation it may take
    (issue 29.6), each of which draws the preview again."""
    from engines.wowminis.rules_play import find_playable
    from engines.wowminis.rules_targeting import single_targets

    c = choices.active(view)
    if c is None or view.phase != "play":
        raise TavoloError("wowm.ui.no_active")
    # the shared resolver, as for /wowm play: either language, a word, a typo; a miss lists them
    playable = find_playable(view, c, choices.resolve_ability(view, key, lang))
    shown_at = choices.parse_placement(placement)
    data = await _drawn(ability_job, view.model_dump_json(), playable.key, c.id, lang, seat, list(seat_names),
                        shown_at)
    reached = [local_name(p.defn, lang) for pid in single_targets(view, c, playable.ability)
               if (p := view.chars.get(pid) or view.totems.get(pid)) is not None]
    body = t("wowm.ui.preview_ability", lang, name=local_name(c.defn, lang),
             ability=local_name(playable.ability, lang), targets=", ".join(reached) or "—")
    image = Image(f"wowm-ability-{ref.replace('.', '-')}.png", data)
    facing = choices.area_orientations(view, c, playable.ability, lang, shown_at) if playable.ability.target.aoe \
        else []
    if not facing:
        return Reply(text=body, ephemeral=True, image=image)
    select = Select(custom_id=f"tv1:wowm:{ref}:aoeview:{playable.key}"[:100],
                    placeholder=t("wowm.ui.pick_facing", lang),
                    options=tuple(SelectOption(f.label[:100], f.value) for f in facing))
    return Reply(text=body, ephemeral=True, image=image, selects=[select])


async def _drawn(job: Any, *args: Any) -> Any:
    """``job(*args)`` in a render worker; a failed picture is said in words (the log has the rest)."""
    try:
        return await render_pool.pool().call(job, *args)
    except render_pool.RenderFailed:
        log.exception("wowminis: %s failed", getattr(job, "__name__", job))
        raise TavoloError("wowm.ui.picture_failed") from None


# ---------------------------------------------------------------------------- the bar menus
def bar_menu(view: State, seat: int | None, lang: str, ref: str, picked: list[list[str]]) -> Reply:
    """The secret bar as a chain of private selects, one character at a time: each option is a
    legal pair of cards; the custom id carries the pairs already picked (pool ids only)."""
    if seat is None or view.phase != "choose_bar":
        raise TavoloError("common.stale_button")
    if view.player(seat).bar_done:
        raise TavoloError("wowm.ui.bar_already")
    chars = [c for c in view.chars.values() if c.owner == seat and c.kind == "hero"]
    chars.sort(key=lambda c: list(view.chars).index(c.id))
    index = len(picked)
    if index >= len(chars):
        raise TavoloError("common.stale_button")
    pool = {card.id: card for card in view.pool.get(seat, []) if card.defn is not None}
    taken = {i for pair in picked for i in pair}
    size = view.scenario.bar_per_char
    options = []
    for combo in _combos(pool, chars[index], taken, size):
        if _completable(pool, chars[index + 1:], taken | set(combo), size):  # the others can still be filled
            label = " + ".join(text.ability_name(pool[i].defn, lang) for i in combo)  # type: ignore[arg-type]
            options.append(SelectOption(label[:100], ".".join(combo)))
    if not options:
        raise TavoloError("common.stale_button")
    done = "-".join(".".join(p) for p in picked)
    c = chars[index]
    prompt = t("wowm.ui.bar_pick", lang, name=local_name(c.defn, lang), step=index + 1, steps=len(chars))
    custom = f"tv1:wowm:{ref}:barpick" + (f":{done}" if done else "")
    return Reply(text=prompt, ephemeral=True,
                 selects=[Select(custom_id=custom[:100], placeholder=prompt[:100], options=tuple(options[:25]))])


def _combos(pool: dict[str, Any], c: Any, taken: set[str], size: int) -> list[tuple[str, ...]]:
    """300.2/101.2a: ``size`` untaken pool cards that fit ``c``, with different names."""
    fitting = [cid for cid, card in pool.items() if cid not in taken and fits(card.defn, c.defn)]
    return [combo for combo in combinations(fitting, size)
            if len({pool[i].defn.name for i in combo}) == size]


def _completable(pool: dict[str, Any], rest: list[Any], taken: set[str], size: int) -> bool:
    if not rest:
        return True
    return any(_completable(pool, rest[1:], taken | set(combo), size) for combo in _combos(pool, rest[0], taken, size))


def parse_picked(raw: str) -> list[list[str]]:
    return [p.split(".") for p in raw.split("-") if p]


def bars_from_picks(view: State, seat: int, picked: list[list[str]]) -> dict[str, list[str]]:
    chars = [c for c in view.chars.values() if c.owner == seat and c.kind == "hero"]
    chars.sort(key=lambda c: list(view.chars).index(c.id))
    return {c.id: pair for c, pair in zip(chars, picked, strict=False)}


def _menu(custom_id: str, prompt: str, found: list[Choice], text: str | None = None) -> Reply:
    """One private select of ``found`` (at most 25, Discord's limit) under ``prompt``."""
    options = tuple(SelectOption(c.label, c.value) for c in found[:25])
    return Reply(text=text or prompt, ephemeral=True,
                 selects=[Select(custom_id=custom_id[:100], placeholder=prompt, options=options)])


def react_menu(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    found = choices.react_choices(view, seat, "", lang)
    if not found:
        return Reply(text=t("wowm.ui.no_react", lang), ephemeral=True)
    return _menu(f"tv1:wowm:{ref}:reactsel", t("wowm.ui.pick_react", lang), found)


def target_menu(view: State, seat: int | None, lang: str, ref: str, ability: str, verb: str = "playsel") -> Reply:
    """The main attack's (or any ability's) legal targets as one private select."""
    found = choices.target_choices(view, seat, ability, "", lang)
    if not found:
        raise TavoloError("wowm.ui.no_targets")
    return _menu(f"tv1:wowm:{ref}:{verb}:{ability}", t("wowm.ui.pick_target", lang), found)


def move_menu(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    found = choices.move_choices(view, seat, "", lang)
    if not found:
        raise TavoloError("common.stale_button")
    return _menu(f"tv1:wowm:{ref}:movesel", t("wowm.ui.pick_move", lang), found)


def play_action(view: State, seat: int | None, ability: str, target: str | None, lang: str = "en") -> dict[str, Any]:
    """``/wowm play`` by ``seat``, read as the active character's; on another's turn the table says whose it is."""
    if not names.asked(view, seat):
        return {"kind": "play", "ability": ability}
    return {"kind": "play", "ability": choices.resolve_ability(view, ability, lang),
            **choices.decode_play(view, target or "")}


# ---------------------------------------------------------------------------- packs
async def import_pack(store: Store, place: Place, actor: Actor, filename: str, data: bytes, name: str | None,
                      *, replace: bool = False) -> Reply:
    """Validate and store a server's pack; nothing is saved unless all of it is valid."""
    pack = await pack_admin.read_upload(place, actor, data, filename, load_pack, max_bytes=MAX_PACK_BYTES,
                                        too_big="wowm.ui.pack_too_big", not_text="wowm.ui.pack_not_text")
    name = pack_admin.pack_name(name or pack.get("name") or filename.rsplit(".", 1)[0])
    replaced = await pack_admin.save(store, place, actor, SYSTEM, name, pack, replace)
    key = "wowm.ui.pack_replaced" if replaced else "wowm.ui.pack_saved"
    return Reply(text=t(key, actor.locale, name=name, characters=len(pack.get("characters", [])),
                        cards=len(pack.get("cards", [])), maps=len(pack.get("maps", []))))


# ---------------------------------------------------------------------------- the presenter
class WowMinisPresenter:
    system = SYSTEM
    # the /gm overrides of this game (gm.table.overrides)
    gm_commands = frozenset({"place", "health", "clock", "vp"})
    locale_namespace = "wowm"  # ``wowm.action.<kind>`` names actions in the log and in undo
    words_rolls = True  # ``event_text`` reads each die as a hit, a miss or the critical 0
    wants_log_lines = True

    def render(self, view: State, *, viewer: int | None, lang: str, seat_names: list[str],  # type: ignore[override]
               log_lines: list[str] | None = None, focus: list[str] | None = None) -> bytes | None:
        from renderers.wowminis import render

        # the chat's dice lines bold the hits ("**8**"): Markdown the picture would draw as asterisks
        lines = [line.replace("**", "") for line in log_lines] if log_lines is not None else None
        return render(view, lang=lang, viewer_seat=viewer, seat_names=dict(enumerate(seat_names)), log_lines=lines,
                      focus=focus)

    def picture_hints(self, view: State, events: list[Event]) -> dict[str, Any] | None:
        """Issue 27.5, as WoW Board does: a move, an attack or a spell shows the map around the characters
        that acted, drawn large enough to read at 500 px; the whole map on ``/game status`` (no events),
        when a round begins, at set-up and at the end."""
        keys = {e.key.removeprefix("wowm.ev.") for e in events if not e.private_to}
        if not events or view.phase != "play" or keys & FULL_MAP_EVENTS:
            return {}
        return {"focus": focus_hexes(view, events)}

    def summary(self, view: State, *, lang: str, seat_names: list[str]) -> str:  # type: ignore[override]
        text.learn(view)  # a server pack's Italian names, for the event lines that follow
        return text.summary(view, lang, seat_names)

    def prompt_params(self, view: State, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """The question's names (a character, an ability) in the reader's language."""
        return text.localized(params, lang, view)

    def error_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """An error's names in the reader's language (the engine words errors with the pack's ``name``)."""
        return text.localized(params, lang)

    # 701.2 (issue 26.8): a react window asks its seats at once, on one prompt whose buttons each asked seat
    # presses for itself; an answer edits that prompt (``answer_events``), and a first pass offers the
    # pre-set passes (``private_buttons``).
    shared_buttons = True
    answer_events = frozenset({"wowm.ev.react_answered"})

    def private_buttons(self, events: list[Event], *, lang: str) -> list[Button]:
        if not any(e.key == "wowm.ev.passed" and e.params.get("first") for e in events):
            return []
        return [Button(t(key, lang), f"tv1:wowm:-:autopass:{mode}")
                for mode, key in (("targeted", "wowm.ui.button.auto_targeted"),
                                  ("my_turn", "wowm.ui.button.auto_my_turn"),
                                  ("always", "wowm.ui.button.auto_always"))]

    def buttons(self, ref: str, view: State, *, seat: int | None, lang: str) -> list[Button]:  # type: ignore[override]
        """The common next moves of the seat that must act: End turn, the main attack, Move;
        Pass and React… in a window; Keep dice in a reroll; one button per answer to a short
        question (who acts, which spawn point). Built from the public view: no secret leaks."""
        if view.phase == "over":
            return []
        prefix = f"tv1:wowm:{ref}"
        decision = ENGINE.decision(view)
        if decision is None or (seat is None and decision.kind != "react_window"):
            return []
        found: list[Button] = []
        if decision.kind == "choose_bar":
            return [Button(t("wowm.ui.button.bar", lang), f"{prefix}:bar", style="primary")]
        if decision.kind == "react_window":
            found.append(Button(t("wowm.ui.button.pass", lang), f"{prefix}:pass", style="primary"))
            found.append(Button(t("wowm.ui.button.react", lang), f"{prefix}:react"))
            return found
        if decision.kind == "reroll":
            found.append(Button(t("wowm.ui.button.keep", lang), f"{prefix}:keep", style="primary"))
            found.append(Button(t("wowm.ui.button.reroll", lang), f"{prefix}:rerollmenu"))
            return found
        if decision.kind != "turn":
            options = decision.options
            if decision.kind in ("next_character", "first_character"):
                # 500.3c/A8: the chooser may pick any tied character, an enemy one too, so the question stays;
                # the common answer, one of the chooser's own, comes first and stands out (issue 27.3)
                options = sorted(options, key=lambda o: not _owns(view, seat, o.value))
            if len(options) <= OPTION_BUTTONS:
                for option in options:
                    label = choices.option_label(view, option.value, option.params, lang)
                    style = "primary" if decision.kind.endswith("character") and _owns(view, seat, option.value) \
                        else "secondary"
                    found.append(Button(label[:80], f"{prefix}:choose:{option.value}"[:100], style=style))
            else:
                found.append(Button(t("wowm.ui.button.answer", lang), f"{prefix}:answer", style="primary"))
            return found
        legal = ENGINE.legal_actions(view, seat)
        if any(isinstance(a, A.Play) and a.ability == "main" for a in legal):
            c = choices.active(view)
            name = local_name(c.defn.main_attack, lang) if c is not None else ""
            found.append(Button(t("wowm.ui.button.attack", lang, name=name)[:80], f"{prefix}:attack",
                                style="danger"))
        if any(isinstance(a, A.Move) for a in legal):
            found.append(Button(t("wowm.ui.button.move", lang), f"{prefix}:move"))
        if any(isinstance(a, A.EndTurn) for a in legal):
            found.append(Button(t("wowm.ui.button.end", lang), f"{prefix}:end", style="success"))
        return found

    def private_panel(self, view: State, *, seat: int, lang: str, ref: str) -> Reply:
        if view.limited is not None:  # 100.3: the seat's booster and pool (gm.games.wowminis.limited)
            from gm.games.wowminis import limited

            return limited.panel(view, seat, lang, ref)
        return text.panel(view, seat, lang, ref, play_lines(view, seat, lang))

    def image_policy(self, events: list[Event]) -> str:
        keys = {e.key.removeprefix("wowm.ev.") for e in events if not e.private_to}
        return "new" if keys & NEW_BOARD_EVENTS else "update"

    def player_turns(self, view: State) -> frozenset[tuple[object, ...]]:
        """The player turns under way, for the image budget (TABLE_UX: about two new pictures per player
        turn). Play goes by turns (501): the Master Clock picks a character and its controller plays that
        character's turn, numbered by ``turns_taken``. Choosing bars and the end are nobody's turn."""
        if view.phase != "play" or view.turn is None:
            return frozenset()
        return frozenset({(view.turn.number,)})

    def lobby_hint(self, options: dict[str, Any], lang: str) -> str:
        """Issue 27.4/27.3/29.4: the opening message names ``/wowm party`` with the scenario's party rules
        (100.1), says what the chosen scenario changes, and otherwise offers the short one and lists them all."""
        pack = pack_for(None)
        try:
            scenario = pack.scenario(str(options.get("scenario") or "standard"))
        except TavoloError:  # a server pack's scenario: its lobby shows the standard wording
            scenario = ScenarioDef()
        if scenario.party_size == 3 and scenario.same_faction:
            lines = [t("wowm.ui.lobby_hint", lang)]
        else:
            faction = t(f"wowm.ui.lobby_faction_{'one' if scenario.same_faction else 'any'}", lang)
            lines = [t("wowm.ui.lobby_hint_party", lang, size=scenario.party_size, faction=faction)]
        if options.get("format") in ("sealed", "draft"):  # 100.3: the party comes from the pool, not /wowm party
            lines = [t("wowm.ui.lobby_hint_limited", lang, format=options["format"])]
        goal = scenario.goal(options)
        if scenario.id == "short":
            board = pack.map(str(options.get("map") or SHORT["map"]))
            lines.append(t("wowm.ui.lobby_short_on", lang, map=local_name(board, lang), goal=goal))
        elif scenario.id != "standard":
            board = pack.map(str(options.get("map") or scenario.map or DEFAULT_MAP))
            text_ = (scenario.text_it or scenario.text) if lang == "it" else scenario.text
            lines.append(t("wowm.ui.lobby_scenario_on", lang, name=local_name(scenario, lang), text=text_,
                           map=local_name(board, lang)))
        else:
            lines.append(t("wowm.ui.lobby_short_offer", lang, goal=SHORT["goal"]))
            listed = ", ".join(f"`{s.id}` ({local_name(s, lang)})" for s in pack.scenarios if s.id != "standard")
            lines.append(t("wowm.ui.lobby_scenarios", lang, scenarios=listed))
        return "\n".join(lines)

    def seat_line(self, config: dict[str, Any], options: dict[str, Any], lang: str,
                  content: dict[str, Any] | None = None) -> str:
        """The lobby card: a seat's party and its Honor, or the default it will get (100.3: in a limited
        format the party comes from the pool, whatever was typed before the format was chosen)."""
        if options.get("format") in ("sealed", "draft"):
            return t("wowm.ui.lobby_limited_seat", lang, format=options["format"])
        party = config.get("party")
        if not isinstance(party, list) or not party:
            return t("wowm.ui.lobby_no_party", lang)
        pack = pack_for(content)
        shown_names, honor = [], 0
        for cid in party:
            try:
                c = pack.character(str(cid))
            except TavoloError:
                shown_names.append(str(cid))
                continue
            shown_names.append(local_name(c, lang))
            honor += c.honor
        return t("wowm.ui.lobby_party", lang, party=", ".join(shown_names), honor=honor)

    def event_text(self, event: Event, lang: str) -> str | None:
        return text.event_text(event, lang)

    def gm_name_choices(self, view: State, what: str, current: str, lang: str = "en") -> list[Choice]:
        """Characters for GM overrides, named as the board shows them, in the GM's language."""
        return rank([Ranked(Choice(f"{c.short} {local_name(c.defn, lang)} · {c.health} · {c.pos or '-'}", c.id),
                            aliases=(c.short, c.defn.name, c.defn.name_it)) for c in view.chars.values()], current)

    def gm_resolve(self, state: State, named: dict[str, Any], lang: str = "en") -> dict[str, Any]:
        """``/gm place|health|clock``: the character by the shared resolver (label, name in either
        language, a word, a typo); a miss lists the characters on the table."""
        if isinstance(named.get("char"), str):
            named = {**named, "char": names.resolve_piece(state, named["char"], lang)}
        return named

    def piece_choices(self, view: State, current: str, lang: str = "en") -> list[Choice]:
        """``/gm place|health|clock`` name a character as the board shows it."""
        return self.gm_name_choices(view, "character", current, lang)

    @staticmethod
    def gm_fields(action: dict[str, Any]) -> dict[str, Any]:
        """The shared ``/gm`` commands speak of a ``piece`` on a ``square``; here a ``char`` on a ``space``."""
        renamed = {"piece": "char", "square": "space"}
        return {renamed.get(k, k): v for k, v in action.items()}

    def resolve_option(self, key: str, value: Any, content: dict[str, Any] | None, lang: str) -> Any:
        """Lobby options that name content go through the one resolver (issue 26.1): ``map:"passo zanna"``."""
        if key == "map" and isinstance(value, str) and value.strip():
            from engines.wowminis.content import pack_for

            return names.resolve_map(pack_for(content), value, lang)
        return value

    def warm_up(self) -> None:
        """Fonts, arenas and palettes, drawn once per render worker (``gm.presenters.warm_up_all``)."""
        from renderers.wowminis import warm_up

        warm_up()

    def help_text(self, lang: str) -> str:
        return t("wowm.ui.help", lang)

    def die_faces(self, sides: int) -> dict[int, str] | None:
        """Manual dice: a d10's "0" is the critical face (103.4), typed as 0 or 10 (the key's last
        word, "0", is accepted by ``gm.table.manual_dice.parse_faces``)."""
        return {10: "wowm.ui.face.0"} if sides == 10 else None


def focus_hexes(view: State, events: list[Event]) -> list[str]:
    """The hexes a picture is about: where the active character stands, where every character an event
    names stands, and the spaces a move, push or spawn went through."""
    found: list[str] = []
    active = view.chars.get(view.turn.char) if view.turn is not None else None
    if active is not None and active.pos:
        found.append(active.pos)
    for e in events:
        if e.private_to:
            continue
        for key in ("char", "target"):
            c = view.chars.get(str(e.params.get(key, "")))
            if c is not None and c.pos:
                found.append(c.pos)
        found += [str(e.params[k]) for k in ("frm", "to", "at") if isinstance(e.params.get(k), str)]
    return list(dict.fromkeys(found))


def _owns(view: State, seat: int | None, cid: str) -> bool:
    c = view.chars.get(cid)
    return c is not None and c.controller == seat


def decision_prompt(view: State, lang: str) -> str:
    decision = ENGINE.decision(view)
    if decision is None or not decision.prompt_key:
        return t("wowm.ui.button.answer", lang)
    return t(decision.prompt_key, lang, **humanize(decision.params, lang, "wowm"))


def answer_menu(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    found = choices.option_choices(view, seat, "", lang)
    if not found:
        raise TavoloError("common.stale_button")
    return _menu(f"tv1:wowm:{ref}:choose", t("wowm.ui.button.answer", lang), found, decision_prompt(view, lang))


def reroll_menu(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    found = choices.reroll_choices(view, seat, "", lang)
    if not found:
        raise TavoloError("common.stale_button")
    return _menu(f"tv1:wowm:{ref}:rerollsel", t("wowm.ui.pick_reroll", lang), found)


def check_ref(table: Table | None, ref: str, *, same_game: bool = False) -> str:
    """The current ref when ``ref`` still names this position (or, with ``same_game``, this game:
    the secret bar menu survives the other seat answering meanwhile; the engine checks the rest)."""
    if table is None or table.game.system != SYSTEM or not isinstance(table.state, State):
        raise TavoloError("common.stale_button")
    now = game_ref(table)
    if now != ref and not (same_game and now.split(".")[0] == ref.split(".")[0]):
        raise TavoloError("common.stale_button")
    return now


MENU_VERBS = ("bar", "react", "attack", "move", "answer", "rerollmenu")


async def button_menu(app: App, place: Place, actor: Actor, ref: str, verb: str) -> Reply:
    """The private select behind a board button (one of ``MENU_VERBS``), from the clicker's own view
    and only for the position the button was posted with (the secret bar: for this game)."""
    view, seat, table = await current(app, place, actor)
    now = check_ref(table, ref, same_game=verb == "bar")
    assert view is not None
    lang = actor.locale
    if verb == "bar":
        return bar_menu(view, seat, lang, now, [])
    if verb == "react":
        return react_menu(view, seat, lang, now)
    if verb == "attack":
        return target_menu(view, seat, lang, now, "main")
    if verb == "move":
        return move_menu(view, seat, lang, now)
    if verb == "rerollmenu":
        return reroll_menu(view, seat, lang, now)
    return answer_menu(view, seat, lang, now)


PRESENTER = presenters.register(WowMinisPresenter())
