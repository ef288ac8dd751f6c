"""Write a console script that plays a whole Krosmaster game to victory.

An aggressive policy picks, at every step, one of the engine's legal actions and
writes it as the slash command a player would type. Replaying the script with the
same ``--seed`` reproduces the game exactly, which is what ``tests/krosmaster``
checks. Regenerate after a rules change:

    python tools/km_autoplay.py --seed 1 --out tests/krosmaster/full_game.txt
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.krosmaster import actions as A
from engines.krosmaster.state import State

TEAMS = (
    "iron_warden, ember_witch, gale_archer, tide_healer",
    "bone_crusher, shadow_rogue, cloud_sage, mire_imp, root_druid",
)
PLAYERS = ("alice", "bob")


def _distance(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def choose(state: State, seat: int, legal: list[A.Action]) -> str:
    """The command for one legal action: attack if possible, else close in, else end."""
    kinds = {a.kind for a in legal}
    if "order_ties" in kinds:
        return f"/km order piece:{next(a for a in legal if isinstance(a, A.OrderTies)).piece}"
    if "deploy" in kinds:
        deploy = next(a for a in legal if isinstance(a, A.Deploy))
        return f"/km deploy piece:{deploy.piece} square:{deploy.square}"
    if "inspire" in kinds:
        richest = max(legal, key=lambda a: len(a.placements) if isinstance(a, A.Inspire) else -1)
        assert isinstance(richest, A.Inspire)
        names = ("first", "second")
        parts = [f"{names[p.die]}:{p.piece}" for p in richest.placements]
        return " ".join(["/km inspire", *parts])
    if "choose" in kinds and "end_turn" not in kinds:
        return f"/km choose option:\"{next(a for a in legal if isinstance(a, A.Choose)).value}\""
    for action in legal:  # 305.3, 306.4-306.8: spend kamas whenever the engine allows it
        if isinstance(action, A.AssignReward):
            return f"/km reward-assign reward:{action.reward} piece:{action.piece}"
        if isinstance(action, A.RevealReward):
            return f"/km reward-reveal reward:{action.reward}"
        if isinstance(action, A.BuyGG):
            return "/km buy-gg"
        if isinstance(action, A.BuyReward):
            return f"/km reward-buy pile:{action.pile}" + (" blind:true" if action.blind else "")
    piece = state.pieces[state.active_piece] if state.active_piece else None
    enemies = [p.pos for p in state.pieces.values() if p.in_play and p.owner != seat and p.pos]
    for action in legal:
        if isinstance(action, A.Cast) and state.piece_at(action.target) is not None and \
                state.piece_at(action.target).owner != seat:  # type: ignore[union-attr]
            target = action.target + (f" {action.direction}" if action.direction else "")
            return f"/km cast spell:{action.spell} target:\"{target}\""
    if piece is not None and piece.pos and enemies:
        here = min(_distance(piece.pos, e) for e in enemies)
        moves = [a for a in legal if isinstance(a, A.Move)]
        best = min(moves, key=lambda m: min(_distance(m.to, e) for e in enemies), default=None)
        if best is not None and min(_distance(best.to, e) for e in enemies) < here:
            return f"/km move square:{best.to}"
    return "/km end"


async def play(seed: int, limit: int) -> list[str]:
    from tools.console_play import play_in_console

    opening = [
        f"# A whole Krosmaster game, written by tools/km_autoplay.py --seed {seed}; replay with --seed {seed}.",
        "/as alice", "/game new krosmaster", f"/km team figurines:\"{TEAMS[0]}\"",
        "/as bob", "/game join", f"/km team figurines:\"{TEAMS[1]}\"", "/game start",
    ]

    def next_move(table: Any, decision: Any) -> tuple[str, str]:
        state, seat = table.state, decision.seats[0]
        assert isinstance(state, State)
        user = PLAYERS[[s.name for s in table.seats].index(table.seats[seat].name)]
        return user, choose(state, seat, table.engine.legal_actions(state, seat))

    return await play_in_console(seed, opening, next_move, limit)


def main() -> None:
    from tools.console_play import write_script

    write_script(__doc__ or "", play, limit=3000, out=Path("tests/krosmaster/full_game.txt"))


if __name__ == "__main__":
    main()
