"""Warlord: Saga of the Storm at the table: presenter (image, summary, buttons, private panel) and the
replies behind ``/warlord`` that are more than one action (deck, secret army and discards, menus).

The pieces live by concern: ``choices`` (autocomplete and typed names, from
``legal_actions`` on the seat's own view) and ``text`` (cards, summary, panel, dice words).
The picture comes from ``renderers.warlord`` and is drawn in the render pool's workers.

Hidden information: hands and decks reach only their seat (ephemeral replies built from
``view(state, seat)``); a reaction window is announced by its moment alone, and whatever the asked
seat could play is shown only in its own panel or menu.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engines.warlord  # noqa: F401  (registers the engine)
from common.i18n import t
from db.store import Store
from engines.core.errors import TavoloError
from engines.core.events import Event
from engines.warlord import ENGINE
from engines.warlord import actions as A
from engines.warlord.content import MAX_PACK_BYTES, Pack, deck_by_id
from engines.warlord.packs import load_pack
from engines.warlord.rules_common import add_italian_names, italian_names
from engines.warlord.rules_deck import validate_deck
from engines.warlord.rules_setup import pack_for
from engines.warlord.state import State
from gm import presenters
from gm.context import Actor, Place
from gm.games.choices import Choice
from gm.games.names import echo
from gm.games.seat_view import require_seat_view, seat_view
from gm.games.warlord import choices, orders, text
from gm.games.warlord import rules_cite as _rules_cite  # noqa: F401  (rule ids cited by their titles)
from gm.packs import admin as pack_admin
from gm.reply import Button, Reply, Select, SelectOption
from gm.table.model import game_ref

if TYPE_CHECKING:
    from gm.app import App
    from gm.table.model import Table

SYSTEM = "warlord"
AREA = "wl"
# Events worth a new picture (TABLE_UX): a game turn's orders begin, a death, the end. Revealing the armies,
# declaring an attack, strikes, windows, recruits and passes edit the board already posted.
NEW_BOARD_EVENTS = frozenset({"initiative_won", "killed", "warlord_killed", "game_won", "game_drawn",
                              "player_eliminated", "resigned"})
OPTION_BUTTONS = 5
SECRET_KINDS = ("starting_army", "draw_discard")


# ---------------------------------------------------------------------------- the channel's game
async def current(app: App, place: Place, actor: Actor) -> tuple[State | None, int | None, Table | None]:
    """The channel's game as this user may see it (``gm.games.seat_view``), their seat and the table."""
    return await seat_view(app, place, actor, SYSTEM, ENGINE, State)


async def game(app: App, place: Place, actor: Actor) -> tuple[State, int | None, Table]:
    """Like ``current`` but an error when there is no started game of this system here."""
    return await require_seat_view(app, place, actor, SYSTEM, ENGINE, State, "warlord.ui.not_warlord")


def ref_of(table: Table) -> str:
    return game_ref(table)


def check_ref(table: Table | None, ref: str, *, same_game: bool = False) -> str:
    """The current ref when ``ref`` still names this position (or, with ``same_game``, this game: a
    secret answer survives the other seats answering meanwhile; the engine checks the rest)."""
    if table is None or table.game.system != SYSTEM or not isinstance(table.state, State):
        raise TavoloError("common.stale_button")
    now = game_ref(table)
    if now != ref and not (same_game and now.split(".")[0] == ref.split(".")[0]):
        raise TavoloError("common.stale_button")
    return now


# ---------------------------------------------------------------------------- lobby
async def set_deck(app: App, place: Place, actor: Actor, typed: str) -> Reply:
    """``/warlord deck``: a deck of the table's pack, checked against the deck-building rules first."""
    table = await app.tables.table_for(place)
    if table is None or table.game.system != SYSTEM:
        raise TavoloError("warlord.ui.no_lobby")
    pack = pack_for(table.content)
    deck = deck_by_id(pack, choices.resolve_deck(pack, typed))
    validate_deck(pack, deck)
    reply = await app.tables.configure_seat(place, actor, {"deck": deck.id})
    reply.text = t("warlord.ui.deck_set", actor.locale, user=actor.mention, deck=deck.shown(actor.locale),
                   warlord=choices.deck_warlord(pack, deck, actor.locale), n=sum(deck.cards.values()))
    return reply


