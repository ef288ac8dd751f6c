"""What a newcomer's playtest in Italian read wrong, and now reads right.

Plural and feminine enemy and unit names with singular masculine verbs ("Predoni Zannuti è sconfitto"), the
knock-out's name, the end-of-game line, "parata" beside "Blocco", small Italian slips, dice labels that
looked alike, a duel die's Fame missing from the token, and the Source's raw d6 numbers.
"""

from __future__ import annotations

import re

import gm.games.mageknight.presenter  # noqa: F401  (the table words Mage Knight's actions and events)
from common.i18n import catalog, t
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight import ENGINE
from engines.mageknight.content import builtin_pack
from engines.mageknight.rules_base import fill_italian_names
from engines.mageknight.rules_setup import validate_options
from engines.mageknight.rules_values import fame_of
from engines.mageknight.state import InteractiveDie, Player, State
from gm.games.mageknight import choices
from gm.games.mageknight.info import info_reply
from gm.games.mageknight.text import event_text
from gm.table.replies import event_text as table_event_text
from gm.table.summary import lines as summary_lines
from renderers import kit
from renderers.mageknight import render
from renderers.mageknight.panel import banner
from renderers.mageknight.words import to_act
from tests.mageknight.builders import act, combat, event

DUEL_PLAYERS = [Player(seat=0, user_id=1, name="alice"), Player(seat=1, user_id=2, name="bob", role="opponent")]


def _defeat(name: str) -> Event:
    """Beat one enemy with an assisted attack in the attack phase: its ``enemy_defeated`` event."""
    state = combat([name], phase="attack", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=20)
    return event(act(state, "commit"), "enemy_defeated")


# ---------------------------------------------------------------------------- 1: agreement (A8, B1-B4)
def test_A8_a_plural_or_feminine_enemy_is_defeated_in_its_own_gender_and_number():
    assert event_text(_defeat("Tusk Raiders"), "it").startswith("Predoni Zannuti sono sconfitti: +2 Fama")
    assert event_text(_defeat("Bog Crones"), "it").startswith("Megere della Palude sono sconfitte: +3 Fama")
    assert event_text(_defeat("Blade Company"), "it").startswith("Compagnia delle Lame è sconfitta:")
    assert event_text(_defeat("Mire Drake"), "it").startswith("Drago del Pantano è sconfitto:")  # stays singular
    assert event_text(_defeat("Tusk Raiders"), "en").startswith("Tusk Raiders are defeated: +2 Fame")
    assert event_text(_defeat("Mire Drake"), "en").startswith("Mire Drake is defeated:")


def test_A6_B2_plural_enemies_deal_damage_and_plural_units_take_wounds_in_the_plural():
    state = combat(["Cinder Shamans"], units=["Hill Archers"], phase="block")
    act(state, "next")
    assert choices.assign_words(state, "u1", None, "it")[0] == \
        "Arcieri delle Colline sono feriti (1 Ferita), assorbono 3, ne restano 0"
    events = act(state, "assign", to="u1")
    assert event_text(event(events, "damage_started"), "it") == "Sciamani della Cenere infliggono 3 Danni (fuoco)."
    assert event_text(event(events, "unit_wounded"), "it") == \
        "Arcieri delle Colline prendono 1 Ferita e assorbono 3; ne restano 0."
    assert event_text(event(events, "damage_started"), "en") == "Cinder Shamans deal 3 damage (fire)."


def test_A9_a_plural_enemy_that_survives_survives_in_the_plural():
    state = combat(["Plated Brutes"], phase="attack")
    survived = event(act(state, "next"), "enemy_survives")
    assert event_text(survived, "it") == "Bruti Corazzati sopravvivono."
    single = event(act(combat(["Mire Drake"], phase="attack"), "next"), "enemy_survives")
    assert event_text(single, "it") == "Drago del Pantano sopravvive."


def test_a_combat_saved_before_names_had_a_form_takes_it_from_the_built_in_pack():
    state = combat(["Tusk Raiders"], units=["Village Pikes"])
    state.enemies[0].token = state.enemies[0].token.model_copy(update={"plural": False, "form_it": ""})
    state.units[0].card = state.units[0].card.model_copy(update={"plural": False, "form_it": ""})
    assert state.enemies[0].token.form("it") == "ms"
    fill_italian_names(state)
    assert state.enemies[0].token.form("it") == "mp" and state.units[0].card.form("it") == "fp"
    assert state.enemies[0].token.form("en") == "mp"


def test_every_built_in_name_declares_a_form_that_fits_its_italian_name():
    """The plural Italian names end in -i or -e (or are invariable: Golem, Lanciadardi): each declares it."""
    pack = builtin_pack()
    for thing in (*pack.enemies, *pack.units):
        first = thing.name_it.split()[0]
        plural = first.endswith(("i", "e")) and first not in ("Custode", "Verme", "Legione", "Matrona",
                                                              "Ululatore", "Squadra", "Vedetta")
        assert thing.form("it").endswith("p") == (plural or first in ("Golem", "Lanciadardi")), thing.id


# ---------------------------------------------------------------------------- 2: knock-out (B6)
def test_B6_knock_out_keeps_the_rulebook_seeds_name_colpo_di_grazia():
    """The Italian rulebook seed (003, sheet B) heads the box COLPO DI GRAZIA: the board and lines use that
    term, so a player can look it up; /rules search finds the section by it (tests/rules)."""
    assert t("render.mk.hero.ko", "it") == "Colpo di Grazia"
    assert "Colpo di Grazia" in t("mk.ev.knocked_out", "it", count=5, limit=5, discarded=2)


