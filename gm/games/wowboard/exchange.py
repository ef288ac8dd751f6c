"""What ``/wowb trade`` and ``/wowb bid`` need from the engine (items.7, events.3), read from the seat's own view
so an autocomplete never lists a card or a bid the rules would refuse, nor another seat's sealed bid."""

from __future__ import annotations

from typing import Any

from engines.core.errors import TavoloError
from engines.wowboard import actions as A
from engines.wowboard.rules_trade import trade_candidates, tradeable_items
from engines.wowboard.state import State
from gm.games.choices import Choice
from gm.games.wowboard import choices, text


def _trades(view: State, seat: int | None, char: str | None = None) -> list[A.Trade]:
    """The seat's legal trades now (``rules_trade.trade_candidates``: in the faction turn and in the management
    step, where ``legal_actions`` leaves them out so that the step can pass by itself)."""
    if seat is None or view.pending:
        return []
    return [a for a in trade_candidates(view, seat) if not char or a.character == char]


def trader_choices(view: State, seat: int | None, current: str, lang: str = "en") -> list[Choice]:
    """items.7: the seat's characters that may trade now (they have acted, a friend stands with them)."""
    found = dict.fromkeys(a.character for a in _trades(view, seat))
    return choices._pick([(text.char_label(view, c, lang=lang), c) for c in found], current)


def partner_choices(view: State, seat: int | None, char: str | None, current: str, lang: str = "en") -> list[Choice]:
    """items.7: the friendly characters in the trader's region."""
    found = dict.fromkeys(a.partner for a in _trades(view, seat, char))
    return choices._pick([(text.char_label(view, c, lang=lang), c) for c in found], current)


def item_choices(view: State, seat: int | None, char: str | None, partner: str | None, current: str,
                 lang: str = "en", theirs: bool = False) -> list[Choice]:
    """The Bag items that may change hands (not soulbound, never powers nor equipped cards): the trader's own,
    or with ``theirs`` the partner's; nothing when the trader may not trade now."""
    trades = _trades(view, seat, char)
    if not trades:
        return []
    owner = char
    if theirs:
        try:
            owner = choices.resolve(view, sorted({a.partner for a in trades}), partner or "", "character", lang)
        except TavoloError:
            return []
    if owner is None or owner not in view.characters:
        return []
    return choices._pick([(text.name(view, i, lang), i) for i in tradeable_items(view, view.characters[owner])],
                         current)


def trade(view: State, seat: int | None, character: str, partner: str, give: str | None, gold: int | None,
          take: str | None, take_gold: int | None, lang: str = "en") -> dict[str, Any]:
    """The ``trade`` action from typed names; the engine checks the rest (and says why in words)."""
    char = choices.resolve_character(view, seat, character, lang)
    friends = [c.id for c in view.characters.values() if c.id != char and c.faction == view.characters[char].faction]
    other = choices.resolve(view, friends, partner, "character", lang) if friends else partner.strip()
    return {"kind": "trade", "character": char, "partner": other,
            "give": choices.resolve_cards(view, give, view.characters[char].bag, lang),
            "gold": max(0, gold or 0),
            "take": choices.resolve_cards(view, take, view.characters[other].bag if other in view.characters else [],
                                          lang),
            "take_gold": max(0, take_gold or 0)}


def bid_character_choices(view: State, seat: int | None, current: str, lang: str = "en") -> list[Choice]:
    """events.3: the seat's characters that may pay a bid, with their gold (public)."""
    found = dict.fromkeys(a.character for a in choices.legal(view, seat) if isinstance(a, A.Bid))
    return choices._pick([(f"{text.char_label(view, c, lang=lang)} · {view.characters[c].gold}", c) for c in found],
                         current)


def bid(view: State, seat: int | None, gold: int, character: str | None, lang: str = "en") -> dict[str, Any]:
    """The ``bid`` action: the named character, or the seat's richest one."""
    if character:
        char = choices.resolve_character(view, seat, character, lang)
    else:
        own = [c for c in view.characters.values() if c.seat == seat]
        if not own:
            raise TavoloError("wowboard.err.not_your_character", name="-")
        char = max(own, key=lambda c: c.gold).id
    return {"kind": "bid", "character": char, "gold": max(0, gold)}
