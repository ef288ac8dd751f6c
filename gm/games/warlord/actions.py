"""The actions players ask for with ``/warlord`` commands: each command's typed options become the
action for the engine, named from the position the player sees (their own ``view``); and the few
lists that need the rules' own types (an order's performers, the pack's cards).

The cog only reads Discord's options and hands them here: picking the candidates out of
``legal_actions`` (an attack's attackers, an order card's performers) is rules knowledge, and a cog
that did it had to import the engine. Every function takes the seat's view and what was typed, and
returns the action dict (or raises the TavoloError the player reads); a name that matches nothing
goes to the engine as typed, so its refusal says what is wrong. ``MAX_PACK_BYTES`` is here for the
pack admin cog, which refuses a bigger upload before downloading it.
"""

from __future__ import annotations

from typing import Any

from engines.core.errors import TavoloError
from engines.warlord import ENGINE
from engines.warlord import actions as A
from engines.warlord.content import MAX_PACK_BYTES
from engines.warlord.rules_setup import pack_for
from engines.warlord.state import State
from gm.games.choices import Choice, Ranked, rank
from gm.games.warlord import choices, orders, text

__all__ = ["MAX_PACK_BYTES", "attack", "card_choices", "deck_choices", "equip", "maneuver", "pass_now", "play_order",
           "position", "react", "recruit", "reform", "strike", "use_mark_choices", "use_order",
           "use_performer_choices", "use_target_choices"]


def position(raw: str | None) -> int | None:
    """A place in a rank, counted from the left, as typed ("3", or an autocomplete label "3 · …");
    empty means the right end (None)."""
    raw = (raw or "").strip().split(" ")[0]
    if not raw:
        return None
    if not raw.isdecimal() or int(raw) > 40:
        raise TavoloError("warlord.ui.bad_position", value=raw[:12])
    return int(raw)


# ---------------------------------------------------------------------------- lists from the pack
def deck_choices(content: dict[str, Any] | None, current: str, lang: str) -> list[Choice]:
    """``/warlord deck``: the decks of the table's pack (the built-in one when ``content`` is None)."""
    return choices.deck_choices(pack_for(content), current, lang)


def card_choices(view: State | None, seat: int | None, content: dict[str, Any] | None, current: str,
                 lang: str) -> list[Choice]:
    """``/warlord card``: in a game, every card this seat may see; before one, the pack's catalogue."""
    if view is not None:
        return orders.card_choices(view, seat, current, lang)
    pack = pack_for(content)
    return rank([Ranked(Choice(text.card_short(d, lang), d.name)) for d in pack.cards], current)


# ---------------------------------------------------------------------------- orders
def attack(view: State, seat: int | None, attacker: str) -> dict[str, Any]:
    return {"kind": "attack", "attacker": choices.pick_card(
        view, [a.attacker for a in choices.legal(view, seat) if isinstance(a, A.Attack)] + list(view.chars), attacker,
        "character")}


def strike(view: State, seat: int | None, target: str) -> dict[str, Any]:
    return {"kind": "strike", "target": choices.pick_card(
        view, [a.target for a in choices.legal(view, seat) if isinstance(a, A.Strike)] + list(view.chars), target,
        "character")}


def recruit(view: State, seat: int | None, card: str, where: str | None) -> dict[str, Any]:
    """A character of the hand; a legal recruit wins a shared name, the rest of the hand lets the
    engine say why that one may not enter now."""
    return {"kind": "recruit", "position": position(where), "card": choices.pick_card(
        view, [a.card for a in choices.legal(view, seat) if isinstance(a, A.Recruit)] + list(
            view.player(seat).hand if seat is not None else []), card)}


def equip(view: State, seat: int | None, item: str, on: str) -> dict[str, Any]:
    """The item first (legal ones, then the hand), then a host that may carry that item (then any)."""
    options = [a for a in choices.legal(view, seat) if isinstance(a, A.Equip)]
    hand = list(view.player(seat).hand) if seat is not None else []
    uid = choices.pick_card(view, [a.item for a in options] + hand, item)
    host = choices.pick_card(view, [a.host for a in options if a.item == uid] + list(view.chars), on, "character")
    return {"kind": "equip", "item": uid, "host": host}


