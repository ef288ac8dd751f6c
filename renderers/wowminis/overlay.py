"""What ``/wowm los`` and ``/wowm move`` draw over the map, and the banner that explains it.

Line of sight (405.3-405.4): every shortest path from the viewer's hex to the target, the
engine's own report (``rules_board.los_report``), drawn as lines between hex centres. A
clear path is a white line, a blocked one grey; the first blocking hex of each gets a purple
frame (and a cross when no token stands there): players asked to see *why* sight fails (spec §8, MegaMek #8260).
In the four-path case of 405.4 only the two middle paths count; they are drawn thick and
the outer two thin, and the banner says so.

Move preview (404.1): each reachable hex gets a sky-blue inner hex with its cost in
movement points, from the engine's own walk (``rules_board.walk``), so the picture and the
rules cannot disagree. Terrain stays visible around the mark.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PIL import ImageDraw

from engines.wowminis import rules_board, rules_stats
from engines.wowminis.state import State
from renderers import kit
from renderers.kit import RGB
from renderers.wowminis import glyphs
from renderers.wowminis.layout import HexGrid, token_size
from renderers.wowminis.words import drawn_name, tr

Head = tuple[str, RGB, list[str]]
Overlay = Callable[[ImageDraw.ImageDraw, HexGrid], None]


def _ints(points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    return [(round(x), round(y)) for x, y in points]


def los_viewer(state: State, from_hex: str) -> int:
    """Whose sight it is (405.3 depends on who is looking): the character on ``from_hex``'s
    controller, else the seat whose turn it is."""
    here = rules_board.char_at(state, from_hex)
    return here.controller if here is not None else state.active_seat


def los(state: State, from_hex: str, to_hex: str, lang: str) -> tuple[rules_board.LosReport, Head]:
    """The engine's report and the banner that words it."""
    report = rules_board.los_report(state, los_viewer(state, from_hex), from_hex, to_hex)
    title = tr("los.title", lang, a=from_hex, b=to_hex, distance=report.distance)
    blockers = list(dict.fromkeys(p.blocked_at for p in report.paths if p.blocked_at))
    counted = [report.paths[i] for i in report.middle] if report.four_paths else report.paths
    clear = sum(1 for p in counted if p.blocked_at is None)
    if report.distance <= 1:
        lines = [tr("los.adjacent", lang)]
    elif report.four_paths:
        lines = [tr("los.middle_clear" if report.clear else "los.middle_blocked", lang)]
    else:
        lines = [tr("los.paths", lang, clear=clear, total=len(counted))]
    if blockers and not report.clear:
        lines.append(tr("los.blocked_at", lang, hexes=", ".join(blockers)))
    verdict = tr("los.clear" if report.clear else "los.blocked", lang)
    colour = glyphs.BUFF if report.clear else glyphs.BLOCK
    return report, (f"{title}: {verdict}", colour, lines)