def decks_reply(content: dict[str, Any] | None, lang: str) -> Reply:
    pack = pack_for(content)
    lines = ["• " + c.label for c in choices.deck_choices(pack, "", lang)]
    return Reply(title=t("warlord.ui.decks_title", lang), text="\n".join(lines), ephemeral=True)


# ---------------------------------------------------------------------------- secret answers
async def secret_act(app: App, place: Place, actor: Actor, action: dict[str, Any], ref: str | None = None) -> Reply:
    """A simultaneous secret answer (army, discards): the answer goes out privately; the channel learns
    only that this seat answered, or sees the board when the last answer is in."""
    if ref is not None:
        table = await app.tables.table_for(place)
        check_ref(table, ref, same_game=True)
    reply = await app.tables.act(place, actor, action)
    private = [extra for extra in reply.extra if extra.ephemeral]
    if reply.update_board:
        public = Reply(text=reply.brief, mentions=reply.mentions, buttons=reply.buttons)
    else:
        public = Reply(text=reply.text, image=reply.image, buttons=reply.buttons, mentions=reply.mentions,
                       board=reply.board)
    body = "\n".join(p.text for p in private) or t("warlord.ui.answer_taken", actor.locale)
    return Reply(text=body, ephemeral=True, extra=[public])


def army_action(view: State, seat: int | None, warlord: str | None, level1: str | None,
                level2: str | None) -> dict[str, Any]:
    """The starting army typed (names, or their beginnings), or the suggested one when nothing is."""
    if not (warlord or level1 or level2):
        found = choices.suggested_army(view, seat)
        if found is None:
            raise TavoloError("warlord.ui.no_army")
        return found.model_dump()
    suggestion = choices.suggested_army(view, seat)
    lord, first, second = choices.army_names(view, seat if seat is not None else -1,
                                             warlord or (suggestion.warlord if suggestion else ""), level1, level2)
    for level, named, count in ((1, first, 3), (2, second, 2)):
        if named and len(named) != count:  # said here, in the reader's words and card names (not the parser's)
            exc = TavoloError("warlord.ui.army_count", count=count, level=level, given=len(named),
                              names=", ".join(named))
            add_italian_names(exc.params, italian_names(view))
            raise exc
    return {"kind": "starting_army", "warlord": lord,
            "level1": first or (suggestion.level1 if suggestion else []),
            "level2": second or (suggestion.level2 if suggestion else [])}


