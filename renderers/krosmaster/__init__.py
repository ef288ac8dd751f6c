"""Krosmaster Arena board pictures (ARCHITECTURE.md §6): the arena, the pieces, a side panel.

``render`` turns a state into PNG bytes; ``render_preview`` adds what the active piece
could do (reachable squares with their MP cost, or a spell's targets and area). Both are
pure: they read the state, never change it, and the same state gives the same bytes.

The package is split by what it draws, on top of the shared kit (``renderers.kit*``):
``layout`` (canvas geometry and facts about a state), ``glyphs`` (terrain colours and
painters shared with the legend), ``board`` (the arena and its pieces), ``panel`` (banner,
facts, timelines), ``preview`` (move and spell overlays), ``palette`` (every colour a
picture can hold, so the PNG is quantized by a look-up) and ``surface`` (what a picture is
recorded on, and small painters' calls kept). This module composes them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PIL import Image, ImageDraw

from common.i18n import t
from engines.krosmaster.content import name_in
from engines.krosmaster.state import State
from renderers import kit, kit_panel, kit_replay, kit_scene
from renderers.krosmaster import board, layout, palette, panel, preview
from renderers.krosmaster.glyphs import GROUND_A, GROUND_B, ICE, KAMA, NO_POWERS, ice_squares
from renderers.krosmaster.layout import (
    HEIGHT,
    LEGEND_LEFT,
    LEGEND_TOP,
    LEGEND_WIDTH,
    PANEL_WIDTH,
    SWATCH,
    TEXT,
    WIDTH,
    grid_for,
    shape_of,
    team_of,
)
from renderers.krosmaster.panel import panel_groups, panel_rows
from renderers.krosmaster.preview import PreviewKind
from renderers.krosmaster.surface import Board, painted

__all__ = [
    "GROUND_A", "GROUND_B", "HEIGHT", "ICE", "KAMA", "NO_POWERS", "WIDTH", "PreviewKind", "grid_for", "ice_squares",
    "panel_groups", "panel_rows", "preview_image", "render", "render_image", "render_preview", "shape_of", "team_of",
    "warm_up",
]

_panel_rows = panel_rows  # kept for callers written before the split (tests/krosmaster/test_summons.py)
_static_layer = board.static_layer


def _draw(state: State, lang: str, seat_names: Mapping[int, str] | None, highlight: Iterable[str] | None,
          extra: preview.Preview | None, surface: Callable[[str | None], Any]) -> None:
    """Everything a picture draws over the arena's static layer, on ``surface(mode)``: a
    ``kit.Draw`` on the picture, or a ``kit_scene.Recorder`` that keeps the calls."""
    arena = state.board.arena
    grid = grid_for(arena.width, arena.height)
    draw = surface("RGBA")
    with kit.region("board"):
        board.draw_board(draw, state, grid, highlight=highlight, under=extra.under if extra else None,
                         over=extra.over if extra else None, busy=extra.busy if extra else ())
    draw = surface(None)  # legend and panel: opaque colours, no blending (~7 % of the panel's time)
    legend = tuple(board.legend(state, lang) + (extra.legend if extra else []))
    with kit.region("legend"):
        overflow = painted(draw, _legend, legend, f"{t('render.km.title', lang)} · {name_in(arena, lang)}")
    with kit.region("panel"):
        panel.draw_panel(draw, state, lang, seat_names, extra.banner if extra else None, overflow)


def _legend(draw: ImageDraw.ImageDraw, legend: tuple[kit_panel.LegendEntry, ...], title: str
            ) -> tuple[kit_panel.LegendRow, ...]:
    """The legend under the board and the title after it; returns the rows that did not fit there (the
    panel draws them at its bottom). Depends on its arguments only (``surface.painted`` keeps it)."""
    rows = kit_panel.legend_rows(legend, LEGEND_WIDTH, TEXT, SWATCH)
    under = 0  # rows that fit under the board; the rest go to the bottom of the panel
    while under < len(rows) and kit_panel.legend_height(rows[:under + 1], TEXT, SWATCH) <= HEIGHT - LEGEND_TOP:
        under += 1
    kit_panel.draw_legend(draw, LEGEND_LEFT, LEGEND_TOP, rows[:under], TEXT, SWATCH)
    _title(draw, rows[:under], title)
    return tuple(kit_panel.legend_rows([item.entry for row in rows[under:] for item in row], PANEL_WIDTH, TEXT,
                                       SWATCH))


def _record(state: State, lang: str, seat_names: Mapping[int, str] | None, highlight: Iterable[str] | None,
            extra: preview.Preview | None = None) -> list[kit_scene.Entry]:
    """The picture's draw calls, kept (``kit_scene``): the board's in the mode each needs (``surface.Board``)."""
    entries: list[kit_scene.Entry] = []

    def recorder(mode: str | None) -> kit_scene.Recorder:
        return Board(entries) if mode == "RGBA" else kit_scene.Recorder(entries, mode)

    _draw(state, lang, seat_names, highlight, extra, recorder)
    return entries


def _compose(state: State, lang: str, seat_names: Mapping[int, str] | None, highlight: Iterable[str] | None,
             extra: preview.Preview | None = None) -> Image.Image:
    """The picture, drawn at once."""
    image = board.static_layer(state.board.arena.model_dump_json()).copy()
    _draw(state, lang, seat_names, highlight, extra, lambda mode: kit.Draw(image, mode))
    return image


def _title(draw: ImageDraw.ImageDraw, rows: list[kit_panel.LegendRow], title: str) -> None:
    """Game and arena, at the end of the legend when there is room (the banner says the rest)."""
    width = kit.text_width(title, TEXT)
    top = LEGEND_TOP + kit_panel.legend_height(rows[:-1], TEXT, SWATCH)
    if rows:
        last = rows[-1][-1]
        used = last.x + SWATCH + TEXT // 3 + max(kit.text_width(line, TEXT) for line in last.lines) + TEXT
        if used + width > LEGEND_WIDTH or len(last.lines) > 1:
            top += kit_panel.legend_height(rows[-1:], TEXT, SWATCH)
    row_h = kit.line_height(TEXT) + 2
    if top + row_h > HEIGHT:
        return
    kit.draw_text(draw, (LEGEND_LEFT + LEGEND_WIDTH, top + 1 + kit.line_height(TEXT) / 2), title, TEXT, kit.MUTED,
                  anchor="rm")


def render_image(state: State, *, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 highlight: Iterable[str] | None = None) -> Image.Image:
    """The snapshot as a Pillow image (for tests and for callers that compose pictures)."""
    return _compose(state, lang, seat_names, highlight)


def render(state: State, *, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           highlight: Iterable[str] | None = None) -> bytes:
    """PNG of the board and panel.

    ``seat_names`` overrides player names (e.g. Discord display names) by seat;
    ``highlight`` marks squares (labels like ``"C7"``) or pieces (by id) with a white frame,
    typically the squares of the last action.
    """
    return _png(state, lang, seat_names, highlight)


def preview_image(
    state: State,
    squares: Mapping[str, str | int] | Iterable[str],
    kind: PreviewKind,
    area: Iterable[str] | None = None,
    *,
    target: str | None = None,
    lang: str = "en",
    seat_names: Mapping[int, str] | None = None,
    highlight: Iterable[str] | None = None,
) -> Image.Image:
    """See :func:`render_preview`; returns the Pillow image."""
    return _compose(state, lang, seat_names, highlight, preview.build(state, squares, kind, area, target, lang))


def render_preview(
    state: State,
    squares: Mapping[str, str | int] | Iterable[str],
    kind: PreviewKind,
    area: Iterable[str] | None = None,
    *,
    target: str | None = None,
    lang: str = "en",
    seat_names: Mapping[int, str] | None = None,
    highlight: Iterable[str] | None = None,
) -> bytes:
    """PNG of the board with what the active piece could do.

    ``kind="move"``: ``squares`` maps reachable squares to their MP cost, printed in each
    (a plain set just tints them). ``kind="spell"``: ``squares`` are the legal targets;
    ``area`` the squares hit when aiming at ``target``, which gets corner brackets; when
    ``target`` is omitted and ``area`` is a list (the engine's ``area_for`` lists the main
    target first) its first square is used, a set gives no brackets.
    """
    return _png(state, lang, seat_names, highlight, preview.build(state, squares, kind, area, target, lang))


def render_preview_json(state_json: str, squares: dict[str, int] | list[str], kind: PreviewKind,
                        area: list[str] | None, target: str | None, lang: str) -> bytes:
    """``render_preview`` of a state given as JSON: the form a render worker process accepts
    (``gm.workers.render_pool.RenderPool.call``), so a preview draws off the bot's process too."""
    return render_preview(State.model_validate_json(state_json), squares, kind, area, target=target, lang=lang)


