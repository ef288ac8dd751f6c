"""What a playtester met at a Warlord table (console, Italian): the private line after a react, a turn 1
discard question put to empty hands, rule ids shown in English, and a picture legend that missed the
abbreviations it draws and described spent cards as turned sideways."""

from __future__ import annotations

import re

from common.i18n import t
from console.runner import Console
from engines.core.dice import RecordedDice
from engines.core.events import Event
from engines.warlord.actions import PassReact
from gm.errors import cite
from gm.games.warlord import text
from gm.games.warlord.presenter import PRESENTER
from renderers.warlord import panel, tiles
from tests.warlord import builders as B
from tests.warlord.builders import ARMY_B, E, act, battle, hand
from tests.warlord.test_console_flow import out

# set-up W of the playtest: bob's army typed in Italian, alice's suggested one; the last army starts turn 1
SETUP_W = ["/lang it", "/as alice", "/game new system:warlord", "/warlord deck deck:stonewardens", "/as bob",
           "/game join", "/warlord deck deck:orda", "/game start",
           '/warlord army warlord:vorga level1:"fante, lama, segugio" level2:"bruto zannuto, fattucchiere"',
           "/as alice", "/warlord army", "/click 1"]
FIGHTERS_FRONT = [["axe_sergeant", "shieldwall_recruit", "hearth_acolyte"], ["tunnel_scout", "runecarver_adept"],
                  [B.WARLORD_A]]


def _chosen(events: list[Event]) -> Event:
    return next(e for e in events if e.key == "warlord.ev.react_chosen")


# ---------------------------------------------------------------------------- 5: the private line after a react
def test_a_react_that_resolves_at_once_is_not_called_pending_in_its_private_line() -> None:
    """reacts (spec 2.12): a react resolves once every seat before it in initiative order has answered.
    The seat that answers while the initiative winner is still to answer waits (pending wording); the winner's
    own react resolves in the same answer, and its private line says it has been resolved."""
    state, a, b = battle(FIGHTERS_FRONT, ARMY_B)
    state.initiative = [1, 0]
    hand(state, 1, "dirty_trick")
    dice = RecordedDice([20, 15])
    act(state, 0, {"kind": "attack", "attacker": a[0][0]}, dice, windows=True)
    act(state, 0, {"kind": "strike", "target": b[0][2]}, dice, windows=True)
    (powerattack,) = [o for o in E.legal_actions(state, 0) if o.kind == "react"]
    waiting = _chosen(E.apply(state, 0, powerattack, dice))  # seat 1 (the winner) has not answered yet
    assert not waiting.params["at_once"]
    assert text.event_text(waiting, "it").startswith("Reagirai con Attacco Poderoso")
    E.apply(state, 1, PassReact(), dice)  # the winner passes: the Powerattack plays; the winner is asked again
    (trick,) = [o for o in E.legal_actions(state, 1) if o.kind == "react"]
    events = E.apply(state, 1, trick, dice)
    taken = _chosen(events)
    assert taken.params["at_once"] and "warlord.ev.react_played" in [e.key for e in events]
    for lang, said in (("it", "Hai reagito con Tiro Mancino (Lama Furtiva): la reazione è già stata risolta"),
                       ("en", "You reacted with Dirty Trick (Sneak Knife); it has already been resolved")):
        line = PRESENTER.event_text(taken, lang) or ""
        assert line.startswith(said), line


# ---------------------------------------------------------------------------- 14: turn 1's discards
def test_turn_one_discards_from_empty_hands_are_answered_by_the_table_not_asked() -> None:
    """draw-phase + starting-army: no opening hand, so on turn 1 every hand is empty and "discard nothing" is the
    only answer; its hand size is public, so the question is not secret and the table gives the answer."""
    state = B.fresh()
    for seat in (0, 1):
        act(state, seat, E.legal_actions(state, seat)[0].model_dump(), RecordedDice([15, 9]))
    d = E.decision(state)
    assert (d.kind, d.seats, d.secret) == ("draw_discard", [0, 1], False)
    assert "draw_discard" in E.auto_answer_kinds
    assert E.decision(E.view(state, 1)).secret is False  # every view reads the same question
    state.player(0).hand.append(state.player(0).deck_pool.pop())  # a hand with a card: the choice is secret
    assert E.decision(state).secret and E.decision(E.view(state, 1)).secret


async def test_the_playtest_set_up_never_asks_for_discards_on_turn_one(console: Console) -> None:
    await console.run(SETUP_W)
    said = out(console)
    assert console.errors == 0, said[-2000:]
    assert t("warlord.ask.draw_discard", "it", turn=1) not in said
    assert said.count(t("game.forced_answer", "it", user="alice")) == 1
    # the table's line says it: "alice ha scelto gli scarti" after it only repeated it
    assert t("warlord.ev.discard_chosen", "it", player="alice") not in said
    assert "alice pesca 5 carte." in said and "bob pesca 5 carte." in said
    assert "Finestra di reazione: dopo l'iniziativa" in said  # play goes on to turn 1's initiative


