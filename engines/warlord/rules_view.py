"""What one seat may see (view): no other seat's hand, no deck contents, no secret choice.

Hands of other seats and every deck (the owner's too: its order is not even stored, and the owner
sees its contents only while searching) become counts; hidden cards are dropped from ``cards`` so no
uid of a hidden card appears anywhere; the open secret choices (starting army, discards) of other
seats are replaced by an empty marker, and so are the answers other seats gave an open react window and
their react settings. ``None`` is the public view.
"""

from __future__ import annotations

from engines.core import react_windows as RW
from engines.warlord.state import StartingArmyChoice, State, WindowFrame


def hide(state: State, seat: int | None) -> State:
    # The view shares with the state everything it shows unchanged: the card definitions (most of a
    # state's size), the characters and items on the table, the frames of the stack other than react
    # windows. It gets its own copy of each player and window, whose fields it replaces (never changes in
    # place). Issue 28: the characters, items and frames were deep-copied, ~1 ms of the event loop a view.
    # So a view is read-only and good until its state changes (the engine contract, docs/ARCHITECTURE.md
    # §3): the table never changes a state it made a view from (a move applies to a fresh parse,
    # ``gm.table.core``); a caller that keeps a view across a move takes ``private_copy()``.
    view = state.model_copy(update={"players": [p.model_copy() for p in state.players],
                                    "stack": [f.model_copy() if isinstance(f, WindowFrame) else f for f in state.stack],
                                    "options": dict(state.options)})
    hidden: set[str] = set()
    for p in view.players:
        p.deck_count = len(p.deck_pool) + len(p.deck_top)
        hidden.update(p.deck_pool, p.deck_top)
        p.deck_pool, p.deck_top = [], []
        if p.seat != seat:
            p.hand_count = len(p.hand)
            hidden.update(p.hand)
            p.hand = []
            if p.army_choice is not None:
                p.army_choice = StartingArmyChoice(warlord="", level1=[], level2=[])
            if p.discard_choice is not None:
                p.discard_choice = []
            p.react_stops, p.react_preset = None, "none"  # reacts: a seat's own settings are its own
        p.hidden = True
    if seat is not None and view.phase == "setup":  # starting-army: you choose from your own deck
        me = view.player(seat)
        hidden.difference_update(state.player(seat).deck_pool)
        me.deck_pool = list(state.player(seat).deck_pool)
    for frame in view.stack:  # reacts: an answer is secret until it takes effect
        if isinstance(frame, WindowFrame):
            RW.hide_answers(frame, seat)
    view.cards = {u: c for u, c in view.cards.items() if u not in hidden}
    used = {c.card for c in view.cards.values()}
    view.cards_def = {k: d for k, d in view.cards_def.items() if k in used}
    return view
