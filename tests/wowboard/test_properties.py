"""Property tests (hypothesis, issue 17): random legal games of the WoW board game keep the invariants of
spec §3.7 after every answered decision.

A game is drawn, not seeded: hypothesis draws the dice seed, then every choice as an index into the legal
actions of the decision (``st.data()``), so a failing game shrinks to a short one whose choices lean to
the first legal action. Choices are weighted (``weight``: fights when healthy, rest when hurt) so that
quests, rewards and items are reached. The management steps also offer the Equip/Unequip moves the rules accept
(``rules_sheet.check_equip``/``check_unequip``), which ``legal_actions`` leaves to the player's panel, so
cards reach the sheets too. Games are 2 seats (two characters each), a few ``duel: on`` (one each) and
4 seats (one character each). A game runs to its end: the turn track caps it at 30 faction turns (the
marker on 31 is the End: the final battle is played out, victory.2–3); a cap on answered decisions
keeps a test from hanging and is reported as ``capped``.

After every apply, on top of ``test_playouts.check`` (figure supply, Bag limit, health and energy bounds,
gold, actions, travel.3, quest figures, turn track): every item card of the pack lies in exactly one
place (§3.7, power-cards.5, items.3), every class card of a character's class in exactly one of its
places, quest and event cards are conserved, every character, figure and the Overlord stand in a region
of the map, level = f(XP) with one talent per level gained (power-cards.6, levels.2), one equipped power
per unique category (equipping.5), at most 7 dice of a colour (dice-pool.1), ``view`` shows no
deck contents (§3.6) and the state round-trips through JSON (every ``ROUND_TRIP`` decisions and at the
end). A game that reached the End has an outcome (victory.1–3).

CI runs a few games; ``WOWBOARD_PROPERTIES_LONG=1 pytest -m slow -s tests/wowboard/test_properties.py``
plays 100 two-seat games and prints the median number of decisions a game takes and how games ended.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common import i18n
from engines.core.contract import Action, SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowboard import actions as A
from engines.wowboard.rules_rewards import level_for
from engines.wowboard.rules_sheet import capacity_of, check_equip, check_unequip
from engines.wowboard.state import State
from tests.wowboard.test_playouts import PACK, WEIGHTS, E, check

LONG_RUN = bool(os.environ.get("WOWBOARD_PROPERTIES_LONG"))
MAX_DECISIONS = 4000  # a safety net: a 2-seat game answers far fewer (see the long run's report)
ROUND_TRIP = 40  # JSON round trip and ``view`` every this many decisions (and at the end)
NAMES = ("ann", "bo", "cy", "di")

ITEMS = sorted(i.id for i in PACK.items)
ITEM_IDS = frozenset(ITEMS)
CLASS_CARDS = {cls.id: sorted(k.id for k in PACK.class_cards if k.class_id == cls.id) for cls in PACK.classes}
QUESTS = sorted(q.id for q in PACK.quests)
EVENTS = sorted(e.id for e in PACK.events)
REGIONS = frozenset(r.id for r in PACK.regions)
UNIQUE = {k.id: k.unique for k in PACK.class_cards}

# derandomize: CI replays the same games every run; a game is long, so no deadline and no size checks
SETTINGS = settings(deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


# ------------------------------------------------------------------------------------------ invariants
def item_places(state: State) -> list[str]:
    """Every place an item card can lie (items.1, merchant.1, items.3, equipping.1/.6, quest-rewards.5):
    the three item decks (top, pool, bottom), the special deck, the merchant pile, each character's Bag
    and sheet (normal card or add-on of an area) and the cards drawn for a reward not kept yet
    (``keep_item``). A ``special`` offer names cards still in the special deck; a PvP ``loot`` offer names
    cards still in the loser's Bag; a consumable used goes to the bottom of its deck (items.6)."""
    out = [card for deck in state.item_decks.values() for card in deck.cards()]
    out += state.special + state.merchant
    for c in state.characters.values():
        out += c.bag
        for slot in c.sheet.values():
            out += [card for card in ([slot.card] if slot.card else []) + slot.addons if card in ITEM_IDS]
    for p in state.pending:
        if p.kind == "keep_item":  # quest-rewards.7: ``card@member`` names a card once per possible receiver
            out += dict.fromkeys(o.partition("@")[0] for o in p.options)
    return out


def class_places(state: State, char: str) -> list[str]:
    """power-cards.5–6: an unbought card in the class deck, a bought power in the Spellbook or on one
    sheet area, a talent on its level's bar."""
    c = state.characters[char]
    out = [*state.class_decks.get(char, []), *c.spellbook, *c.talents.values()]
    for slot in c.sheet.values():
        out += [card for card in ([slot.card] if slot.card else []) + slot.addons if card not in ITEM_IDS]
    return out


