"""Warlord reacts, yields, stops, the orders menu and card lists: the second half of the autocomplete
(``gm.games.warlord.choices`` has the basics), all from ``legal_actions`` on the seat's own ``view``."""

from __future__ import annotations

from typing import Any

from common.i18n import t
from engines.core.contract import Action
from engines.core.errors import TavoloError
from engines.warlord import actions as A
from engines.warlord.rules_common import atk_values
from engines.warlord.rules_windows import STOP_KINDS
from engines.warlord.state import State
from gm.games.choices import Choice, Ranked, fit, matches, rank
from gm.games.names import echo, fold
from gm.games.warlord import text
from gm.games.warlord.choices import (
    NONE_WORDS,
    YIELDS,
    _of,
    _split,
    _target_label,
    _word_value,
    legal,
    names_list,
    pick_card,
    resolve_card,
    resolve_source,
)

__all__ = ["resolve_card"]


# ---------------------------------------------------------------------------- reacts
def react_label(view: State, a: A.React, lang: str) -> str:
    who = text.tagged(view, a.performer, lang) if a.performer else ""
    if a.source.startswith("feat:"):
        feat = a.source[5:]
        bonus = view.defn(a.performer).feats.get(feat) if a.performer in view.cards else None
        head = text.word("feat", feat, lang) + (f" +{bonus}" if bonus else "")
        return fit([t("warlord.ui.react_by", lang, what=head, name=who), t("warlord.ui.feat_dc", lang)])
    d = view.defn(a.source)
    return fit([t("warlord.ui.react_by", lang, what=d.shown(lang), name=who), text.card_text(d, lang)])


def react_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _of(view, seat, A.React):
        assert view is not None
        value = encode_react(a)
        spelled = text.aliases(view, a.source) if a.source in view.cards else (
            a.source[5:], *(text.word("feat", a.source[5:], x) for x in ("en", "it")))
        found.setdefault(value, Ranked(Choice(react_label(view, a, lang), value), (), spelled))
    return rank(found.values(), current)


def encode_react(a: A.React) -> str:
    return "|".join([a.source, str(a.ability), a.performer or ""])


def resolve_react(view: State, seat: int | None, typed: str, by: str | None, lang: str = "en") -> dict[str, Any]:
    """A react typed as offered (``source|ability|performer``), as a card or feat name, or a uid."""
    options = _of(view, seat, A.React)
    parts = typed.split("|")
    if len(parts) == 3 and parts[1].isdecimal():
        return {"kind": "react", "source": parts[0], "ability": int(parts[1]), "performer": parts[2] or None}
    source = resolve_source(view, seat, typed, A.React, strict=True, lang=lang)
    chosen = [a for a in options if a.source == source]
    if by:
        who = pick_card(view, [a.performer for a in chosen if a.performer], by, "character", also=view.chars,
                        lang=lang)
        chosen = [a for a in chosen if a.performer == who] or chosen
    first = chosen[0] if chosen else None
    return {"kind": "react", "source": source, "ability": first.ability if first else 0,
            "performer": first.performer if first else (by or None)}


def yield_choices(current: str, lang: str) -> list[Choice]:
    return rank([Ranked(Choice(text.word("yield", y, lang), y), (k,)) for k, y in enumerate(YIELDS)], current)


def resolve_yield(typed: str) -> str:
    """window, attack or turn, in either language as autocomplete shows them."""
    found = _word_value("yield", YIELDS, typed)
    if found is None:
        raise TavoloError("warlord.ui.bad_yield", value=echo(typed))
    return found


def stop_choices(current: str, lang: str) -> list[Choice]:
    """The moments of ``react_prompts: stops``, comma-separated, in the reader's words."""
    done, last = _split(current)
    chosen = [_word_value("trigger", STOP_KINDS, d) for d in done]
    head = [Choice(t("warlord.ui.no_stops", lang), "none")] if not (current or "").strip() else []
    found = []
    for order, kind in enumerate(STOP_KINDS):
        label = text.word("trigger", kind, lang)
        if kind in chosen or (last and not matches(last, kind, label)):
            continue
        value = ", ".join([*done, kind])
        shown = ", ".join([*(text.word("trigger", c, lang) for c in chosen if c), label])
        found.append(Ranked(Choice(shown[:100], value[:100]), (order,)))
    return head + rank(found, "")[:24]


def resolve_stops(typed: str | None) -> list[str]:
    names = names_list(typed)
    if not names or fold(names[0]) in NONE_WORDS:
        return []
    out = []
    for name in names:
        kind = _word_value("trigger", STOP_KINDS, name)
        out.append(kind or name)  # the engine words an unknown one, with the list of moments
    return out


