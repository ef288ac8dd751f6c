"""What a playtester was answered when a Warlord command's argument was wrong (or right but unusual), through
the table's own builders and the console: Stealth's army target, a very long typo, names and values in the
reader's language, refusals that list only what is legal now, "not your turn" before any name, a position's
whole range, and characters of one name that are not alike."""

from __future__ import annotations

import pytest

from console.runner import Console
from engines.core.errors import TavoloError
from engines.warlord import actions as A
from gm.errors import error_reply
from gm.games.warlord import actions, choices, orders
from gm.games.warlord.typed import collect_notes
from tests.warlord.builders import ARMY_A, ARMY_B, E, battle, hand, scene_reform
from tests.warlord.test_console_flow import OPENING, out

SETUP = OPENING[:7]  # both decks chosen, the game started: armies are being chosen
ORDERS = OPENING[:OPENING.index("/warlord pass") + 1]  # bob gives the first order of turn 1


def _said(exc: TavoloError, lang: str) -> str:
    return error_reply(exc, lang, "warlord").text.removeprefix("⚠️ ")


def _refusal(build, lang: str = "en") -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(TavoloError) as err:
        build()
    return _said(err.value, lang)


async def _after(console: Console, lines: list[str]) -> str:
    """What the console printed for ``lines`` alone."""
    mark = len(out(console))
    await console.run(lines)
    return out(console)[mark:]


# ---------------------------------------------------------------------------- 1. Stealth's target
def test_stealth_offers_the_army_by_its_owner_and_accepts_what_it_offers() -> None:
    state, _a, b = battle(ARMY_A, ARMY_B)
    state.order_seat, state.initiative = 1, [1, 0]
    knife = b[0][2]
    assert A.UseOrder(source="feat:stealth", performer=knife, target="army:0") in E.legal_actions(state, 1)
    view = E.view(state, 1)
    offered = actions.use_target_choices(view, 1, "feat:stealth", None, "", "en")
    assert [(c.label, c.value) for c in offered] == [("p0's army", "army:0")]
    assert actions.use_target_choices(view, 1, "feat:stealth", None, "", "it")[0].label == "l'esercito di p0"
    lines = orders.order_lines(view, 1, "it")
    assert any(line.startswith("Usa Furtività") and line.endswith("→ l'esercito di p0") for line in lines)
    assert not any("army:" in line for line in lines)
    for typed in ("army:0", "p0's army", "esercito di p0", "p0", None):
        assert actions.use_order(view, 1, "feat:stealth", None, typed, None)["target"] == "army:0"


async def test_stealth_in_the_console_reads_as_an_army_and_its_offer_is_taken(console: Console) -> None:
    await console.run(ORDERS)
    said = await _after(console, ["/warlord hand", "/complete /warlord use source:feat:stealth target:",
                                  "/warlord use source:feat:stealth target:army:0"])
    assert "Use Stealth (Sneak Knife) → alice's army" in said
    assert "alice's army  →  army:0" in said
    assert "army:0 →" not in said and "is not a target" not in said
    assert "tries Stealth" in said


# ---------------------------------------------------------------------------- 3. a very long typo
async def test_a_very_long_wrong_name_is_cut_so_the_choices_stay_visible(console: Console) -> None:
    await console.run(ORDERS)
    said = await _after(console, ["/warlord attack attacker:" + "x" * 3000])
    assert "x" * 41 not in said
    assert "Choose among: Horde Grunt" in said and "Sneak Knife." in said


def test_every_warlord_refusal_cuts_the_echo_to_forty_characters() -> None:
    state, _a, _b = battle(ARMY_A, ARMY_B)
    view = E.view(state, 0)
    long = "z" * 500
    for build in (lambda: actions.maneuver(view, 0, "thane", long, None),
                  lambda: actions.attack(view, 0, long),
                  lambda: actions.recruit(view, 0, "", long),
                  lambda: orders.resolve_yield(long)):
        said = _refusal(build)
        assert "z" * 40 not in said, said


# ---------------------------------------------------------------------------- 4. the reader's words
async def test_an_unknown_deck_lists_the_decks_by_their_italian_names(console: Console) -> None:
    said = await _after(console, ["/lang it", "/as alice", "/game new system:warlord", "/warlord deck deck:zzz"])
    assert "Scegli fra: Guardiapietra, Orda Cinerea." in said
    assert "Stonewardens" not in said and "Ashen Horde" not in said


async def test_a_short_starting_army_is_refused_in_a_sentence_with_the_reader_s_card_names(console: Console) -> None:
    said = await _after(console, ["/lang it", *SETUP,
                                  '/warlord army warlord:vorga level1:"fante, fante" level2:bruto'])
    assert ("Il tuo esercito iniziale vuole 3 personaggi di livello 1: ne hai indicati 2 "
            "(Fante dell'Orda, Fante dell'Orda).") in said
    assert "Horde Grunt" not in said and "indica 3 per" not in said
    said = await _after(console, ["/lang en", '/warlord army warlord:vorga level1:"grunt, grunt, knife" level2:brute'])
    assert "Your starting army needs 2 level 2 characters; you named 1: Tusked Brute." in said


