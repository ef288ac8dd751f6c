"""Demonic rewards (306, 503.7-503.8): piles, buying, placing, revealing, and what they do.

Every token is always in exactly one place: face down in a rank's pool (counted by its
piles), face up on top of a pile, being placed (``rewards.pending``), on a piece's card, or
out of the game (``rewards.discard``). A face-down token is drawn at random with the
injected dice only when it is revealed or bought blind (see ``RewardsState``). Face-down
tokens are private (306.6b): ``hide`` blanks them out of a view, and the events that name
one are ``private_to`` its owner.
"""

from __future__ import annotations

from engines.core.contract import Action
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.krosmaster import actions as A
from engines.krosmaster.content import REWARD_COST, Reward, RewardRank, RewardType
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_kamas import BUY_AP, is_krosmaster, on_demon_square
from engines.krosmaster.rules_powers_more import creator_applies, note_reward_bought, reward_terms
from engines.krosmaster.rules_stats import add_turn_effect, face_up
from engines.krosmaster.state import PieceState, RewardCard, RewardPile, RewardsState, State, TurnEffect

NOBODY = -1  # ``private_to`` for records no player may read (seats are 0 and up)


# -- set-up and drawing ----------------------------------------------------------------
def deal(state: State, rewards: list[Reward]) -> list[Event]:
    """103.7/306.2: each rank face down, split into two piles (sizes differ by one at most)."""
    piles: list[RewardPile] = []
    pool: dict[str, list[Reward]] = {}
    for rank in RewardRank:
        deck = [reward for reward in rewards if reward.rank is rank]
        pool[rank.value] = deck
        for half in (0, 1):
            piles.append(RewardPile(id=f"{rank.value}{half + 1}", rank=rank, count=len(deck[half::2])))
    total = len([r for deck in pool.values() for r in deck])
    state.rewards = RewardsState(piles=piles, pool=pool, total=total)
    return [ev("rewards_dealt", piles=sum(1 for p in piles if p.count), cards=total)] if total else []


def _draw(state: State, pile: RewardPile, dice: Dice) -> RewardCard:
    """Take one face-down token of ``pile``: uniformly among the rank's unseen tokens."""
    pool = state.rewards.pool[pile.rank.value]
    index = dice.pick(len(pool))  # a hidden draw, made by the bot even at manual-dice tables
    pile.count -= 1
    state.rewards.next_card += 1
    return RewardCard(id=f"r{state.rewards.next_card}", reward=pool.pop(index))


def _draw_rolls(dice: Dice) -> list[Event]:
    """The dice of a draw, on an event no seat sees: which token a roll picks depends on which
    tokens are still unseen, so showing it would hint at other players' face-down rewards."""
    draws = dice.take_picked()
    return [Event(key="km.reward_drawn", draws=draws, private_to=[NOBODY])] if draws else []


def _flip_top(state: State, pile: RewardPile, dice: Dice) -> list[Event]:
    """306.2/306.5: the pile's next token is turned face up on top of it."""
    if pile.top is not None or pile.count <= 0:
        return []
    card = _draw(state, pile, dice)
    card.face_up = True
    pile.top = card
    name = card.reward.name if card.reward else "?"
    name_it = card.reward.name_it if card.reward else ""
    return [Event(key="km.reward_pile_revealed", params={"pile": pile.id, "reward": name, "reward_it": name_it},
                  reveals_hidden=True),
            *_draw_rolls(dice)]


def _reveal_rank(state: State, dice: Dice) -> list[Event]:
    """One more token of each rank face up: the first pile of the rank still without one."""
    events: list[Event] = []
    for rank in RewardRank:
        pile = next((p for p in state.rewards.piles if p.rank is rank and p.top is None and p.count > 0), None)
        if pile is not None:
            events.extend(_flip_top(state, pile, dice))
    return events


def on_turn_start(state: State, dice: Dice) -> list[Event]:
    """306.2: at the start of the second player turn, one reward of each rank is revealed."""
    return _reveal_rank(state, dice) if state.turn_number == 2 else []


def on_turn_end(state: State, dice: Dice) -> list[Event]:
    """306.2: at the end of that same turn, the second one of each rank is revealed too."""
    return _reveal_rank(state, dice) if state.turn_number == 2 else []