def warm_up() -> None:
    """Draw every built-in arena's empty board and build its palette, load the fonts and
    Pillow's PNG writer, and rasterise the numbers every board shows.

    Why: those caches cost ~60 ms per arena and ~30 ms of text the first time; a render
    worker calls this at start (``gm.workers.render_pool.WARM_UP``) so no player's first picture
    pays for them."""
    from engines.krosmaster.content import builtin_pack

    for arena in builtin_pack().arenas:
        arena_json = arena.model_dump_json()
        kit.to_png(board.static_layer(arena_json), palette=palette.for_arena(arena_json))  # loads the PNG writer too
    sizes = {TEXT, layout.TEXT_BIG, max(TEXT * 2 // 3, min(TEXT, grid_for(12, 12).cell * 7 // 16))}
    scratch = kit.Draw(Image.new("RGB", (64, 64)))
    for size in sizes:
        for number in range(21):  # as tokens, kamas and HP strips (outlined), indexes and cards draw them
            kit.draw_text(scratch, (0, 0), str(number), size, outline=kit.INK_DARK, anchor="mm")
            kit.draw_text(scratch, (0, 0), str(number), size, anchor="mm")
            kit.draw_text(scratch, (0, 0), str(number), size, bold=True, anchor="lm")
    _warm_panel_text(scratch)
    _warm_game()


WARM_TEAMS = (("iron_warden", "ember_witch", "gale_archer", "tide_healer"),
              ("bone_crusher", "shadow_rogue", "cloud_sage", "mire_imp", "root_druid"))
"""The sample game's teams (built-in figurines, level 12 each)."""


def _warm_game() -> None:
    """Pictures of a sample game under way, each position as a table's first three pictures (drawn whole,
    recorded, compared), in both languages: what a real board adds to the arena (pieces, tokens, the panel's
    cards and the replay's blits and level masks) is then cached in the fork server (issue 28: a worker's
    first picture cost 26-39 ms of CPU against 4 ms for the next ones)."""
    from engines.core.contract import SeatSetup, Setup
    from engines.krosmaster.engine import KrosmasterEngine
    from renderers import kit_warm

    setup = Setup(seats=[SeatSetup(seat=n, user_id=n, name=name, config={"team": list(team)})
                         for n, (name, team) in enumerate(zip(("warm", "up"), WARM_TEAMS, strict=True))])
    for n, view in enumerate(kit_warm.playout(KrosmasterEngine(), setup)):
        for lang in ("en", "it"):
            kit_warm.as_a_table(("warm-up", n, lang), lambda view=view, lang=lang: render(view, lang=lang))


def _warm_panel_text(scratch: ImageDraw.ImageDraw) -> None:
    """Rasterise the panel's texts that come in families: squares, HP and AP/MP counts,
    legend labels, the built-in figurines' names, in every language.

    Why: a text drawn for the first time in a process costs 0.1-1 ms to rasterise; in a
    fresh render worker, 106 of a seeded game's 216 pictures met some (+2.3 ms each on
    average, most of bench/krosmaster.py's p90-p99); after this, 24. Costs 0.2-0.4 s of CPU
    once per worker at start and ~2 MB of masks (~800)."""
    from common import i18n
    from engines.krosmaster.content import builtin_pack

    def text(value: str, *, anchor: str = "lm", bold: bool = False) -> None:
        kit.draw_text(scratch, (0, 0), value, TEXT, anchor=anchor, bold=bold)

    for col in "ABCDEFGHIJKL":
        for row in range(1, 13):
            text(f"{col}{row}", anchor="mm", bold=True)  # a piece's square, under its chip
    for most in range(1, 21):
        for left in range(most + 1):
            text(f"{left}/{most}", bold=True)  # HP left
    names = sorted({n for fig in builtin_pack().figurines for n in (fig.name, fig.name_it) if n})
    for lang in i18n.SUPPORTED:
        for key in ("render.km.ap", "render.km.mp"):
            word = t(key, lang)
            for most in range(1, 9):
                text(f"{word} {most}")
                for now in range(most + 2):
                    text(f"{word} {now}/{most}", bold=True)  # the active piece's AP and MP left
            for value in (-2, -1, 1, 2):
                text(f"{value:+d} {word}", bold=True)  # AP/MP token chips
        for turn in range(1, 31):
            text(t("render.km.round_turn", lang, round=(turn + 1) // 2, turn=turn), anchor="la", bold=True)
        for key, value in i18n.catalog(lang).items():
            if key.startswith("render.km.legend."):
                text(value)
    for name in names:
        text(name)
        text(name, bold=True)


def _png(state: State, lang: str, seat_names: Mapping[int, str] | None, highlight: Iterable[str] | None,
         extra: preview.Preview | None = None) -> bytes:
    """Encode on the arena's fixed palette (exact for every colour drawn, no per-picture quantizer).
    The picture is recorded as draw calls and replayed straight on the palette's indexes
    (``kit_replay``: no RGB canvas, no quantizing; a picture with a see-through tint goes through RGB):
    at once for a lone picture, and for a table that drew a picture lately only where it changed since
    (``kit_scene``). Either way the bytes are a whole-picture encode's.

    The scene is the table the render pool names (``kit_scene.table``), its arena, language and
    players; a picture drawn with no table named is told apart by the last three only, and two
    tables alike in all three compare with each other's pictures, which costs time, not
    correctness."""
    arena_json = state.board.arena.model_dump_json()
    arena_palette = palette.for_arena(arena_json)
    names = tuple(sorted(seat_names.items())) if seat_names else tuple(p.name for p in state.players)
    scene = ("krosmaster", kit_scene.current_table(), arena_json, lang, names)
    entries = _record(state, lang, seat_names, highlight, extra)
    static = board.static_layer(arena_json)
    if kit_scene.wants(scene):  # labels over tokens and squares: their blends kept by ground (kept=True)
        return kit_replay.encode(scene, static, arena_palette, entries, kept=True)
    return kit_replay.png(static, arena_palette, entries, kept=True)
