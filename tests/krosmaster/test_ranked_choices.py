"""Autocomplete is a recommendation, ranked (TABLE_UX): gm/games/choices.py and the Krosmaster lists built
on it, plus the buttons that must lead somewhere."""

from __future__ import annotations

from engines.krosmaster.state import State
from gm.games.choices import Choice, Ranked, clip, fit, rank
from gm.games.krosmaster import presenter as km
from tests.krosmaster.builders import fig, game, spell

BOLT = spell("fire_bolt", name="Fire Bolt", element="fire", range={"min": 1, "max": 6}, cost={"ap": 3})
MEND = spell("mend", name="Mend", kind="heal", range={"min": 0, "max": 6}, cost={"ap": 2})
BREATH = spell("breath", name="Breath", area="breath", range={"type": "line", "min": 1, "max": 2}, cost={"ap": 4})
PYRE = spell("pyre", name="Pyre", cost={"ap": 9}, limit="per_game")


def test_fit_drops_whole_parts_least_important_first_and_never_cuts_a_word() -> None:
    parts = ["Fire Bolt", "3 AP", "2 fire damage", "range 2-5 (modifiable)", "x" * 40, "once per turn"]
    label = fit(parts, 80, importance=[9, 8, 7, 6, 1, 5])
    assert label == "Fire Bolt · 3 AP · 2 fire damage · range 2-5 (modifiable) · once per turn"
    assert fit(parts, 30) == "Fire Bolt · 3 AP"
    assert clip("word " * 30, 20).endswith("…") and len(clip("word " * 30, 20)) <= 20


def test_rank_puts_closer_matches_first_then_follows_the_games_order() -> None:
    items = [Ranked(Choice("Backstab", "b"), (0,)), Ranked(Choice("Dash Cut", "d"), (1,)),
             Ranked(Choice("Cut Throat", "c"), (2,)), Ranked(Choice("Backstab again", "b"), (3,))]
    assert [c.value for c in rank(items, "")] == ["b", "d", "c"]  # one entry per value
    assert [c.value for c in rank(items, "cut")] == ["c", "d"]  # a prefix beats a later word
    assert [c.value for c in rank(items, "CÙT")] == ["c", "d"]  # case and accents do not matter
    assert len(rank([Ranked(Choice(str(i), str(i))) for i in range(60)], "")) == 25


def _crowd() -> State:
    caster = fig("ember", name="Ember Witch", spells=[BOLT, MEND, BREATH, PYRE])
    rogue = fig("shadow_rogue", name="Shadow Rogue")
    sage = fig("sage", name="Tide Healer")
    state = game([("0a", caster, 0, "E5"), ("0b", sage, 0, "E4"), ("1a", rogue, 1, "H8")], active="0a")
    state.pieces["1a"].short = "SHA"
    state.pieces["0b"].short = "TID"
    state.pieces["0b"].wounds = 3
    return state


def test_fire_bolt_enemy_was_hidden_behind_empty_squares() -> None:
    """Bug: Fire Bolt had 42 legal targets; Discord showed the first 25 by square, all empty."""
    state = _crowd()
    legal = [a for a in km.ENGINE.legal_actions(state, 0) if getattr(a, "spell", None) == "fire_bolt"]
    assert len(legal) > 25
    choices = km.target_choices(state, 0, "fire_bolt", "", "en")
    assert len(choices) == 25
    assert choices[0] == Choice("H8 — SHA Shadow Rogue (enemy, 10 HP)", "H8")
    assert choices[1].label == "E4 — TID Tide Healer (yours, 7 HP)"  # then a friend, then empty squares
    distances = [abs(ord(c.value[0]) - ord("E")) + abs(int(c.value[1:]) - 5) for c in choices[2:]]
    assert distances == sorted(distances) and distances[0] == 1  # the nearest first


def test_a_heal_offers_the_most_wounded_friend_first() -> None:
    state = _crowd()
    choices = km.target_choices(state, 0, "mend", "", "it")
    assert choices[0].label == "E4 — TID Tide Healer (tuo, 7 PV)"
    assert choices[1].label.startswith("E5 — ")  # the caster itself is a friend too
    assert choices[2].label.startswith("H8 — SHA")


def test_312_3_an_oriented_area_says_which_way_it_points() -> None:
    state = _crowd()
    labels = {c.value: c.label for c in km.target_choices(state, 0, "breath", "", "en")}
    assert any(label.endswith("area towards south") for label in labels.values()), labels
    italian = [c.label for c in km.target_choices(state, 0, "breath", "", "it")]
    assert any("area verso sud" in label for label in italian)


def test_spells_say_what_they_do_and_castable_ones_come_first() -> None:
    """Bug: nothing showed a spell's AP cost, damage, range, area or element."""
    state = _crowd()
    choices = km.spell_choices(state, 0, "", "en")
    assert [c.value for c in choices] == ["fire_bolt", "mend", "breath", "punch", "pyre"]
    assert choices[0].label.startswith("Fire Bolt (") and "3 AP · 2 fire damage · range 1-6" in choices[0].label
    assert choices[-1].label.startswith("Pyre (not now: needs 9 AP) · 9 AP")
    assert all(len(c.label) <= 100 for c in choices)
    assert km.spell_choices(state, 0, "", "it")[3].label.startswith("Pugno (")


def _buttons(state: State, lang: str = "en") -> list[str]:
    return [b.custom_id.rsplit(":", 1)[-1] if ":spell:" not in b.custom_id else "spell"
            for b in km.PRESENTER.buttons("r", state, seat=0, lang=lang)]


def test_where_can_i_move_is_not_offered_at_0_mp() -> None:
    """Bug: "Where can I move?" was offered at 0 MP and led nowhere."""
    state = _crowd()
    assert "moves" in _buttons(state)
    state.pieces["0a"].mp = 0
    assert "moves" not in _buttons(state)


def test_503_4_a_collect_button_appears_only_when_a_kama_lies_under_the_piece() -> None:
    """Bug: there was no Collect button."""
    state = _crowd()
    assert "collect" not in _buttons(state)
    state.board.kamas["E5"] = 2
    assert "collect" in _buttons(state)
    labels = [b.label for b in km.PRESENTER.buttons("r", state, seat=0, lang="it")]
    assert "Raccogli un Kama (1 PA)" in labels
    state.pieces["0a"].ap = 0
    assert "collect" not in _buttons(state)


def test_306_4_on_a_demon_square_the_buy_buttons_lead_to_the_piles() -> None:
    """Buttons that lead somewhere: buying a GG and a reward on a demon square, with a select of
    the piles named as people say them ("Granite 1"), face up and face down."""
    from tests.krosmaster.test_kamas_rewards import rw, table

    state = table([rw("herb", heal=2), rw("sip", ap=1)], kamas=20)
    assert {"buygg", "piles", "collect"} <= set(_buttons(state))
    options = km.pile_choices(state, 0, "", "en", both=True)
    assert {o.value for o in options} >= {"granite1 blind"}
    assert all("granite1" not in o.label for o in options)
    assert any(o.label.startswith("Granite 1: face down (3 kamas)") for o in options), options
    assert [o.value for o in km.pile_choices(state, 0, "granito", "it")][:1] == ["granite1"]
