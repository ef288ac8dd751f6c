"""Where things go on the Warlord table image, in canvas pixels designed as *preview pixels*.

The canvas is 1200 px wide: Discord shows it about 500 px wide, so ``DU`` converts preview
pixels to canvas pixels and ``TEXT`` (11 preview px) is the smallest text drawn (TABLE_UX.md).
The height grows with the armies (``HEIGHT`` is the least): a card tile needs four or five
lines of readable text, and shrinking them to fit a fixed height would break that rule first.

Two players: one army on top, one at the bottom, each front rank (R1) facing the central
battle line, rank numbers at the row ends, positions left to right as in ``PlayerState.ranks``.
Three or four players: one horizontal band per army with its ranks side by side, R1 first,
all R1 groups touching one vertical battle line at the left (every front rank is adjacent to
every other). The player panel is a column on the right; the header runs across the top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engines.warlord.rules_ranks import illegal_ranks
from engines.warlord.state import State
from renderers import kit, kit_panel
from renderers.warlord import tiles

WIDTH = 1200
HEIGHT = 840  # the least height (10:7); a big army makes the picture taller, never the text smaller
DU = kit.Scale(WIDTH)
TEXT = DU.min_text  # 27 px: 11 px at 500 px wide
TEXT_BIG = DU(14)
LINE = tiles.LINE
CHIP_H = kit_panel.chip_height(TEXT)

MARGIN = DU(4)
PANEL_W = DU(122)
PANEL_X0 = WIDTH - MARGIN - PANEL_W
FIELD_X0 = MARGIN
FIELD_X1 = PANEL_X0 - DU(4)
RANK_W = DU(16)  # the rank number column at each end of a row
GAP = DU(3)
ROW_GAP = DU(3)
TITLE_H = LINE + DU(2)
BATTLE_H = CHIP_H + DU(4)
MIN_SCALE = 0.6


@dataclass
class Placed:
    """A tile put on the canvas: its measured content and its body box."""

    spec: tiles.TileSpec
    box: tuple[int, int, int, int]


@dataclass
class Row:
    """One rank of one army (or one army's whole band of ranks with 3-4 players)."""

    seat: int
    top: int
    bottom: int
    tiles: list[Placed] = field(default_factory=list)
    labels: list[tuple[int, int, str]] = field(default_factory=list)  # (x, rank, anchor "l"/"r"/"m")
    illegal: list[tuple[int, tuple[int, int, int, int]]] = field(default_factory=list)  # (rank, outline box)


@dataclass
class Army:
    seat: int
    title_y: int
    rows: list[Row]


@dataclass
class Plan:
    """The whole field: armies, their rows, the battle line and the picture's height."""

    duel: bool
    top: int
    bottom: int
    armies: list[Army]
    battle: tuple[int, int, int, int]  # the battle line's box (horizontal strip, or vertical with bands)
    boxes: dict[str, tuple[int, int, int, int]]  # uid -> tile body box (outlines)
    reach: dict[str, tuple[int, int, int, int]]  # uid -> body and item chips (arrows start and end outside)


def seat_order(state: State, viewer: int | None) -> list[int]:
    """Armies from the top down: the viewer's own army at the bottom, as a player sits at a table."""
    seats = [p.seat for p in state.players]
    if len(seats) == 2:
        bottom = viewer if viewer in seats else seats[0]
        return [s for s in seats if s != bottom] + [bottom]
    if viewer in seats:
        k = seats.index(viewer)
        return seats[k + 1:] + seats[:k + 1]
    return seats


Measure = Callable[[str, float], tiles.TileSpec]
"""A tile's measure at a scale, remembered for one picture (``_measurer``)."""


def _measurer(state: State, lang: str) -> Measure:
    """``tiles.measure`` of ``state``'s tiles, each (uid, scale) measured once per picture (or found measured for
    the same values in an earlier one: ``tiles.measured``) and each tile's words (``tiles.content``) worded once.

    Why: the layout asks for a tile's size when it looks for the scale, at each scale it tries, and
    again when it places the rank; wording a tile asks the engine for its numbers, and was a quarter of
    a picture's time when it was done at every ask."""
    memo: dict[tuple[str, float], tiles.TileSpec] = {}
    words: dict[str, tiles.Content] = {}
    signed: dict[str, tiles.Signature] = {}

    def worded(uid: str) -> tiles.Content:
        said = words.get(uid)
        if said is None:
            said = words[uid] = tiles.content(state, uid, lang)
        return said

    def measure(uid: str, scale: float) -> tiles.TileSpec:
        spec = memo.get((uid, scale))
        if spec is None:
            sign = signed.get(uid)
            if sign is None:
                sign = signed[uid] = tiles.signature(state, uid, lang)
            spec = memo[(uid, scale)] = tiles.measured(state, uid, lang, scale, sign, lambda: worded(uid))
        return spec

    return measure


def _row_width(specs: list[tiles.TileSpec]) -> int:
    return sum(s.width for s in specs) + GAP * max(0, len(specs) - 1)


def plan(state: State, lang: str, viewer: int | None, top: int) -> Plan:
    """Lay out every army below ``top``; tiles shrink (never below ``MIN_SCALE``) when a rank is too wide."""
    order = seat_order(state, viewer)
    measure = _measurer(state, lang)
    duel = len(order) == 2
    avail = FIELD_X1 - FIELD_X0 - 2 * RANK_W - 2 * GAP if duel else FIELD_X1 - _band_start()
    scale = 1.0
    for _ in range(8):
        widest = 0
        for seat in order:
            ranks = state.player(seat).ranks
            if duel:
                for rank in ranks:
                    widest = max(widest, _row_width([measure(u, scale) for u in rank]))
            else:
                widest = max(widest, _band_width(measure, ranks, scale))
        if widest <= avail or scale <= MIN_SCALE:
            break
        scale = max(MIN_SCALE, scale * avail / widest)
    return _duel(state, order, measure, top, scale) if duel else _bands(state, order, measure, top, scale)


def _centred_row(seat: int, rank_no: int, uids: list[str], measure: Measure, scale: float, y: int,
                 illegal: bool) -> Row:
    """One rank, centred; a rank too wide even at ``MIN_SCALE`` wraps onto more lines (left to right,
    then the next line) rather than run under the panel or off the canvas."""
    specs = [measure(u, scale) for u in uids]
    x0, x1 = FIELD_X0 + RANK_W + GAP, FIELD_X1 - RANK_W - GAP
    lines: list[list[tiles.TileSpec]] = [[]]
    for spec in specs:
        if lines[-1] and _row_width([*lines[-1], spec]) > x1 - x0:
            lines.append([])
        lines[-1].append(spec)
    row = Row(seat, y, y)
    line_y = y
    for line in lines:
        body_h = max([s.body_h for s in line], default=tiles.empty_height())
        chips_h = max([s.chips_h for s in line], default=0)
        x = (x0 + x1 - _row_width(line)) // 2
        for s in line:
            ty = line_y + (body_h - s.body_h) // 2
            row.tiles.append(Placed(s, (x, ty, x + s.width, ty + s.body_h)))
            x += s.width + GAP
        row.bottom = line_y + body_h + chips_h
        line_y = row.bottom + GAP
    row.labels = [(FIELD_X0 + RANK_W // 2, rank_no, "m"), (FIELD_X1 - RANK_W // 2, rank_no, "m")]
    row.illegal = [(rank_no, (FIELD_X0, y - DU(1), FIELD_X1, row.bottom + DU(1)))] if illegal else []
    return row


def _duel(state: State, order: list[int], measure: Measure, top: int, scale: float) -> Plan:
    armies: list[Army] = []
    y = top
    battle = (FIELD_X0, 0, FIELD_X1, 0)
    for k, seat in enumerate(order):
        ranks = state.player(seat).ranks or [[]]
        bad = set(illegal_ranks(ranks)) if state.reforming == seat else set()
        numbered = list(enumerate(ranks, start=1))
        if k == 0:  # the top army: its front rank is the lowest row, facing the battle line
            numbered.reverse()
            army = Army(seat, y, [])
            y += TITLE_H
        else:
            battle = (FIELD_X0, y, FIELD_X1, y + BATTLE_H)
            y += BATTLE_H + ROW_GAP
            army = Army(seat, 0, [])
        for rank_no, uids in numbered:
            row = _centred_row(seat, rank_no, uids, measure, scale, y, rank_no in bad)
            army.rows.append(row)
            y = row.bottom + ROW_GAP
        if k == 1:
            army.title_y = y
            y += TITLE_H
        armies.append(army)
    return Plan(True, top, y, armies, battle, _boxes(armies), _reach(armies))


GROUP_GAP = 4 * GAP  # between two ranks of a band


def _band_width(measure: Measure, ranks: list[list[str]], scale: float) -> int:
    width = 0
    for uids in ranks:
        specs = [measure(u, scale) for u in uids]
        width += max(_row_width(specs), tiles.empty_width()) + GROUP_GAP
    return width


def _band_start() -> int:
    """Left edge of the first rank group of a band, right of the shared vertical battle line."""
    return FIELD_X0 + DU(2) + BATTLE_H + GAP


def _bands(state: State, order: list[int], measure: Measure, top: int, scale: float) -> Plan:
    """3-4 players: one band per army, ranks side by side with R1 against the shared battle line.

    The rank numbers go on a line of their own above the tiles (a label beside each group would
    take the width four armies cannot spare). A band wider than the field goes on over more lines,
    a whole rank at a time, rather than shrink its tiles until the names are cut (issue 27.8)."""
    armies: list[Army] = []
    y = top
    line_x = FIELD_X0 + DU(2)
    x_start = _band_start()
    for seat in order:
        ranks = state.player(seat).ranks or [[]]
        bad = set(illegal_ranks(ranks)) if state.reforming == seat else set()
        army = Army(seat, y, [])
        y += TITLE_H
        specs_by_rank = [[measure(u, scale) for u in uids] for uids in ranks]
        lines: list[list[tuple[int, list[tiles.TileSpec]]]] = [[]]
        x = x_start
        for rank_no, specs in enumerate(specs_by_rank, start=1):
            wide = max(_row_width(specs), tiles.empty_width())
            if lines[-1] and x + wide > FIELD_X1:
                lines.append([])
                x = x_start
            lines[-1].append((rank_no, specs))
            x += wide + GROUP_GAP
        for line in lines:
            y = _band_line(army, seat, line, bad, y)
        armies.append(army)
    battle = (line_x, top, line_x + BATTLE_H, y)
    return Plan(False, top, y, armies, battle, _boxes(armies), _reach(armies))


def _band_line(army: Army, seat: int, groups: list[tuple[int, list[tiles.TileSpec]]], bad: set[int], y: int) -> int:
    """One line of a band: its rank labels, then its rank groups left to right; returns the next line's top."""
    every = [s for _rank, specs in groups for s in specs]
    body_h = max([s.body_h for s in every], default=tiles.empty_height())
    chips_h = max([s.chips_h for s in every], default=0)
    label_y = y
    y += CHIP_H + DU(1)
    row = Row(seat, label_y, y + body_h + chips_h)
    x = _band_start()
    for rank_no, specs in groups:
        group_x0 = x
        row.labels.append((x, rank_no, "l"))
        for s in specs:
            ty = y + (body_h - s.body_h) // 2
            row.tiles.append(Placed(s, (x, ty, x + s.width, ty + s.body_h)))
            x += s.width + GAP
        if not specs:
            x += tiles.empty_width() + GAP
        if rank_no in bad:
            row.illegal.append((rank_no, (group_x0 - GAP, label_y - DU(1), x, row.bottom + DU(1))))
        x += GROUP_GAP - GAP
    army.rows.append(row)
    return row.bottom + ROW_GAP


def ink_right(plan: Plan) -> int:
    """The first column right of anything the field draws: the field's edge, or further where a crowded
    band runs on under the player column (the tiles, their outlines and item chips, the rank chips).
    The player column's text knows what lies under it right of this (``kit_ink``)."""
    right = FIELD_X1 + DU(2)  # dashed outlines of illegal ranks are centred on the field's edge
    for army in plan.armies:
        for row in army.rows:
            right = max([right] + [x + DU(40) for x, _rank, anchor in row.labels if anchor == "l"])
    for box in plan.reach.values():
        right = max(right, box[2] + DU(1.5) + 4)  # the striker's and the target's outlines
    return right + 1


def _boxes(armies: list[Army]) -> dict[str, tuple[int, int, int, int]]:
    return {p.spec.uid: p.box for a in armies for r in a.rows for p in r.tiles}


def _reach(armies: list[Army]) -> dict[str, tuple[int, int, int, int]]:
    return {p.spec.uid: (p.box[0], p.box[1], p.box[2], p.box[3] + p.spec.chips_h)
            for a in armies for r in a.rows for p in r.tiles}
