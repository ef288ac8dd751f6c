"""Paying mana (M45, M46): one Source die per turn, crystals, and tokens.

A powered card or a unit ability with a mana symbol needs one mana of its colour, named as
``die:<i>`` (0-based Source die), ``crystal:<colour>`` or ``token:<colour>``:

- Source dice: one per turn, taken when used (a combat is one turn). By day a gold die counts
  as any basic colour and black dice are depleted; by night gold is depleted and black mana
  powers only spells (none in v1), so a black die pays for nothing here.
- Crystals: at most 3 per colour in the inventory; one is spent as one mana of its colour.
- Tokens: from effects played this turn (Mana Spark); one token is one mana of its colour.

Everything is refunded by take back (no information was revealed, FR "Reverting").
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.mageknight.content import COLOURS
from engines.mageknight.state import State

MAX_CRYSTALS = 3  # per colour (M46)
ITALIAN_COLOURS = {"rosso": "red", "blu": "blue", "verde": "green", "bianco": "white"}


def _split(spec: str) -> tuple[str, str]:
    text = spec.strip().lower().replace(" ", "")
    source, _, detail = text.partition(":")
    if source in ("d", "dice", "dado"):
        source = "die"
    if source in ("cristallo", "crystals"):
        source = "crystal"
    if source in ("gettone", "tokens"):
        source = "token"
    detail = ITALIAN_COLOURS.get(detail, detail)
    if source not in ("die", "crystal", "token") or not detail:
        raise RuleError("mk.err.bad_mana", rule="mana-source", mana=spec[:30])
    return source, detail


def check_mana(state: State, spec: str, colour: str) -> None:
    """Raise unless ``spec`` can pay one ``colour`` mana now (M46)."""
    source, detail = _split(spec)
    if source == "die":
        try:
            index = int(detail)
        except ValueError:
            raise RuleError("mk.err.bad_mana", rule="mana-source", mana=spec[:30]) from None
        if not 0 <= index < len(state.source):
            raise RuleError("mk.err.no_such_die", rule="mana-source", die=index, dice=len(state.source))
        die = state.source[index]
        if die.used or state.source_used:
            raise RuleError("mk.err.one_die", rule="mana-source")  # M46: one Source die per turn
        if die.face == "black":
            if state.day:
                raise RuleError("mk.err.black_by_day", rule="mana-source")
            raise RuleError("mk.err.black_only_spells", rule="mana-source")
        if die.face == "gold":
            if not state.day:
                raise RuleError("mk.err.gold_at_night", rule="mana-source")
            return  # by day gold is any basic colour
        if die.face != colour:
            raise RuleError("mk.err.mana_colour", rule="mana-source", face=die.face, colour=colour,
                            face_key=f"mk.face.{die.face}", colour_key=f"mk.face.{colour}")
        return
    if detail not in COLOURS:
        raise RuleError("mk.err.bad_mana", rule="mana-source", mana=spec[:30])
    if detail != colour:
        raise RuleError("mk.err.mana_colour", rule="mana-source", face=detail, colour=colour,
                        face_key=f"mk.face.{detail}", colour_key=f"mk.face.{colour}")
    if source == "crystal" and state.hero.crystals.get(detail, 0) <= 0:
        raise RuleError("mk.err.no_crystal", rule="mana-source", colour=detail, colour_key=f"mk.face.{detail}")
    if source == "token" and detail not in state.hero.tokens:
        raise RuleError("mk.err.no_token", rule="mana-source", colour=detail, colour_key=f"mk.face.{detail}")


def normal(spec: str) -> str:
    """The stored form of a mana spec (``die:0``, ``crystal:red``)."""
    source, detail = _split(spec)
    return f"{source}:{int(detail) if source == 'die' else detail}"


def pay(state: State, spec: str, colour: str) -> str:
    """Check and spend; returns the normal form, kept on the staged part for a refund."""
    check_mana(state, spec, colour)
    spec = normal(spec)
    source, detail = spec.split(":")
    if source == "die":
        state.source[int(detail)].used = True
    elif source == "crystal":
        state.hero.crystals[detail] -= 1
    else:
        state.hero.tokens.remove(detail)  # type: ignore[arg-type]
    return spec


def refund(state: State, spec: str) -> None:
    source, detail = spec.split(":")
    if source == "die":
        state.source[int(detail)].used = False
    elif source == "crystal":
        state.hero.crystals[detail] = state.hero.crystals.get(detail, 0) + 1
    else:
        state.hero.tokens.append(detail)  # type: ignore[arg-type]


def mana_options(state: State, colour: str) -> list[str]:
    """Every spec that can pay ``colour`` now, for legal actions and autocomplete."""
    found: list[str] = []
    for index, _die in enumerate(state.source):
        try:
            check_mana(state, f"die:{index}", colour)
        except RuleError:
            continue
        found.append(f"die:{index}")
    if state.hero.crystals.get(colour, 0) > 0:
        found.append(f"crystal:{colour}")
    if colour in state.hero.tokens:
        found.append(f"token:{colour}")
    return found
