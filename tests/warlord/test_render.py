"""Warlord table image (spec §7 "Table image"): golden pictures, plus checks that fail with a sentence.

Goldens are compared as the other renderers' are (``tests.renderers.golden``: a small mean and
per-tile tolerance); ``UPDATE_GOLDEN=1`` rewrites them into ``tests/warlord/golden`` and each was
looked at 500 px wide before it was stored. The scenes come from ``tests.warlord.builders``.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engines.warlord.engine import WarlordEngine
from engines.warlord.state import State
from renderers import kit
from renderers import warlord as W
from renderers.warlord import palette
from tests.renderers import golden
from tests.warlord import builders as B

E = WarlordEngine()
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
LOG_EN = ["Axe Sergeant strikes Horde Grunt: 14 + 3 = 17 vs AC 11, hit", "Horde Grunt is wounded (1/1) and dies"]
LOG_IT = ["Axe Sergeant colpisce Horde Grunt: 14 + 3 = 17 contro AC 11, a segno", "Horde Grunt è ferito (1/1) e muore"]


def _picture(name: str) -> bytes:
    if name == "wl_start_en":
        return W.render(E.view(B.scene_start(), None), log_lines=LOG_EN[:0])  # type: ignore[arg-type]
    if name == "wl_attack_en":
        return W.render(E.view(B.scene_attack(), None), log_lines=LOG_EN)  # type: ignore[arg-type]
    if name == "wl_reform_en":
        return W.render(E.view(B.scene_reform(), None), seat_names={1: "Bea"})  # type: ignore[arg-type]
    if name == "wl_window_en":
        return W.render(E.view(B.scene_window(), None), log_lines=LOG_EN)  # type: ignore[arg-type]
    if name == "wl_four_en":
        return W.render(E.view(B.scene_four(), None))  # type: ignore[arg-type]
    if name == "wl_view_seat1_it":
        return W.render(E.view(B.scene_attack(), 1), lang="it", viewer=1, log_lines=LOG_IT)  # type: ignore[arg-type]
    if name == "wl_over_en":
        return W.render(E.view(B.scene_over(), None), seat_names={0: "Ada", 1: "Bea"})  # type: ignore[arg-type]
    raise KeyError(name)


GOLDENS = ("wl_start_en", "wl_attack_en", "wl_reform_en", "wl_window_en", "wl_four_en", "wl_view_seat1_it",
           "wl_over_en")


def _check(name: str, png: bytes, tmp_dir: Path) -> None:
    """``tests.renderers.golden.check`` with this game's folder."""
    path = GOLDEN_DIR / f"{name}.png"
    if golden.updating():
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return
    assert path.is_file(), f"missing golden {path.name}: run with UPDATE_GOLDEN=1 and look at the picture"
    actual = Image.open(io.BytesIO(png)).convert("RGB")
    expected = Image.open(path).convert("RGB")
    assert actual.size == expected.size, f"{name}: size {actual.size} != golden {expected.size}"
    overall, worst, where = golden.difference(actual, expected)
    if overall > golden.MEAN_LIMIT or worst > golden.TILE_LIMIT:
        kept = tmp_dir / f"{name}.actual.png"
        kept.write_bytes(png)
        raise AssertionError(f"{name}: differs from golden (mean {overall:.2f}, tile {worst:.1f} at {where}); "
                             f"actual kept at {kept}; UPDATE_GOLDEN=1 regenerates once it looks right")


@pytest.mark.parametrize("name", GOLDENS)
def test_golden_table(name: str, tmp_path: Path) -> None:
    _check(name, _picture(name), tmp_path)


