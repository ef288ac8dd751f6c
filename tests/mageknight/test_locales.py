"""Every mk key exists in both languages, and what the engine emits can be worded from them:
event keys, decision prompts, option labels and error keys, with no placeholder left unfilled."""

from __future__ import annotations

import random
import re
from pathlib import Path

from common.i18n import catalog, humanize, placeholders, t
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.events import Event
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.content import ELEMENTS, FACES
from gm.games.mageknight import grammar
from tests.mageknight.builders import act, combat

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "\n".join(p.read_text("utf-8") for p in (ROOT / "engines" / "mageknight").glob("*.py"))


def mk(lang: str) -> dict[str, str]:
    return {k: v for k, v in catalog(lang).items() if k.startswith("mk.")}


def test_mk_keys_and_placeholders_match():
    en, it = mk("en"), mk("it")
    assert en.keys() == it.keys()
    for key in en:
        assert placeholders(en[key]) == placeholders(it[key]), key


def test_every_event_error_phase_and_prompt_key_in_the_code_exists():
    en = mk("en")
    for name in set(re.findall(r'\bev\(\s*"([a-z_]+)"', SOURCE)):
        assert f"mk.ev.{name}" in en, name
    for key in set(re.findall(r'"(mk\.err\.[a-z_]+)"', SOURCE)):
        assert key in en, key
    for group, values in (("phase", ("setup", "ranged_siege", "block", "assign_damage", "attack", "over")),
                          ("ask", ("ranged_siege", "block", "attack", "assign_damage", "summon_token",
                                   "improvise_discard", "interactive_die")),
                          ("element", ELEMENTS), ("face", FACES), ("end", ("victory", "survivors", "conceded")),
                          ("action", tuple(A.KINDS))):
        for value in values:
            assert f"mk.{group}.{value}" in en, (group, value)


def _worded(event: Event, lang: str) -> str:
    """The event's template filled from the engine's parameters and the agreement words the presenter adds
    for the enemy or unit it names (``grammar``, as ``text.event_text`` does)."""
    agree = grammar.of_event(event.params, lang)
    assert placeholders(catalog(lang)[event.key]) <= set(event.params) | set(agree), event.key
    return t(event.key, lang, **humanize(event.params, lang, "mk"), **agree)


def _play(options: dict[str, object], seats: int, seed: int) -> list[Event]:
    rng = random.Random(seed)
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"p{i}") for i in range(seats)], options=options)
    state, events = ENGINE.new_game_with_events(setup, SeededDice(seed))
    dice = SeededDice(seed + 1)
    for _ in range(120):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        for lang in ("en", "it"):
            assert decision.prompt_key and placeholders(catalog(lang)[decision.prompt_key]) <= set(decision.params)
            for option in decision.options:
                assert placeholders(catalog(lang)[option.label_key]) <= set(option.params), option.label_key
        seat = decision.seats[0]
        actions = ENGINE.legal_actions(state, seat)
        action = rng.choice(actions)
        if isinstance(action, A.Add):
            action = action.model_copy(update={"amount": rng.randint(1, 8)})
        events += ENGINE.apply(state, seat, action, dice)
    return events


def test_events_of_random_combats_are_worded_in_both_languages():
    events: list[Event] = []
    for seed in range(12):
        events += _play({"site": ["rampaging", "keep", "mage_tower", "city", "dungeon", "spawning_grounds"][seed % 6],
                         "tier": seed % 4 + 1, "seed": seed}, 1, seed)
        events += _play({"mode": "duel", "site": "rampaging", "tier": 2, "seed": seed}, 2, seed)
        events += _play({"mode": "assist", "enemies": "Drum Callers; Ogre armor 5 attack 4 fire swift",
                         "units": "Stoneguard", "level": 3, "source": "red,gold,blue"}, 1, seed)
    seen = {e.key for e in events}
    assert {"mk.ev.combat_started", "mk.ev.phase_block", "mk.ev.summon_asked", "mk.ev.die_set"} <= seen
    for event in events:
        if event.key.startswith("mk."):
            for lang in ("en", "it"):
                text = _worded(event, lang)
                assert "{" not in text, (event.key, lang, text)
                for raw in ("cold_fire", "ranged_siege", "attack_", "block_", "True", "False"):
                    assert raw not in text, (event.key, lang, text)


def test_terms_read_in_the_players_language():
    state = combat([("Ashen Adepts", {"status": "blocked"})], phase="attack", hand=["ember_strike"],
                   crystals={"red": 1})
    act(state, "target", enemies=["e1"])
    events = act(state, "play", card="ember_strike", side="powered", option=0, mana="crystal:red")
    assert _worded(events[0], "en") == "Ember Strike (powered): Fire Attack 3."
    assert _worded(events[0], "it") == "Colpo di Brace (potenziata): Attacco di Fuoco 3."
    assert _worded(events[1], "it") == "Colpo di Brace è potenziata con mana rosso."
