"""Reading a card or a target a Warlord player typed, and the refusal when it fits nothing, or several.

Split from ``choices`` (which keeps the autocomplete lists) because the rules of a refusal grew: the
choices a refusal lists are only the legal ones (a playtester was offered the opponent's characters as
attackers, and items as recruits), a name that fits several characters that differ is asked about
rather than guessed, and a non-card target (Stealth's "army:0") reads as an army.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any

from common.i18n import Phrase, t
from engines.core.errors import TavoloError
from engines.warlord.rules_common import add_italian_names, italian_names
from engines.warlord.state import State
from gm.games.names import ECHO, Name, NameKeys, echo, find, listing
from gm.games.warlord import text

NAME_KEYS = NameKeys(unknown="common.unknown_name", ambiguous="common.ambiguous_name")
CHOSEN: ContextVar[list[str] | None] = ContextVar("warlord_twin_notes", default=None)
"""Where ``pick_card`` notes which of identical copies it took, for a command that collects the notes
(``collect_notes``): the player is told which one, privately, beside the public result."""


def collect_notes() -> list[str]:
    """Start collecting the notes of this command (in its own task, so commands never mix them)."""
    notes: list[str] = []
    CHOSEN.set(notes)
    return notes


def army_ref_label(view: State, ref: str, lang: str) -> str | None:
    """Stealth's target ``army:<seat>`` in words ("alice's army"), or None for anything else."""
    head, _, seat = ref.partition(":")
    if head != "army" or not seat.isdecimal():
        return None
    return t("warlord.ui.army_target", lang, name=text.player_name(view, int(seat)))


def army_ref(view: State, refs: Iterable[str], typed: str) -> str | None:
    """A non-card legal target typed as offered ("army:0"), as its label in either language, or as the
    player's name; None when ``typed`` is none of these."""
    refs = [r for r in refs if army_ref_label(view, r, "en")]
    if typed in refs:
        return typed
    names = [Name(r, army_ref_label(view, r, "en") or r,
                  (army_ref_label(view, r, "it") or r, text.player_name(view, int(r.split(":")[1])))) for r in refs]
    _tier, found = find(typed, names)
    return found[0].value if len(found) == 1 else None


def _signature(view: State, uid: str) -> tuple[Any, ...]:
    """What tells two copies of a card apart for the rules: where they stand, their state, wounds, items and
    bonuses. Only the place within a rank is left out: copies that differ in that alone are the same choice."""
    c = view.chars.get(uid)
    if c is None:
        return (view.cards[uid].card,)
    spot = text.where(view, uid)
    dumped = c.model_dump(exclude={"uid", "items", "attached", "scribed"})
    cards = tuple(tuple(sorted(view.cards[u].card for u in group if u in view.cards))
                  for group in (c.items, c.attached, c.scribed))
    return view.cards[uid].card, spot[1] if spot else None, repr(sorted(dumped.items())), cards


def _names(view: State, pool: list[str]) -> dict[str, Name]:
    found: dict[str, Name] = {}
    for u in pool:
        d = view.defn(u)
        found.setdefault(d.name, Name(d.name, d.name, (d.name_it, d.id)))
    return found


def _refuse(view: State, key: str, typed: str, what: str, names: str, **more: Any) -> TavoloError:
    exc = TavoloError(key, name=echo(typed), what=Phrase(f"warlord.ui.what.{what}"), names=names, **more)
    add_italian_names(exc.params, italian_names(view))  # the candidates in the reader's language too
    return exc


def pick_card(view: State, uids: Iterable[str], typed: str | None, what: str = "card", *,
              also: Iterable[str] = (), lang: str = "en") -> str:
    """A card named by what the player typed (issue 26: one resolver; a uid, the English or Italian name,
    any word or piece of it, a close typo). ``uids`` are the legal choices, ``also`` cards that may be
    named though they cannot act now: the engine's refusal then names the rule. A legal card wins a name
    both fit. A name that fits nothing is refused with the legal choices only; one that fits legal
    characters that differ (one spent, one wounded) is refused with them, told apart, never guessed."""
    typed = (typed or "").strip()
    legal = [u for u in dict.fromkeys(uids) if u in view.cards]
    extra = [u for u in dict.fromkeys(also) if u in view.cards and u not in legal]
    if typed in legal or typed in extra or not (legal or extra):
        return typed if len(typed) <= ECHO or typed in view.cards else echo(typed)
    legal_tier, legal_found = find(typed, _names(view, legal).values()) if legal else (None, [])
    extra_tier, extra_found = find(typed, _names(view, extra).values()) if extra else (None, [])
    if legal_found and (extra_tier is None or (legal_tier is not None and legal_tier <= extra_tier)):
        pool, found = legal, legal_found
    elif extra_found:
        pool, found = extra, extra_found
    else:  # the legal choices; when there are none, what may be named (the engine then says why it cannot act)
        raise _refuse(view, NAME_KEYS.unknown, typed, what, listing(_names(view, legal or extra).values()))
    if len(found) > 1:
        raise _refuse(view, NAME_KEYS.ambiguous, typed, what, listing(found))
    named = [u for u in pool if view.defn(u).name == found[0].value]
    groups = {_signature(view, u): u for u in reversed(named)}  # the leftmost copy of each kind
    if pool is extra or len(groups) == 1:
        notes = CHOSEN.get()
        if len(named) > 1 and named[0] in view.chars and notes is not None:
            notes.append(t("warlord.ui.twin_chosen", lang, name=echo(typed), chosen=text.tagged(view, named[0], lang)))
        return named[0]
    labels = [text.char_now(view, u, lang) if u in view.chars else text.shown(view, u, lang)
              for u in named if u in groups.values()]
    raise _refuse(view, "warlord.ui.twins", typed, what, "; ".join(labels))