def test_the_scenes_show_what_they_should() -> None:
    """What each golden must show, said in words, so a changed builder fails here first."""
    start = B.scene_start()
    assert start.phase == "orders" and all(c.state == "ready" for c in start.chars.values())
    mid = B.scene_attack()
    states = {c.state for c in mid.chars.values()}
    assert states == {"ready", "spent", "stunned"} and mid.attack is not None and mid.stack
    assert any(c.wounds for c in mid.chars.values()) and mid.items
    reform = B.scene_reform()
    assert reform.reforming == 1
    window = B.scene_window()
    assert window.stack[-1].kind == "window"
    assert len(B.scene_four().players) == 4
    over = B.scene_over()
    assert over.phase == "over" and over.winners == [0]


# -- what is drawn ------------------------------------------------------------------------------


def _marks(state: State, **kw: object) -> list[kit.Mark]:
    with kit.recording() as marks:
        W.render_image(state, **kw)  # type: ignore[arg-type]
    return marks


def _texts(state: State, **kw: object) -> list[str]:
    return [m.text for m in _marks(state, **kw) if m.kind in ("text", "chip")]


def test_header_says_whose_order_and_what_is_open() -> None:
    texts = " | ".join(_texts(B.scene_window(), seat_names={0: "Ada"}))
    assert "p1 to act" in texts and "Ada to act" not in texts  # the seat the window asks, as the text says
    assert "Reaction window: before wounds — waiting" in texts
    assert "strike 1/1 · ranged" in texts
    assert "Initiative: Ada 17 › p1 4" in texts
    it = " | ".join(_texts(B.scene_window(), lang="it"))
    assert "Finestra di reazione: prima delle ferite" in it and "colpo 1/1" in it and "tocca a p1" in it


def test_tiles_show_engine_numbers_and_states() -> None:
    state = B.scene_attack()
    texts = _texts(state)
    assert "SPENT" in texts and "STUN" in texts
    assert "+5/+3" in texts  # Axe Sergeant: printed +3/+1, +1 ATK bonus, +1 axe (rules_common.atk_values)
    assert "Balanced War Axe ATK+1" in " ".join(texts)  # the name whole, over two chip lines if need be
    assert any(t.startswith("↻") for t in texts)  # the spent Tower Shield
    assert "Pow3" in texts and "Merc" in texts and "Eth" in texts
    pips = [m.text for m in _marks(state) if m.kind == "pips"]
    assert "2/3" in pips  # the wounded Warlord


def test_every_text_is_readable_and_inside_the_canvas() -> None:
    for scene in (B.scene_attack, B.scene_four, B.scene_window):
        image_marks = _marks(scene(), lang="it")
        for m in image_marks:
            if m.kind == "text":
                assert m.size >= kit.Scale(W.WIDTH).min_text, m
            assert m.box[0] >= 0 and m.box[2] <= W.WIDTH, m


def test_names_chips_and_stats_are_whole_and_readable_at_500_px_in_3_and_4_players() -> None:
    """issue 27.8: "Thane Bra…", "Shield…", "Embe…", the Italian "STORDI…" chip: a tile is never narrower
    than its name on two lines, its widest chip or number; every text is at least 11 px at 500 px."""
    from tests.warlord.test_table_issue27 import _three_player_attack

    for lang in ("en", "it"):
        for state in (B.scene_four(), _three_player_attack()[0], B.scene_attack(), B.scene_start()):
            marks = _marks(E.view(state, None), lang=lang)  # type: ignore[arg-type]
            field_texts = [m for m in marks if m.kind in ("text", "chip") and m.region == "field"]
            assert [m.text for m in field_texts if "…" in m.text] == [], lang
            assert all(m.size * 500 / W.WIDTH >= 11 for m in marks if m.kind == "text")
            names = " ".join(m.text for m in field_texts)
            for uid in state.chars:
                for word in state.defn(uid).shown(lang).split():
                    assert word in names, (lang, word)


