"""Write a console script that plays a whole World of Warcraft: The Board Game to its end.

A simple, purposeful policy picks one of the engine's legal actions at every step and writes it as the
slash command a player would type: fight what the faction's quests ask for while healthy, rest when
hurt, train when gold allows, travel toward the nearest quest creatures, equip what fits. Replaying
the script with the same ``--seed`` reproduces the game exactly (the dice come from the seed), which is
what ``tests/wowboard/test_console_game.py`` checks. Regenerate after a rules change:

    python tools/wowb_autoplay.py --seed 1 --out tests/wowboard/full_game.txt

``--seats N`` (3 to 6) plays the full edition with players alice, bob, carol, dave, erin and frank (issue 30):
the same policy, plus the habits of ``tools/wowb_autoplay_policy.py`` (sealed bids at auctions, a few Bag items
sold for a coin between friends standing together, the faction's two last characters holding a war's regions):

    python tools/wowb_autoplay.py --seats 6 --seed 4 --out tests/wowboard/six_game.txt
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.contract import Action
from engines.wowboard import actions as A
from engines.wowboard.rules_common import pack_of
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.rules_travel import destinations
from engines.wowboard.state import State
from tools import wowb_autoplay_policy as full

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")


def _quote(value: str) -> str:
    return f'"{value}"' if any(c in value for c in " ,") else value


def _command(action: Action, state: State) -> str:
    """The slash command that sends ``action`` (options as autocomplete fills them: ids)."""
    if isinstance(action, A.PickClass):
        return f"/wowb class name:{action.class_id}"
    if isinstance(action, A.Travel):
        return f"/wowb travel character:{action.character} to:{action.to}"
    if isinstance(action, A.Rest):
        return f"/wowb rest character:{action.character} health:{action.health} energy:{action.energy}"
    if isinstance(action, A.Pass):
        return f"/wowb pass character:{action.character}"
    if isinstance(action, A.Challenge):
        invite = f" invite:{','.join(action.invite)}" if action.invite else ""
        return f"/wowb challenge character:{action.character} target:{action.target}{invite}"
    if isinstance(action, A.Train):
        return f"/wowb train character:{action.character} powers:{_quote(','.join(action.powers))}"
    if isinstance(action, A.Town):
        parts = [f"/wowb town character:{action.character}"]
        for name, values in (("sell", action.sell), ("buy", action.buy), ("powers", action.powers)):
            if values:
                parts.append(f"{name}:{_quote(','.join(values))}")
        if action.health:
            parts.append(f"health:{action.health}")
        if action.energy:
            parts.append(f"energy:{action.energy}")
        return " ".join(parts)
    if isinstance(action, A.Equip):
        return f"/wowb equip character:{action.character} card:{action.card} area:{action.area}"
    if isinstance(action, A.ManagementDone):
        return "/wowb done"
    if isinstance(action, A.SetOrder):
        return f"/wowb order order:{_quote(','.join(action.order))}"
    if isinstance(action, A.Roll):
        return "/wowb roll"
    if isinstance(action, A.Reroll):
        dice = " ".join(str(i + 1) for i in action.dice) or "none"
        return f"/wowb reroll dice:{_quote(dice)}"
    if isinstance(action, A.AssignWounds):
        split = ", ".join(f"{c} {n}" for c, n in action.split.items() if n)
        return f"/wowb wounds split:{_quote(split)}"
    if isinstance(action, A.Choose):
        return f"/wowb choose option:{_quote(action.value)}"
    if isinstance(action, A.Bid):
        return f"/wowb bid gold:{action.gold} character:{action.character}"
    if isinstance(action, A.Trade):
        parts = [f"/wowb trade character:{action.character} partner:{action.partner}"]
        for name, values in (("give", action.give), ("take", action.take)):
            if values:
                parts.append(f"{name}:{_quote(','.join(values))}")
        parts += [f"{name}:{n}" for name, n in (("gold", action.gold), ("take_gold", action.take_gold)) if n]
        return " ".join(parts)
    raise ValueError(f"no command for {action.kind}")


def _quest_regions(state: State, faction: str) -> set[str]:
    return {state.figures[f].region for q in state.quests if q.faction == faction for f in q.figures
            if f in state.figures}


def _turn_choice(state: State, legal: list[Action]) -> Action:
    """A faction-turn action: fight quest creatures when healthy, otherwise rest, train or move closer."""
    pack = pack_of(state)
    by_char: dict[str, list[Action]] = {}
    for a in legal:
        by_char.setdefault(getattr(a, "character", ""), []).append(a)
    char, options = next(iter(by_char.items()))
    c = state.characters[char]
    most_h, _most_e = capacity_of(state, c)
    fights = [a for a in options if isinstance(a, A.Challenge)]
    healthy = c.health * 3 >= most_h * 2
    if fights and (healthy or not any(isinstance(a, (A.Rest, A.Travel)) for a in options)):
        quest = [a for a in fights if a.target.startswith("group:") and not a.target.endswith(":free")]
        return (quest or [a for a in fights if a.target != "pvp"] or fights)[0]
    rests = [a for a in options if isinstance(a, A.Rest)]
    if rests and not healthy:
        return rests[0]
    trains = [a for a in options if isinstance(a, A.Train)]
    if trains and c.gold >= 8:
        return trains[0]
    goals = _quest_regions(state, c.faction)
    travels = [a for a in options if isinstance(a, A.Travel)]
    if travels and goals and c.region not in goals:
        reach = destinations(pack, c.faction, c.region)
        near = [a for a in travels if a.to in goals]
        if near:
            return near[0]
        return min(travels, key=lambda a: (len(reach.get(a.to, [])) * -1, a.to))
    if rests:
        return rests[0]
    return next((a for a in options if isinstance(a, A.Pass)), options[0])


def choose(state: State, legal: list[Action]) -> Action:
    kinds = {a.kind for a in legal}
    if "reroll" in kinds:
        return max((a for a in legal if isinstance(a, A.Reroll)), key=lambda a: len(a.dice))
    if "equip" in kinds:
        return next(a for a in legal if isinstance(a, A.Equip))
    if kinds & {"travel", "rest", "pass", "challenge", "train", "town"}:
        return _turn_choice(state, legal)
    if "assign_wounds" in kinds:
        def health_of(a: Action) -> int:
            assert isinstance(a, A.AssignWounds)
            target = next(c for c, n in a.split.items() if n)
            return state.characters[target].health
        return max(legal, key=health_of)
    return legal[0]


def _equips(state: State, seat: int) -> list[Action]:
    """Management: the first legal equip of a card not yet worn (the engine's equip checks)."""
    from gm.games.wowboard.choices import equip_pairs

    return [A.Equip(character=c, card=k, area=a) for c, k, a in equip_pairs(state, seat)]


def _opening(seed: int, seats: int) -> list[str]:
    if seats == 2:
        return [f"# A whole World of Warcraft board game, written by tools/wowb_autoplay.py --seed {seed};",
                f"# replay with: python bot.py --console --seed {seed} --script tests/wowboard/full_game.txt",
                "/as alice", "/game new system:wowboard", "/as bob", "/game join", "/game start"]
    joins = [line for name in PLAYERS[1:seats] for line in (f"/as {name}", "/game join")]
    return [f"# A {seats}-player World of Warcraft board game (the full edition), written by",
            f"# tools/wowb_autoplay.py --seats {seats} --seed {seed}; replay with:",
            f"# python bot.py --console --seed {seed} --script tests/wowboard/six_game.txt",
            "/as alice", "/game new system:wowboard", *joins, "/as alice", "/game start"]


async def play(seed: int, limit: int, seats: int = 2) -> list[str]:
    from tools.console_play import play_in_console

    equipped: set[tuple[str, str]] = set()
    trades: set[tuple[int, str]] = set()

    def full_edition(state: State, legal: list[Action]) -> Action | None:
        """The six-seat habits (``seats > 2`` only, so the two-seat script stays as it was)."""
        if seats == 2:
            return None
        if any(isinstance(a, A.Bid) for a in legal):
            return full.bid(state, legal)
        offer = full.trade(state, legal, trades)
        if offer is not None:
            return offer
        turn = [a for a in legal if not isinstance(a, A.Trade)]
        return full.war_move(state, turn) if turn else None

    def next_move(table: Any, decision: Any) -> tuple[str, str]:
        state, seat = table.state, decision.seats[0]
        assert isinstance(state, State)
        legal = table.engine.legal_actions(state, seat)
        if decision.kind in ("management", "final_management"):
            fresh = [a for a in _equips(state, seat) if isinstance(a, A.Equip)
                     and (a.character, a.card) not in equipped]
            if fresh:
                equipped.add((fresh[0].character, fresh[0].card))
                legal = [fresh[0]]
            else:  # each card once: then done (the engine lists every equip, worn ones again too)
                legal = [a for a in legal if isinstance(a, A.ManagementDone)]
        action = full_edition(state, legal) or choose(state, [a for a in legal if not isinstance(a, A.Trade)])
        return PLAYERS[seat], _command(action, state)

    return await play_in_console(seed, _opening(seed, seats), next_move, limit)


def main() -> None:
    """``--seed``, ``--limit``, ``--out`` as every autoplay tool has them, and ``--seats`` (2: the starter game)."""
    import argparse
    import asyncio

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--limit", type=int, default=6000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path("tests/wowboard/full_game.txt" if args.seats == 2 else "tests/wowboard/six_game.txt")
    lines = asyncio.run(play(args.seed, args.limit, args.seats))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} lines to {out}")


if __name__ == "__main__":
    main()