# ---------------------------------------------------------------------------- 3: end-of-game summary
def test_the_decisive_moment_reads_as_a_lead_without_doubled_brackets():
    summary = {"turns": 1, "moment": {"seq": 9, "turn": 1, "seat": 0, "name": "alice", "gain": 3, "swing": 3,
                                      "kind": "commit"}}
    line = summary_lines("mageknight", summary, None, {}, "it")[2]
    assert line == ("Momento decisivo: turno 1, alice ha guadagnato 3 punti di Fama o Ferite inflitte con "
                    "«Confermare attacco o blocco», un vantaggio di 3 punti di Fama o Ferite inflitte.")
    assert "scarto" not in line and ") (" not in summary_lines("mageknight", summary, None, {}, "en")[2]


# ---------------------------------------------------------------------------- 4: block, never "parata"
def test_italian_says_blocco_for_a_block_everywhere():
    italian = {k: v for k, v in catalog("it").items() if k.startswith(("mk.", "render.mk."))}
    assert [k for k, v in italian.items() if re.search(r"\bparat[ae]\b", v, re.IGNORECASE)] == []
    assert t("mk.action.commit", "it") == "Confermare attacco o blocco"


# ---------------------------------------------------------------------------- 6: small Italian slips
def test_a_bad_option_value_agrees_in_italian():
    try:
        validate_options({"tier": "9"}, None)
    except RuleError as exc:
        assert t(exc.key, "it", **exc.params) == "Opzione tier: il valore 9 non è valido (1-4)."
    else:
        raise AssertionError("tier 9 was accepted")


def test_info_does_not_repeat_its_field_names():
    card = {f.name: f.value for f in info_reply("improvvisare", "it", None).fields}
    assert card["Potenziata"] == "Attacco 5 o Blocco 5 (con mana rosso)"
    enemy = {f.name: f.value for f in info_reply("cinder shamans", "it", None).fields}
    assert enemy["Resistenze"] == "fuoco"


def test_whose_turn_takes_ad_before_the_same_vowel_in_italian():
    assert to_act("alice", "it") == "Tocca ad alice" and to_act("Ugo", "it") == "Tocca a Ugo"
    assert to_act("bob", "it") == "Tocca a bob" and to_act("alice", "en") == "alice to act"
    assert banner(combat(["Tusk Raiders"]), "it", {0: "alice"})[0] == "Tocca ad alice"


def _duel_events(seed: int) -> list[Event]:
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="alice"), SeatSetup(seat=1, user_id=2, name="bob")],
                  options={"mode": "duel", "seed": seed})
    return ENGINE.new_game_with_events(setup, SeededDice(seed))[1]


def test_M51_a_duels_seed_line_speaks_of_a_duel_not_a_challenge_puzzle():
    seed = event(_duel_events(5), "seed")
    assert event_text(seed, "it") == ('Duello di livello 1, seme 5: con options:"mode:duel seed:5" l\'Eroe riceve '
                                      "di nuovo le stesse carte.")
    assert "Challenge" not in str(event_text(seed, "en"))


# ---------------------------------------------------------------------------- 7: dice labels
def test_the_six_die_labels_cannot_be_mistaken_for_one_another():
    """"Bi" and "Bl" (white, blue) were one shape at board size: i, l, I, 1 and | count as one glyph here."""
    for lang in ("en", "it"):
        labels = [t(f"render.mk.face_letter.{f}", lang) for f in ("red", "blue", "green", "white", "gold", "black")]
        shapes = {re.sub(r"[ilI1|!]", "|", label.casefold()) for label in labels}
        assert len(shapes) == 6, (lang, labels)


# ---------------------------------------------------------------------------- 8: the duel die's Fame (M51)
def _red_die_duel(*others: str) -> State:
    state = combat(["Plated Brutes", *others], mode="duel", phase="attack", players=DUEL_PLAYERS)
    state.interactive = InteractiveDie(face="red", enemy="e1", revealed=True)
    return state


def test_M51_the_token_shows_the_fame_a_red_die_adds_as_the_log_does():
    state = _red_die_duel()
    assert fame_of(state, state.enemies[0]) == 5  # printed 4, +1 for the die
    with kit.recording() as marks:
        render(ENGINE.view(state, 0), lang="it")
    chips = {m.text for m in marks if m.kind == "chip"}
    assert "5" in chips and "4" not in chips


def test_M51_a_gm_taking_back_a_defeat_takes_back_the_dies_fame_too():
    state = _red_die_duel("Tusk Raiders")
    events = act(state, "gm_enemy", enemy="e1", status="defeated")
    assert event(events, "enemy_defeated").params["fame"] == 5 and state.fame == 5
    act(state, "gm_enemy", enemy="e1", status="alive")
    assert state.fame == 0


# ---------------------------------------------------------------------------- 10: the Source's dice
def test_M46_assist_modes_rolled_source_says_its_colours_without_d6_numbers():
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="bob")],
                  options={"mode": "assist", "enemies": "Tusk Raiders"})
    events = ENGINE.new_game_with_events(setup, SeededDice(7))[1]
    rolled = event(events, "source_rolled")
    assert rolled.rolls
    line = table_event_text(rolled, "it", "mageknight")
    assert line.startswith("La Fonte mostra ") and "🎲" not in line and not re.search(r"\d", line)
