"""304-306 and 503.4-503.8: the kama purse, buying GG, and demonic rewards."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import (
    AssignReward,
    BuyGG,
    BuyReward,
    Choose,
    Collect,
    Deploy,
    EndTurn,
    Inspire,
    OrderTies,
    RevealReward,
)
from engines.krosmaster.content import REWARD_COST, Reward, RewardRank, builtin_pack
from engines.krosmaster.rules_damage import damage_for
from engines.krosmaster.rules_rewards import count_cards, deal, on_turn_end, on_turn_start
from engines.krosmaster.state import State
from tests.krosmaster.builders import act, arena, end_turn, fig, find, game, keys, spell

DEMON = "C3"
TEAM_A = ["bone_crusher", "gale_archer", "cloud_sage", "mire_imp", "root_druid"]
TEAM_B = ["iron_warden", "ember_witch", "tide_healer", "lucky_gambler", "mire_imp"]


def rw(id: str, rank: str = "granite", type: str = "boost", **kw: Any) -> Reward:
    return Reward.model_validate({"id": id, "name": id.replace("_", " ").title(), "rank": rank, "type": type, **kw})


def table(rewards: list[Reward], *, kamas: int = 40, level: int = 2, mate_level: int = 2,
          gg: tuple[int, int] = (6, 6), wild: int = 1) -> State:
    """Piece ``a`` (seat 0) on the demon square, its team-mate ``b`` and an enemy ``z``."""
    board = arena(demon_squares=[DEMON, "H8"], kamas={DEMON: 2})
    state = game([("a", fig("a", level=level), 0, DEMON), ("b", fig("b", level=mate_level), 0, "E5"),
                  ("z", fig("z", level=2), 1, "J10")], board=board, gg=gg, wild=wild)
    deal(state, rewards)
    state.board.kamas = dict(board.kamas)
    state.player(0).kamas = kamas
    return state


def reveal_tops(state: State, rolls: list[int] | None = None) -> None:
    """306.2: both scheduled reveals (start and end of the second player turn)."""
    turn, state.turn_number = state.turn_number, 2
    dice = RecordedDice([], [r - 1 for r in rolls or []])  # draws, given as 1-based like the old die rolls
    on_turn_start(state, dice)
    on_turn_end(state, dice)
    state.turn_number = turn


def pile(state: State, pile_id: str):
    return next(p for p in state.rewards.piles if p.id == pile_id)


def snapshot(state: State) -> str:
    return state.model_dump_json()


# -- 304: the purse ------------------------------------------------------------------------
def test_304_1_kamas_go_to_the_team_purse_and_any_krosmaster_spends_them():
    state = table([rw("herb")], kamas=2)
    act(state, Collect())  # 503.4: 1 AP, 1 kama from the square
    assert state.player(0).kamas == 3 and state.board.kamas[DEMON] == 1 and state.pieces["a"].ap == 5
    act(state, BuyReward(pile="granite1", blind=True))  # 3 kamas spent from the same purse
    assert state.player(0).kamas == 0


def test_304_3_not_enough_kamas_refuses_gg_and_rewards_and_changes_nothing():
    state = table([rw("herb")], kamas=2)
    before = snapshot(state)
    for action in (BuyGG(), BuyReward(pile="granite1", blind=True)):
        with pytest.raises(RuleError) as err:
            act(state, action)
        assert err.value.key == "km.err.not_enough_kamas" and err.value.rule == "304.3"
        assert action not in ENGINE.legal_actions(state, 0)
    assert snapshot(state) == before


# -- 305.3 / 503.5: buying a GG ------------------------------------------------------------------
def test_305_3_buy_gg_on_demon_square_once_per_turn():
    state = table([], kamas=25)
    assert BuyGG() in ENGINE.legal_actions(state, 0)
    events = act(state, BuyGG())
    bought = find(events, "gg_bought")
    assert bought.params["wild"] == 1 and bought.params["taken"] == 0  # the wild GG first
    assert state.wild_gg == 0 and state.player(0).gg == 7 and state.player(0).kamas == 15
    assert state.pieces["a"].ap == 5  # 1 AP
    assert BuyGG() not in ENGINE.legal_actions(state, 0)
    with pytest.raises(RuleError) as err:
        act(state, BuyGG())
    assert err.value.key == "km.err.gg_already_bought"
    # Once per *player* turn (305.3): a team-mate on the other demon square cannot either.
    end_turn(state)
    state.pieces["b"].pos = "H8"
    assert state.active_piece == "b"
    with pytest.raises(RuleError) as err:
        act(state, BuyGG())
    assert err.value.key == "km.err.gg_already_bought"


def test_305_3_buy_gg_steals_from_the_opponent_and_can_win():
    state = table([], kamas=10, gg=(3, 1), wild=0)
    events = act(state, BuyGG())
    assert find(events, "gg_bought").params["taken"] == 1
    assert state.player(1).gg == 0 and state.player(0).gg == 4
    assert state.phase == "over" and state.winners == [0]  # 104.1


def test_305_3_buy_gg_needs_a_demon_square_and_1_ap():
    state = table([], kamas=30)
    state.pieces["a"].ap = 0
    with pytest.raises(RuleError) as err:
        act(state, BuyGG())
    assert err.value.key == "km.err.not_enough_ap"
    state.pieces["a"].ap = 3
    state.pieces["a"].pos = "D3"
    with pytest.raises(RuleError) as err:
        act(state, BuyGG())
    assert err.value.key == "km.err.not_on_demon_square"
    assert not [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, BuyGG | BuyReward)]


# -- 306.2 / 103.7: piles and the reveal schedule ---------------------------------------------
def test_103_7_two_face_down_piles_per_rank():
    state = table([rw(f"g{i}") for i in range(5)] + [rw("j", rank="jade")])
    sizes = {p.id: (p.count, p.top) for p in state.rewards.piles}
    assert [p.rank.value for p in state.rewards.piles[::2]] == ["granite", "jade", "gold", "ruby"]  # 306.1
    assert sizes["granite1"] == (3, None) and sizes["granite2"] == (2, None)
    assert sizes["jade1"] == (1, None) and sizes["jade2"] == (0, None)
    assert state.rewards.total == 6 == count_cards(state)


def test_306_2_first_turn_only_blind_then_one_then_two_face_up_per_rank():
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="Ann", config={"team": TEAM_A}),
                         SeatSetup(seat=1, user_id=2, name="Bob", config={"team": TEAM_B})], options={})
    dice = SeededDice(7)
    state = ENGINE.new_game(setup, dice)
    assert state.rewards.total == len(builtin_pack().rewards)

    def step_until(done) -> None:
        for _ in range(200):
            if done():
                return
            seat = ENGINE.decision(state).seats[0]
            legal = ENGINE.legal_actions(state, seat)
            pick = next(a for a in legal if isinstance(a, EndTurn | Inspire | Choose | Deploy | OrderTies))
            ENGINE.apply(state, seat, pick, dice)
        raise AssertionError("did not get there")

    step_until(lambda: state.phase == "turn")
    assert state.turn_number == 1 and all(p.top is None for p in state.rewards.piles)
    step_until(lambda: state.turn_number == 2 and state.phase == "turn")
    tops = [p.id for p in state.rewards.piles if p.top is not None]
    assert tops == ["granite1", "jade1", "gold1", "ruby1"]
    step_until(lambda: state.turn_number == 3)
    assert all(p.top is not None and p.top.face_up for p in state.rewards.piles)
    assert count_cards(state) == state.rewards.total


def test_306_2_before_the_reveal_only_blind_buys_are_offered():
    state = table([rw("herb"), rw("sip", ap=1)], kamas=10)
    buys = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, BuyReward)]
    assert buys == [BuyReward(pile="granite1", blind=True), BuyReward(pile="granite2", blind=True)]
    with pytest.raises(RuleError) as err:
        act(state, BuyReward(pile="granite1"))
    assert err.value.key == "km.err.no_face_up_reward"


# -- 306.4-306.7: buying and placing ------------------------------------------------------------
@pytest.mark.parametrize("rank", list(RewardRank))
def test_306_4_price_by_rank_plus_1_ap(rank: RewardRank):
    state = table([rw("thing", rank=rank.value)], kamas=20)
    reveal_tops(state)
    act(state, BuyReward(pile=f"{rank.value}1"))
    assert state.player(0).kamas == 20 - REWARD_COST[rank]
    assert REWARD_COST[rank] == {"granite": 3, "jade": 6, "gold": 12, "ruby": 18}[rank.value]
    assert state.pieces["a"].ap == 5


def test_306_5_buying_face_up_reveals_the_next_before_placing():
    state = table([rw("herb"), rw("sip", ap=1), rw("tonic", heal=1)], kamas=10)
    reveal_tops(state, [1, 1])  # granite1 draws "herb", granite2 "sip" (the first of the rest)
    assert pile(state, "granite1").top.reward.id == "herb" and pile(state, "granite2").top.reward.id == "sip"
    events = act(state, BuyReward(pile="granite1"))
    assert keys(events)[:2] == ["km.reward_bought", "km.reward_pile_revealed"]
    assert pile(state, "granite1").top.reward.id == "tonic" and pile(state, "granite1").count == 0
    assert state.phase == "assign_reward"  # a and b can both hold it: the player chooses (306.6)


def test_306_6_placed_face_down_on_any_krosmaster_of_the_team():
    state = table([rw("herb")], kamas=10)
    act(state, BuyReward(pile="granite1", blind=True))
    assert state.phase == "assign_reward"
    card = state.rewards.pending
    legal = ENGINE.legal_actions(state, 0)
    assert legal == [AssignReward(reward=card.id, piece="a"), AssignReward(reward=card.id, piece="b")]
    with pytest.raises(RuleError):
        act(state, AssignReward(reward=card.id, piece="z"))  # not ours
    events = act(state, AssignReward(reward=card.id, piece="b"))  # not the buyer: allowed
    assert find(events, "reward_assigned").params["name"] == "B"
    assert state.phase == "turn" and state.rewards.pending is None
    assert state.pieces["b"].rewards[0].id == card.id and not state.pieces["b"].rewards[0].face_up


def test_306_6a_blind_purchase_is_seen_only_by_its_buyer():
    state = table([rw("herb"), rw("sip", ap=1)], kamas=10)
    events = act(state, BuyReward(pile="granite1", blind=True), picks=[1])
    public = find(events, "reward_bought_blind")
    assert not public.private_to and "reward" not in public.params
    seen = find(events, "reward_seen")
    assert seen.private_to == [0] and seen.params["reward"] == "Sip" and not seen.rolls
    # The draw is recorded where nobody reads it: the index would hint at unseen tokens.
    assert find(events, "reward_drawn").draws == [1] and find(events, "reward_drawn").private_to == [-1]


def test_306_6b_face_down_rewards_are_hidden_from_others():
    state = table([rw("herb"), rw("sip", ap=1)], kamas=10)
    act(state, BuyReward(pile="granite1", blind=True), picks=[0])
    act(state, AssignReward(reward=state.rewards.pending.id, piece="a"))
    public, mine, theirs = ENGINE.view(state, None), ENGINE.view(state, 0), ENGINE.view(state, 1)
    assert public.pieces["a"].rewards[0].reward is None and theirs.pieces["a"].rewards[0].reward is None
    assert mine.pieces["a"].rewards[0].reward.id == "herb"
    assert not any(public.rewards.pool.values()) and not any(mine.rewards.pool.values())
    assert state.pieces["a"].rewards[0].reward is not None  # the real state is untouched
    assert public.pieces["a"].rewards[0].id == state.pieces["a"].rewards[0].id


def test_306_7_reward_level_limit():
    state = table([rw("herb"), rw("sip", ap=1), rw("tonic", heal=1)], kamas=20, level=1, mate_level=1)
    act(state, BuyReward(pile="granite1", blind=True), picks=[0])
    card = state.rewards.pending
    act(state, AssignReward(reward=card.id, piece="a"))
    assert len(state.pieces["a"].rewards) == 1
    events = act(state, BuyReward(pile="granite1", blind=True), picks=[0])
    # Only b has room now: no choice, placed at once.
    assert find(events, "reward_assigned").params["piece"] == "b" and state.phase == "turn"
    state.phase, state.rewards.pending = "assign_reward", state.pieces["b"].rewards.pop()
    with pytest.raises(RuleError) as err:
        act(state, AssignReward(reward=state.rewards.pending.id, piece="a"))
    assert err.value.key == "km.err.reward_limit" and err.value.rule == "306.7"


def test_306_7a_discarded_when_nobody_can_hold_it():
    state = table([rw("herb")], kamas=10, level=0, mate_level=0)
    events = act(state, BuyReward(pile="granite1", blind=True))
    discarded = find(events, "reward_discarded")
    assert discarded.reveals_hidden and discarded.params["reward"] == "Herb"
    assert state.rewards.discard[0].face_up and state.phase == "turn"
    assert count_cards(state) == state.rewards.total


def test_503_7_several_purchases_per_turn():
    state = table([rw(f"g{i}") for i in range(3)], kamas=10)
    for _ in range(3):
        act(state, BuyReward(pile="granite1", blind=True) if pile(state, "granite1").count else
            BuyReward(pile="granite2", blind=True), picks=[0] if len(state.rewards.pool["granite"]) > 1 else [])
        if state.rewards.pending:
            act(state, AssignReward(reward=state.rewards.pending.id, piece="b" if state.pieces["a"].rewards else "a"))
    assert state.player(0).kamas == 1 and state.pieces["a"].ap == 3


# -- 306.8-306.10: revealing and effects ---------------------------------------------------------
def holding(rewards: list[Reward], **kw: Any) -> State:
    """``a`` holds every given reward face down (level permitting)."""
    state = table(rewards, level=len(rewards), **kw)
    state.player(0).kamas = 100
    while state.rewards.pool["granite"] or state.rewards.pool["jade"]:
        rank = "granite" if state.rewards.pool["granite"] else "jade"
        name = next(p.id for p in state.rewards.piles if p.rank == rank and p.count)
        state.pieces["a"].ap = 6
        act(state, BuyReward(pile=name, blind=True), picks=[0] if len(state.rewards.pool[rank]) > 1 else [])
        if state.rewards.pending:
            act(state, AssignReward(reward=state.rewards.pending.id, piece="a"))
    state.pieces["a"].ap = 6
    return state


def card_of(state: State, reward_id: str) -> str:
    return next(c.id for c in state.pieces["a"].rewards if c.reward.id == reward_id)


def test_306_8_reveal_is_free_and_once_per_turn():
    state = holding([rw("sip", ap=1), rw("herb", heal=1)])
    assert len([a for a in ENGINE.legal_actions(state, 0) if isinstance(a, RevealReward)]) == 2
    events = act(state, RevealReward(reward=card_of(state, "sip")))
    assert find(events, "reward_revealed").reveals_hidden
    assert state.pieces["a"].ap == 7  # free (306.8), and the boost's +1 AP (306.3a)
    assert not [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, RevealReward)]
    with pytest.raises(RuleError) as err:
        act(state, RevealReward(reward=card_of(state, "herb")))
    assert err.value.key == "km.err.reward_already_revealed"


def test_306_8a_revealing_is_not_casting_so_a_piece_with_no_points_left_still_can():
    state = holding([rw("sip", ap=1, mp=1)])
    a = state.pieces["a"]
    a.ap = a.mp = 0  # as after a lock (310.3)
    used = list(a.used_turn)
    events = act(state, RevealReward(reward=card_of(state, "sip")))
    assert "km.cast" not in keys(events) and a.used_turn == used  # no spell: no step, no 601.3 limit used
    assert (a.ap, a.mp) == (1, 1)


def test_306_3a_boost_applies_then_leaves_the_game():
    state = holding([rw("herb", heal=3)])
    state.pieces["a"].wounds = 5
    act(state, RevealReward(reward=card_of(state, "herb")))
    assert state.pieces["a"].wounds == 2 and state.pieces["a"].rewards == []
    assert state.rewards.discard[-1].reward.id == "herb" and count_cards(state) == state.rewards.total


def test_306_3b_buff_lasts_until_the_holders_next_turn():
    state = holding([rw("resin", type="buff", powers=["armor"], damage=1)])
    act(state, RevealReward(reward=card_of(state, "resin")))
    a = state.pieces["a"]
    assert a.has("armor") and a.rewards[0].face_up
    assert damage_for(spell("s", amount=2), a, state.pieces["z"], 0, 0) == 3
    end_turn(state)  # b's activation: a still has it during the opponent's turn
    assert a.has("armor")
    state.active_seat, state.active_piece = 1, "z"  # fast-forward to a's next activation
    from engines.krosmaster.rules_turn import activate

    events = activate(state, "a")
    assert not a.has("armor") and a.rewards == [] and "km.reward_expired" in keys(events)  # 502.1b


def test_306_3c_equipment_is_permanent_and_raises_the_maximum():
    state = holding([rw("dofus", rank="jade", type="equipment", slot="dofus", ap=1)])
    act(state, RevealReward(reward=card_of(state, "dofus")))
    assert state.pieces["a"].ap == 7  # spendable this very turn
    from engines.krosmaster.rules_turn import activate

    activate(state, "a")
    assert state.pieces["a"].ap == 7 and state.pieces["a"].rewards[0].face_up


def test_306_9a_one_equipment_of_each_type():
    state = holding([rw("axe", type="equipment", slot="weapon", damage=1),
                     rw("sword", type="equipment", slot="weapon", damage=1),
                     rw("dofus", type="equipment", slot="dofus"), rw("trophy", type="equipment", slot="trophy")])
    act(state, RevealReward(reward=card_of(state, "axe")))
    state.turn_number += 2
    with pytest.raises(RuleError) as err:
        act(state, RevealReward(reward=card_of(state, "sword")))
    assert err.value.key == "km.err.slot_taken" and err.value.rule == "306.9a"
    assert RevealReward(reward=card_of(state, "sword")) not in ENGINE.legal_actions(state, 0)
    act(state, RevealReward(reward=card_of(state, "dofus")))
    state.turn_number += 2
    act(state, RevealReward(reward=card_of(state, "trophy")))  # 306.9b: a dofus and a trophy together
    assert sum(c.face_up for c in state.pieces["a"].rewards) == 3


def test_308_1a_ko_removes_rewards_without_revealing_them():
    state = holding([rw("herb"), rw("sip", ap=1)])
    from engines.krosmaster.rules_ko import knock_out

    knock_out(state, state.pieces["a"])
    assert state.pieces["a"].rewards == [] and len(state.rewards.discard) == 2
    assert not any(c.face_up for c in state.rewards.discard)
    assert all(c.reward is None for c in ENGINE.view(state, None).rewards.discard)
    assert count_cards(state) == state.rewards.total


def test_rewards_option_off_deals_nothing():
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="Ann", config={"team": TEAM_A}),
                         SeatSetup(seat=1, user_id=2, name="Bob", config={"team": TEAM_B})],
                  options={"rewards": "off", "starting_gg": 2})
    state = ENGINE.new_game(setup, SeededDice(1))
    assert state.rewards.total == 0 and ENGINE.view(state, None) is state
    with pytest.raises(RuleError) as err:
        ENGINE.validate_options({"rewards": "maybe"})
    assert err.value.key == "km.err.bad_rewards_option"