def check_cards(state: State) -> None:
    if state.phase == "draft":
        return
    items = Counter(item_places(state))
    assert sorted(items) == ITEMS and set(items.values()) == {1}, (  # each item card in exactly one place
        {k: n for k, n in items.items() if n != 1}, sorted(set(ITEMS) - set(items)), sorted(set(items) - ITEM_IDS))
    for cid, c in state.characters.items():
        assert sorted(class_places(state, cid)) == CLASS_CARDS[c.class_id], cid
    quests = [q for colours in state.quest_decks.values() for d in colours.values() for q in d.cards()]
    quests += [q.card for q in state.quests] + state.quest_discard + state.quests_boxed
    assert sorted(quests) == QUESTS, Counter(quests) - Counter(QUESTS) or Counter(QUESTS) - Counter(quests)
    events = [*state.event_deck.cards(), *state.event_discard, *state.events_active]
    assert sorted(events) == EVENTS, Counter(events) - Counter(EVENTS) or Counter(EVENTS) - Counter(events)


def check_more(state: State) -> None:
    """The rest of §3.7 ``check`` does not cover: the map, levels and talents, unique powers, dice."""
    if state.phase == "draft":
        return
    for c in state.characters.values():
        assert c.region in REGIONS, (c.id, c.region)  # one field: exactly one region, which must exist
        assert c.level == level_for(c.xp, PACK.xp_levels), (c.id, c.xp, c.level)  # levels.2
        asked = sum(p.kind == "talent" and p.character == c.id for p in state.pending)
        assert len(c.talents) + asked == c.level - 1, (c.id, c.level, c.talents, asked)  # power-cards.6
        assert all(2 <= lv <= c.level for lv in c.talents), (c.id, c.talents)
        unique = [u for s in c.sheet.values() if s.card in UNIQUE and (u := UNIQUE[s.card]) is not None]
        assert len(unique) == len(set(unique)), (c.id, unique)  # equipping.5: one power per unique category
    attack = state.combat.attack if state.combat is not None else None
    if attack is not None:  # dice-pool.1: at most 7 dice of a colour
        assert max(Counter(d.colour for d in attack.dice).values(), default=0) <= 7
    assert all(f.region in REGIONS for f in state.figures.values())
    assert state.overlord is None or state.overlord.region in REGIONS


def check_view(state: State) -> None:
    """§3.6: every seat's view blanks the decks (sizes kept) and the reward cards offered to others."""
    for seat in [*(s.seat for s in state.seats), None]:
        view = E.view(state, seat)
        assert isinstance(view, State)
        decks = [(view.item_decks[k], state.item_decks[k]) for k in state.item_decks]
        decks.append((view.event_deck, state.event_deck))
        decks += [(view.quest_decks[f][k], d) for f, colours in state.quest_decks.items() for k, d in colours.items()]
        for seen, real in decks:
            for zone in ("top", "pool", "bottom"):
                assert getattr(seen, zone) == ["?"] * len(getattr(real, zone))
        for seen_p, real_p in zip(view.pending, state.pending, strict=True):
            if real_p.kind == "keep_item" and seat not in real_p.seats:
                assert set(seen_p.options) <= {"?"} and seen_p.default is None
        assert view.characters == state.characters and view.merchant == state.merchant  # §3.6: public


def round_trip(state: State) -> None:
    assert E.load_state(state.model_dump_json()) == state


# ------------------------------------------------------------------------------------------ a drawn game
@dataclass
class Game:
    state: State
    decisions: int
    capped: bool

    @property
    def ending(self) -> str:
        return "capped" if self.capped else str(self.state.end_reason)


def management_moves(state: State, seat: int) -> list[Action]:
    """equipping.2–7: the Equip and Unequip moves the rules accept for the seat's characters now."""
    out: list[Action] = []
    for c in state.of_faction(state.active):
        if c.seat != seat:
            continue
        for card in dict.fromkeys([*c.spellbook, *c.bag]):
            for area in c.sheet:
                try:
                    check_equip(state, seat, c.id, card, area)
                except RuleError:
                    continue
                out.append(A.Equip(character=c.id, card=card, area=area))
        for slot in c.sheet.values():
            for card in ([slot.card] if slot.card else []) + slot.addons:
                try:
                    check_unequip(state, seat, c.id, card)
                except RuleError:
                    continue
                out.append(A.Unequip(character=c.id, card=card))
    return out


def weight(state: State, action: Action) -> int:
    """The playout weights (challenges and travel more often, so fights happen), except that a character
    below half its health rarely challenges and often rests or heals in town: without that, random
    characters mostly fall and quests, rewards, levels and items are seldom reached."""
    c = state.characters.get(str(getattr(action, "character", "")))
    if c is not None and action.kind in ("challenge", "rest", "town"):
        hurt = 2 * c.health < capacity_of(state, c)[0]
        if action.kind == "challenge":
            return 1 if hurt else 8
        heals = isinstance(action, A.Rest | A.Town) and (action.health or action.energy)
        return 6 if hurt and heals else 1
    return WEIGHTS.get(action.kind, 1)