def test_the_strike_label_covers_no_text_in_3_players() -> None:
    """issue 27.8: "colpo 1/1" lay over "carol · Stonewarden" (the arrow's middle fell between two bands)."""
    from engines.warlord.state import StrikeFrame
    from tests.warlord.test_table_issue27 import _three_player_attack

    state, a = _three_player_attack()
    state.stack = [StrikeFrame(striker=a[0][0], seat=0, target=state.player(2).ranks[0][0], step="before_roll")]
    for lang in ("en", "it"):
        marks = _marks(E.view(state, None), lang=lang)  # type: ignore[arg-type]
        label = next(m for m in marks if m.kind == "chip" and m.text.startswith(("strike", "colpo")))
        others = [m for m in marks if m.kind in ("text", "tile") and m.region == "field" and m.text != label.text]
        hit = [m for m in others if m.box[0] < label.box[2] and label.box[0] < m.box[2]
               and m.box[1] < label.box[3] and label.box[1] < m.box[3]]
        assert hit == [], (lang, hit)


def test_tiles_never_overlap_and_texts_stay_in_their_tile() -> None:
    for scene in (B.scene_start, B.scene_attack, B.scene_four, B.scene_reform):
        marks = _marks(scene())
        tiles = [m for m in marks if m.kind == "tile"]
        assert tiles
        for i, a in enumerate(tiles):
            for b in tiles[i + 1:]:
                assert a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1] or b.box[3] <= a.box[1]
            assert a.box[2] < W.layout.PANEL_X0
        inside = [m for m in marks if m.kind == "text" and m.region == "field"]
        for m in inside:
            cx, cy = (m.box[0] + m.box[2]) / 2, (m.box[1] + m.box[3]) / 2
            host = [t for t in tiles if t.box[0] <= cx <= t.box[2] and t.box[1] <= cy <= t.box[3]]
            if host:
                assert host[0].box[0] <= m.box[0] and m.box[2] <= host[0].box[2], (m, host[0])


# -- hidden information ------------------------------------------------------------------------


def _swap_hand(state: State, seat: int) -> State:
    """The same state with other cards (same count) in ``seat``'s hand."""
    other = state.model_copy(deep=True)
    p = other.player(seat)
    old = list(p.hand)
    new = [u for u in p.deck_pool if other.cards[u].card not in {other.cards[h].card for h in old}][:len(old)]
    assert len(new) == len(old)
    p.deck_pool = sorted(set(p.deck_pool) - set(new) | set(old))
    p.hand = new
    return other


def test_public_picture_never_depends_on_a_hidden_hand() -> None:
    state = B.scene_attack()
    other = _swap_hand(state, 1)
    assert state.player(1).hand != other.player(1).hand and len(state.player(1).hand) == len(other.player(1).hand)
    assert W.render(E.view(state, None)) == W.render(E.view(other, None))  # type: ignore[arg-type]
    assert W.render(E.view(state, 0), viewer=0) == W.render(E.view(other, 0), viewer=0)  # type: ignore[arg-type]


def test_no_hidden_card_name_is_drawn() -> None:
    state = B.scene_attack()
    seen = {state.name(u) for u in list(state.chars) + list(state.items) + state.player(0).discard
            + state.player(1).discard}
    hidden = {state.name(u) for u in state.player(1).hand + state.player(0).deck_pool} - seen
    drawn = " | ".join(_texts(E.view(state, 0), viewer=0))  # type: ignore[arg-type]
    assert hidden and not [name for name in hidden if name in drawn]
    assert "Hand 4" in drawn  # the count a view leaves for the other seat's hand


def test_a_view_without_a_carried_card_still_draws() -> None:
    view = E.view(B.scene_attack(), None)
    carried = next(u for c in view.chars.values() for u in c.items)  # type: ignore[attr-defined]
    del view.cards[carried]  # type: ignore[attr-defined]
    assert W.render(view)  # type: ignore[arg-type]


# -- purity, determinism, output ---------------------------------------------------------------


