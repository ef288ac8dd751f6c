"""Four-player pictures: 2-vs-2 team boxes in the panel (703) and the 314.2d "no powers" marks.

1-vs-1 and free-for-all must not change: their goldens live in ``test_krosmaster_render.py``
and the free-for-all checks here assert that no team furniture appears.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from common import i18n
from engines.krosmaster.state import State
from renderers import kit, kit_board
from renderers import krosmaster as km
from renderers.krosmaster import board, layout, panel, preview
from tests.renderers import golden
from tests.renderers.states import big_teams, midgame
from tests.renderers.states_four import four_players, play_four


def _img(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _cell(state: State, square: str) -> tuple[int, int, int, int]:
    arena = state.board.arena
    col, row = kit_board.parse_label(square)  # type: ignore[misc]
    return km.grid_for(arena.width, arena.height).box(col, row)


def _near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def _keys_used(monkeypatch: pytest.MonkeyPatch, state: State, lang: str = "en") -> list[str]:
    """Every locale key the renderer asks for while drawing ``state``."""
    used: list[str] = []

    def spy(key: str, lang: str | None = i18n.DEFAULT, /, **params: object) -> str:
        used.append(key)
        return i18n.t(key, lang, **params)

    for module in (km, board, panel, preview):
        monkeypatch.setattr(module, "t", spy)
    km.render(state, lang=lang)
    return used


def _texts_drawn(state: State, lang: str = "en") -> list[str]:
    """Every string the renderer actually draws for ``state``, in drawing order."""
    with kit.recording() as marks:
        km.render_image(state, lang=lang)
    return [m.text for m in marks if m.kind == "text"]


def _canvas() -> ImageDraw.ImageDraw:
    return ImageDraw.Draw(Image.new("RGB", (km.WIDTH, km.HEIGHT)))


def _panel_left_edge_column(image: Image.Image) -> list[tuple[int, int, int]]:
    """The column where a team box's left border runs (just left of the panel's text)."""
    x = layout.PANEL_LEFT - layout.DU(3)
    return [image.getpixel((x, y)) for y in range(100, km.HEIGHT - 100)]  # type: ignore[misc]


# -- golden pictures ---------------------------------------------------------------------


def test_golden_teams_en(tmp_path: Path) -> None:
    """2-vs-2, team boxes, one-line rows, Bob's Iron Warden without powers (sign on token and row)."""
    golden.check("teams_en", km.render(four_players(), lang="en"), tmp_path)


def test_golden_ffa_en(tmp_path: Path) -> None:
    """Free-for-all, four players in play order, tight two-line rows whose wound bars stay inside."""
    golden.check("ffa_en", km.render(four_players("ffa"), lang="en"), tmp_path)


def test_golden_teams_it(tmp_path: Path) -> None:
    """2-vs-2 in Italian with room for the tight two-line rows (AP/MP and squares kept)."""
    golden.check("teams_it", km.render(four_players(powers_lost=False), lang="it"), tmp_path)


def test_golden_powers_lost_en(tmp_path: Path) -> None:
    """1-vs-1: one piece's row spells "no powers", one with a die falls back to the sign, die struck."""
    state = midgame()
    state.pieces["1c"].powers_lost = True
    state.pieces["1b"].powers_lost = True  # holds an armor die
    golden.check("powers_lost_en", km.render(state, lang="en"), tmp_path)


# -- team grouping ---------------------------------------------------------------------------


def test_panel_groups_put_team_mates_together_under_a_label() -> None:
    state = four_players()  # seating 2-1-0-3, teams 0+2 against 1+3
    assert km.panel_groups(state, "en") == [("Team A", [2, 0]), ("Team B", [1, 3])]
    assert km.panel_groups(state, "it") == [("Squadra A", [2, 0]), ("Squadra B", [1, 3])]


def test_panel_groups_follow_named_teams_not_seat_parity() -> None:
    state = four_players(teams={0: 1, 3: 1, 1: 0, 2: 0})  # /game join team:<name>: Cat+Bob, Ann+Dan
    assert km.panel_groups(state) == [("Team A", [2, 1]), ("Team B", [0, 3])]
    assert km.shape_of(state, 2) == km.shape_of(state, 1) != km.shape_of(state, 0) == km.shape_of(state, 3)


def test_free_for_all_and_duel_have_one_unlabelled_group_in_play_order() -> None:
    assert km.panel_groups(four_players("ffa")) == [(None, [2, 1, 0, 3])]
    assert km.panel_groups(midgame()) == [(None, [0, 1])]
    assert [km.shape_of(midgame(), s) for s in (0, 1)] == ["circle", "square"]