def play_order(view: State, seat: int | None, card: str, by: str, mode: str | None,
                target: str | None) -> dict[str, Any]:
    """An Order card of the hand, who performs it, which of its orders, and the target among those
    that order allows."""
    options = [a for a in choices.legal(view, seat) if isinstance(a, A.PlayOrder)]
    hand = list(view.player(seat).hand) if seat is not None else []
    uid = choices.pick_card(view, [a.card for a in options] + hand, card)
    mine = [a for a in options if a.card == uid]
    who = choices.pick_card(view, [a.performer for a in mine] + list(view.chars), by, "character")
    k = choices.parse_mode(mode)
    chosen = [a for a in mine if a.performer == who and a.ability == k]
    return {"kind": "play_order", "card": uid, "ability": k, "performer": who,
            "target": choices.resolve_target(view, chosen, target, strict=True)}


def use_order(view: State, seat: int | None, source: str, by: str | None, target: str | None,
               marksmanship: str | None) -> dict[str, Any]:
    """An order printed on a card or a feat order: a feat's performer defaults to the one who can."""
    src = choices.resolve_source(view, seat, source, strict=True)
    options = [a for a in choices.legal(view, seat) if isinstance(a, A.UseOrder) and a.source == src]
    who = choices.pick_card(view, [a.performer for a in options if a.performer] + list(view.chars),
                            by, "character") if by else None
    if who is None and src.startswith("feat:"):
        who = next((a.performer for a in options if a.performer), None)
    mark = choices._word_value("mark", choices.MARKS, marksmanship) if marksmanship else None
    chosen = [a for a in options if (who is None or a.performer in (None, who)) and a.marksmanship == mark]
    return {"kind": "use_order", "source": src, "ability": options[0].ability if options else 0,
            "performer": who, "target": choices.resolve_target(view, chosen, target, strict=True),
            "marksmanship": mark or (marksmanship or None)}


def use_performer_choices(view: State, seat: int | None, source: str | None, current: str,
                          lang: str) -> list[Choice]:
    """``/warlord use by:``: who may perform the typed source's order."""
    return choices.performer_choices(view, seat, choices.resolve_source(view, seat, source or ""), current, lang,
                                     A.UseOrder)


def use_target_choices(view: State, seat: int | None, source: str | None, by: str | None, current: str,
                       lang: str) -> list[Choice]:
    """``/warlord use target:``: the targets of the typed source's order (by the typed performer)."""
    return choices.target_choices(view, seat, choices.resolve_source(view, seat, source or ""), by, None, current,
                                  lang, A.UseOrder)


def use_mark_choices(view: State, seat: int | None, source: str | None, current: str, lang: str) -> list[Choice]:
    """``/warlord use marksmanship:``: what Marksmanship may change on the typed source's strike."""
    return choices.mark_choices(view, seat, choices.resolve_source(view, seat, source or ""), current, lang)


def maneuver(view: State, seat: int | None, char: str, to: str, where: str | None) -> dict[str, Any]:
    return {"kind": "maneuver", "to": choices.resolve_direction(to), "position": position(where),
            "char": choices.pick_card(view, [a.char for a in choices.legal(view, seat)
                                             if isinstance(a, A.Maneuver)] + list(view.chars), char, "character")}


def pass_now(view: State, seat: int | None) -> dict[str, Any]:
    """``/warlord pass``: in a reaction window this seat is asked in, passing is passing the window."""
    decision = ENGINE.decision(view)
    if decision is not None and decision.kind == "react" and seat in decision.seats:
        return {"kind": "pass_react", "yield_for": "none"}
    return {"kind": "pass"}


def react(view: State, seat: int | None, source: str, by: str | None, target: str | None) -> dict[str, Any]:
    """A react that fits the open window (``orders.resolve_react``), with the target as typed."""
    action = orders.resolve_react(view, seat, source, by)
    if target:
        action["target"] = target
    return action


def reform(view: State, seat: int | None, char: str, where: str | None) -> dict[str, Any]:
    return {"kind": "reform", "position": position(where), "char": choices.pick_card(
        view, [a.char for a in choices.legal(view, seat) if isinstance(a, A.Reform)] + list(view.chars), char,
        "character")}
