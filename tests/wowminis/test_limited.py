"""Limited formats (100.3, issue 29.5), the grown built-in pack and ``/wowm suggest``.

Scenarios name their rule; the property tests deal random tables of 2-4 seats (the engine part; the game
after the build is the existing one) and pick at random among the legal picks; the console plays
``draft_game.txt`` (written by ``tools/wowm_autoplay.py``: the draft, the builds and the game to victory) in
English and Italian, checking that no pick reaches the channel.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from console.runner import Console
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import Dice, RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.wowminis import limited as L
from engines.wowminis.content import builtin_pack, fits
from engines.wowminis.engine import WowMinisEngine
from engines.wowminis.limited_state import BuildParty, DraftPick
from engines.wowminis.limited_suggest import suggest
from engines.wowminis.state import State

ENGINE = WowMinisEngine()
SCRIPT = Path(__file__).resolve().parent / "draft_game.txt"


class Recording(SeededDice):
    """Seeded dice that keep every pick, to replay them through ``RecordedDice``."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.picks: list[int] = []

    def _pick(self, n: int) -> int:
        value = super()._pick(n)
        self.picks.append(value)
        return value


def _table(fmt: str, seats: int, dice: Dice) -> State:
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}") for i in range(seats)],
                  options=ENGINE.validate_options({"format": fmt, "first": "1"}))
    state = ENGINE.new_game(setup, dice)
    assert isinstance(state, State)
    return state


def _draft_all(state: State, choose: object = None) -> None:
    while state.limited is not None and state.limited.stage == "draft":
        for seat in ENGINE.decision(state).seats:
            legal = ENGINE.legal_actions(state, seat)
            pick = legal[0] if choose is None else choose(legal)  # type: ignore[operator]
            ENGINE.apply(state, seat, pick, SeededDice(0))


def test_builtin_pack_supplies_four_drafters() -> None:
    """The count the pack is sized for (limited.py's docstring): boosters for four seats, no card twice."""
    pack = builtin_pack()
    have, need = L.supply_of(pack), L.supply_needed(4)
    assert all(have[k] >= v for k, v in need.items()), (have, need)
    assert L.max_seats(pack) == 4
    assert len({c.name for c in pack.cards}) == len(pack.cards)  # no name twice: a bar may hold any two
    for c in pack.characters:  # the new characters' printed pools name real cards that fit them
        assert all(fits(pack.card(k), c) for k in c.pool)


def test_every_builtin_card_and_character_has_an_italian_name() -> None:
    pack = builtin_pack()
    for thing in [*pack.characters, *pack.cards]:
        assert thing.name_it.strip(), thing.id


def test_100_3_sealed_pool_builds_mixed_faction_party() -> None:
    state = _table("sealed", 2, SeededDice(3))
    lim = state.limited
    assert lim is not None and lim.stage == "build"
    assert ENGINE.decision(state).kind == "build_party" and ENGINE.decision(state).secret
    for seat in (0, 1):
        assert L.pool_counts(lim, seat) == {"characters": 4, "cards": 10}
    # a party of mixed factions out of seat 0's pool is legal in sealed (100.3), two cards each
    chars = L.characters_of(lim, 0)
    build = L.a_build(lim, state.scenario, 0)
    assert build is not None
    ENGINE.apply(state, 0, BuildParty(party=build.party, bars=build.bars), SeededDice(0))
    other = L.a_build(lim, state.scenario, 1)
    assert other is not None
    ENGINE.apply(state, 1, BuildParty(party=other.party, bars=other.bars), SeededDice(0))
    assert state.limited is None and state.phase == "play"
    mine = [c for c in state.chars.values() if c.owner == 0]
    assert sorted(c.defn.id for c in mine) == sorted(build.party)
    assert all(len(c.bar) == 2 and all(not k.face_up and k.ready for k in c.bar) for c in mine)  # 101.2b
    assert {c.faction for c in chars} and state.scenario.same_faction is False