def test_team_labels_are_drawn_only_in_two_vs_two(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _texts_drawn(four_players(), "it")
    assert "SQUADRA A" in drawn and "SQUADRA B" in drawn
    names = [text for text in drawn if text.lstrip("» ").split(". ")[-1] in ("Ann", "Bob", "Cat", "Dan")]
    assert names == ["» 1. Cat", "3. Ann", "2. Bob", "4. Dan"]  # team by team, play order written
    for state in (four_players("ffa"), midgame()):
        drawn = _texts_drawn(state)
        assert not [text for text in drawn if text.startswith("TEAM")]
    assert "render.km.team" not in _keys_used(monkeypatch, four_players("ffa"))
    ffa = _texts_drawn(four_players("ffa"))
    assert [text for text in ffa if text.lstrip("» ") in ("Ann", "Bob", "Cat", "Dan")] == ["» Cat", "Bob", "Ann", "Dan"]


def test_team_boxes_frame_the_panel_only_in_two_vs_two() -> None:
    teams = _panel_left_edge_column(_img(km.render(four_players())))
    ffa = _panel_left_edge_column(_img(km.render(four_players("ffa"))))
    framed = sum(_near(p, kit.SUBTLE) for p in teams)
    assert framed > 300, framed  # two tall box borders down the panel
    assert not any(_near(p, kit.SUBTLE) for p in ffa)
    assert all(_near(p, kit.PANEL, 4) for p in ffa)  # plain panel background


def test_team_letters_follow_play_order() -> None:
    state = four_players()
    state.multi.seating = [1, 2, 3, 0]  # type: ignore[union-attr]
    assert km.panel_groups(state) == [("Team A", [1, 3]), ("Team B", [2, 0])]


def test_rows_get_less_room_only_when_the_table_is_crowded() -> None:
    """1-vs-1 keeps two-line rows; four players fall back to one-line rows (the acting player
    keeps more); eight pieces a side become cards. The active piece always keeps AP/MP."""
    rows = panel.Rows.of(midgame(), "en")
    room = 10_000
    assert set(panel.choose_modes(rows, [0, 1], room, [0]).values()) == {"full"}
    four = four_players()
    four_rows = panel.Rows.of(four, "en")
    modes = panel.choose_modes(four_rows, [2, 1, 0, 3], 330, [2])
    assert modes[2] in ("full", "compact") and modes[1] in ("compact", "cards")
    assert panel.choose_modes(panel.Rows.of(big_teams(), "it"), [0, 1], 420, [0]) == {0: "cards", 1: "cards"}
    active = four.pieces["2a"]
    with kit.recording() as marks:
        panel.pieces_block(_canvas(), four_rows, four.player(2), "cards", 700, 0, 280)
    assert "AP 6/6" in [m.text for m in marks] and active.short in [m.text for m in marks]


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_engine_four_player_games_render(mode: str) -> None:
    states = play_four(150, mode)
    assert {"deploy", "turn"} <= {s.phase for s in states}
    for state in [*states[:: max(1, len(states) // 12)], states[-1]]:
        image = _img(km.render(state, lang="it"))
        assert image.size == (km.WIDTH, km.HEIGHT)
        labels = [label for label, _seats in km.panel_groups(state, "it")]
        assert labels == (["Squadra A", "Squadra B"] if mode == "teams" else [None])


# -- 314.2d: no powers ---------------------------------------------------------------------


def _sign_pixels(image: Image.Image, state: State, square: str) -> int:
    x0, y0, _, _ = _cell(state, square)
    return sum(_near(image.getpixel((x, y)), km.NO_POWERS, 30)  # type: ignore[arg-type]
               for x in range(x0, x0 + 22) for y in range(y0, y0 + 22))


def test_lost_powers_sign_sits_on_the_token() -> None:
    lost = four_players()
    kept = four_players(powers_lost=False)
    assert _sign_pixels(_img(km.render(lost)), lost, "E6") > 20  # Bob's Iron Warden
    assert _sign_pixels(_img(km.render(kept)), kept, "E6") == 0
    assert _sign_pixels(_img(km.render(lost)), lost, "H5") == 0  # Dan's rogue keeps its powers


def test_lost_powers_are_named_in_the_panel_and_legend(monkeypatch: pytest.MonkeyPatch) -> None:
    state = midgame()
    state.pieces["1c"].powers_lost = True
    assert "render.km.legend.no_powers" in _keys_used(monkeypatch, state)
    assert "No powers" in _texts_drawn(state)  # the legend entry
    rows = panel.Rows.of(state, "en")
    for mode, words in (("full", "no powers"), ("compact", "")):  # one-line rows keep only the sign
        with kit.recording() as marks:
            panel.piece_row(_canvas(), rows, state.pieces["1c"], 3, 700, 0, 280, mode)  # type: ignore[arg-type]
        assert [m.text for m in marks if m.kind == "chip" and m.text in ("no powers", "")] == [words], mode
    assert "render.km.no_powers" not in _keys_used(monkeypatch, midgame())
    legend = [label for _paint, label in board.legend(state, "it")]
    assert "Senza poteri" in legend


def test_lost_powers_change_only_the_marked_piece() -> None:
    state = midgame()
    state.pieces["1c"].powers_lost = True
    plain, marked = _img(km.render(midgame())), _img(km.render(state))
    x0, y0, x1, y1 = _cell(state, "E6")  # another piece's square is untouched
    assert all(_near(plain.getpixel((x, y)), marked.getpixel((x, y)), 4)  # type: ignore[arg-type]
               for x in range(x0, x1) for y in range(y0, y1))
    assert _sign_pixels(marked, state, "H5") > 20