# -- buffs leaving (502.1b) -----------------------------------------------------------
def expire_buffs(state: State, piece: PieceState) -> list[Event]:
    """502.1b/306.3b: face-up buffs leave the game as their holder's next turn starts."""
    gone = [c for c in piece.rewards if c.face_up and c.reward is not None and c.reward.type is RewardType.BUFF]
    if not gone:
        return []
    piece.rewards = [c for c in piece.rewards if c not in gone]
    state.rewards.discard.extend(gone)
    return [ev("reward_expired", piece=piece.id, name=piece.short, reward=c.reward.name,  # type: ignore[union-attr]
               reward_it=c.reward.name_it)  # type: ignore[union-attr]
            for c in gone]


def discard_all(state: State, piece: PieceState) -> None:
    """308.1a: a Krosmaster put K.O. loses its rewards without revealing them."""
    state.rewards.discard.extend(piece.rewards)
    piece.rewards = []


# -- buying (306.4-306.7a) ---------------------------------------------------------------
def price(rank: RewardRank) -> int:
    return REWARD_COST[rank]


def _pile(state: State, pile_id: str) -> RewardPile | None:
    return next((p for p in state.rewards.piles if p.id == pile_id), None)


def _available(pile: RewardPile, blind: bool) -> bool:
    """The face-up top, or (blind) a face-down token: the one under the top, or the top itself
    while the pile is not revealed yet (306.2: the first player's first turn)."""
    return pile.count > 0 if blind else pile.top is not None


def buy_problem(state: State, piece: PieceState, pile_id: str, blind: bool) -> RuleError | None:
    if not is_krosmaster(piece):
        return RuleError("km.err.not_a_krosmaster", rule="503.7", name=piece.short)
    if not on_demon_square(state, piece):
        return RuleError("km.err.not_on_demon_square", rule="306.4", name=piece.short)
    pile = _pile(state, pile_id)
    if pile is None:
        return RuleError("km.err.unknown_pile", rule="306.4", pile=pile_id,
                         known=", ".join(p.id for p in state.rewards.piles) or "—")
    if not _available(pile, blind):
        key = "km.err.no_blind_reward" if blind else "km.err.no_face_up_reward"
        return RuleError(key, rule="306.2" if not blind else "306.4", pile=pile_id)
    cost, ap = reward_terms(piece, pile.rank, price(pile.rank), BUY_AP)  # 307.33 Creator
    if piece.ap < ap:
        return RuleError("km.err.not_enough_ap", rule="503.7", spell=pile_id, need=ap, have=piece.ap)
    kamas = state.player(piece.owner).kamas
    if kamas < cost:
        return RuleError("km.err.not_enough_kamas", rule="304.3", need=cost, have=kamas)
    return None


def holders(state: State, seat: int) -> list[PieceState]:
    """306.6/306.7: Krosmasters of the team, on the board, with a free reward slot (level)."""
    return [p for p in state.pieces_of(seat)
            if p.in_play and is_krosmaster(p) and len(p.rewards) < p.level]


def buy(state: State, piece: PieceState, pile_id: str, blind: bool, dice: Dice) -> list[Event]:
    """306.4-306.7a: pay, take the token, refill the face-up slot, then place it (or discard it)."""
    problem = buy_problem(state, piece, pile_id, blind)
    if problem is not None:
        raise problem
    pile = _pile(state, pile_id)
    assert pile is not None
    player = state.player(piece.owner)
    cost, ap = reward_terms(piece, pile.rank, price(pile.rank), BUY_AP)  # 307.33 Creator
    note_reward_bought(piece)
    piece.ap -= ap
    player.kamas -= cost  # spent kamas go back to the reserve (103.4)
    if blind:
        card = _draw(state, pile, dice)
    else:
        card, pile.top = pile.top, None
        assert card is not None
    card.face_up = False  # 306.6b: placed face down, whichever way it was bought
    card.seat = player.seat
    name = card.reward.name if card.reward else "?"
    name_it = card.reward.name_it if card.reward else ""
    common = {"seat": player.seat, "piece": piece.id, "name": piece.short, "pile": pile.id, "price": cost,
              "kamas": player.kamas}
    if blind:
        events = [ev("reward_bought_blind", **common), *_draw_rolls(dice),
                  Event(key="km.reward_seen", params={"seat": player.seat, "reward": name, "reward_it": name_it,
                                                      "card": card.id},
                        private_to=[player.seat])]  # 306.6a: the buyer may look at it
    else:
        events = [ev("reward_bought", reward=name, reward_it=name_it, **common)]
        events.extend(_flip_top(state, pile, dice))  # 306.5: before the bought one is placed
    targets = holders(state, player.seat)
    if not targets:  # 306.7a: nobody can hold it: revealed and discarded
        card.face_up = True
        state.rewards.discard.append(card)
        events.append(Event(key="km.reward_discarded", params={"seat": player.seat, "reward": name,
                                                               "reward_it": name_it},
                            reveals_hidden=True))
        return events
    if len(targets) == 1:  # no choice to make: placed at once
        return events + place(state, card, targets[0])
    state.rewards.pending = card
    state.phase = "assign_reward"
    return events


