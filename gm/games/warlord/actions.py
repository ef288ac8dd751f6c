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
from gm.games.names import echo
from gm.games.warlord import choices, orders, text

__all__ = ["MAX_PACK_BYTES", "attack", "card_choices", "deck_choices", "equip", "maneuver", "pass_now", "play_order",
           "position", "react", "recruit", "reform", "strike", "use_mark_choices", "use_order",
           "use_performer_choices", "use_target_choices"]


def position(raw: str | None, last: int | None = None) -> int | None:
    """A place in a rank, counted from the left, as typed ("3", or an autocomplete label "3 · …");
    empty means the right end (None). ``last``: the right end's number, which the refusal gives (a
    playtester read "a number from 0 (left end)." and never learnt how far it goes)."""
    raw = (raw or "").strip().split(" ")[0]
    if not raw:
        return None
    if not raw.isdecimal() or int(raw) > 40:
        if last is None:
            raise TavoloError("warlord.ui.bad_position_any", value=echo(raw))
        raise TavoloError("warlord.ui.bad_position", value=echo(raw), last=last)
    return int(raw)


def _row_end(view: State, army: int, rank: int, leaving: str | None = None) -> int | None:
    """The number of the right end of rank ``rank`` of ``army`` (0 when empty), ``leaving`` not counted."""
    if rank < 1 or not any(p.seat == army for p in view.players):
        return None
    ranks = view.player(army).ranks
    return len([u for u in (ranks[rank - 1] if rank <= len(ranks) else []) if u != leaving])


def _asked(view: State, seat: int | None) -> bool:
    """Whether this seat is the one the game waits for. If not, the typed names are not read: the table
    answers "not your turn" (a name checked first would be refused as unknown, which is not the problem)."""
    decision = ENGINE.decision(view)
    return seat is not None and decision is not None and seat in decision.seats


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
def _legal(view: State, seat: int | None, kind: type[Any]) -> list[Any]:
    return [a for a in choices.legal(view, seat) if isinstance(a, kind)]


def _hand(view: State, seat: int | None) -> list[str]:
    return list(view.player(seat).hand) if seat is not None else []


def attack(view: State, seat: int | None, attacker: str, lang: str = "en") -> dict[str, Any]:
    """A ready character that may attack now; any other character goes to the engine, which says why not."""
    if not _asked(view, seat):
        return {"kind": "attack", "attacker": attacker}
    return {"kind": "attack", "attacker": choices.pick_card(
        view, [a.attacker for a in _legal(view, seat, A.Attack)], attacker, "character", also=view.chars, lang=lang)}


def strike(view: State, seat: int | None, target: str, lang: str = "en") -> dict[str, Any]:
    if not _asked(view, seat):
        return {"kind": "strike", "target": target}
    return {"kind": "strike", "target": choices.pick_card(
        view, [a.target for a in _legal(view, seat, A.Strike)], target, "character", also=view.chars, lang=lang)}


def recruit(view: State, seat: int | None, card: str, where: str | None, lang: str = "en") -> dict[str, Any]:
    """A character of the hand; a legal recruit wins a shared name, the rest of the hand lets the
    engine say why that one may not enter now."""
    if not _asked(view, seat):
        return {"kind": "recruit", "card": card}
    uid = choices.pick_card(view, [a.card for a in _legal(view, seat, A.Recruit)], card, also=_hand(view, seat),
                            lang=lang)
    level = view.defn(uid).level if uid in view.cards else 0
    return {"kind": "recruit", "card": uid,
            "position": position(where, _row_end(view, seat, level) if seat is not None else None)}


def equip(view: State, seat: int | None, item: str, on: str, lang: str = "en") -> dict[str, Any]:
    """The item first (legal ones, then the hand), then a host that may carry that item (then any)."""
    if not _asked(view, seat):
        return {"kind": "equip", "item": item, "host": on}
    options = _legal(view, seat, A.Equip)
    uid = choices.pick_card(view, [a.item for a in options], item, also=_hand(view, seat), lang=lang)
    host = choices.pick_card(view, [a.host for a in options if a.item == uid], on, "character", also=view.chars,
                             lang=lang)
    return {"kind": "equip", "item": uid, "host": host}