async def test_a_wrong_direction_lists_the_directions_autocomplete_shows(console: Console) -> None:
    await console.run(["/lang it", *ORDERS])
    said = await _after(console, ["/warlord move char:fattucchiere to:2"])
    assert "“2” non è un modo di spostarsi: scegli avanti, indietro o di lato (nello stesso rango)." in said
    assert "forward" not in said
    offered = await _after(console, ["/complete /warlord move char:fattucchiere to:"])
    assert "indietro  →  back" in offered
    for typed, way in (("indietro", "back"), ("avanti", "forward"), ("di lato", "same"), ("back", "back")):
        assert choices.resolve_direction(typed) == way
    assert "this window, this attack or this turn" in _refusal(lambda: orders.resolve_yield("soon"))
    assert "questa finestra, questo attacco o questo turno" in _refusal(lambda: orders.resolve_yield("poi"), "it")


# ---------------------------------------------------------------------------- 6. only what is legal
async def test_a_wrong_attacker_lists_only_the_characters_that_may_attack(console: Console) -> None:
    await console.run(ORDERS)
    said = await _after(console, ['/warlord attack attacker:"🐉🔥"'])
    listed = said.split("Choose among: ")[1]
    assert "Horde Grunt" in listed and "Sneak Knife" in listed
    for other in ("Shieldwall Recruit", "Thane", "Vorga", "Ember Hexer", "Runecarver"):
        assert other not in listed


def test_a_wrong_recruit_lists_only_the_characters_that_may_enter() -> None:
    state, _a, _b = battle(ARMY_A, ARMY_B)
    state.order_seat, state.initiative = 1, [1, 0]
    for card in ("smoke_phantom", "searing_bolt", "hide_armor"):
        hand(state, 1, card)
    view = E.view(state, 1)
    said = _refusal(lambda: actions.recruit(view, 1, "veterano", None), "it")
    assert said.endswith("Scegli fra: Fantasma di Fumo.") or "Scegli fra: Fantasma di Fumo." in said
    assert "Dardo" not in said and "Armatura" not in said
    hide = actions.recruit(view, 1, "hide armor", None)["card"]  # named, not legal: the engine says why
    assert state.cards[hide].card == "hide_armor"


async def test_a_recruit_out_of_turn_says_it_is_not_your_turn(console: Console) -> None:
    await console.run(["/lang it", *ORDERS, "/as alice"])
    said = await _after(console, ["/warlord recruit card:fantasma"])
    assert "Non è il tuo turno" in said and "non è una carta" not in said
    said = await _after(console, ['/warlord attack attacker:"🐉🔥"', "/warlord move char:zzz to:2"])
    assert said.count("Non è il tuo turno") == 2


# ---------------------------------------------------------------------------- 7. a position's range
def test_a_bad_reform_position_gives_the_whole_range_in_both_languages() -> None:
    state = scene_reform()
    view = E.view(state, 1)
    char = next(a.char for a in E.legal_actions(state, 1) if isinstance(a, A.Reform))
    front = len(state.player(1).ranks[0])
    en = _refusal(lambda: actions.reform(view, 1, char, "pippo"))
    assert en == f"“pippo” is not a position: give a number from 0 (the left end) to {front} (the right end)."
    it = _refusal(lambda: actions.reform(view, 1, char, "pippo"), "it")
    assert it == ("“pippo” non è una posizione: indica un numero da 0 (estremità sinistra) "
                  f"a {front} (estremità destra).")


# ---------------------------------------------------------------------------- 16. one name, several characters
def test_a_name_that_fits_characters_that_differ_is_asked_about_not_guessed() -> None:
    state, a, b = battle([["shieldwall_recruit", "shieldwall_recruit", "shieldwall_recruit"], ARMY_A[1], ARMY_A[2]],
                         ARMY_B)
    state.order_seat, state.initiative = 1, [1, 0]
    state.chars[a[0][0]].state = "spent"
    view = E.view(state, 1)
    hexer = b[1][0]
    targets = {x.target for x in E.legal_actions(state, 1) if isinstance(x, A.UseOrder) and x.source == hexer}
    assert set(a[0]) <= targets
    said = _refusal(lambda: actions.use_order(view, 1, "hexer", None, "recluta", None, "it"), "it")
    assert said.startswith("“recluta” corrisponde a personaggi che non sono uguali: ")
    assert "rango 1 n. 1 · speso" in said and "rango 1 n. 2 · pronto" in said
    assert "rango 1 n. 3" not in said  # the third is the second's twin: one choice


def test_identical_copies_are_one_choice_and_the_player_is_told_which_was_taken() -> None:
    state, a, _b = battle([["shieldwall_recruit", "shieldwall_recruit", "shieldwall_recruit"], ARMY_A[1], ARMY_A[2]],
                         ARMY_B)
    state.order_seat, state.initiative = 1, [1, 0]
    view = E.view(state, 1)
    notes = collect_notes()
    action = actions.use_order(view, 1, "hexer", None, "shieldwall", None, "en")
    assert action["target"] == a[0][0]
    assert notes == ["“shieldwall” fits several identical characters: Shieldwall Recruit (rank 1 #1) was taken."]