def test_100_3_sealed_party_of_mixed_factions_is_accepted_and_wrong_bars_refused() -> None:
    pack = builtin_pack()
    state = _table("sealed", 2, SeededDice(5))
    lim = state.limited
    assert lim is not None
    mixed = [c for c in L.characters_of(lim, 0) if not c.legendary][:3]
    generic = [k.id for k in L.cards_of(lim, 0) if k.restriction.generic][:6]
    assert len({c.faction for c in pack.characters}) == 3
    with pytest.raises(RuleError) as one_card:
        L.read_build(lim, state.scenario, 0, [c.name for c in mixed], {mixed[0].name: generic[:1]})
    assert one_card.value.key == "wowm.err.bar" and one_card.value.rule == "100.3"
    bars = {c.name: generic[2 * i:2 * i + 2] for i, c in enumerate(mixed)}
    build = L.read_build(lim, state.scenario, 0, [c.name for c in mixed], bars)
    assert build.party == [c.id for c in mixed]


def test_100_3_draft_passes_left_then_right_then_left() -> None:
    state = _table("draft", 3, SeededDice(7))
    lim = state.limited
    assert lim is not None
    first = {seat: list(hand) for seat, hand in lim.hands.items()}
    for seat in (0, 1, 2):
        ENGINE.apply(state, seat, DraftPick(item="1"), SeededDice(0))
    # round 1 goes left: seat 0's booster, less seat 0's pick, is now seat 1's
    assert lim.hands[1] == first[0][1:] and lim.hands[2] == first[1][1:] and lim.hands[0] == first[2][1:]
    while lim.round == 0:
        for seat in (0, 1, 2):
            ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], SeededDice(0))
    assert lim.burned == 3  # the last character of each booster
    second = {seat: list(hand) for seat, hand in lim.hands.items()}
    for seat in (0, 1, 2):
        ENGINE.apply(state, seat, DraftPick(item="1"), SeededDice(0))
    assert lim.hands[0] == second[1][1:] and lim.hands[2] == second[0][1:]  # round 2 goes right


def test_100_3_draft_is_secret_no_seat_sees_another_seats_picks() -> None:
    state = _table("draft", 2, SeededDice(11))
    lim = state.limited
    assert lim is not None
    decision = ENGINE.decision(state)
    assert decision.kind == "draft_pick" and decision.simultaneous and decision.secret
    events = ENGINE.apply(state, 0, DraftPick(item="1"), SeededDice(0))
    picked = lim.answers[0]
    public = [e for e in events if not e.private_to]
    assert all(L.item_name(lim, picked) not in str(e.params) for e in public)
    for seat in (1, None):
        view = ENGINE.view(state, seat)
        assert isinstance(view, State) and view.limited is not None
        assert 0 not in view.limited.answers and 0 not in view.limited.hands and 0 not in view.limited.picked
        assert picked[2:] not in view.limited.characters or picked in view.limited.hands.get(1, [])
        assert view.limited.unopened == {}
    own = ENGINE.view(state, 0)
    assert isinstance(own, State) and own.limited is not None and own.limited.answers[0] == picked


def test_100_3_second_legendary_is_refused_and_never_forced() -> None:
    state = _table("draft", 4, SeededDice(2))
    lim = state.limited
    assert lim is not None
    lim.picked[0] = ["c:elowen"]
    lim.characters["thrak"] = builtin_pack().character("thrak")
    lim.hands[0] = ["c:thrak", *lim.hands[0][1:]]
    with pytest.raises(RuleError) as refused:
        ENGINE.apply(state, 0, DraftPick(item="thrak"), SeededDice(0))
    assert refused.value.key == "wowm.err.draft_second_legendary"
    assert ENGINE.legal_actions(state, 0) and all(a.item != "c:thrak" for a in ENGINE.legal_actions(state, 0))


def test_100_3_replay_from_recorded_draws_gives_the_same_pools() -> None:
    for fmt in ("sealed", "draft"):
        recording = Recording(21)
        state = _table(fmt, 4, recording)
        replayed = _table(fmt, 4, RecordedDice([], picks=recording.picks))
        assert state.model_dump_json() == replayed.model_dump_json()
        _draft_all(state)
        _draft_all(replayed)
        assert state.limited is not None and replayed.limited is not None
        assert state.limited.picked == replayed.limited.picked


