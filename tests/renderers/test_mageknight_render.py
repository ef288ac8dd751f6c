"""Mage Knight combat pictures: golden images, plus checks that can fail on their own.

Golden states are made by the engine (``mageknight_states.py``); ``test_the_sample_states``
pins what each one must show, so a change of the deal fails there with a sentence instead
of as a pixel difference. Engine-played combats check that every reachable state renders.
Every golden was looked at 500 px wide before it was stored (``UPDATE_GOLDEN=1``).
"""

from __future__ import annotations

import io
import random
import struct
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.content import HIDDEN, Effect
from engines.mageknight.preview import preview_column
from engines.mageknight.state import State
from renderers import kit
from renderers import mageknight as mk
from renderers.mageknight import bands, palette, words
from tests.renderers import golden
from tests.renderers import mageknight_states as S

LOG = {  # what the gm layer would pass: the table's last event lines, oldest first
    "ranged": S.LOG_EN,
    "block": ["Ranged and siege phase: nothing played.", "Block phase: Drum Callers summons Serpent Matron.",
              "alice aims at Serpent Matron.", "Frost Ward: Ice Block 3 (3 of 5)."],
    "damage": ["Frost Monks: Ice Block 4 vs Bone Warden: 4 of 4, blocked.", "Damage phase.",
               "Moon Howler: 6 damage to Village Pikes: wounded, 2 absorbed, 4 left."],
    "attack": ["Moon Howler: 4 damage to alice: 2 Wounds into the hand.", "Attack phase.",
               "alice aims at Bone Warden.", "Fire 3 vs Bone Warden (fire res) -> 1; + 4 = 5 of 5: enough."],
    "over": ["Bone Warden defeated: +4 Fame.", "Moon Howler survives.", "Combat over: Fame 4, score 0."],
    "assist": ["Ogre blocked: Frost wall Ice Block 5 + Block 3 = 8 of 8 (swift).", "Damage phase.",
               "Rime Adepts: 5 ice damage to Rimeguard: resisted, no wound (soaked).",
               "Glass Golems: 2 ice damage to Village Pikes: paralyzed, destroyed."],
    "crowd": ["Combat starts at the red city: 8 enemies.", "alice aims at Gate Legion, Flame Gunners, Bolt Throwers.",
              "Siege Crew: Siege Attack 3.", "Fire Lance: Siege Fire Attack 5."],
}
LOG_IT = {
    "block": ["Fase a distanza e d'assedio: nessuna carta giocata.", "Fase di Blocco: Suonatori di Tamburo evoca "
              "Matrona Serpente.", "alice mira a Matrona Serpente.",
              "Barriera di Gelo: Blocco di Ghiaccio 3 (3 su 5)."],
}
GOLDENS = {  # golden name -> (state builder, language)
    "mk_ranged_en": ("ranged", "en"),
    "mk_block_en": ("block", "en"),
    "mk_damage_en": ("damage", "en"),
    "mk_attack_en": ("attack", "en"),
    "mk_over_en": ("over", "en"),
    "mk_assist_en": ("assist", "en"),
    "mk_block_it": ("block", "it"),
    "mk_crowd_en": ("crowd", "en"),
}


