"""The table's words and hooks for Mage Knight, without Discord: why a total was halved, which
changes post a new board, which buttons lead somewhere, the daily puzzle and the score rows;
and the three small engine fixes they needed (the halving reason in events, a preview of a
summon token's last damage, assist options read twice, no hidden name in the duel prompt)."""

from __future__ import annotations

from datetime import date

from common.i18n import humanize, t
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from engines.mageknight.preview import preview_assign
from gm.games.mageknight import scores
from gm.games.mageknight.choices import parse_effect, recipient_choices, resolve_recipient
from gm.games.mageknight.info import card_text, enemy_text, info_reply
from gm.games.mageknight.presenter import PRESENTER, hero_assign
from gm.games.mageknight.text import column_line, event_text, summary
from tests.mageknight.builders import PACK, act, combat, event


def test_a_halved_attack_says_what_the_targets_resist():
    state = combat(["Cinder Shamans", "Warg Lancers"], phase="attack", mode="assist")
    act(state, "target", enemies=["e1", "e2"])
    act(state, "add", effect="attack", amount=5, element="fire")
    act(state, "add", effect="attack", amount=5)
    assert column_line(state, "en") == ("Attack on Cinder Shamans + Warg Lancers: fire 5 (resists fire) ÷ 2 → 2; "
                                        "+ 5 = 7 of 7 — enough: commit")
    done = event(act(state, "commit"), "attack_resolved")
    assert done.params["resist"] == ["fire"]  # engine: the reason travels with the event
    assert event_text(done, "en") == ("Attack on Cinder Shamans, Warg Lancers: 5 + 5 resisted (resists fire) ÷ 2 → "
                                      "5 + 2 = 7 against armor 7.")
    assert event_text(done, "it").startswith("Attacco a Sciamani della Cenere, Lancieri sui Lupi: 5 + 5 resistiti "
                                             "(resistenza: fuoco)")


def test_a_halved_block_says_it_was_weak_against_the_attack_element():
    state = combat(["Ashen Adepts"], phase="block", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="block", amount=6)
    act(state, "add", effect="block", amount=2, element="ice")
    blocked = event(act(state, "commit"), "blocked")
    assert blocked.params["element"] == "fire"
    assert event_text(blocked, "en") == ("Ashen Adepts are blocked: 2 + 6 (weak against a fire attack) ÷ 2 → 2 + 3 = 5 "
                                         "against 5.")


def test_a_summoned_token_explains_what_it_does():
    state = combat(["Drum Callers"], mode="assist")
    act(state, "next")
    drawn = act(state, "choose", value="Moon Howler")
    assert event_text(event(drawn, "summon_entered"), "en") == (
        "Drum Callers summon Moon Howler: Attack 6, Swift. The token attacks in their place: block it or take its "
        "damage; either way it is then discarded, without Fame.")


def test_preview_of_a_summoned_tokens_last_damage_does_not_lose_it():
    """Bug: the preview read the token's name after its damage was placed, when it had left the combat."""
    state = combat(["Drum Callers"], units=["Rimeguard"], mode="assist")
    act(state, "next")
    act(state, "choose", value="Moon Howler")
    act(state, "next")
    act(state, "assign", to="Rimeguard", enemy="Moon Howler")
    last = preview_assign(state, "hero")
    assert (last.enemy, last.damage, last.hero_wounds) == ("Moon Howler", 1, 1)
    assert [c.value for c in recipient_choices(state, 0, None, "", "en")] == ["hero"]


def test_assist_options_read_at_the_lobby_are_read_again_at_the_start():
    """Bug: /game start refused the enemies the lobby had accepted ("Cannot read the enemy ''")."""
    options = ENGINE.validate_options({"mode": "assist", "units": "Rimeguard",
                                       "enemies": "Drum Callers rampaging; Ogre armor 5 attack 4 fire"})
    again = ENGINE.validate_options(options)
    assert again["enemies"] == options["enemies"] and again["enemies"][0]["rampaging"]
    state = ENGINE.new_game(Setup(seats=[SeatSetup(seat=0, user_id=1, name="bob")], options=options), SeededDice(1))
    assert [e.name for e in state.enemies] == ["Drum Callers", "Ogre"] and state.enemies[0].rampaging


def test_the_duel_prompt_never_names_the_hidden_enemy():
    seats = [SeatSetup(seat=0, user_id=1, name="alice"), SeatSetup(seat=1, user_id=2, name="bob")]
    state = ENGINE.new_game(Setup(seats=seats, options={"mode": "duel", "seed": "4"}), SeededDice(1))
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "interactive_die"
    for lang in ("en", "it"):
        prompt = t(decision.prompt_key or "", lang, **humanize(decision.params, lang, "mk"))
        assert state.enemies[0].name not in prompt and "{" not in prompt


