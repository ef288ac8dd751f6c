"""Krosmaster ``view`` (rules_rewards.hide) without a deep copy: same views, untouched state.

Every board reply asks for a view, and a deep copy of the whole state used to cost more
than the rest of the action. The view now shares what it does not hide; these tests hold
it to the deep-copy version it replaced, on every position of a recorded game.
"""

from __future__ import annotations

from engines.krosmaster.engine import KrosmasterEngine
from engines.krosmaster.state import RewardCard, State

ENGINE = KrosmasterEngine()


def _deep_copy_view(state: State, seat: int | None) -> State:
    """The implementation before: a deep copy, then blank what ``seat`` may not see."""
    if not state.rewards.total:
        return state
    view = state.model_copy(deep=True)

    def blank(card: RewardCard) -> None:
        if not card.face_up and (seat is None or card.seat != seat):
            card.reward = None

    view.rewards.pool = {rank: [] for rank in view.rewards.pool}
    for piece in view.pieces.values():
        for card in piece.rewards:
            blank(card)
    for card in view.rewards.discard:
        blank(card)
    if view.rewards.pending is not None:
        blank(view.rewards.pending)
    return view


def _positions() -> list[State]:
    """Every position of a recorded game, plus copies of some with tokens in every place a view
    must look: held face down and face up by both sides, discarded, and being placed."""
    from bench.km_games import record

    script = record(5, every=1, tail=0)
    states = [ENGINE.load_state(text) for _, text in sorted(script.starts.items())]
    for state in states[::10]:
        tokens = [r for deck in state.rewards.pool.values() for r in deck]
        if len(tokens) < 6:
            continue
        held = state.model_copy(deep=True)
        mine, theirs = (next(p for p in held.pieces.values() if p.owner == seat) for seat in (0, 1))
        mine.rewards = [RewardCard(id="r90", reward=tokens[0], seat=0)]
        theirs.rewards = [RewardCard(id="r91", reward=tokens[1], seat=1, face_up=True),
                          RewardCard(id="r92", reward=tokens[2], seat=1)]
        held.rewards.discard = [RewardCard(id="r93", reward=tokens[3], seat=0),
                                RewardCard(id="r94", reward=tokens[4], seat=1, face_up=True)]
        held.rewards.pending = RewardCard(id="r95", reward=tokens[5], seat=0)
        states.append(held)
    return states


def test_views_match_the_deep_copy_version_and_leave_the_state_untouched() -> None:
    positions = _positions()
    held_face_down = 0
    for state in positions:
        before = state.model_dump_json()
        held_face_down += any(not c.face_up for p in state.pieces.values() for c in p.rewards)
        for seat in (None, 0, 1):
            view = ENGINE.view(state, seat)
            assert view.model_dump_json() == _deep_copy_view(state, seat).model_dump_json()
        assert state.model_dump_json() == before
    assert held_face_down > 0  # the game reached positions where a view must hide a held token


def test_a_view_shares_what_it_does_not_hide_and_is_the_state_when_nothing_is_hidden() -> None:
    state = next(s for s in _positions() if any(s.rewards.pool.values()))
    view = ENGINE.view(state, None)
    assert view is not state and not any(view.rewards.pool.values()) and any(state.rewards.pool.values())
    assert view.board is state.board and view.players is state.players  # shared, not copied
    untouched = [pid for pid, p in state.pieces.items() if not p.rewards]
    assert untouched and all(view.pieces[pid] is state.pieces[pid] for pid in untouched)
    nothing_hidden = state.model_copy(update={"rewards": state.rewards.model_copy(update={
        "pool": {rank: [] for rank in state.rewards.pool}, "discard": [], "pending": None})})
    nothing_hidden = nothing_hidden.model_copy(update={"pieces": {
        pid: p.model_copy(update={"rewards": []}) for pid, p in state.pieces.items()}})
    assert ENGINE.view(nothing_hidden, None) is nothing_hidden