def test_suggest_from_the_pack_covers_the_three_roles_legally() -> None:
    pack = builtin_pack()
    cards = {k.id: k for k in pack.cards}
    from engines.wowminis.content import ScenarioDef

    picks = suggest(pack.characters, {c.id: [cards[k] for k in c.pool[:2]] for c in pack.characters}, ScenarioDef())
    assert len(picks) == 3 and len({p.char.faction for p in picks}) == 1
    assert {p.role for p in picks} == {"tank", "healer", "damage"}
    assert sum(p.char.legendary for p in picks) <= 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 4), fmt=st.sampled_from(["sealed", "draft"]),
       data=st.data())
def test_100_3_random_limited_tables_always_build_legal_parties(seed: int, seats: int, fmt: str,
                                                                 data: st.DataObject) -> None:
    """Any pick among the legal ones leaves every seat a legal build; the dealt items never repeat; the
    game after the build holds each seat's party with fitting bars, and its JSON round-trips."""
    state = _table(fmt, seats, SeededDice(seed))
    lim = state.limited
    assert lim is not None
    dealt = [i for s in lim.order for i in (lim.picked[s] + lim.hands.get(s, [])
                                            + [x for b in lim.unopened.get(s, []) for x in b])]
    assert len(dealt) == len(set(dealt))
    _draft_all(state, lambda legal: data.draw(st.sampled_from(legal)))
    builds = {}
    for seat in list(ENGINE.decision(state).seats):
        build = L.a_build(lim, state.scenario, seat)
        assert build is not None, (seat, lim.picked[seat])
        builds[seat] = build
        ENGINE.apply(state, seat, BuildParty(party=build.party, bars=build.bars), SeededDice(0))
    assert state.limited is None and state.phase == "play"
    for seat, build in builds.items():
        mine = [c for c in state.chars.values() if c.owner == seat]
        assert sorted(c.defn.id for c in mine) == sorted(build.party) and sum(c.defn.legendary for c in mine) <= 1
        for c in mine:
            assert all(k.defn is not None and fits(k.defn, c.defn) for k in c.bar)
            assert len(c.bar) == 2 or fmt == "draft"
    assert ENGINE.load_state(state.model_dump_json()).model_dump_json() == state.model_dump_json()


def _public(output: str) -> list[str]:
    found, private = [], False
    for line in output.splitlines():
        if line.startswith("(only "):
            private = True
        elif not line.startswith(" "):
            private = False
        if not private:
            found.append(line)
    return found


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_100_3_scripted_draft_plays_in_the_console(console: Console, lang: str) -> None:
    lines = [x for x in SCRIPT.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]
    lines.insert(lines.index("/wowm suggest"), "/wowm cards")  # the "cards" of a seat still building: its pool
    await console.run(["/lang it", *lines] if lang == "it" else lines)
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    over = "Il draft è finito" if lang == "it" else "The draft is over"
    assert over in output
    it = lang == "it"
    assert ("nessuno porta un gruppo" if it else "nobody brings a party") in output  # the lobby says how it goes
    assert ("Preparazione: draft" if it else "Set-up: draft") in output
    assert ("barre delle azioni segrete" if it else "secret action bars") not in output  # no bars to choose here
    assert ("La tua riserva (" if it else "Your pool (") in output and "/wowm bar" not in output
    assert ("tiene la linea" if lang == "it" else "holds the line") in output  # the suggestion's reasons
    public = _public(output)
    assert not any(re.search(r"Your pick|La tua scelta|Your party and its cards|Il tuo party e", x) for x in public)
    parties = "Gruppi:" if lang == "it" else "Parties:"
    revealed = next(x for x in public if x.startswith(parties))  # together, once both are built (101.2)
    assert "Brannoc" in revealed and "Grushka" in revealed
    assert public.index(revealed) > max(i for i, x in enumerate(public) if "has built" in x or "ha costruito" in x)
    over = "🏆 Partita finita — vince: @alice" if lang == "it" else "🏆 Game over — winner: @alice"
    assert over in output  # the game the draft built is played to its end (issue 29: "to the end")
    scores = "alice ottiene 4 VP" if lang == "it" else "alice scores 4 VP"
    assert scores in output
