"""Words for the Mage Knight pictures: translations the bundled font can draw, effect names,
short enemy names and player names.

Every text this package draws goes through :func:`plain`: the kit's font (a DejaVu subset)
draws Italian accents and the signs we use, and anything it still lacks (an emoji in a
player's name) is written without its marks, or as "?", never as an empty box.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from common.i18n import t
from engines.mageknight.content import Effect
from engines.mageknight.state import CombatEnemy, State
from renderers.kit_glyphs import drawable

_FOLD = str.maketrans({"✓": "", "✗": ""})  # the verdict is drawn as a sign of its own


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """``text`` with only characters the font can draw (``kit_glyphs.drawable``), once the
    verdict signs that are drawn as shapes of their own are taken out."""
    return drawable(text.translate(_FOLD))


def tr(key: str, lang: str, **params: Any) -> str:
    """A translation, drawable (see :func:`plain`); remembered, as a board asks for ~60 and most repeat
    from one picture to the next (the catalogs are read once per process anyway)."""
    try:
        return _tr(key, lang, tuple(params.items()))
    except TypeError:  # a parameter that cannot be a key
        return plain(t(key, lang, **params))


@lru_cache(maxsize=8192)
def _tr(key: str, lang: str, params: tuple[tuple[str, Any], ...]) -> str:
    return plain(t(key, lang, **dict(params)))


# -- effects ---------------------------------------------------------------------------


def effect_text(effect: Effect, lang: str) -> str:
    """"Ranged Fire Attack 3", "Block 4 (x2 vs swift)", "Move 2": one printed option."""
    if effect.kind == "gain_mana":
        colours = ", ".join(tr(f"render.mk.colour.{c}", lang) for c in effect.colours)
        return tr("render.mk.effect.gain_mana", lang, amount=effect.amount, colours=colours)
    text = tr(f"render.mk.effect.{effect.combat_kind}", lang, amount=effect.amount)
    if effect.swift_double:
        text += " " + tr("render.mk.effect.swift_double", lang)
    return text


def effects_text(effects: Iterable[Effect], lang: str) -> str:
    """Alternatives, as printed: "Attack 2 or Block 2"."""
    return tr("render.mk.or", lang).join(effect_text(e, lang) for e in effects)


# -- names -----------------------------------------------------------------------------


def short_names(state: State, lang: str = "en") -> dict[str, str]:
    """A short label per enemy for small tokens: its first word, or as many leading words as
    tell it apart from the other enemies of the combat (``Cinder`` vs ``Cinder Drake``);
    a numbered duplicate keeps its number ("Tusk 2"). Leading words are also a prefix the
    commands accept, so the label is something players can type."""
    split: dict[str, tuple[list[str], str]] = {}
    for enemy in state.enemies:
        words = plain(enemy.local_name(lang)).split() or ["?"]
        number = words.pop() if len(words) > 1 and words[-1].isdecimal() else ""
        split[enemy.uid] = (words, number)
    result: dict[str, str] = {}
    for uid, (words, number) in split.items():
        others = [w for u, (w, _n) in split.items() if u != uid and w != words]
        n = next((n for n in range(1, len(words) + 1) if all(o[:n] != words[:n] for o in others)), len(words))
        result[uid] = " ".join([*words[:n], number]).strip()
    return result


def player_name(state: State, seat: int, seat_names: Mapping[int, str] | None) -> str:
    """The name people know a seat by (the Discord display name when the caller has it)."""
    if seat_names and seat in seat_names:
        return plain(str(seat_names[seat]))
    for player in state.players:
        if player.seat == seat:
            return plain(player.name or str(seat))
    return str(seat)


def to_act(name: str, lang: str) -> str:
    """"Tocca ad alice", "Tocca a bob" (``common.i18n`` writes Italian's euphonic d before the same vowel)."""
    return tr("render.mk.to_act", lang, name=name)


def enemy_names(state: State, uids: Iterable[str], lang: str = "en") -> str:
    """"Tusk Raiders + Warg Lancers": a target group as the column panel names it."""
    by_uid: dict[str, CombatEnemy] = {e.uid: e for e in state.enemies}
    return " + ".join(plain(by_uid[u].local_name(lang)) for u in uids if u in by_uid)