def play_order(view: State, seat: int | None, card: str, by: str, mode: str | None,
               target: str | None, lang: str = "en") -> dict[str, Any]:
    """An Order card of the hand, who performs it, which of its orders, and the target among those
    that order allows."""
    if not _asked(view, seat):
        return {"kind": "play_order", "card": card, "performer": by}
    options = _legal(view, seat, A.PlayOrder)
    uid = choices.pick_card(view, [a.card for a in options], card, also=_hand(view, seat), lang=lang)
    mine = [a for a in options if a.card == uid]
    who = choices.pick_card(view, [a.performer for a in mine], by, "character", also=view.chars, lang=lang)
    k = choices.parse_mode(mode)
    chosen = [a for a in mine if a.performer == who and a.ability == k]
    return {"kind": "play_order", "card": uid, "ability": k, "performer": who,
            "target": choices.resolve_target(view, chosen, target, strict=True, lang=lang)}


def use_order(view: State, seat: int | None, source: str, by: str | None, target: str | None,
              marksmanship: str | None, lang: str = "en") -> dict[str, Any]:
    """An order printed on a card or a feat order: a feat's performer defaults to the one who can."""
    if not _asked(view, seat):
        return {"kind": "use_order", "source": source}
    src = choices.resolve_source(view, seat, source, strict=True, lang=lang)
    options = [a for a in _legal(view, seat, A.UseOrder) if a.source == src]
    who = choices.pick_card(view, [a.performer for a in options if a.performer], by, "character",
                            also=view.chars, lang=lang) if by else None
    if who is None and src.startswith("feat:"):
        who = next((a.performer for a in options if a.performer), None)
    mark = choices._word_value("mark", choices.MARKS, marksmanship) if marksmanship else None
    chosen = [a for a in options if (who is None or a.performer in (None, who)) and a.marksmanship == mark]
    return {"kind": "use_order", "source": src, "ability": options[0].ability if options else 0,
            "performer": who, "target": choices.resolve_target(view, chosen, target, strict=True, lang=lang),
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


def maneuver(view: State, seat: int | None, char: str, to: str, where: str | None,
             lang: str = "en") -> dict[str, Any]:
    if not _asked(view, seat):
        return {"kind": "maneuver", "char": char, "to": "forward"}
    uid = choices.pick_card(view, [a.char for a in _legal(view, seat, A.Maneuver)], char, "character",
                            also=view.chars, lang=lang)
    way = choices.resolve_direction(to)
    spot = text.where(view, uid) if uid in view.chars else None
    end = None
    if spot is not None:
        rank = spot[1] + {"forward": -1, "back": 1, "same": 0}[way]
        end = _row_end(view, view.chars[uid].army_of, rank, leaving=uid)
    return {"kind": "maneuver", "char": uid, "to": way, "position": position(where, end)}


def pass_now(view: State, seat: int | None) -> dict[str, Any]:
    """``/warlord pass``: in a reaction window this seat is asked in, passing is passing the window."""
    decision = ENGINE.decision(view)
    if decision is not None and decision.kind == "react" and seat in decision.seats:
        return {"kind": "pass_react", "yield_for": "none"}
    return {"kind": "pass"}


def react(view: State, seat: int | None, source: str, by: str | None, target: str | None,
          lang: str = "en") -> dict[str, Any]:
    """A react that fits the open window (``orders.resolve_react``), with the target as typed."""
    if not _asked(view, seat):
        return {"kind": "react", "source": source}
    action = orders.resolve_react(view, seat, source, by, lang)
    if target:
        action["target"] = target
    return action


def reform(view: State, seat: int | None, char: str, where: str | None, lang: str = "en") -> dict[str, Any]:
    """A character of an illegal rank, and its place in the rank in front."""
    if not _asked(view, seat):
        return {"kind": "reform", "char": char}
    uid = choices.pick_card(view, [a.char for a in _legal(view, seat, A.Reform)], char, "character",
                            also=view.chars, lang=lang)
    spot = text.where(view, uid) if uid in view.chars else None
    end = _row_end(view, view.chars[uid].army_of, spot[1] - 1) if spot is not None else None
    return {"kind": "reform", "char": uid, "position": position(where, end)}
