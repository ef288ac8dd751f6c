"""Krosmaster names as people type them, turned into the ids the engine keeps.

The board shows short labels ("SHA"), figurine names ("Shadow Rogue"), spell names, sides
and directions in the reader's language; the engine's actions carry ids ("1b", "fire_bolt",
"north", "S"). Everything here accepts any of those spellings, in English or Italian, or a
prefix, and answers an unknown or ambiguous name with the list of valid ones
(``gm.games.names``). The engine still re-checks every action.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from common.i18n import SUPPORTED, Phrase, catalog, humanize, t
from engines.core.errors import RuleError, TavoloError
from engines.core.square import parse_square
from engines.krosmaster import actions as A
from engines.krosmaster.content import name_in, pack_for
from engines.krosmaster.engine import KrosmasterEngine, spells_of
from engines.krosmaster.state import PieceState, RewardCard, RewardPile, State
from gm.games.krosmaster.info import BUILTIN_SPELLS, names_of, spell_name
from gm.games.names import Name, NameKeys, resolve, resolve_many

ENGINE = KrosmasterEngine()
KEYS = NameKeys(unknown="km.ui.unknown_name", ambiguous="km.ui.ambiguous_name")
LANGS = SUPPORTED  # every value is accepted in every language we ship
DIRECTIONS = ("N", "E", "S", "W")
# Letters people use for a direction besides its name: Italian "O" (ovest) for west.
DIRECTION_LETTERS = {"O": "W"}
BUILTIN_NAMES = {catalog("en").get(f"km.info.spell_name.{s}", s): s for s in BUILTIN_SPELLS}  # "Punch" -> punch


def piece_label(state: State, piece_id: str, lang: str = "en") -> str:
    """"SHA (Shadow Rogue)", "SHA (Ladro delle Ombre)"; a summon also names its summoner (315)."""
    piece = state.pieces.get(piece_id)
    if piece is None:
        return piece_id
    summoner = state.pieces.get(piece.summoner or "")
    if summoner is not None:
        return f"{piece.short} ({name_in(piece.figurine, lang)} ← {summoner.short})"
    return f"{piece.short} ({name_in(piece.figurine, lang)})"


def piece_names(state: State, pieces: Iterable[PieceState], lang: str = "en") -> list[Name]:
    """Each piece by its short label and its figurine's name in every language."""
    return [Name(p.id, piece_label(state, p.id, lang), (p.short, *names_of(p.figurine))) for p in pieces]


def resolve_piece(state: State, text: str, pieces: Iterable[PieceState], *, what: str,
                  prefer: Iterable[str] = (), lang: str = "en") -> str:
    """A piece id from its short label, figurine name (either language), id or a prefix, among ``pieces``."""
    return resolve(text, piece_names(state, pieces, lang), what=Phrase(what), keys=KEYS, prefer=prefer)


def resolve_figurines(text: str, content: dict[str, Any] | None, lang: str = "en") -> list[str]:
    """``/km team``: figurine names (either language), ids or prefixes, separated by commas (or spaces)."""
    pack = pack_for(content)
    names = [Name(f.id, f"{name_in(f, lang)} ({f.id})" if _name_taken(f.name, pack.figurines) else name_in(f, lang),
                  (*names_of(f), f"{f.name} {f.version}" if f.version else ""))
             for f in pack.figurines]
    return resolve_many(text, names, what=Phrase("km.ui.what.figurine"), keys=KEYS)


def resolve_arena(text: str, content: dict[str, Any] | None, lang: str = "en") -> str:
    """The lobby's ``arena:`` option: an arena by its name in either language, its id, a word or a typo."""
    names = [Name(a.id, name_in(a, lang), (a.name, a.name_it)) for a in pack_for(content).arenas]
    return resolve(text, names, what=Phrase("km.ui.what.arena"), keys=KEYS)


def _name_taken(name: str, figurines: Iterable[Any]) -> bool:
    return sum(1 for f in figurines if f.name == name) > 1


def spell_names(state: State, piece: PieceState, lang: str = "en") -> list[Name]:
    return [Name(s.id, spell_name(s, lang), (*names_of(s), *(spell_name(s, other) for other in LANGS)))
            for s in spells_of(state, piece)]