def test_rendering_never_changes_the_state() -> None:
    for state in (B.scene_start(), B.scene_attack(), B.scene_four(), B.scene_over()):
        before = state.model_dump_json()
        W.render(state, lang="it", log_lines=["a", "b"])
        W.render(state, viewer=1)
        assert state.model_dump_json() == before


def test_same_state_same_bytes() -> None:
    state = B.scene_attack()
    first = W.render(state, log_lines=LOG_EN)
    assert first == W.render(B.scene_attack(), log_lines=LOG_EN)
    assert W.render(state, lang="it") != W.render(state)


def _chunks(png: bytes) -> list[bytes]:
    names, pos = [], 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        names.append(png[pos + 4:pos + 8])
        pos += 12 + length
    return names


def test_png_is_a_palette_picture_without_metadata() -> None:
    png = W.render(B.scene_attack())
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and image.width == W.WIDTH and image.height >= W.HEIGHT
    assert set(_chunks(png)) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}


def test_quantizing_changes_next_to_no_pixel() -> None:
    pal = palette.shared()
    assert not pal.flat_dropped
    for scene in (B.scene_attack, B.scene_four, B.scene_reform, B.scene_over):
        image = W.render_image(scene(), log_lines=LOG_EN)
        diff = ImageChops.difference(image, pal.quantize(image).convert("RGB")).convert("L")
        assert diff.getextrema()[1] <= 8


def test_warm_up_runs() -> None:
    W.warm_up()


def test_a_rank_too_wide_for_one_line_wraps_inside_the_field() -> None:
    """Nine characters in one front rank (a long game's recruits): every tile stays left of the player
    panel and inside the canvas, no two tiles overlap, and the rank's lines stay in their rank."""
    from renderers.warlord import layout

    front = ["shieldwall_recruit"] * 3 + ["hearth_acolyte"] * 3 + ["tunnel_scout"] * 3
    state, _a, _b = B.battle([front, ["axe_sergeant", "runecarver_adept"], [B.WARLORD_A]], B.ARMY_B)
    plan = layout.plan(state, "en", 0, 200)
    boxes = list(plan.boxes.values())
    assert len(boxes) == 9 + 3 + 6
    for x0, _y0, x1, _y1 in boxes:
        assert x0 >= layout.FIELD_X0 and x1 <= layout.FIELD_X1
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    W.render(state, "en")


def _longest_discard_top(n: int, lang: str) -> State:
    """``n`` armies, each seat's discard pile topped by the card of its deck whose name is widest in ``lang``."""
    state = B.fresh(n)
    for seat in range(n):
        B.deploy(state, seat, B.ARMY_A if seat % 2 == 0 else B.ARMY_B)
        pool = state.player(seat).deck_pool
        widest = max(pool, key=lambda u: kit.text_width(state.defn(u).shown(lang), W.layout.TEXT))
        B._scene_cards(state, seat, [], [state.cards[widest].card], [])
    state.phase, state.turn, state.initiative, state.order_seat = "orders", 1, list(range(n)), 0
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_top_card_of_each_discard_pile_is_named_whole_in_the_player_panel(n: int, lang: str) -> None:
    """issue 27: "Scarti 2: Risana la C…" — the panel cut the discard pile's top card at 500 px. The name
    goes on a line of its own (two if need be), whole, inside the player's card, in 2–4 player games."""
    state = _longest_discard_top(n, lang)
    marks = _marks(E.view(state, None), lang=lang)  # type: ignore[arg-type]
    panel = [m for m in marks if m.kind == "text" and m.region == "panel"]
    assert [m.text for m in panel if "…" in m.text] == []
    x1 = W.layout.PANEL_X0 + W.layout.PANEL_W
    assert all(m.box[0] >= W.layout.PANEL_X0 and m.box[2] <= x1 for m in panel), panel
    said = " ".join(m.text for m in panel)
    for p in state.players:
        top = state.defn(p.discard[-1]).shown(lang)
        assert all(word in said.split() for word in top.split()), (top, said)