def test_image_policy_posts_a_board_for_phases_defeats_damage_and_the_end():
    state = combat(["Tusk Raiders", "Warg Lancers"], phase="attack", mode="assist", units=["Rimeguard"])
    staging = act(state, "target", enemies=["e1"]) + act(state, "add", effect="attack", amount=1)
    assert PRESENTER.image_policy(staging) == "update"
    assert PRESENTER.image_policy(act(state, "take_back")) == "update"
    act(state, "add", effect="attack", amount=2) if state.staged else None
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=2)
    assert PRESENTER.image_policy(act(state, "commit")) == "new"  # Tusk Raiders defeated
    assert PRESENTER.image_policy(act(state, "next")) == "new"  # the combat ends


def test_buttons_lead_somewhere_and_all_to_hero_names_the_one_enemy_left():
    state = combat(["Tusk Raiders"], phase="block", mode="assist")
    labels = [b.label for b in PRESENTER.buttons("7.3", state, seat=0, lang="en")]
    assert labels == ["Target…", "Next phase"]
    act(state, "next")
    buttons = PRESENTER.buttons("7.4", state, seat=0, lang="en")
    assert [(b.label, b.custom_id) for b in buttons] == [
        ("All to hero", "tv1:mk:7.4:hero:e1"), ("Assign damage…", "tv1:mk:7.4:assign")]
    assert hero_assign(state, ENGINE.legal_actions(state, 0)) == ":e1"
    assert PRESENTER.buttons("7.4", state, seat=None, lang="en") == []


def test_summary_is_one_position_line_and_the_open_column():
    state = combat(["Bolt Throwers"], phase="block", hand=["steadfast"], crystals={"blue": 1}, level=3)
    act(state, "target", enemies=["e1"])
    act(state, "play", card="steadfast", side="powered", mana="crystal:blue")
    assert summary(state, "en") == ("Hero level 3 · Fame 0 · Reputation ±0 · Wounds this combat 0/5\n"
                                    "Block on Bolt Throwers: 5 of 8 — 3 short")
    assert "@" not in summary(state, "en") and "turn" not in summary(state, "en").lower()  # whose turn: said once


def test_effects_typed_in_either_language():
    assert parse_effect("ranged fire attack") == {"effect": "attack", "range": "ranged", "element": "fire"}
    assert parse_effect("attacco a distanza di fuoco freddo") == {"effect": "attack", "range": "ranged",
                                                                  "element": "cold_fire"}
    assert parse_effect("blocco di fianco") == {"effect": "block", "sideways": True}
    state = combat(["Tusk Raiders"], units=["Rimeguard"])
    assert resolve_recipient(state, "eroe") == ("hero", None)
    assert resolve_recipient(state, "rime") == ("u1", None)
    assert resolve_recipient(state, "e1>u1") == ("u1", "e1")


def test_info_words_for_cards_tokens_and_abilities():
    improvise = next(c for c in PACK.cards if c.id == "improvise")
    assert card_text(improvise, "en") == ("discard another card: Attack 3 or Block 3 · powered (red mana): Attack 5 or "
                                          "Block 5")
    wisp = PACK.enemy("b_wisp")
    assert enemy_text(wisp, "it") == ("Armatura 5 · Attacco di Fuoco Freddo 3, Rapido · resistenza: fuoco e ghiaccio · "
                                      "4 Fama")
    reply = info_reply("veleno", "it", None)
    assert reply.ephemeral and reply.title == "Veleno — abilità dei nemici"


def test_die_faces_for_manual_dice_are_the_mana_colours():
    assert PRESENTER.die_faces(6) == {1: "mk.face.red", 2: "mk.face.blue", 3: "mk.face.green", 4: "mk.face.white",
                                      5: "mk.face.gold", 6: "mk.face.black"}
    assert PRESENTER.die_faces(20) is None


def test_the_daily_puzzle_is_the_same_for_a_server_and_a_day_only():
    day = date(2025, 3, 1)
    first = scores.daily_puzzle(42, day)
    assert first == scores.daily_puzzle(42, day)
    others = {scores.daily_puzzle(42, date(2025, 3, n)) for n in range(2, 9)} | {scores.daily_puzzle(43, day)}
    assert first not in others
    assert first.options() == f"mode:challenge site:{first.site} tier:{first.tier} seed:{first.seed}"
    assert ENGINE.validate_options(dict(part.split(":") for part in first.options().split()))["seed"] == first.seed


def test_seat_line_words_the_lobby_options():
    options = ENGINE.validate_options({"mode": "assist", "level": "5", "enemies": "Tusk Raiders; Warg Lancers",
                                       "units": "Rimeguard"})
    assert PRESENTER.seat_line({}, options, "en") == ("hero level 5: no site, day · enemies: Tusk Raiders, "
                                                      "Warg Lancers · 1 unit")
    duel = ENGINE.validate_options({"mode": "duel", "tier": "2", "site": "keep"})
    assert PRESENTER.seat_line({}, duel, "it").startswith("combatte una sfida di livello 2 (Eroe di livello 3): "
                                                          "fortezza, giorno")
