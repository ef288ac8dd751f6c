"""Write a console script in which the built-in card Borrowed Will takes an enemy and makes it strike its own party.

Why a tool: Borrowed Will (mind control, 400.3) is in no printed pool, so it only reaches a table through a limited
format, and which boosters a table opens depends on the seed and the pack: a hand-written script stops fitting as
soon as a card is added. The policy is ``tools/wowm_autoplay.py``'s newcomer (first item, the suggested build,
main attacks, walk to the nearest enemy), with one player set on the trick: bob drafts Vessa Gravechant (the one
shadow priest) and Borrowed Will whenever he sees them (alice leaves them to him), builds a party around them, and
plays the card as soon as the character it would take has one of its own party in reach; the taken character
then attacks (a character of its own party, the weakest in reach), its turn ends and control reverts (400.3c).
The game then plays to its end. Replaying the script with the same ``--seed`` gives the same game, which
``tests/wowminis/test_mind_control_console.py`` runs:

    python tools/wowm_mind_control.py --seed 1 --out tests/wowminis/mind_control_game.txt
"""

from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.contract import Action
from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis import limited as L
from engines.wowminis.limited_state import BuildParty, DraftPick
from engines.wowminis.state import State
from tools.wowm_autoplay import PLAYERS, _build, _command, _short
from tools.wowm_autoplay import choose as newcomer

OPTIONS = "format:draft first:1 goal:8 map:proving_ground"
CONTROLLER = 1  # bob
WANTED = (L.char_item("vessa"), L.card_item("borrowed_will"))


def _bob_build(state: State) -> str:
    """Vessa with Borrowed Will and the two first partners that make a legal party; the other cards as
    ``limited.assign`` gives them (100.3: at most two a character in all)."""
    lim = state.limited
    assert lim is not None
    chars, cards = L.characters_of(lim, CONTROLLER), L.cards_of(lim, CONTROLLER)
    vessa = lim.characters["vessa"]
    others = [c for c in cards if c.id != "borrowed_will"]
    for pair in combinations([c for c in chars if c.id != "vessa"], state.scenario.party_size - 1):
        party = [vessa, *pair]
        if state.scenario.one_legendary and sum(c.legendary for c in party) > 1:
            continue
        bars = L.assign(list(pair), others, exact=False) or {}
        groups = [f"{vessa.name}: Borrowed Will"]
        groups += [f"{c.name}: {', '.join(lim.cards[k].name for k in bars.get(c.id, []))}" for c in pair
                   if bars.get(c.id)]
        return f'/wowm build party:"{", ".join(c.name for c in party)}" cards:"{"; ".join(groups)}"'
    raise RuntimeError("bob's picks hold no legal party with Vessa")


def _worth_taking(state: State, action: A.Play) -> bool:
    """Borrowed Will on its target pays off when, once taken, the target has a main attack on one of its own."""
    trial = state.model_copy(deep=True)
    dice = SeededDice(0)
    ENGINE.apply(trial, CONTROLLER, action, dice)
    for _ in range(10):  # the react windows the card opens
        decision = ENGINE.decision(trial)
        if decision is None or decision.kind == "turn":
            break
        seat = decision.seats[0]
        ENGINE.apply(trial, seat, newcomer(trial, seat, decision.kind, ENGINE.legal_actions(trial, seat)), dice)
    if not trial.controls:
        return False
    return any(isinstance(a, A.Play) and a.ability == "main" for a in ENGINE.legal_actions(trial, CONTROLLER))


def _borrowed_will(state: State, legal: list[Action]) -> A.Play | None:
    turn = state.turn
    if turn is None or turn.char not in state.chars or state.chars[turn.char].defn.id != "vessa" or state.controls:
        return None
    bar = {k.id for k in state.chars[turn.char].bar if k.defn is not None and k.defn.id == "borrowed_will"}
    plays = [a for a in legal if isinstance(a, A.Play) and a.ability in bar and a.targets]
    return next((a for a in plays if _worth_taking(state, a)), None)


def choose(state: State, seat: int, kind: str, legal: list[Action]) -> Action:
    """The newcomer's choice, except for the trick (module docstring)."""
    if kind == "draft_pick":
        wanted = [a for a in legal if isinstance(a, DraftPick) and a.item in WANTED]
        if seat == CONTROLLER and wanted:
            return wanted[0]
        return next((a for a in legal if isinstance(a, DraftPick) and a.item not in WANTED), legal[0])
    if seat == CONTROLLER and kind == "turn":
        trick = _borrowed_will(state, legal)
        if trick is not None:
            return trick
    return newcomer(state, seat, kind, legal)


def _say(action: Action, state: State, seat: int, kind: str) -> str:
    """The command a player types: cards by their name, never by their instance."""
    if isinstance(action, BuildParty) and seat == CONTROLLER:
        return _bob_build(state)
    if isinstance(action, BuildParty):
        return _build(state, seat)
    pending = state.pending
    if isinstance(action, A.Choose) and pending is not None and action.value not in state.chars:
        option = next((o for o in pending.options if o.value == action.value), None)
        if option is not None and "slot" in option.params:  # a face-down card (7.3): as its button reads
            return f'/wowm choose option:"Face-down card {option.params["slot"]}"'
        if option is not None and "card" in option.params:
            return f'/wowm choose option:"{option.params["card"]}"'
    if isinstance(action, A.Play) and action.ability != "main":
        return f'/wowm play ability:"Borrowed Will" target:{_short(state, action.targets[0])}'
    return _command(action, state, seat, kind)


async def play(seed: int, limit: int) -> list[str]:
    from tools.console_play import play_in_console

    opening = [
        f"# Mind control (400.3) in a booster draft for 2, written by tools/wowm_mind_control.py --seed {seed};",
        f"# replay with: python bot.py --console --seed {seed} --script tests/wowminis/mind_control_game.txt",
        "# bob drafts Vessa and Borrowed Will, plays it on one of alice's characters as soon as that character",
        "# has one of its own party in reach, and makes it attack there; control reverts when its turn ends.",
        "/as alice", f'/game new wowminis options:"{OPTIONS}"', "/as bob", "/game join", "/game start",
    ]
    prefs_set: set[int] = set()

    def next_move(table: Any, decision: Any) -> tuple[str, str]:
        state, seat = table.state, decision.seats[0]
        assert isinstance(state, State)
        if state.limited is None and seat not in prefs_set:  # once, when the game begins: pass windows, keep dice
            prefs_set.add(seat)
            return PLAYERS[seat], "/wowm prefs auto_pass:always auto_reroll:failures"
        if decision.kind == "build_party" and seat == CONTROLLER:
            lim = state.limited
            assert lim is not None and all(i in lim.picked.get(seat, []) for i in WANTED), "not dealt: another seed"
        legal = table.engine.legal_actions(state, seat)
        return PLAYERS[seat], _say(choose(state, seat, decision.kind, legal), state, seat, decision.kind)

    return await play_in_console(seed, opening, next_move, limit)


def main() -> None:
    from tools.console_play import write_script

    write_script(__doc__ or "", play, limit=3000, out=Path("tests/wowminis/mind_control_game.txt"))


if __name__ == "__main__":
    main()