def resolve_spell(state: State, text: str, lang: str = "en") -> str:
    """A spell of the active piece, from its name (either language for Punch) or its id."""
    piece = state.pieces.get(state.active_piece or "")
    if piece is None:
        return text.strip()  # the engine says that nobody is acting
    castable = {a.spell for a in ENGINE.legal_actions(state, state.active_seat) if isinstance(a, A.Cast)}
    return resolve(text, spell_names(state, piece, lang), what=Phrase("km.ui.what.spell", {"piece": piece.short}),
                   keys=KEYS, prefer=castable)


def try_spell(state: State, text: str | None, lang: str = "en") -> str | None:
    """The spell an autocomplete's other option names, or None when it names nothing yet."""
    if not text or state.active_piece is None:
        return None
    try:
        return resolve_spell(state, text, lang)
    except TavoloError:  # half typed: no spell yet
        return None


def direction_names(lang: str = "en") -> list[Name]:
    """N/E/S/W with their names in every language and the letters people use (O for ovest)."""
    letters = {d: [k for k, v in DIRECTION_LETTERS.items() if v == d] for d in DIRECTIONS}
    return [Name(d, t(f"km.dir.{d}", lang), (*(catalog(other).get(f"km.dir.{d}", d) for other in LANGS),
                                             *letters[d]))
            for d in DIRECTIONS]


def resolve_direction(text: str, lang: str = "en") -> str:
    upper = text.strip().upper()
    if upper in DIRECTIONS or upper in DIRECTION_LETTERS:
        return DIRECTION_LETTERS.get(upper, upper)
    return resolve(text, direction_names(lang), what=Phrase("km.ui.what.direction"), keys=KEYS)


def parse_target(state: State, text: str, lang: str = "en") -> tuple[str, str | None]:
    """``"D8 S"``, ``"d8 sud"``, ``"D8 — SHA …"`` (a copied label) or a piece's name → (square, direction).

    Text that is neither a square nor a piece goes to the engine as typed, which explains
    what a square looks like."""
    head = text.split("—", 1)[0].strip()
    first, _, rest = head.partition(" ")
    arena = state.board.arena
    try:
        parse_square(first.upper(), arena.width, arena.height)
    except (RuleError, ValueError):  # ValueError: digits int() refuses ("H⁸"); the engine says what is wrong
        in_play = [p for p in state.pieces.values() if p.in_play]
        for name, direction in ((head, ""), (first, rest)):
            try:
                piece = state.pieces[resolve_piece(state, name, in_play, what="km.ui.what.target")]
            except TavoloError:
                continue
            return piece.pos or first.upper(), resolve_direction(direction, lang) if direction.strip() else None
        return first.upper(), None
    return first.upper(), resolve_direction(rest, lang) if rest.strip() else None


def option_names(state: State, lang: str = "en") -> list[Name]:
    """The open question's answers, by value and by their label in every language."""
    decision = ENGINE.decision(state)
    if decision is None:
        return []
    names = []
    for option in decision.options:
        params = {other: named_params(state, option.params, other) for other in LANGS}
        labels = [t(option.label_key, other, **humanize(params[other], other, "km")) for other in LANGS]
        if "first" in option.params and "second" in option.params:  # dice faces: "critico armatura" as well
            labels += [f"{h['first']} {h['second']}" for h in (humanize(params[o], o, "km") for o in LANGS)]
        own = named_params(state, option.params, lang)
        names.append(Name(option.value, t(option.label_key, lang, **humanize(own, lang, "km")), tuple(labels)))
    return names


def resolve_option(state: State, text: str, lang: str = "en") -> str:
    names = option_names(state, lang)
    if not names:
        return text.strip()  # a question without closed options: the engine judges the value
    return resolve(text, names, what=Phrase("km.ui.what.option"), keys=KEYS)


def pile_label(pile: RewardPile, lang: str) -> str:
    """"Granite 1" rather than the pile's id ``granite1``."""
    number = pile.id.removeprefix(pile.rank.value)
    return f"{t(f'km.info.rank.{pile.rank.value}', lang)} {number}".strip()