# ---------------------------------------------------------------------------- 4d: rule references
async def test_rule_references_show_the_sections_title_in_the_readers_language(console: Console) -> None:
    """Errors cite a rule by its title, «Reazioni», not by the id ``reacts``; the button still opens the id."""
    await console.run([*SETUP_W, "/as bob", "/warlord discard cards:nessuna"])
    said = out(console).rsplit("Ora sei bob.", 1)[1]
    assert "(regola «Reazioni»)" in said and "Regola «Reazioni»" in said
    assert "(regola reacts)" not in said
    for rule, it, en in (("draw-phase", "«Fase di Pescaggio»", "“Draw phase”"),
                         ("bring-characters", "«Portare in gioco i personaggi»", None),
                         ("ready-spent-stunned", None, "“Ready, spent and stunned”"),
                         ("ranks", None, "“Ranks and illegal ranks”")):
        assert cite("warlord", rule, "it") != rule and cite("warlord", rule, "en") != rule
        assert it is None or cite("warlord", rule, "it") == it
        assert en is None or cite("warlord", rule, "en") == en
    assert cite("warlord", "no-such-rule", "it") == "no-such-rule"


async def test_a_rules_sections_parent_button_names_its_title(console: Console) -> None:
    await console.run(["/lang it", "/rules show section:draw-phase system:warlord"])
    said = out(console)
    assert "Su: «Struttura del turno»" in said and "Su: turn-structure" not in said


# ---------------------------------------------------------------------------- 17b/c: the picture legend
def _is_short_for(short: str, word: str) -> bool:
    """"Contr" for "Contrattacco", "AttP" for "Attacco Poderoso": same first letter, letters in order."""
    letters = re.sub(r"\W", "", word).casefold()
    short = short.casefold()
    if not short or not letters or short[0] != letters[0]:
        return False
    rest = iter(letters)
    return all(ch in rest for ch in short)


def test_every_feat_abbreviation_is_short_for_the_word_the_card_texts_use() -> None:
    """Italian tiles drew "Rip" for Contrattacco, "Pot" for Attacco Poderoso, "Mira" for Precisione."""
    for lang in ("it", "en"):
        for feat in text.REACT_FEAT_NAMES | {"medicine", "marksmanship", "riding", "scribe"}:
            short, word = t(f"warlord.img.feat.{feat}", lang), t(f"warlord.ui.feat.{feat}", lang)
            assert _is_short_for(short, word), (lang, short, word)


def test_the_legend_explains_every_abbreviation_the_tiles_draw() -> None:
    """Rip5, Pot2, Scr4, Car4, ResM4 were drawn on tiles and missing from the legend."""
    for scene in (B.scene_attack(), B.scene_four(), B.scene_over()):
        for lang in ("it", "en"):
            legend = " ".join([*panel._legend(scene, lang), *panel.footer_lines(scene, lang)])
            for uid in scene.chars:
                d = scene.defn(uid)
                for feat in d.feats:
                    short, word = t(f"warlord.img.feat.{feat}", lang), t(f"warlord.ui.feat.{feat}", lang)
                    assert f"{short} = {word}" in legend, (lang, feat, legend)
                cls = t(f"warlord.img.cls.{d.cls}", lang)
                assert f"{cls} = " in legend, (lang, cls, legend)
                for seg in tiles.segments(scene, uid, lang):
                    if seg.kind == "chip" and seg.fill == tiles.BADGE:
                        assert f"{seg.text} = " in legend, (lang, seg.text, legend)
            assert f"{t('warlord.img.skill', lang, n='')} = " in legend


def test_the_legend_says_how_a_spent_or_stunned_card_looks() -> None:
    """A spent card is drawn with its colour band on the right and a SPENT tag, not turned sideways."""
    for lang, sideways in (("it", "di lato"), ("en", "sideways")):
        legend = " ".join(panel.footer_lines(B.scene_attack(), lang))
        assert sideways not in legend
        assert t("warlord.img.spent", lang) in legend and t("warlord.img.stunned", lang) in legend


def test_the_presenter_still_words_feat_reacts_it_did_before() -> None:
    """A feat chosen as a react is named in the reader's words in either line."""
    event = Event(key="warlord.ev.react_chosen", params={"name": "defend", "performer": "Recluta", "at_once": True},
                  private_to=[0])
    assert PRESENTER.event_text(event, "it") == t("warlord.ev.react_taken", "it", name="Difesa",
                                                  performer="Recluta")
