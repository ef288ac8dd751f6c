"""What a seat may see (DESIGN §2 ``view``): hidden information removed, counts kept.

- The deck and the summon piles are unordered hidden pools: every id becomes ``hidden``
  (how many are left stays visible).
- The hand shows only to the fighter, or to everyone at an ``open_hand`` table; for the others
  each non-Wound card becomes ``hidden`` (Wound cards taken are public: the knock-out bar).
- Duel (M51): the die's face shows only to the seat that set it until it is revealed; during
  the setup the enemies show only their backs (their colours) to the fighter and the public, and
  the Fame the opponent has left to pick with stays theirs.
"""

from __future__ import annotations

from engines.mageknight.content import HIDDEN, WOUND, EnemyToken
from engines.mageknight.state import State


def hidden_token(colour: str) -> EnemyToken:
    return EnemyToken(id=HIDDEN, name="", colour=colour, armor=0, attack=0)  # type: ignore[arg-type]


def hide(state: State, seat: int | None) -> State:
    # The view shares with the state all it shows unchanged (cards, units, the bestiary, the combat's steps),
    # as the engine contract allows (docs/ARCHITECTURE.md §3: read-only, good until the state changes), and
    # copies only the hero, the die and the enemies whose fields it replaces below (never changes in place).
    # Issue 28: a copy of the whole state by its JSON was ~0.6 ms of the event loop before each picture.
    setup_hidden = state.phase == "setup" and seat != state.opponent
    copied = {"hero": state.hero.model_copy(),
              "interactive": state.interactive.model_copy() if state.interactive is not None else None}
    if setup_hidden:
        copied["enemies"] = [enemy.model_copy() for enemy in state.enemies]
    view = state.model_copy(update=copied)
    view.hero.deck = [HIDDEN] * len(view.hero.deck)
    view.pools = {colour: [HIDDEN] * len(ids) for colour, ids in view.pools.items()}
    if not (state.open_hand or seat == state.fighter):
        view.hero.hand = [c if c == WOUND else HIDDEN for c in view.hero.hand]
    die = view.interactive
    if die is not None and not die.revealed and seat != state.opponent:
        die.face = None
    if setup_hidden:
        for enemy in view.enemies:
            enemy.token = hidden_token(enemy.token.colour)
        view.pick_budget = 0  # the Fame left would tell what the opponent picked
    return view
