"""What the fighter could still do in this phase before any target is open.

Plays are legal only into an open column (M12), so ``legal_actions`` lists no card until a
target is chosen. A player reading the hand panel, or about to end the combat, needs the
answer before that: which cards and units could add to an attack or block in this phase
(issue 27.3), and whether ending the attack phase would give up attacks still open (27.2).
Each possible single-enemy target is opened on a copy of the position, with the engine's own
``open_column``, and the legal actions of that copy are read, so the answer cannot drift
from the rules.
"""

from __future__ import annotations

from common.i18n import t
from engines.core.contract import Action
from engines.core.errors import RuleError
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.rules_staging import COLUMN_PHASES, open_column
from engines.mageknight.state import State
from gm.games.mageknight.info import effect_text
from gm.games.mageknight.payment import mana_text


def _opened(state: State, seat: int) -> list[State]:
    """The position after each single-enemy target the fighter could open now."""
    if state.staged is not None or state.pending is not None or state.phase not in COLUMN_PHASES:
        return []
    found = []
    for action in ENGINE.legal_actions(state, seat):
        if isinstance(action, A.Target) and len(action.enemies) == 1:
            copy = state.model_copy(deep=True)
            try:
                open_column(copy, action.enemies)
            except RuleError:
                continue
            found.append(copy)
    return found


def _actions(state: State, seat: int) -> list[tuple[State, Action]]:
    return [(copy, a) for copy in _opened(state, seat) for a in ENGINE.legal_actions(copy, seat)
            if isinstance(a, A.Play | A.Activate | A.Sideways | A.Add)]


def _label(state: State, action: A.Play | A.Activate, lang: str) -> str:
    """"powered: Ranged Attack 3 (white die)": the side, what it adds and how it is paid."""
    if isinstance(action, A.Play):
        effect = state.cards[action.card].effects(action.side)[action.option]
        head = f"{t(f'mk.side.{action.side}', lang)}: {effect_text(effect, lang)}"
    else:
        head = effect_text(state.unit(action.unit).card.abilities[action.ability].effects[action.option], lang)
    mana = mana_text(state, action.mana, lang)
    return f"{head} ({mana})" if mana else head


def phase_uses(state: State, seat: int, lang: str) -> dict[str, list[str]]:
    """Card id or unit uid → what it could add in this phase once a target is open (empty when a
    column is already open: the panel then shows the exact totals)."""
    uses: dict[str, list[str]] = {}
    for copy, action in _actions(state, seat):
        if isinstance(action, A.Play) and copy.cards[action.card].effects(action.side)[action.option].kind \
                == "gain_mana":
            continue  # mana tokens are not played into a column
        if isinstance(action, A.Sideways):
            key, label = action.card, t("mk.ui.panel_sideways", lang)
        elif isinstance(action, A.Play):
            key, label = action.card, _label(copy, action, lang)
        elif isinstance(action, A.Activate):
            key, label = action.unit, _label(copy, action, lang)
        else:
            continue
        found = uses.setdefault(key, [])
        if label not in found:
            found.append(label)
    return uses


def attacks_left(state: State, seat: int, lang: str) -> list[str]:
    """In the attack phase, with enemies standing: the cards and units that could still attack
    (``/mk add`` in assist mode, where the real cards are on the table). Empty when nothing could."""
    if state.phase != "attack":
        return []
    names: list[str] = []
    for copy, action in _actions(state, seat):
        if isinstance(action, A.Add):
            name = "/mk add"
        elif isinstance(action, A.Play | A.Sideways):
            name = copy.cards[action.card].local_name(lang)
        elif isinstance(action, A.Activate):
            name = copy.unit(action.unit).local_name(lang)
        else:
            continue
        if name not in names:
            names.append(name)
    return names
