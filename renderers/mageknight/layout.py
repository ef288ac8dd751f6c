"""Where things go on a Mage Knight combat picture, and the facts about a state every part needs.

The canvas is 1000 x 700 px, designed in *preview pixels* (``DU``): Discord shows it about
500 x 350, so ``DU(11)`` (``TEXT``) is the size below which nothing a player needs may go
(TABLE_UX.md). Why exactly 10:7: Discord fits a picture into about 550 x 350 px, so a
taller picture would be shown narrower than 500 px and everything in it smaller.

Left column: the phase track and the site, the enemy tokens (one to three rows, as many
as the count needs, tokens as big as the room allows), the units, the last log lines.
Right column (a grey card): the banner (who acts, what to do), the open column with its
sum and verdict, the hero, the mana, and a legend of the badges in the picture.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engines.mageknight import ENGINE
from engines.mageknight.state import CombatEnemy, State
from renderers import kit, kit_panel
from renderers.kit import Box

WIDTH = 1000
HEIGHT = 700


class _Units(kit.Scale):
    """``kit.Scale`` whose conversions are remembered: a board converts ~400 sizes, always the same few."""

    def __call__(self, preview_px: float) -> int:
        found = _UNITS.get(preview_px)
        if found is None:
            found = _UNITS[preview_px] = super().__call__(preview_px)
        return found


_UNITS: dict[float, int] = {}
DU = _Units(WIDTH)
TEXT = DU.min_text  # 22 px: 11 px at 500 px wide, the smallest text of the picture
TEXT_BIG = DU(14)
LINE = kit.line_height(TEXT)
CHIP_H = kit_panel.chip_height(TEXT)

MARGIN = DU(4)
LEFT_X0 = MARGIN
LEFT_X1 = DU(332)
PANEL_BOX: Box = (DU(336), MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN)
PANEL_LEFT = PANEL_BOX[0] + DU(4)
PANEL_TOP = PANEL_BOX[1] + DU(4)
PANEL_WIDTH = PANEL_BOX[2] - DU(4) - PANEL_LEFT
PANEL_BOTTOM = PANEL_BOX[3] - DU(3)

TRACK_TOP = MARGIN
TRACK_H = TEXT + DU(8)
SITE_TOP = TRACK_TOP + TRACK_H + DU(3)
ENEMY_TOP = SITE_TOP + CHIP_H + DU(4)
LOG_LINES = 4

PHASES = ("ranged_siege", "block", "assign_damage", "attack")
"""The four boxes of the phase track (spec §7); ``setup`` and ``over`` light none of them."""

# -- enemy tokens -------------------------------------------------------------------------

D_MAX = DU(115)
SUMMON_RATIO = 0.7  # a drawn summon token, small, overlapping its summoner (spec §7)
D_MIN = DU(65)
"""Below this a token cannot hold its name and numbers at 11 px: the log gives up lines first."""
SUMMON_OVERLAP = 0.2  # how much of the small token lies over its summoner
GAP_X = DU(7)  # room for the target outline between two tokens
GAP_Y = DU(4)
FAME_OVER = kit_panel.chip_height(TEXT_BIG) // 2  # the Fame pill straddles the token's bottom edge
BADGE_OVER = FAME_OVER  # the resistance pips stick out of a disc's left side by this much at most
CAPTION = CHIP_H + DU(3)  # one line of status chips under a token (a summoner with its token may need two)


@dataclass(frozen=True)
class Slot:
    """One place in the enemy rows: a token, or a summoner with its drawn token beside it."""

    enemy: str  # uid
    summoned: str | None
    x: int  # the main disc's box
    y: int
    d: int
    ds: int  # diameter of the summoned token (0 without one)
    width: int  # the whole slot, summoned token included
    row: int
    captions: int = 1  # lines of status chips under the token

    @property
    def disc(self) -> Box:
        """The main token's square."""
        return (self.x, self.y, self.x + self.d, self.y + self.d)

    @property
    def small(self) -> Box:
        """The summoned token's disc: to the right, bottom-aligned, overlapping the summoner."""
        left = self.x + self.d - round(self.ds * SUMMON_OVERLAP)
        top = self.y + self.d - self.ds + DU(3)
        return (left, top, left + self.ds, top + self.ds)

    @property
    def box(self) -> Box:
        """Everything the slot draws: discs, the Fame pill and the caption lines."""
        return (self.x, self.y, self.x + self.width, self.y + self.d + FAME_OVER + CAPTION * self.captions)


Pair = tuple[CombatEnemy, CombatEnemy | None]
CaptionCount = Callable[[Pair, int], int]  # lines of captions a slot needs at a given width