def resolve_pile(state: State, seat: int | None, text: str, lang: str = "en") -> str:
    view = ENGINE.view(state, seat)
    names = [Name(p.id, pile_label(p, lang), (*(pile_label(p, other) for other in LANGS),
                                             *(names_of(p.top.reward) if p.top and p.top.reward else ())))
             for p in view.rewards.piles]
    return resolve(text, names, what=Phrase("km.ui.what.pile"), keys=KEYS)


def card_label(card: RewardCard | None, lang: str = "en") -> str:
    """A reward token as its reader sees it: its name, or "?" face down to them."""
    return name_in(card.reward, lang) if card is not None and card.reward is not None else "?"


def resolve_card(cards: Iterable[RewardCard], text: str, lang: str = "en") -> str:
    """A reward token by its name in either language (or id); the first matching token when two share a name."""
    names, seen = [], set()
    for card in cards:
        label = card_label(card, lang)
        if label in seen:
            continue
        seen.add(label)
        names.append(Name(card.id, label, names_of(card.reward) if card.reward is not None else ()))
    return resolve(text, names, what=Phrase("km.ui.what.reward"), keys=KEYS)


def localized(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """An event's or an option's parameters with each content name in the reader's language: the
    engine gives a pack name (``spell_name``, ``reward``, ``figurine``…) with its Italian beside it
    (``spell_name_it``), empty when the pack has none, so the English name stands (issue 26.10)."""
    if lang == "en":
        return params
    suffix = f"_{lang}"
    return {k: params.get(k + suffix) or v if not k.endswith(suffix) else v for k, v in params.items()}


def named_params(state: State, params: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """Parameters that carry a piece id ("0b") carry its short label instead ("SHA"), and content
    names are in the reader's language."""
    return {k: state.pieces[v].short if isinstance(v, str) and v in state.pieces and k in ("piece", "source",
                                                                                             "target") else v
            for k, v in localized(params, lang).items()}


def name_error(exc: RuleError, state: State | None, lang: str) -> RuleError:
    """An engine error reads like the board: a piece id ("1b") becomes "SHA (Shadow Rogue)",
    directions ("S", ["N", "S"]) their names in the reader's language, Punch its translated
    name, lists a plain enumeration. The rule reference is kept."""
    def word(value: Any) -> Any:
        if isinstance(value, str) and value in DIRECTIONS:
            return t(f"km.dir.{value}", lang)
        if isinstance(value, str) and "," in value and all(v.strip() in DIRECTIONS for v in value.split(",")):
            return ", ".join(t(f"km.dir.{v.strip()}", lang) for v in value.split(","))  # "N, S"
        return value

    for key, value in list(exc.params.items()):
        if key == "piece" and state is not None and isinstance(value, str) and value in state.pieces:
            exc.params[key] = piece_label(state, value, lang)
        elif key == "spell" and isinstance(value, str) and value in BUILTIN_NAMES:
            exc.params[key] = t(f"km.info.spell_name.{BUILTIN_NAMES[value]}", lang)
        elif key == "spell" and isinstance(value, str) and state is not None:  # the pack's name, as read
            exc.params[key] = _spell_called(state, value, lang)
        elif isinstance(value, list | tuple):
            exc.params[key] = ", ".join(str(word(v)) for v in value)
        elif key in ("direction", "options"):
            exc.params[key] = word(value)
        elif key == "known" and isinstance(value, str) and state is not None:  # 103.10b: a piece's own powers
            exc.params[key] = ", ".join(_power_called(state, part, lang) for part in value.split(", "))
    return exc


def _power_called(state: State, name: str, lang: str) -> str:
    """A custom power an engine error names by its pack name (the fight-start powers to order, 103.10b),
    in the reader's language; any other word is kept."""
    for piece in state.pieces.values():
        for power in piece.figurine.custom_powers:
            if power.name == name:
                return name_in(power, lang)
    return name


def _spell_called(state: State, name: str, lang: str) -> str:
    """A spell an engine error names by its pack name, in the reader's language: the spells of the
    pieces in play are searched (the active piece's first), the name is kept when none has it."""
    pieces = [state.pieces[state.active_piece]] if state.active_piece in state.pieces else []
    for piece in [*pieces, *state.pieces.values()]:
        for spell in piece.figurine.spells:
            if spell.name == name:
                return spell_name(spell, lang)
    return name
