"""bench/krosmaster.py turns the autoplay policy's commands back into actions (``_parse``).

Every action a bench or test plays through the table manager comes from there, so a
command it misreads fails as a rule error that looks like a platform race (one bench run
in seven died with ``km.err.wrong_phase`` when a game reached a kama purchase).
"""

from __future__ import annotations

import pytest

from bench.krosmaster import ENGINE, _parse, _setup
from engines.core.dice import SeededDice
from engines.krosmaster import actions as A
from tools.km_autoplay import choose

KAMA_GAME = 35  # the first seed whose game buys, assigns and reveals a demonic reward (about 3 games in 100)


def test_every_command_the_policy_writes_replays_as_the_legal_action_it_chose() -> None:
    dice = SeededDice(KAMA_GAME)
    state = ENGINE.new_game(_setup(), dice)
    verbs = set()
    while (decision := ENGINE.decision(state)) is not None:
        seat = decision.seats[0]
        legal = ENGINE.legal_actions(state, seat)
        command = choose(state, seat, legal)
        verbs.add(command.split(" ")[1])
        action = ENGINE.parse_action(_parse(command))
        assert action in legal, command
        ENGINE.apply(state, seat, action, dice)
    assert {"reward-buy", "reward-assign", "reward-reveal"} <= verbs  # the seed still reaches the purchase


@pytest.mark.parametrize(("command", "action"), [
    ("/km buy-gg", A.BuyGG()),
    ("/km reward-buy pile:granite1 blind:true", A.BuyReward(pile="granite1", blind=True)),
    ("/km reward-buy pile:granite1", A.BuyReward(pile="granite1")),
    ("/km reward-assign reward:r1 piece:p0", A.AssignReward(reward="r1", piece="p0")),
    ("/km reward-reveal reward:r1", A.RevealReward(reward="r1")),
    ("/km inspire first:p0 second:p1", A.Inspire(placements=[A.Placement(die=0, piece="p0"),
                                                              A.Placement(die=1, piece="p1")])),
])
def test_the_kama_and_reward_commands_replay_as_their_own_actions(command: str, action: A.Action) -> None:
    assert ENGINE.parse_action(_parse(command)) == action


def test_a_command_the_bench_does_not_know_is_refused_rather_than_guessed() -> None:
    with pytest.raises(ValueError, match="collect"):
        _parse("/km collect")