def slot_groups(state: State) -> list[Pair]:
    """Enemies in combat order, each summoner paired with the token it drew (if any)."""
    by_uid = {e.uid: e for e in state.enemies}
    pairs: list[Pair] = []
    placed: set[str] = set()
    for enemy in state.enemies:
        if enemy.summoned_by is not None and enemy.summoned_by in by_uid:
            continue  # drawn next to its summoner
        small = by_uid.get(enemy.summoned or "")
        pairs.append((enemy, small))
        placed.add(enemy.uid)
        if small is not None:
            placed.add(small.uid)
    pairs += [(e, None) for e in state.enemies if e.uid not in placed]
    return pairs


def _rows(units: list[float], rows: int) -> list[list[int]]:
    """Split slot indexes into ``rows`` contiguous rows, the widest row as narrow as possible
    (a summoner with its token is wider than a lone token)."""
    count = len(units)
    if rows <= 1 or count <= 1:
        return [list(range(count))]
    if rows >= count:
        return [[i] for i in range(count)]
    if rows == 2:
        cut = min(range(1, count), key=lambda c: (max(sum(units[:c]), sum(units[c:])), abs(2 * c - count)))
        return [list(range(cut)), list(range(cut, count))]
    best = min(((a, b) for a in range(1, count - 1) for b in range(a + 1, count)),
               key=lambda ab: (max(sum(units[:ab[0]]), sum(units[ab[0]:ab[1]]), sum(units[ab[1]:])),
                               abs(3 * ab[0] - count)))
    a, b = best
    return [list(range(a)), list(range(a, b)), list(range(b, count))]


def _fit(pairs: list[Pair], units: list[float], rows: list[list[int]], area: Box, captions: CaptionCount
         ) -> tuple[int, list[int]]:
    """The biggest diameter for these rows, and the caption lines of each row at that size
    (a caption that wraps makes its row taller, so the size is settled in two passes)."""
    x0, y0, x1, y1 = area
    width, height = x1 - x0, y1 - y0
    by_width = min((width - GAP_X * (len(r) - 1)) / sum(units[i] for i in r) for r in rows)
    lines = [1] * len(rows)
    d = 0
    for _ in range(2):
        by_height = (height - GAP_Y * (len(rows) - 1) - CAPTION * sum(lines)) / len(rows) - FAME_OVER
        d = int(min(D_MAX, by_width, by_height))
        lines = [max(captions(pairs[i], round(d * units[i])) for i in r) for r in rows]
    return d, lines


def enemy_slots(state: State, area: Box, captions: CaptionCount) -> list[Slot]:
    """Token rows for any number of enemies: as few rows as give the biggest tokens.

    The diameter is the largest that fits both the width (tokens side by side with room
    for the target outline) and the height (disc, Fame pill, captions), capped at
    ``D_MAX``; a summoner with a drawn token takes 1.5 places.
    """
    pairs = slot_groups(state)
    if not pairs:
        return []
    x0, y0, x1, y1 = area[0] + BADGE_OVER - MARGIN, area[1], area[2], area[3]
    area = (x0, y0, x1, y1)
    width, height = x1 - x0, y1 - y0
    units = [1 + (SUMMON_RATIO * (1 - SUMMON_OVERLAP) if small is not None else 0) for _e, small in pairs]
    best: tuple[int, list[list[int]], list[int]] | None = None
    for count in range(1, 4):
        rows = _rows(units, count)
        if len(rows) < count:
            break
        d, lines = _fit(pairs, units, rows, area, captions)
        if best is None or d > best[0]:
            best = (d, rows, lines)
    assert best is not None
    d, rows, lines = best
    heights = [d + FAME_OVER + CAPTION * n for n in lines]
    y = y0 + max(0, (height - sum(heights) - GAP_Y * (len(rows) - 1)) // 2)
    slots: list[Slot] = []
    for r, (row, row_h, n) in enumerate(zip(rows, heights, lines, strict=True)):
        widths = [round(d * units[i]) for i in row]
        x = x0 + (width - sum(widths) - GAP_X * (len(row) - 1)) // 2
        for i, w in zip(row, widths, strict=True):
            enemy, small = pairs[i]
            slots.append(Slot(enemy.uid, small.uid if small else None, x, y, d,
                              round(d * SUMMON_RATIO) if small else 0, w, r, n))
            x += w + GAP_X
        y += row_h + GAP_Y
    return slots


# -- facts about a state -------------------------------------------------------------------


def acting_seats(state: State) -> list[int]:
    """Who must act now: the engine's own decision (read only), empty once the combat is over."""
    decision = ENGINE.decision(state)
    return list(decision.seats) if decision is not None else []