def los_overlay(state: State, report: rules_board.LosReport, from_hex: str, to_hex: str
                ) -> tuple[Overlay, Overlay]:
    """(under, over) painters for the map: blocker frames under the tokens, lines over them."""

    blockers = list(dict.fromkeys(p.blocked_at for p in report.paths if p.blocked_at))

    def under(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        """The paths, under the tokens (a token on a path stays readable; the line meets it)."""
        middle = set(report.middle)
        order = sorted(range(len(report.paths)), key=lambda i: (report.paths[i].blocked_at is None, i in middle))
        for i in order:
            path = report.paths[i]
            cells = [grid.at(label) for label in path.spaces]
            if any(c is None for c in cells):
                continue
            thin = report.four_paths and i not in middle
            width = max(3, round(grid.s / (9 if thin else 5)))
            colour = glyphs.SIGHT if path.blocked_at is None else glyphs.SIGHT_BLOCKED
            pts = _ints([grid.centre(*c) for c in cells if c is not None])
            draw.line(pts, fill=kit.INK_DARK, width=width + 4, joint="curve")
            draw.line(pts, fill=colour, width=width, joint="curve")

    def over(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        """Blocking hexes framed (and crossed when no token's name is there), the two ends framed."""
        for label in blockers:
            cell = grid.at(label)
            if cell is None:
                continue
            pts = _ints(grid.polygon(*cell, -2))  # just outside the hex: a token's name stays clear
            draw.polygon(pts, outline=kit.INK_DARK, width=max(6, round(grid.s / 4)))
            draw.polygon(pts, outline=glyphs.BLOCK, width=max(4, round(grid.s / 6)))
            if rules_board.char_at(state, label) is None:
                cx, cy = grid.centre(*cell)
                r = grid.s * 0.4
                for w, colour in ((9, kit.INK_DARK), (5, glyphs.BLOCK)):
                    draw.line((round(cx - r), round(cy - r), round(cx + r), round(cy + r)), fill=colour, width=w)
                    draw.line((round(cx - r), round(cy + r), round(cx + r), round(cy - r)), fill=colour, width=w)
        for label, colour in ((from_hex, kit.INK), (to_hex, kit.HIGHLIGHT)):
            cell = grid.at(label)
            if cell is not None:
                pts = _ints(grid.polygon(*cell, -3))
                draw.polygon(pts, outline=kit.INK_DARK, width=6)
                draw.polygon(pts, outline=colour, width=3)

    return under, over


def move(state: State, char_id: str | None, lang: str) -> tuple[dict[str, int], Head]:
    """Reachable hexes (cost in MP) for ``char_id`` (default: the active character), and the banner."""
    cid = char_id or (state.turn.char if state.turn else None)
    c = state.chars.get(cid or "")
    if c is None or c.pos is None:
        return {}, (tr("move.title_none", lang), kit.PANEL_LINE, [])
    mp = rules_stats.movement(state, c)
    walked = rules_board.walk(state, c, c.pos, mp, rules_stats.ignores_terrain(state, c))
    costs = {label: cost for label, (cost, _route) in walked.items()
             if label != c.pos and rules_board.can_stop(state, c, label)}
    return costs, (tr("move.title", lang, name=drawn_name(c.defn, lang), mp=mp), kit.team_colour(c.controller),
                   [tr("move.hint", lang, count=len(costs))])


def move_overlay(costs: Mapping[str, int]) -> Overlay:
    """Reachable hexes marked with their cost, under the tokens."""

    def under(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        size = token_size(grid)
        for label, cost in sorted(costs.items()):
            cell = grid.at(label)
            if cell is None:
                continue
            draw.polygon(_ints(grid.polygon(*cell, grid.s * 0.28)), fill=glyphs.REACH, outline=kit.INK_DARK, width=2)
            kit.draw_text(draw, grid.centre(*cell), str(cost), size, kit.INK_DARK, anchor="mm", bold=True)

    return under




def ability(state: State, char_id: str | None, key: str, lang: str, placement: tuple[str, int] | None = None
            ) -> tuple[list[str], list[str], list[str], str | None, Head]:
    """What an ability of ``char_id`` (default: the active character) could reach now: the hexes
    in range and sight (405.2, 405.3), where its legal targets stand (407.1, 708.5 Taunt read by
    the engine) and, for an AOE, the three spaces of ``placement`` (a target space and one of the six
    orientations, 407.2) when it is legal, else of the first legal placement; the engine's own
    targeting, so the picture and the rules cannot disagree."""
    from engines.wowminis import rules_play, rules_targeting

    cid = char_id or (state.turn.char if state.turn else None)
    c = state.chars.get(cid or "")
    if c is None or c.pos is None:
        return [], [], [], None, (tr("ability.title_none", lang), kit.PANEL_LINE, [])
    playable = rules_play.find_playable(state, c, key)
    spec = playable.ability.target
    geo = rules_board.geometry(state)
    reach = sorted(label for label in (geo.label(h) for h in geo.spaces)
                   if rules_board.within_range(state, c.controller, c.pos, label, spec.range.min, spec.range.max,
                                               spec.range.los))
    spots: list[str] = []
    area: list[str] = []
    if spec.aoe:
        placements = rules_targeting.aoe_choices(state, c, playable.ability)
        chosen = [p for p in placements if (p[0], p[1]) == placement] or placements
        if chosen:
            area = chosen[0][2]
    else:
        for pid in rules_targeting.single_targets(state, c, playable.ability):
            piece = state.chars.get(pid) or state.totems.get(pid)
            if piece is not None and piece.pos is not None and piece.pos not in spots:
                spots.append(piece.pos)
    hint = tr("ability.hint", lang, count=len(spots), low=spec.range.min, high=spec.range.max)
    title = tr("ability.title", lang, name=drawn_name(c.defn, lang), ability=drawn_name(playable.ability, lang))
    return reach, spots, area, c.pos, (title, kit.team_colour(c.controller), [hint])


def reach_overlay(reach: list[str]) -> Overlay:
    """Hexes in range and sight: a small sky-blue mark under the tokens, terrain still visible."""

    def under(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        for label in reach:
            cell = grid.at(label)
            if cell is not None:
                draw.polygon(_ints(grid.polygon(*cell, grid.s * 0.55)), fill=glyphs.REACH, outline=kit.INK_DARK)

    return under
