"""What a seat may see (spec 7.3): everything public, its own secrets, nobody else's.

Hidden from other seats (and from the public view, ``seat=None``): the unchosen pool, the secret
``choose_bar`` answers before everyone has answered, and the identity of face-down cards (``defn``
becomes None; id, facing, readiness and owner stay, so the back of the card can be drawn), the answers
other seats gave an open react window (only that they answered shows) and their comfort settings.
Dice, clocks, health, VP, buffs and counters are public.
"""

from __future__ import annotations

from engines.core import react_windows as RW
from engines.wowminis.state import CharState, State, WindowFrame


def hide(state: State, seat: int | None) -> State:
    """``seat``'s view of ``state`` (None: the public one).

    Why it copies only what it changes (issue 28): a view was a whole copy through JSON, ~1.3 ms of the
    event loop a move (a public view for the picture, and one per seat asked) for a position of which
    it changes a few cards. Now the view shares the map, the scenario, the effects and every character
    it shows unchanged with the state, and gets its own copy of each character, frame, player and
    limited table it changes. So a view is read-only and good until its state changes (the engine
    contract, docs/ARCHITECTURE.md §3): the table never changes a state it made a view from (a move
    applies to a fresh parse, ``gm.table.core``), and a caller that keeps a view across a move takes
    ``private_copy()``. A new field the view must change needs its copy here."""
    chars: dict[str, CharState] = {}
    for cid, char in state.chars.items():
        chars[cid] = char if seat in (char.controller, char.owner) else _backs_only(char)
    stack = [frame.model_copy(deep=True) if isinstance(frame, WindowFrame) else frame for frame in state.stack]
    for frame in stack:  # 701 note: an answer is secret until it takes effect; that a seat answered is not
        if isinstance(frame, WindowFrame):
            RW.hide_answers(frame, seat)
    players = [player if player.seat == seat or player.auto_pass == "never"  # comfort settings are one's own
               else player.model_copy(update={"auto_pass": "never"}) for player in state.players]
    view = state.model_copy(update={
        "pool": {s: cards for s, cards in state.pool.items() if s == seat},
        "bar_choices": {s: bars for s, bars in state.bar_choices.items() if s == seat},
        "chars": chars, "stack": stack, "players": players,
        "limited": state.limited.model_copy() if state.limited is not None else None,  # limited_draft.hide
    })
    return view


def _backs_only(char: CharState) -> CharState:
    """``char`` as a seat that neither controls nor owns it sees it: its face-down cards on the bar show
    their backs only (400.3a: a controller sees the cards it may reveal; the owner keeps his)."""
    if all(card.face_up or card.zone != "bar" for card in char.bar):
        return char
    return char.model_copy(update={"bar": [card if card.face_up or card.zone != "bar"
                                           else card.model_copy(update={"defn": None}) for card in char.bar]})