def place(state: State, card: RewardCard, piece: PieceState) -> list[Event]:
    piece.rewards.append(card)
    return [ev("reward_assigned", seat=piece.owner, piece=piece.id, name=piece.short, card=card.id,
               held=len(piece.rewards), level=piece.level)]


def assign(state: State, seat: int, card_id: str, piece_id: str) -> list[Event]:
    """306.6: the active player puts the token on any of its Krosmasters that can hold it."""
    card = state.rewards.pending
    if card is None or card.id != card_id:
        raise RuleError("km.err.no_pending_reward", rule="306.6", reward=card_id)
    piece = state.pieces.get(piece_id)
    if piece is None or piece.owner != seat or not piece.in_play:
        raise RuleError("km.err.not_your_piece", rule="306.6", piece=piece_id)
    if piece not in holders(state, seat):
        raise RuleError("km.err.reward_limit", rule="306.7", name=piece.short, level=piece.level)
    state.rewards.pending = None
    state.phase = "turn"
    return place(state, card, piece)


def assign_actions(state: State, seat: int) -> list[Action]:
    card = state.rewards.pending
    if card is None:
        return []
    return [A.AssignReward(reward=card.id, piece=p.id) for p in holders(state, seat)]


# -- revealing (306.8-306.10) ----------------------------------------------------------
def _reveal_key(state: State, piece: PieceState) -> str:
    return f"{state.turn_number}:{piece.id}"


def reveal_problem(state: State, piece: PieceState, card_id: str) -> RuleError | None:
    card = next((c for c in piece.rewards if c.id == card_id), None)
    if card is None or card.face_up:
        return RuleError("km.err.no_such_reward", rule="306.8", reward=card_id, name=piece.short,
                         known=", ".join(c.id for c in piece.rewards if not c.face_up) or "—")
    if _reveal_key(state, piece) in state.rewards.revealed:
        return RuleError("km.err.reward_already_revealed", rule="306.8", name=piece.short)
    reward = card.reward
    if reward is not None and reward.type is RewardType.EQUIPMENT:
        held = {r.slot for r in face_up(piece) if r.type is RewardType.EQUIPMENT}
        if reward.slot in held:  # 306.9a/306.9b/306.10: one per type, and it may not be swapped out
            return RuleError("km.err.slot_taken", rule="306.9a", name=piece.short, slot=str(reward.slot))
    return None


