"""How the Warlord table words events: a d20 strike says its verdict and why (natural 20 or 1, Astral,
Ethereal), feats and states in the reader's language, and no internal word."""

from __future__ import annotations

import gm.games.warlord.presenter  # noqa: F401  (registers the presenter)
from engines.core.events import Event
from gm.table.replies import event_text


def _strike(**params: object) -> Event:
    base = {"striker": "Horde Grunt", "target": "Vault Wisp", "index": 1, "of": 2, "bonus": 2, "ac": 10}
    return Event(key="warlord.ev.strike_rolled", params={**base, **params}, rolls=[int(params["natural"])])  # type: ignore[arg-type]


def test_a_strike_says_hit_or_miss_and_why_with_its_dice_once() -> None:
    line = event_text(_strike(natural=14, total=16, hit=True, why=""), "en", "warlord")
    assert line == "🎲 Horde Grunt strikes Vault Wisp (1/2): 14 +2 = 16 against AC 10 → hit."
    assert event_text(_strike(natural=20, total=22, hit=True, why="crit"), "en", "warlord").endswith(
        "→ hit (a natural 20 always hits).")
    assert event_text(_strike(natural=8, total=10, hit=False, why="astral_even"), "en", "warlord").endswith(
        "→ miss (Astral: an even roll misses).")
    assert event_text(_strike(natural=19, total=21, hit=True, why="astral_19"), "it", "warlord").endswith(
        "→ a segno (Astrale: un 19 naturale colpisce).")
    assert event_text(_strike(natural=15, total=17, hit=False, why="ethereal_odd"), "it", "warlord") == (
        "🎲 Horde Grunt colpisce Vault Wisp (1/2): 15 +2 = 17 contro AC 10 → mancato (Etereo: un tiro dispari manca).")


def test_feats_states_and_yields_are_words_in_both_languages() -> None:
    feat = Event(key="warlord.ev.feat_check", params={"name": "Horde Grunt", "feat": "powerattack", "natural": 18,
                                                      "total": 20, "dc": 20, "ok": True}, rolls=[18])
    assert event_text(feat, "en", "warlord") == "🎲 Horde Grunt tries Powerattack: 18 → 20 against DC 20: success."
    assert event_text(feat, "it", "warlord") == "🎲 Horde Grunt tenta Attacco Poderoso: 18 → 20 contro DC 20: riuscito."
    reform = Event(key="warlord.ev.reformed", params={"name": "Ember Hexer", "frm": 2, "to": 1, "state": "spent"})
    assert event_text(reform, "it", "warlord") == "Ember Hexer avanza dal rango 2 al rango 1 ed è ora speso."
    passed = Event(key="warlord.ev.react_passed", params={"player": "bob", "yield_for": "attack"})
    assert event_text(passed, "en", "warlord") == "bob passes and lets this attack go by."
    stops = Event(key="warlord.ev.stops_set", params={"stops": "targeted, before_wounds"}, private_to=[0])
    assert event_text(stops, "en", "warlord") == "Your reaction stops: a character is targeted, before wounds."