# ---------------------------------------------------------------------------- cards and orders menu
def card_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Every card this seat may see: its hand, everything in play, the discard piles."""
    if view is None:
        return []
    mine = set(view.player(seat).hand) if seat is not None else set()
    found = {}
    for uid in view.cards:
        d = view.defn(uid)
        order = (0 if uid in mine else 1, d.shown(lang))
        found.setdefault(d.id, Ranked(Choice(text.card_short(d, lang), d.name), order, text.aliases(view, uid)))
    return rank(found.values(), current)


def encode_order(a: Action) -> str:
    """An order as a select value (at most 100 characters: uids are short)."""
    if isinstance(a, A.Attack):
        return f"attack|{a.attacker}"
    if isinstance(a, A.Recruit):
        return f"recruit|{a.card}"
    if isinstance(a, A.Equip):
        return f"equip|{a.item}|{a.host}"
    if isinstance(a, A.Maneuver):
        return f"move|{a.char}|{a.to}"
    if isinstance(a, A.Strike):
        return f"strike|{a.target}"
    if isinstance(a, A.PlayOrder):
        return f"play|{a.card}|{a.ability}|{a.performer}|{a.target or ''}"
    if isinstance(a, A.UseOrder):
        return f"use|{a.source}|{a.ability}|{a.performer or ''}|{a.target or ''}|{a.marksmanship or ''}"
    return "pass"


def decode_order(value: str) -> dict[str, Any]:
    p = value.split("|")
    kind = p[0]
    if kind == "attack" and len(p) == 2:
        return {"kind": "attack", "attacker": p[1]}
    if kind == "strike" and len(p) == 2:
        return {"kind": "strike", "target": p[1]}
    if kind == "recruit" and len(p) == 2:
        return {"kind": "recruit", "card": p[1]}
    if kind == "equip" and len(p) == 3:
        return {"kind": "equip", "item": p[1], "host": p[2]}
    if kind == "move" and len(p) == 3:
        return {"kind": "maneuver", "char": p[1], "to": p[2]}
    if kind == "play" and len(p) == 5:
        return {"kind": "play_order", "card": p[1], "ability": int(p[2] or 0), "performer": p[3],
                "target": p[4] or None}
    if kind == "use" and len(p) == 6:
        return {"kind": "use_order", "source": p[1], "ability": int(p[2] or 0), "performer": p[3] or None,
                "target": p[4] or None, "marksmanship": p[5] or None}
    return {"kind": "pass"}


def order_label(view: State, a: Action, lang: str) -> str:
    """One legal order in words, for the orders menu and the panel."""
    if isinstance(a, A.Attack):
        return t("warlord.ui.order.attack", lang, name=text.tagged(view, a.attacker, lang),
                 n=len(atk_values(view, a.attacker)))
    if isinstance(a, A.Recruit):
        return t("warlord.ui.order.recruit", lang, name=text.shown(view, a.card, lang), n=view.defn(a.card).level)
    if isinstance(a, A.Equip):
        return t("warlord.ui.order.equip", lang, name=text.shown(view, a.item, lang),
                 host=text.tagged(view, a.host, lang))
    if isinstance(a, A.Maneuver):
        return t("warlord.ui.order.move", lang, name=text.tagged(view, a.char, lang), to=text.word("dir", a.to, lang))
    if isinstance(a, A.PlayOrder):
        return fit([t("warlord.ui.order.play", lang, name=text.shown(view, a.card, lang),
                      by=text.tagged(view, a.performer, lang)),
                    short_target(view, a.target, lang) if a.target else ""])
    if isinstance(a, A.UseOrder):
        src = text.word("feat", a.source[5:], lang) if a.source.startswith("feat:") else text.tagged(
            view, a.source, lang) if a.source in view.chars else text.shown(view, a.source, lang)
        who = text.tagged(view, a.performer, lang) if a.performer else ""
        parts = [t("warlord.ui.order.use", lang, name=src) + (f" ({who})" if who else "")]
        if a.target:
            parts.append(short_target(view, a.target, lang))
        if a.marksmanship:
            parts.append(text.word("mark", a.marksmanship, lang))
        return fit(parts)
    return t("warlord.ui.order.pass", lang)


def short_target(view: State, target: str, lang: str) -> str:
    """A target as the board names it (its place only among twins): short enough that a label keeps it."""
    return text.tagged(view, target, lang) if target in view.chars else _target_label(view, target, lang)


def order_lines(view: State, seat: int | None, lang: str) -> list[str]:
    """The panel's orders, one line per order with its possible targets together ("Use Ember Hexer → Shieldwall
    Recruit (rank 1 #1), Tunnel Scout"): one entry per thing to do, never the same line once per target
    (issue 27.6). Attacks first, the pass last."""
    groups: dict[str, tuple[int, str, list[str]]] = {}
    for a in legal(view, seat):
        if a.kind not in ORDER_RANK:
            continue
        assert view is not None
        target = a.target if isinstance(a, (A.PlayOrder, A.UseOrder)) else None
        base = a.model_copy(update={"target": None}) if target else a
        entry = groups.setdefault(encode_order(base), (ORDER_RANK[a.kind], order_label(view, base, lang), []))
        label = short_target(view, target, lang) if target else ""
        if label and label not in entry[2]:
            entry[2].append(label)
    ordered = sorted(groups.values(), key=lambda e: e[0])
    return [head + (" → " + ", ".join(targets) if targets else "") for _, head, targets in ordered]


ORDER_RANK = {"attack": 0, "play_order": 1, "use_order": 2, "recruit": 3, "equip": 4, "maneuver": 5, "pass": 9}


def order_choices(view: State | None, seat: int | None, lang: str) -> list[Choice]:
    """Every legal order (the menu behind "Orders…"): attacks first, the pass last."""
    found = []
    for a in legal(view, seat):
        if a.kind in ORDER_RANK:
            assert view is not None
            found.append(Ranked(Choice(order_label(view, a, lang)[:100], encode_order(a)), (ORDER_RANK[a.kind],)))
    return rank(found, "", limit=None)


def piece_choices(view: State, current: str, lang: str = "en") -> list[Choice]:
    """Characters in play for ``/gm``, named as the board shows them."""
    return rank([Ranked(Choice(text.char_now(view, u, lang), u), (), text.aliases(view, u)) for u in view.chars],
                current)