def reveal(state: State, piece: PieceState, card_id: str) -> list[Event]:
    """306.8: free, once per activation; the effect applies at once. Not a spell (306.8a): no step,
    no prerequisite and no spell limit is involved."""
    problem = reveal_problem(state, piece, card_id)
    if problem is not None:
        raise problem
    card = next(c for c in piece.rewards if c.id == card_id)
    reward = card.reward
    assert reward is not None  # the engine's own state always knows its tokens
    card.face_up = True
    state.rewards.revealed = [k for k in state.rewards.revealed if k.startswith(f"{state.turn_number}:")]
    state.rewards.revealed.append(_reveal_key(state, piece))
    events: list[Event] = [Event(key="km.reward_revealed",
                                 params={"seat": piece.owner, "piece": piece.id, "name": piece.short,
                                         "reward": reward.name, "reward_it": reward.name_it,
                                         "type": reward.type.value},
                                 reveals_hidden=True)]
    # 306.3a-c: the bars get the points now (equipment also raises the maximum: rules_stats.max_stat).
    if reward.ap:
        piece.ap += reward.ap
        events.append(ev("gain_ap", piece=piece.id, name=piece.short, value=reward.ap))
    if reward.mp:
        piece.mp += reward.mp
        events.append(ev("gain_mp", piece=piece.id, name=piece.short, value=reward.mp))
    if reward.heal:
        healed = min(reward.heal, piece.wounds)  # 308.4
        piece.wounds -= healed
        events.append(ev("healed", piece=piece.id, name=piece.short, heal=reward.heal, healed=healed,
                         total=piece.wounds, hp=piece.hp))
    if reward.type is RewardType.BOOST:  # 306.3a: used up at once
        if reward.lasting:  # 504.1: its bonus lasts for this turn's spells (602.7c's Air Boost)
            events.append(add_turn_effect(piece, TurnEffect(source=reward.name, source_it=reward.name_it,
                                                            damage=reward.damage,
                                                            element=reward.element, range=reward.range,
                                                            heal=reward.heal_bonus)))
        piece.rewards.remove(card)
        state.rewards.discard.append(card)
    return events


def turn_actions(state: State, piece: PieceState) -> list[Action]:
    """Buying and revealing for the active piece, exactly what ``buy``/``reveal`` accept."""
    result: list[Action] = []
    if on_demon_square(state, piece) and (piece.ap >= BUY_AP or creator_applies(piece)) and is_krosmaster(piece):
        for pile in state.rewards.piles:
            for blind in (False, True):
                if buy_problem(state, piece, pile.id, blind) is None:
                    result.append(A.BuyReward(pile=pile.id, blind=blind))
    for card in piece.rewards:
        if reveal_problem(state, piece, card.id) is None:
            result.append(A.RevealReward(reward=card.id))
    return result


# -- hidden information ------------------------------------------------------------------
def hide(state: State, seat: int | None) -> State:
    """306.6b: face-down tokens show only to their owner; pile faces to nobody.

    Every board reply asks for a view, so it must be cheap: the view shares every part of the
    state it does not change and copies only the containers that hold a blanked token (a deep
    copy of a whole state cost more than the rest of an action). It is read-only, like the
    state it comes from (renderers and presenters never mutate what they are given), and when
    nothing is hidden from ``seat`` it is the state itself.
    """
    rewards = state.rewards
    if not rewards.total:
        return state

    def hidden(card: RewardCard) -> bool:
        return not card.face_up and card.reward is not None and (seat is None or card.seat != seat)

    def blank(card: RewardCard) -> RewardCard:
        return card.model_copy(update={"reward": None}) if hidden(card) else card

    pool_hidden = any(rewards.pool.values())
    pieces = {pid: piece for pid, piece in state.pieces.items() if any(hidden(c) for c in piece.rewards)}
    discard_hidden = any(hidden(c) for c in rewards.discard)
    pending_hidden = rewards.pending is not None and hidden(rewards.pending)
    if not (pool_hidden or pieces or discard_hidden or pending_hidden):
        return state
    changes: dict[str, object] = {}
    if pool_hidden:  # unseen tokens: nobody's to know
        changes["pool"] = {rank: [] for rank in rewards.pool}
    if discard_hidden:
        changes["discard"] = [blank(c) for c in rewards.discard]
    if pending_hidden and rewards.pending is not None:
        changes["pending"] = blank(rewards.pending)
    update: dict[str, object] = {"rewards": rewards.model_copy(update=changes)}
    if pieces:
        update["pieces"] = {pid: (piece.model_copy(update={"rewards": [blank(c) for c in piece.rewards]})
                                  if pid in pieces else piece) for pid, piece in state.pieces.items()}
    return state.model_copy(update=update)


def count_cards(state: State) -> int:
    """Tokens in every place; equals ``rewards.total`` at all times (conservation)."""
    rewards = state.rewards
    return (sum(p.count + (p.top is not None) for p in rewards.piles) + len(rewards.discard)
            + (rewards.pending is not None)
            + sum(len(p.rewards) for p in state.pieces.values()))
