"""What a seat may see (spec 7.3): everything public, its own secrets, nobody else's.

Hidden from other seats (and from the public view, ``seat=None``): the unchosen pool, the secret
``choose_bar`` answers before everyone has answered, and the identity of face-down cards (``defn``
becomes None; id, facing, readiness and owner stay, so the back of the card can be drawn), the answers
other seats gave an open react window (only that they answered shows) and their comfort settings.
Dice, clocks, health, VP, buffs and counters are public.
"""

from __future__ import annotations

from engines.core import react_windows as RW
from engines.wowminis.state import State, WindowFrame


def hide(state: State, seat: int | None) -> State:
    view = state.private_copy()
    view.pool = {s: cards for s, cards in view.pool.items() if s == seat}
    view.bar_choices = {s: bars for s, bars in view.bar_choices.items() if s == seat}
    for c in view.chars.values():
        if seat in (c.controller, c.owner):  # 400.3a: a controller sees the cards it may reveal; the owner keeps his
            continue
        for card in c.bar:
            if not card.face_up and card.zone == "bar":
                card.defn = None
    for frame in view.stack:  # 701 note: an answer is secret until it takes effect; that a seat answered is not
        if isinstance(frame, WindowFrame):
            RW.hide_answers(frame, seat)
    for player in view.players:  # a seat's comfort settings are its own
        if player.seat != seat:
            player.auto_pass = "never"
    return view