def _img(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def board(name: str, lang: str = "en") -> bytes:
    lines = LOG_IT.get(name, LOG[name]) if lang == "it" else LOG[name]
    return mk.render(S.public(getattr(S, name)()), lang=lang, log_lines=lines)


# -- golden pictures ---------------------------------------------------------------------


@pytest.mark.parametrize("golden_name", sorted(GOLDENS))
def test_golden_board(golden_name: str, tmp_path: Path) -> None:
    name, lang = GOLDENS[golden_name]
    golden.check(golden_name, board(name, lang), tmp_path)


def test_golden_hand(tmp_path: Path) -> None:
    state = S.ranged()
    golden.check("mk_hand_en", mk.render_hand(ENGINE.view(state, 0), 0), tmp_path)  # type: ignore[arg-type]


def test_the_sample_states() -> None:
    """What each golden must show, said in words (a changed deal fails here first)."""
    ranged = S.ranged()
    assert [e.name for e in ranged.enemies] == ["Bolt Throwers", "Wall Wardens"]
    assert ranged.enemies[1].site_fortified and ranged.enemies[1].has("fortified")  # FF
    assert ranged.staged is not None and len(ranged.staged.parts) == 2 and any(d.used for d in ranged.source)
    block = S.block()
    assert block.phase == "block" and any(e.summoned_by for e in block.enemies)
    assert block.staged is not None and block.staged.kind == "block"
    damage = S.damage()
    assert damage.phase == "assign_damage" and damage.damage is not None and damage.damage.remaining == 4
    assert [u.wounds for u in damage.units] == [0, 1] and not damage.units[0].ready
    assert damage.enemies[0].status == "blocked"
    attack = S.attack()
    assert attack.phase == "attack" and attack.hero.combat_hand_wounds == 2
    preview = preview_column(attack)
    assert preview is not None and preview.enough and preview.halved
    over = S.over()
    assert over.phase == "over" and over.result is not None and over.result.survived and over.result.defeated
    crowd = S.crowd()
    assert len(crowd.enemies) == 8 and crowd.staged is not None and len(crowd.staged.targets) == 3
    assist = S.assist()
    assert assist.mode == "assist" and assist.phase == "assign_damage" and assist.enemy("e3").status == "blocked"
    assert [(u.soaked, u.destroyed) for u in assist.units] == [(True, False), (False, True)]


# -- purity, determinism, output ----------------------------------------------------------


def test_rendering_reads_the_view_and_never_changes_it() -> None:
    for name in ("ranged", "block", "damage", "over"):
        view = S.public(getattr(S, name)())
        before = view.model_dump_json()
        mk.render(view, lang="it", log_lines=["a", "b"])
        mk.render_hand(view, 0)
        assert view.model_dump_json() == before, name


def test_same_view_same_bytes() -> None:
    view = S.public(S.crowd())
    assert mk.render(view) == mk.render(view)
    assert mk.render(view, lang="it") != mk.render(view)


def _chunks(png: bytes) -> list[bytes]:
    names, pos = [], 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        names.append(png[pos + 4:pos + 8])
        pos += 12 + length
    return names


def test_png_size_palette_and_no_metadata() -> None:
    png = board("damage")
    image = Image.open(io.BytesIO(png))
    assert image.size == (mk.WIDTH, mk.HEIGHT) == (1000, 700)  # 10:7, shown 500 px wide by Discord
    assert image.mode == "P"
    assert set(_chunks(png)) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}


def test_the_palette_keeps_every_flat_colour_and_text_within_a_few_levels() -> None:
    """Quantizing on the fixed palette: every flat colour exact, anti-aliased text edges off
    by a few levels at most (a blend that shares Pillow's colour cell with another)."""
    pal = palette.palette()
    assert pal.flat_dropped == []
    for name in ("ranged", "block", "damage", "attack", "over", "assist", "crowd"):
        image = mk.render_image(S.public(getattr(S, name)()), lang="it", log_lines=LOG[name])
        diff = ImageChops.difference(image, pal.quantize(image).convert("RGB"))
        assert max(high for _low, high in diff.getextrema()) <= 8, name


# -- every reachable state renders ----------------------------------------------------------


SITES = ("rampaging", "keep", "mage_tower", "city", "dungeon", "spawning_grounds")


def _playout(seed: int) -> list[State]:
    """A random legal challenge (or duel) combat, every state along the way."""
    rng = random.Random(seed)
    duel = seed % 4 == 0
    seats = [SeatSetup(seat=0, user_id=1, name="alice")] + ([SeatSetup(seat=1, user_id=2, name="bob")] if duel else [])
    options = {"mode": "duel" if duel else "challenge", "site": rng.choice(SITES), "tier": rng.randint(1, 4),
               "seed": seed, "time": rng.choice(["day", "night"])}
    state: State = ENGINE.new_game(Setup(seats=seats, options=options), SeededDice(seed))  # type: ignore[assignment]
    dice = SeededDice(seed + 1)
    states = [state.model_copy(deep=True)]
    for _ in range(60):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        actions = ENGINE.legal_actions(state, seat)
        weights = [0.3 if isinstance(a, A.Next) else 3.0 if isinstance(a, A.Commit) else 1.0 for a in actions]
        ENGINE.apply(state, seat, rng.choices(actions, weights)[0], dice)
        states.append(state.model_copy(deep=True))
    return states