def army_reply(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    """``/warlord army`` with nothing typed: the candidates of the seat's own deck and the suggested
    army, with a button that takes it (only this seat sees it)."""
    if seat is None:
        raise TavoloError("game.panel_spectator")
    if view.phase != "setup" or not choices.legal(view, seat):
        raise TavoloError("warlord.ui.army_not_now")
    lines = [t("warlord.ui.army_intro", lang)]
    lines.append(t("warlord.ui.army_warlords", lang, names=", ".join(
        c.value for c in choices.army_warlord_choices(view, seat, "", lang))))
    for level in (1, 2):
        names = [c.value for c in choices.army_level_choices(view, seat, level, None, "", lang)]
        lines.append(t("warlord.ui.army_level", lang, level=level, names=", ".join(names)))
    suggestion = choices.suggested_army(view, seat)
    buttons = []
    if suggestion is not None:
        lines.append(suggested_line(view, suggestion, lang))
        buttons.append(Button(t("warlord.ui.button.take_army", lang), f"tv1:{AREA}:{ref}:armyok", style="primary"))
    return Reply(title=t("warlord.ui.army_title", lang), text="\n".join(lines), ephemeral=True, buttons=buttons)


def suggested_line(view: State, army: A.StartingArmy, lang: str) -> str:
    """"Suggested: Thane Brannoc Ironvow; rank 1 …" in the reader's language (the engine names cards in English)."""
    return t("warlord.ui.army_suggested", lang, warlord=text.local(view, army.warlord, lang),
             level1=text.local(view, ", ".join(army.level1), lang),
             level2=text.local(view, ", ".join(army.level2), lang))


def discard_menu(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    if seat is None or not any(isinstance(a, A.DrawDiscard) for a in choices.legal(view, seat)):
        raise TavoloError("common.stale_button")
    options = [SelectOption(t("warlord.ui.discard_none", lang)[:100], "none")]
    options += [SelectOption(text.card_short(view.defn(u), lang), u) for u in view.player(seat).hand]
    prompt = t("warlord.ui.pick_discard", lang)
    return Reply(text=prompt, ephemeral=True,
                 selects=[Select(custom_id=f"tv1:{AREA}:{ref}:discardsel", placeholder=prompt[:100],
                                 options=tuple(options[:25]))])


# ---------------------------------------------------------------------------- menus
MENU_VERBS = ("orders", "attack", "react", "reformmenu", "strikemenu", "army", "discardmenu")


async def button_menu(app: App, place: Place, actor: Actor, ref: str, verb: str) -> Reply:
    """The private menu behind a board button (one of ``MENU_VERBS``), from the clicker's own view and
    only for the position the button was posted with; the secret set-up menus (army, discards)
    survive the other seats answering meanwhile."""
    view, seat, table = await current(app, place, actor)
    now = check_ref(table, ref, same_game=verb in ("army", "discardmenu"))
    assert view is not None
    lang = actor.locale
    if seat is None:
        raise TavoloError("game.panel_spectator")
    if verb == "orders":
        return orders_menu(view, seat, lang, now)
    if verb == "attack":
        return orders_menu(view, seat, lang, now, only="attack")
    if verb == "react":
        return react_menu(view, seat, lang, now)
    if verb == "reformmenu":
        return reform_menu(view, seat, lang, now)
    if verb == "strikemenu":  # every target, its owner and the d20 it needs (values decode as orders)
        found = [Choice(c.label, orders.encode_order(A.Strike(target=c.value)))
                 for c in choices.strike_choices(view, seat, "", lang)]
        return _select(now, "do", t("warlord.ui.pick_strike", lang), found)
    if verb == "army":
        return army_reply(view, seat, lang, now)
    return discard_menu(view, seat, lang, now)


def _select(ref: str, verb: str, prompt: str, found: list[Choice]) -> Reply:
    if not found:
        raise TavoloError("common.stale_button")
    return Reply(text=prompt, ephemeral=True,
                 selects=[Select(custom_id=f"tv1:{AREA}:{ref}:{verb}", placeholder=prompt[:100],
                                 options=tuple(SelectOption(c.label[:100], c.value) for c in found[:25]))])


def orders_menu(view: State, seat: int | None, lang: str, ref: str, only: str | None = None) -> Reply:
    """Every legal order as one private select (or only the attacks)."""
    found = orders.order_choices(view, seat, lang)
    if only:
        found = [c for c in found if c.value.startswith(only + "|")]
    return _select(ref, "do", t("warlord.ui.pick_order", lang), found)


def react_menu(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    found = orders.react_choices(view, seat, "", lang)
    if not found:  # said to this seat alone: the channel never learns it
        return Reply(text=t("warlord.ui.no_react", lang), ephemeral=True)
    return _select(ref, "reactsel", t("warlord.ui.pick_react", lang), found)


def reform_menu(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    found = [Choice(reform_label(view, a, lang), f"{a.char}|{a.position if a.position is not None else ''}")
             for a in choices.legal(view, seat) if isinstance(a, A.Reform)]
    return _select(ref, "reformsel", t("warlord.ui.pick_reform", lang), found)


def reform_label(view: State, a: A.Reform, lang: str) -> str:
    end = t("warlord.ui.pos_left" if not a.position else "warlord.ui.pos_right", lang)
    return t("warlord.ui.reform_option", lang, name=text.tagged(view, a.char, lang), end=end)[:100]


def play_lines(view: State, seat: int, lang: str) -> list[str]:
    """The panel's "what you can do now", from the seat's own view and ``legal_actions`` only."""
    legal = choices.legal(view, seat)
    if not legal:
        return []
    kinds = {a.kind for a in legal}
    if "react" in kinds or "pass_react" in kinds:
        reacts = orders.react_choices(view, seat, "", lang)
        return [f"• {c.label}" for c in reacts] or [t("warlord.ui.no_react", lang)]
    if "strike" in kinds or "stop_attack" in kinds:
        return [f"• {c.label}" for c in choices.strike_choices(view, seat, "", lang)]
    if "reform" in kinds:
        return [f"• {reform_label(view, a, lang)}" for a in legal if isinstance(a, A.Reform)]
    if "starting_army" in kinds:
        army = choices.suggested_army(view, seat)
        return [suggested_line(view, army, lang)] if army else []
    if "draw_discard" in kinds:
        return [t("warlord.ui.discard_hint", lang)]
    found = orders.order_lines(view, seat, lang)
    lines = [f"• {line}" for line in found[:15]]
    if len(found) > 15:
        lines.append(t("warlord.ui.more_orders", lang, n=len(found) - 15))
    return lines


def panel_buttons(view: State, seat: int, lang: str, ref: str) -> list[Button]:
    """The private panel's own buttons: what the seat may do now, from its own view."""
    decision = ENGINE.decision(view)
    if decision is None or seat not in decision.seats:
        return []
    prefix = f"tv1:{AREA}:{ref}"
    if decision.kind == "starting_army":
        return [Button(t("warlord.ui.button.take_army", lang), f"{prefix}:armyok", style="primary")]
    if decision.kind == "draw_discard":
        return [Button(t("warlord.ui.button.keep", lang), f"{prefix}:keep", style="primary"),
                Button(t("warlord.ui.button.discard", lang), f"{prefix}:discardmenu")]
    if decision.kind == "react":
        return [Button(t("warlord.ui.button.react", lang), f"{prefix}:react", style="primary"),
                Button(t("warlord.ui.button.pass_react", lang), f"{prefix}:rpass")]
    if decision.kind == "turn":
        return [Button(t("warlord.ui.button.orders", lang), f"{prefix}:orders", style="primary"),
                Button(t("warlord.ui.button.pass", lang), f"{prefix}:pass", style="success")]
    return []


# ---------------------------------------------------------------------------- information
def hand_reply(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    if seat is None:
        raise TavoloError("game.panel_spectator")
    return text.panel(view, seat, lang, ref, play_lines(view, seat, lang), panel_buttons(view, seat, lang, ref))


def card_reply(view: State | None, seat: int | None, name: str, content: dict[str, Any] | None, lang: str) -> Reply:
    """``/warlord card``: a card this seat may see (its hand, anything in play or discarded), or any
    card of the table's pack before the game starts."""
    if view is not None:
        visible = {view.defn(u).id: view.defn(u) for u in view.cards}
    else:
        visible = {c.id: c for c in pack_for(content).cards}
    from gm.games.names import Name, find

    # the shared resolver (issue 26): id, English or Italian name, a word or piece of one, a close typo
    _tier, hits = find(name, [Name(d.id, d.shown(lang), (d.name, d.name_it)) for d in visible.values()])
    found = [visible[n.value] for n in hits]
    if not found:
        known = ", ".join(sorted(d.shown(lang) for d in visible.values())[:25])
        raise TavoloError("warlord.ui.unknown_card", name=echo(name), known=known)
    return Reply(text="\n\n".join(text.card_info(d, lang) for d in found[:3]), ephemeral=True)


def stops_reply(view: State, seat: int | None, lang: str) -> Reply:
    """``/warlord stops`` with nothing typed: the seat's own stop list and the table's mode."""
    if seat is None:
        raise TavoloError("game.panel_spectator")
    from engines.warlord.rules_windows import stops_of

    stops_mode = view.options.get("react_prompts") == "stops"
    mode = "warlord.ui.stops_mode.stops" if stops_mode else "warlord.ui.stops_mode.auto"
    return Reply(text=t("warlord.ui.stops_now", lang, stops=text.stops_text(list(stops_of(view.player(seat))), lang),
                        mode=t(mode, lang)), ephemeral=True)


# ---------------------------------------------------------------------------- packs
def checked_pack(data: Any) -> Pack:
    """A server pack as stored: valid cards and decks, every deck legal for the campaign (deck-building).
    A top-level ``name`` is allowed (the file's own title); the pack is saved under the command's name.
    Module-level: it runs in the offload child (``gm.packs.reading.read_pack``)."""
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k != "name"}
    return load_pack(data, over_builtin=True)  # decks may use the shipped cards; each deck is checked


async def import_pack(store: Store, place: Place, actor: Actor, filename: str, data: bytes, name: str | None,
                      *, replace: bool = False) -> Reply:
    """Validate and store a server's pack (cards and decks, every deck checked); nothing is saved
    unless all of it is valid."""
    pack_data = await pack_admin.read_upload(place, actor, data, filename, checked_pack, max_bytes=MAX_PACK_BYTES,
                                             too_big="warlord.err.pack_too_big", not_text="warlord.ui.pack_not_text")
    pack = load_pack(pack_data)
    name = pack_admin.pack_name(name or filename.rsplit(".", 1)[0])
    replaced = await pack_admin.save(store, place, actor, SYSTEM, name, pack_data, replace)
    key = "warlord.ui.pack_replaced" if replaced else "warlord.ui.pack_saved"
    return Reply(text=t(key, actor.locale, name=name, cards=len(pack.cards), decks=len(pack.decks)))


# ---------------------------------------------------------------------------- the presenter
class WarlordPresenter:
    system = SYSTEM
    # the /gm overrides of this game (gm.table.overrides)
    gm_commands = frozenset({"wounds", "state", "move", "draw", "note"})
    locale_namespace = "warlord"  # ``warlord.action.<kind>`` names actions in the log and in undo
    words_rolls = True  # ``event_text`` words each d20 with its verdict and reason
    wants_log_lines = True

    def render(self, view: State, *, viewer: int | None, lang: str, seat_names: list[str],  # type: ignore[override]
               log_lines: list[str] | None = None) -> bytes | None:
        from renderers.warlord import render

        return render(view, lang, dict(enumerate(seat_names)), viewer, log_lines)

    def summary(self, view: State, *, lang: str, seat_names: list[str]) -> str:  # type: ignore[override]
        return text.summary(view, lang, seat_names)

    # A reaction window asks its seats at once: its one prompt carries buttons each asked seat presses for
    # itself (the click acts for the clicker's seat), and an answer edits that prompt (``answer_events``).
    shared_buttons = True
    answer_events = frozenset({"warlord.ev.react_answered", "warlord.ev.react_passed"})

    def buttons(self, ref: str, view: State, *, seat: int | None, lang: str) -> list[Button]:  # type: ignore[override]
        """The common next moves of the seat that must act, or of every seat a reaction window asks, from the
        public view (nothing here depends on a hand: a window shows the same buttons whatever a seat holds)."""
        if view.phase == "over":
            return []
        decision = ENGINE.decision(view)
        if decision is None or (seat is None and decision.kind not in ("react", *SECRET_KINDS)):
            return []
        prefix = f"tv1:{AREA}:{ref}"
        if decision.kind == "react":
            return [Button(t("warlord.ui.button.pass_react", lang), f"{prefix}:rpass", style="primary"),
                    Button(t("warlord.ui.button.react", lang), f"{prefix}:react"),
                    Button(t("warlord.ui.button.yield_attack", lang), f"{prefix}:ryield:attack")
                    if view.attack is not None else
                    Button(t("warlord.ui.button.yield_turn", lang), f"{prefix}:ryield:turn")]
        if decision.kind == "choose_strike_target":
            targets = [a.target for a in choices.legal(view, seat) if isinstance(a, A.Strike)]
            if len(targets) > OPTION_BUTTONS:  # more than fit: one menu holds them all (issue 27.5), none cut
                found = [Button(t("warlord.ui.button.strike_menu", lang, n=len(targets)), f"{prefix}:strikemenu",
                                style="danger")]
            else:
                found = [Button(t("warlord.ui.button.strike", lang, name=text.tagged(view, u, lang))[:80],
                                f"{prefix}:strike:{u}", style="danger") for u in targets]
            return [*found, Button(t("warlord.ui.button.stop", lang), f"{prefix}:stop")]
        if decision.kind == "reform":
            options = [a for a in choices.legal(view, seat) if isinstance(a, A.Reform)]
            if len(options) <= OPTION_BUTTONS:
                return [Button(reform_label(view, a, lang)[:80],
                               f"{prefix}:reform:{a.char}:{a.position if a.position is not None else ''}")
                        for a in options]
            return [Button(t("warlord.ui.button.reform", lang), f"{prefix}:reformmenu", style="primary")]
        if decision.kind == "starting_army":
            return [Button(t("warlord.ui.button.army", lang), f"{prefix}:army", style="primary")]
        if decision.kind == "draw_discard":
            return [Button(t("warlord.ui.button.keep", lang), f"{prefix}:keep", style="primary"),
                    Button(t("warlord.ui.button.discard", lang), f"{prefix}:discardmenu")]
        found = [Button(t("warlord.ui.button.orders", lang), f"{prefix}:orders", style="primary")]
        if seat is not None and ENGINE.any_legal(view, seat, A.Attack):  # public: the armies only
            found.append(Button(t("warlord.ui.button.attack", lang), f"{prefix}:attack", style="danger"))
        found.append(Button(t("warlord.ui.button.pass", lang), f"{prefix}:pass", style="success"))
        return found

    def private_panel(self, view: State, *, seat: int, lang: str, ref: str) -> Reply:
        return hand_reply(view, seat, lang, ref)

    def error_params(self, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """A faction an error names, in the reader's words ("Guardiapietra"), like the traits on the cards."""
        if isinstance(params.get("faction"), str):
            params = {**params, "faction": ", ".join(text.trait_word(f, lang) for f in params["faction"].split(", "))}
        return params

    def private_buttons(self, events: list[Event], *, lang: str) -> list[Button]:
        """A seat's first pass in a reaction window offers the pre-set passes (issue 26.8), as buttons that
        keep working whatever happens meanwhile: a setting is not an answer to one position."""
        if not any(e.key == "warlord.ev.react_pass_ack" and e.params.get("first") for e in events):
            return []
        return [Button(t(key, lang), f"tv1:{AREA}:-:preset:{preset}")
                for preset, key in (("targeted", "warlord.ui.button.preset_targeted"),
                                    ("turn", "warlord.ui.button.preset_turn"))]

    def picture_hints(self, view: State, events: list[Event]) -> dict[str, Any] | None:
        """No picture while the armies are chosen in secret (TABLE_UX: set-up steps batch into one image):
        the board is then two empty armies, and everything there is to know is in the text. ``/game
        status`` (no events) still shows it."""
        return None if events and view.phase == "setup" else {}

    def image_policy(self, events: list[Event]) -> str:
        """TABLE_UX "the channel is a shared space": about two new pictures per player turn at most. A new
        board when a game turn's orders begin (initiative), a character dies or the game ends. Declaring an
        attack changes nothing on the board (its strikes, and the death they may cause, come next), so it
        edits the board like recruits, reforms and passes; a new board per attack posted 27 pictures in
        3 game turns. The armies revealed are set-up: their first picture is the one of turn 1's
        initiative, a few secret discards later (the reveal's own reply is words: a secret answer's
        public line cannot edit a board, see ``secret_act``)."""
        keys = {e.key.removeprefix("warlord.ev.") for e in events if not e.private_to}
        return "new" if keys & NEW_BOARD_EVENTS else "update"

    def player_turns(self, view: State) -> frozenset[tuple[object, ...]]:
        """The player turns under way, for the image budget (TABLE_UX: about two new pictures per player
        turn). A Warlord game turn is shared: every player still in draws and discards, then all give
        orders in initiative order until all pass in a row. So a game turn is one player turn per
        player still in, ``(turn, seat)``. Choosing armies and the end are nobody's turn."""
        if view.phase not in ("draw", "orders") or view.turn < 1:
            return frozenset()
        return frozenset((view.turn, seat) for seat in view.living())

    def seat_line(self, config: dict[str, Any], options: dict[str, Any], lang: str,
                  content: dict[str, Any] | None = None) -> str:
        """The lobby card: a seat's deck, or the one it will get."""
        deck_id = config.get("deck")
        if not deck_id:
            return t("warlord.ui.lobby_no_deck", lang)
        try:
            pack = pack_for(content)
            deck = deck_by_id(pack, str(deck_id))
        except TavoloError:
            return str(deck_id)
        return t("warlord.ui.lobby_deck", lang, deck=deck.shown(lang), warlord=choices.deck_warlord(pack, deck, lang))

    def event_text(self, event: Event, lang: str) -> str | None:
        return text.event_text(event, lang)

    def gm_name_choices(self, view: State, what: str, current: str, lang: str = "en") -> list[Choice]:
        return orders.piece_choices(view, current, lang)

    def piece_choices(self, view: State, current: str, lang: str = "en") -> list[Choice]:
        """``/gm wounds|state|move`` name a character as the board shows it, in the GM's language."""
        return orders.piece_choices(view, current, lang)

    @staticmethod
    def gm_fields(action: dict[str, Any]) -> dict[str, Any]:
        """The shared ``/gm`` commands speak of a ``piece``; Warlord's overrides of a ``char`` (wounds)
        or a ``card`` (state, move)."""
        field = "char" if action.get("kind") == "gm_wounds" else "card"
        return {(field if k == "piece" else k): v for k, v in action.items()}

    @staticmethod
    def gm_resolve(state: State, action: dict[str, Any], lang: str = "en") -> dict[str, Any]:
        """``/gm wounds|state|move`` name a card as the board shows it, in either language, a word of it or a
        close typo (issue 26: the one resolver); a miss lists the candidates. The zone of ``/gm move`` may be
        typed in Italian ("scarti", "rango:2")."""
        named = dict(action)
        for field in ("char", "card"):
            if isinstance(named.get(field), str):
                pool = [*state.chars] if field == "char" else [*state.chars, *state.items, *state.cards]
                named[field] = choices.pick_card(state, pool, named[field], "character" if field == "char" else "card",
                                                 lang=lang)
        if isinstance(named.get("to"), str):
            named["to"] = choices.resolve_zone(named["to"])
        return named

    def warm_up(self) -> None:
        """Fonts, arenas and palettes, drawn once per render worker (``gm.presenters.warm_up_all``)."""
        from renderers.warlord import warm_up

        warm_up()

    def warm_words(self) -> None:
        """The built-in decks' card definitions parsed once in the bot, before READY (issue 28).

        Why: a table parses its committed state before every act, and a state's definitions (30 of its
        ~39 KB) are parsed once per deck choice and then shared (``state_versions.SharedPart``); a table
        of the built-in decks after a start paid that first parse (~0.6 ms) on its first act. Both orders
        of the two built-in decks, the default choice and its mirror, are parsed here."""
        from engines.core.contract import SeatSetup, Setup
        from engines.core.dice import SeededDice
        from engines.warlord.upgrades import SCHEMA

        decks = [deck.id for deck in pack_for(None).decks][:2]
        for order in (decks, decks[::-1]) if len(decks) == 2 else ():
            setup = Setup(seats=[SeatSetup(seat=seat, user_id=seat, name=f"warm{seat}", config={"deck": deck})
                                 for seat, deck in enumerate(order)], options={})
            SCHEMA.load(ENGINE.new_game(setup, SeededDice(1)).model_dump_json())

    def help_text(self, lang: str) -> str:
        return t("warlord.ui.help", lang)


PRESENTER = presenters.register(WarlordPresenter())