def weighted(state: State, kind: str, seat: int) -> list[Action]:
    """The legal actions, each repeated by its weight; in a management step half the weight is on being
    done, so sheets change without churning."""
    legal = E.legal_actions(state, seat)
    assert legal, (kind, state.pending[:1])
    if kind in ("management", "final_management"):
        moves = management_moves(state, seat)
        return [*legal * max(1, len(moves)), *moves]
    return [a for a in legal for _ in range(weight(state, a))]


def draw_game(data: st.DataObject, seats: int, options: dict[str, str] | None = None,
              max_decisions: int = MAX_DECISIONS) -> Game:
    """One game: the dice seed, then each answer as an index into the (weighted) legal actions; a choice
    with a single option draws nothing. Every invariant is checked after every apply."""
    seed = data.draw(st.integers(min_value=0, max_value=2**32 - 1), label="seed")
    dice = SeededDice(seed)
    state = E.new_game(Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=NAMES[i]) for i in range(seats)],
                             options=options or {}), dice)
    assert isinstance(state, State)
    n = 0
    while (d := E.decision(state)) is not None and n < max_decisions:
        seat = d.seats[data.draw(st.integers(0, len(d.seats) - 1))] if len(d.seats) > 1 else d.seats[0]
        pool = weighted(state, d.kind, seat)
        action = pool[data.draw(st.integers(0, len(pool) - 1))] if len(set(map(id, pool))) > 1 else pool[0]
        for event in E.apply(state, seat, action, dice):
            assert i18n.has(event.key, "en") and i18n.has(event.key, "it"), event.key
        n += 1
        check(state)
        check_cards(state)
        check_more(state)
        if n % ROUND_TRIP == 0:
            check_view(state)
            round_trip(state)
    check_view(state)
    round_trip(state)
    game = Game(state=state, decisions=n, capped=E.decision(state) is not None)
    if not game.capped:
        ended(state)
    return game


def ended(state: State) -> None:
    """victory.1–3: the Overlord's killers, the final battle's survivors, or nobody (a draw)."""
    out = E.outcome(state)
    assert state.phase == "over" and out is not None, (state.turn, state.phase)
    assert state.end_reason in ("overlord", "final_battle", "draw")
    factions = {s.seat: s.faction for s in state.seats}
    assert (out.winners == []) == (state.end_reason == "draw")
    assert len({factions[s] for s in out.winners}) <= 1  # one faction wins, every seat of it
    if out.winners:
        winner = factions[out.winners[0]]
        assert sorted(out.winners) == sorted(s for s, f in factions.items() if f == winner)
    if state.end_reason != "overlord":
        assert state.turn == 31  # the End space: the track capped the game at 30 faction turns


# ------------------------------------------------------------------------------------------ the tests
GAMES: list[Game] = []  # the long run's games, summed up at the end of the module


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if GAMES:
        counts = [g.decisions for g in GAMES]
        endings = Counter(g.ending for g in GAMES)
        print(f"\nwowboard properties: {len(GAMES)} games; decisions per game median {statistics.median(counts)}"
              f", min {min(counts)}, max {max(counts)}; endings {dict(sorted(endings.items()))}")


@settings(SETTINGS, max_examples=12)
@given(st.data())
def test_properties_two_seats_random_legal_games_keep_the_invariants(data: st.DataObject) -> None:
    draw_game(data, 2)


@settings(SETTINGS, max_examples=3)
@given(st.data())
def test_properties_duel_games_keep_the_invariants(data: st.DataObject) -> None:
    draw_game(data, 2, {"duel": "on"})


@settings(SETTINGS, max_examples=3)
@given(st.data())
def test_properties_four_seats_one_character_each_keep_the_invariants(data: st.DataObject) -> None:
    draw_game(data, 4)


@pytest.mark.slow
@pytest.mark.skipif(not LONG_RUN, reason="set WOWBOARD_PROPERTIES_LONG=1 for the 100-game run")
@settings(SETTINGS, max_examples=100)
@given(st.data())
def test_properties_long_100_two_seat_games(data: st.DataObject) -> None:
    GAMES.append(draw_game(data, 2))


def test_properties_card_checks_catch_a_copied_or_lost_card() -> None:
    """The conservation checks themselves: a card in two places, or in none, fails them."""
    dice = SeededDice(5)
    state = E.new_game(Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=NAMES[i]) for i in range(2)]), dice)
    assert isinstance(state, State)
    while state.phase == "draft":
        seat = E.decision(state).seats[0]  # type: ignore[union-attr]
        E.apply(state, seat, E.legal_actions(state, seat)[0], dice)
    check_cards(state)
    hero = next(iter(state.characters.values()))
    copied = state.model_copy(deep=True)
    copied.characters[hero.id].bag.append(copied.merchant[0])  # in the Bag and still at the merchant
    with pytest.raises(AssertionError):
        check_cards(copied)
    lost = state.model_copy(deep=True)
    lost.class_decks[hero.id].pop()  # a class card nowhere
    with pytest.raises(AssertionError):
        check_cards(lost)