@pytest.mark.parametrize("seed", range(8))
def test_engine_played_combats_render_in_both_languages(seed: int) -> None:
    for i, state in enumerate(_playout(seed)):
        lang = "it" if i % 2 else "en"
        with kit.recording() as marks:
            mk.render_image(ENGINE.view(state, None), lang=lang, log_lines=["x " * 30] * (i % 6))  # type: ignore[arg-type]
        assert [m.text for m in marks if m.text.endswith("…")] == [], (seed, i)
        assert any(m.kind == "token" for m in marks) or not state.enemies
    last = _playout(seed)[-1]
    mk.render_hand(ENGINE.view(last, 0), 0)  # type: ignore[arg-type]


# -- what the picture says -----------------------------------------------------------------


def _texts(state: State, lang: str = "en", **kw: object) -> list[str]:
    with kit.recording() as marks:
        mk.render_image(state, lang=lang, **kw)  # type: ignore[arg-type]
    return [m.text for m in marks if m.kind == "text"]


def test_the_hand_shows_only_when_the_view_shows_it() -> None:
    """Public view: a count; the fighter's view (or an open-hand table): the cards."""
    state = S.ranged()
    public = _texts(S.public(state))
    assert "Quickstep" not in public and "Hand: 4 cards" in public
    mine = _texts(ENGINE.view(state, 0))  # type: ignore[arg-type]
    assert "Quickstep" in mine and "Battle Fury" in mine
    with kit.recording() as marks:
        hand = mk.hand_image(ENGINE.view(state, None), 0)  # type: ignore[arg-type]
    assert "4 cards, face down" in [m.text for m in marks] and hand.width == mk.WIDTH


def test_the_hand_image_lists_both_sides_of_each_card() -> None:
    with kit.recording() as marks:
        mk.hand_image(ENGINE.view(S.ranged(), 0), 0)  # type: ignore[arg-type]
    texts = " ".join(m.text for m in marks)
    assert "Basic: Attack 2 or Block 2" in texts and "Powered (red mana): Attack 4" in texts
    assert "Ice Attack 3 or Ranged" in texts  # Frost Spear, wrapped


def test_log_keeps_the_last_four_lines_that_fit_whole() -> None:
    lines = [f"line {i}" for i in range(10)]
    assert [text for text, _new in bands.log_layout(lines)] == ["line 6", "line 7", "line 8", "line 9"]
    long = "word " * 60  # two wrapped lines at least
    laid = bands.log_layout(["old", "older", long, "last"])
    assert laid[-1] == ("last", True) and all(text != "old" for text, _new in laid)
    assert len(laid) <= 4 and bands.log_layout(None) == [] and bands.log_layout([" "]) == []


def test_a_duel_enemy_stays_hidden_until_the_die_is_set() -> None:
    seats = [SeatSetup(seat=0, user_id=1, name="alice"), SeatSetup(seat=1, user_id=2, name="bob")]
    state: State = ENGINE.new_game(Setup(seats=seats, options={"mode": "duel", "site": "keep", "tier": 2, "seed": 4}),
                                   SeededDice(4))  # type: ignore[assignment]
    view = ENGINE.view(state, 0)
    assert view.enemies[0].token.id == HIDDEN  # type: ignore[attr-defined]
    texts = _texts(view, seat_names={1: "Bob"})  # type: ignore[arg-type]
    assert "?" in texts and "Bob to act" in texts and state.enemies[0].name not in texts


def test_short_names_tell_enemies_apart_and_effects_read_as_printed() -> None:
    state = S.new({"mode": "assist", "level": 5,
                   "enemies": "Cinder Shamans; Cinder Drake; Tusk Raiders; Tusk Raiders; Frost Drake"})
    assert list(words.short_names(state).values()) == ["Cinder Shamans", "Cinder Drake", "Tusk 1", "Tusk 2", "Frost"]
    assert words.effect_text(Effect(kind="attack", amount=3, element="cold_fire", range="siege"), "it") == \
        "Attacco d'Assedio di Fuoco Freddo 3"
    assert words.effect_text(Effect(kind="block", amount=4, swift_double=True), "en") == "Block 4 (x2 vs swift)"
    assert words.effects_text([Effect(kind="attack", amount=2), Effect(kind="block", amount=2)], "it") == \
        "Attacco 2 o Blocco 2"
