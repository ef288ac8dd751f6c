"""Write a console script that plays a World of Warcraft Miniatures booster draft, and its game, to the end.

Why a tool: the draft deals from the built-in pack, so any card added to the pack deals other boosters and
a hand-written script stops fitting. The policy is what a newcomer does: pick the first item of each
booster, build what ``/wowm suggest`` would (``limited.a_build``), then play sensibly (take one's own
character at a tie, attack the weakest enemy in reach with the main attack, else walk towards the nearest
enemy, then end the turn), passing windows and keeping the dice through ``/wowm prefs``. Every command is
what a player types, names and short labels only. Replaying the script with the same ``--seed`` gives the
same game (the draws and rolls come from the seed), which ``tests/wowminis/test_limited.py`` checks.
Regenerate after a change to the pack or the rules:

    python tools/wowm_autoplay.py --seed 1 --out tests/wowminis/draft_game.txt
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.contract import Action
from engines.wowminis import actions as A
from engines.wowminis import limited as L
from engines.wowminis.limited_state import BuildParty, DraftPick
from engines.wowminis.state import State

PLAYERS = ("alice", "bob", "carol", "dave")
OPTIONS = "format:draft first:1 goal:4 map:proving_ground"


def _short(state: State, cid: str) -> str:
    c = state.chars.get(cid)
    return c.short if c is not None else cid


def _build(state: State, seat: int) -> str:
    """The build ``/wowm suggest`` proposes from the seat's picks (``gm.games.wowminis.limited``'s way: the
    balanced party if cards can be fitted to it, else the first legal build)."""
    from engines.wowminis.content import fits
    from engines.wowminis.limited_suggest import suggest

    lim = state.limited
    assert lim is not None
    chars, cards = L.characters_of(lim, seat), L.cards_of(lim, seat)
    picks = suggest(chars, {c.id: [k for k in cards if fits(k, c)] for c in chars}, state.scenario,
                    same_faction=False)
    party = [p.char.id for p in picks]
    bars = L.assign([p.char for p in picks], cards, exact=lim.format == "sealed") if picks else None
    if bars is None:
        build = L.a_build(lim, state.scenario, seat)
        assert build is not None, f"seat {seat}: no legal party in {lim.picked[seat]}"
        party, bars = build.party, build.bars
    names = [lim.characters[m].name for m in party]
    groups = "; ".join(f"{lim.characters[m].name}: {', '.join(lim.cards[k].name for k in bars.get(m, []))}"
                       for m in party if bars.get(m))
    return f'/wowm build party:"{", ".join(names)}"' + (f' cards:"{groups}"' if groups else "")


def _command(action: Action, state: State, seat: int, kind: str) -> str:
    """The slash command that sends ``action``, as a player types it."""
    if isinstance(action, DraftPick):
        lim = state.limited
        assert lim is not None
        return f"/wowm pick item:{lim.hands[seat].index(action.item) + 1}"
    if isinstance(action, BuildParty):
        return _build(state, seat)
    if isinstance(action, A.Choose):
        if kind in ("first_character", "next_character"):
            return f"/wowm next character:{_short(state, action.value)}"
        if kind == "spawn_point":
            return f"/wowm spawn point:{action.value}"
        return f"/wowm choose option:{_short(state, action.value) if action.value in state.chars else action.value}"
    if isinstance(action, A.Move):
        return f"/wowm move to:{action.to}"
    if isinstance(action, A.Play):
        target = f" target:{_short(state, action.targets[0])}" if action.targets else ""
        return f"/wowm play ability:{action.ability}{target}"
    if isinstance(action, A.EndTurn):
        return "/wowm end"
    if isinstance(action, A.Pass):
        return "/wowm pass"
    if isinstance(action, A.Reroll):
        return "/wowm reroll" if not action.dice else f"/wowm reroll dice:\"{' '.join(map(str, action.dice))}\""
    raise ValueError(f"no command for {action!r}")


def choose(state: State, seat: int, kind: str, legal: list[Action]) -> Action:
    """The policy: the first pick, one build, then ``playout.sensible_choice`` with the main attack only
    (a card attack's command would name the card by its instance)."""
    from tests.wowminis.playout import sensible_choice

    if kind in ("draft_pick", "build_party"):
        return legal[0]
    plain = [a for a in legal if not (isinstance(a, A.Play) and a.ability != "main")]
    return sensible_choice(state, seat, plain or legal)  # type: ignore[return-value]


async def play(seed: int, limit: int, players: int = 2, lang: str | None = None) -> list[str]:
    from tools.console_play import play_in_console

    opening = [
        f"# A booster draft for {players} (100.3) and its game, written by tools/wowm_autoplay.py --seed {seed};",
        f"# replay with: python bot.py --console --seed {seed} --script tests/wowminis/draft_game.txt",
        "# Each seat picks the first item of the booster it holds, builds the party /wowm suggest proposes,",
        "# then plays it: goal 4 VP on the small map, so the first destruction of a 4-Honor character decides.",
        "/as alice", f'/game new wowminis options:"{OPTIONS}"',
    ]
    for name in PLAYERS[1:players]:
        opening += [f"/as {name}", "/game join"]
    opening += ["/game start"]
    prefs_set: set[int] = set()
    suggested: set[int] = set()

    def next_move(table: Any, decision: Any) -> tuple[str, str]:
        state, seat = table.state, decision.seats[0]
        assert isinstance(state, State)
        if state.limited is None and seat not in prefs_set:  # once, when the game begins: pass windows, keep dice
            prefs_set.add(seat)
            return PLAYERS[seat], "/wowm prefs auto_pass:always auto_reroll:failures"
        if decision.kind == "build_party" and seat not in suggested:  # a newcomer asks first
            suggested.add(seat)
            return PLAYERS[seat], "/wowm suggest"
        legal = table.engine.legal_actions(state, seat)
        return PLAYERS[seat], _command(choose(state, seat, decision.kind, legal), state, seat, decision.kind)

    return await play_in_console(seed, opening, next_move, limit)


def main() -> None:
    from tools.console_play import write_script

    write_script(__doc__ or "", play, limit=3000, out=Path("tests/wowminis/draft_game.txt"))


if __name__ == "__main__":
    main()
