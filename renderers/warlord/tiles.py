"""Card tiles: one character in play, its numbers, its state by shape, and its items.

A tile reads like the card on the table. Its state is a shape, never a colour alone
(spec §7, ready-spent-stunned): a ready card stands upright (portrait, team band on top); a
spent card lies sideways (landscape, band on the right, as a card turned 90° clockwise) with
a "SPENT" chip; a stunned card is upside down (band at the bottom), hatched, with "STUN".
Text stays upright so it can be read; the frame carries the turn.

The content is a list of segments (level/class/alignment, AC, ATK list, skill, HP pips,
feats, badges) flowed into lines of the tile's width, so a wide spent tile needs fewer
lines and a narrow tile more, and nothing overflows: a segment wider than a line is cut
with an ellipsis. The name takes one or two lines and the tile is never narrower than the name's
widest line or its widest chip, so names and chips ("STORDITO") are never cut at 500 px (issue 27.8).
Every number comes from the engine (``atk_values``, ``armor``,
``hit_points``, ``level``, ``layered``), never recomputed here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from PIL import ImageDraw

from engines.warlord.content import factions_of
from engines.warlord.rules_common import armor, atk_values, hit_points, layered, level
from engines.warlord.state import State
from renderers import kit, kit_bytes, kit_ink, kit_panel, kit_sprites
from renderers.kit import RGB, Box
from renderers.warlord.words import card_name, plain, tr, tr_or

_DU = kit.Scale(1200)
TEXT = _DU.min_text
LINE = kit_panel.chip_height(TEXT)
PAD = _DU(2.5)
BAND = _DU(3)
READY_W = _DU(72)
SPENT_W = _DU(94)
PORTRAIT = 1.0  # a ready tile is at least this much taller than wide: it reads as upright
SEG_GAP = _DU(2.5)
PIP = _DU(7)
PIP_GAP = _DU(1.5)
MAX_PIPS = 6

TILE: RGB = (238, 232, 214)  # parchment: dark text on a light card reads best when shrunk
TILE_SPENT: RGB = (214, 208, 192)
TILE_STUN: RGB = (226, 214, 206)
HATCH: RGB = (196, 170, 160)
TILE_EDGE: RGB = (28, 28, 32)
TILE_INK: RGB = (24, 24, 28)
TILE_MUTED: RGB = (88, 84, 78)
STATE_CHIP: RGB = (24, 24, 28)
BADGE: RGB = (92, 70, 140)
WOUND: RGB = kit.OKABE_ITO["vermillion"]
PIP_EMPTY: RGB = (250, 246, 236)
ITEM: RGB = (64, 68, 78)
ITEM_SPENT: RGB = (118, 112, 100)
ATTACHED: RGB = (40, 92, 120)
GROUNDS: tuple[RGB, ...] = (TILE, TILE_SPENT, TILE_STUN, HATCH)
"""Where tile text is written (the palette needs each ink's edges over each)."""

T = TypeVar("T")
U = TypeVar("U")
CLASS_KEYS = ("fighter", "cleric", "wizard", "rogue", "classless", "any")
ALIGN = {"good": "▲", "evil": "▼", "neutral": "◆"}
ChipLine = tuple[kit_panel.Chip, bool]
"""A chip line under a tile, and whether it goes on the line above (the same item's name and bonus)."""


@dataclass(frozen=True)
class Seg:
    """One piece of a tile's content: plain text, a chip (state, badge) or HP pips."""

    kind: str  # "text" | "chip" | "pips"
    text: str = ""
    fill: RGB = STATE_CHIP
    hp: int = 0
    wounds: int = 0
    bold: bool = False

    def width(self) -> int:
        if self.kind == "pips":
            return self.hp * PIP + (self.hp - 1) * PIP_GAP
        if self.kind == "chip":
            return kit_panel.chip_width(kit_panel.Chip(self.text, self.fill), TEXT)
        return kit.text_width(self.text, TEXT, 1 if self.bold else 0)


@dataclass
class TileSpec:
    """A measured tile: size, the lines of segments (with x offsets) and the chips under it."""

    uid: str
    orient: str
    width: int
    body_h: int
    name: str
    band: RGB
    name_lines: list[str] = field(default_factory=list)
    lines: list[list[tuple[int, Seg]]] = field(default_factory=list)
    chips: list[ChipLine] = field(default_factory=list)
    chips_h: int = 0

    @property
    def height(self) -> int:
        return self.body_h + self.chips_h


def empty_height() -> int:
    """Height of a row with no character (an empty army during set-up)."""
    return 2 * PAD + LINE


def empty_width() -> int:
    return READY_W // 2


def segments(state: State, uid: str, lang: str) -> list[Seg]:
    """What a tile says after its name, most important first (state, stats, HP, feats, badges)."""
    c = state.chars[uid]
    d = state.defn(uid)
    out: list[Seg] = []
    if c.state == "spent":
        out.append(Seg("chip", tr("spent", lang)))
    elif c.state == "stunned":
        out.append(Seg("chip", tr("stunned", lang)))
    cls = tr(f"cls.{d.cls}", lang) if d.cls in CLASS_KEYS else "–"
    marks = ("♛" if d.has("Warlord") else "") + ("★" if d.has("Unique") else "")
    if marks:  # its own segment: on a narrow tile it moves to its own line rather than cut the level
        out.append(Seg("text", marks, bold=True))
    out.append(Seg("text", f"{level(state, uid)}{cls}{ALIGN.get(d.alignment, '◆')}", bold=True))
    out.append(Seg("text", tr("ac", lang, n=_engine(armor, state, uid, "?"))))
    atk = _engine(atk_values, state, uid, None)
    out.append(Seg("text", "/".join(f"{v:+d}" for v in atk) if atk is not None else "?", bold=True))
    out.append(Seg("text", tr("skill", lang, n=layered(d.skill, c.mods, "skill"))))
    hp = hit_points(state, uid)
    if hp <= MAX_PIPS:
        out.append(Seg("pips", hp=hp, wounds=min(c.wounds, hp)))
    else:
        out.append(Seg("text", f"♥{max(0, hp - c.wounds)}/{hp}", bold=True))
    for feat, bonus in sorted(d.feats.items()):
        out.append(Seg("text", f"{tr_or(f'feat.{feat}', lang, feat[:3].title())}{bonus}"))
    for trait, key in (("Astral", "astral"), ("Ethereal", "ethereal"),
                       (state.loyalty_exempt, "mercenary")):
        if d.has(trait):
            out.append(Seg("chip", tr(f"badge.{key}", lang), fill=BADGE))
    if off_faction(state, uid):
        out.append(Seg("chip", tr("badge.off_faction", lang), fill=BADGE))
    return out


def off_faction(state: State, uid: str) -> bool:
    """A character serving an army not of its faction (not a mercenary): its tile wears a badge."""
    c = state.chars[uid]
    d = state.defn(uid)
    own = state.player(c.army_of).faction if any(p.seat == c.army_of for p in state.players) else ""
    return bool(own) and not d.has(state.loyalty_exempt) and own not in factions_of(d, state.factions)


def _engine(rule: Callable[[State, str], T], state: State, uid: str, missing: U) -> T | U:
    """An engine value, or ``missing`` when the state lacks a card it needs (a carried card a view
    left out): the picture shows "?" instead of a number the rules did not compute."""
    try:
        return rule(state, uid)
    except KeyError:
        return missing


def flow(segs: list[Seg], width: int) -> list[list[tuple[int, Seg]]]:
    """Greedy lines: each segment goes on the current line if it fits, else on a new one."""
    lines: list[list[tuple[int, Seg]]] = []
    x = width + 1
    for seg in segs:
        w = min(seg.width(), width)
        if x + w > width:
            lines.append([])
            x = 0
        lines[-1].append((x, seg))
        x += w + SEG_GAP
    return lines


def _wrap_chip(text: str, width: int, fill: RGB) -> list[ChipLine]:
    """A chip's words over as many chip lines as the tile's width needs (a long item name and its bonus on
    two lines rather than "Maglia… AC+2"); a single word wider than the tile is the only thing ever cut."""
    room = width - kit_panel.chip_width(kit_panel.Chip("", fill), TEXT)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and kit.text_width(f"{lines[-1]} {word}", TEXT, 1) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return [(kit_panel.Chip(kit.fit(line, TEXT, room, 1), fill), k > 0) for k, line in enumerate(lines)]


def item_chips(state: State, uid: str, width: int, lang: str) -> list[ChipLine]:
    """Equipped items (name, ±ATK/AC, a turn mark when spent) then attached actions; an item too long for
    one chip line continues on the next rather than lose its name."""
    chips: list[ChipLine] = []
    for item in state.chars[uid].items:
        if item not in state.cards:
            continue
        d = state.defn(item)
        bonus = " ".join(part for part in (tr("atk", lang, n=f"{d.atk_bonus:+d}") if d.atk_bonus else "",
                                           tr("ac", lang, n=f"{d.ac_bonus:+d}") if d.ac_bonus else "") if part)
        orient = state.items[item].state if item in state.items else "ready"
        mark = {"ready": "", "spent": "↻ ", "stunned": "✖ "}[orient]
        fill = ITEM if orient == "ready" else ITEM_SPENT
        chips += _wrap_chip(f"{mark}{card_name(state, item, lang)} {plain(bonus)}".strip(), width, fill)
    for action in state.chars[uid].attached:
        if action in state.cards:
            chips += _wrap_chip(f"+ {card_name(state, action, lang)}", width, ATTACHED)
    return chips


def chips_height(chips: list[ChipLine]) -> int:
    """The chips under a tile: one chip line each, a small gap before each new item (none inside one)."""
    if not chips:
        return 0
    gaps = sum(1 for _chip, continues in chips if not continues)
    return len(chips) * kit_panel.chip_height(TEXT) + gaps * _DU(1) + _DU(1)


def _width(text: str) -> int:
    return kit.text_width(text, TEXT, 1)


def name_split(name: str) -> tuple[int, list[str]]:
    """The printed name on at most two lines, split where the wider line is narrowest: (that width, lines).
    Why: at 500 px a tile is about 70 px wide, and a cut name ("Thane Bra…", "Shield…") is a name players
    cannot read (issue 27.8); two lines keep every word whole, and the tile widens when even they do not fit."""
    words = name.split()
    best = (_width(name), [name])
    for k in range(1, len(words)):
        lines = [" ".join(words[:k]), " ".join(words[k:])]
        wide = max(_width(line) for line in lines)
        if wide < best[0]:
            best = (wide, lines)
    return best


@dataclass(frozen=True)
class Content:
    """What a tile says whatever its width: its segments, its name split on two lines, and the least
    width they need (without the padding)."""

    segs: list[Seg]
    name: str
    name_lines: list[str]
    least: int


def content(state: State, uid: str, lang: str) -> Content:
    """``uid``'s tile content, worded once a picture (``layout`` measures a tile at several scales: the
    engine's numbers and the words are the costly part, the widths are not)."""
    segs = segments(state, uid, lang)
    name = card_name(state, uid, lang)
    name_w, name_lines = name_split(name)
    return Content(segs, name, name_lines, max(name_w, *(seg.width() for seg in segs)))


def measure(state: State, uid: str, lang: str, scale: float = 1.0, words: Content | None = None) -> TileSpec:
    """Size and content of ``uid``'s tile at ``scale`` (the layout shrinks tiles of a crowded rank, never
    below what the name on two lines and the widest chip or number need: nothing is cut). ``words``:
    ``content(state, uid, lang)``, when the caller has it already."""
    c = state.chars[uid]
    orient = c.state
    extra = 2 * PAD + (BAND if orient == "spent" else 0)
    words = content(state, uid, lang) if words is None else words
    segs, name, name_lines = words.segs, words.name, words.name_lines
    least = words.least + extra
    width = max(round((SPENT_W if orient == "spent" else READY_W) * scale), least)
    inner = width - extra
    if _width(name) <= inner:
        name_lines = [name]
    lines = flow(segs, inner)
    n = len(lines) + len(name_lines)
    body_h = 2 * PAD + n * LINE + (0 if orient == "spent" else BAND + PAD // 2)
    if orient != "spent":
        body_h = max(body_h, round(width * PORTRAIT))
    chips = item_chips(state, uid, width, lang)
    chips_h = chips_height(chips)
    return TileSpec(uid, orient, width, body_h, name, kit.team_colour(c.controller), name_lines, lines, chips,
                    chips_h)


SPEC_BYTES = 512 << 10
"""Heap bytes of measured tiles kept per process (``measured``): ~2-4 KB a tile, so the tiles of the few tables a
worker drew last. The bench game's 297 pictures measure 2,758 tiles of 88 distinct contents: its layout took 0.90
against 0.61 ms a picture without and with them (``bench/README.md``, nineteenth session)."""
SPEC_ENTRY = 4 << 10
"""Bytes one kept measure is counted at: its key and spec walk to 2.9-4.2 KB (``kit_bytes.held_bytes``, a
three-army game's tiles); walking each one as it is kept cost ~0.15 ms, a fifth of a new table's picture."""
_specs = kit_bytes.Budget(SPEC_BYTES, lambda _key, _value: SPEC_ENTRY)
Signature = tuple[tuple[Hashable, ...], tuple[object, ...]]
"""What decides a tile's measure (``signature``), and the card definitions its key names by identity."""


def signature(state: State, uid: str, lang: str) -> Signature:
    """Every value ``measure`` reads of ``state`` for ``uid``'s tile (the engine's numbers worked out, the card
    definitions by identity: they are shared by every state parsed from the same text), and those definitions.

    Why (issue 28): wording and measuring a tile is ~70 µs of Python a tile, nine a picture, and a table's next
    picture shows nearly all of them again: only the numbers here decide them. The numbers themselves (~25 µs)
    are asked of the engine every time, so a change of an aura or an item shows at once."""
    c = state.chars[uid]
    d = state.defn(uid)
    atk = _engine(atk_values, state, uid, None)
    refs: list[object] = [d]
    items: list[Hashable] = []
    for item in c.items:
        if item not in state.cards:
            items.append(None)
            continue
        refs.append(state.defn(item))
        orient = state.items[item].state if item in state.items else "ready"
        items.append((id(refs[-1]), orient, card_name(state, item, lang)))
    attached = tuple(card_name(state, action, lang) if action in state.cards else None for action in c.attached)
    key = (uid, id(d), lang, c.state, c.controller, level(state, uid), _engine(armor, state, uid, "?"),
           None if atk is None else tuple(atk), layered(d.skill, c.mods, "skill"), hit_points(state, uid), c.wounds,
           off_faction(state, uid), state.loyalty_exempt, card_name(state, uid, lang), tuple(items), attached)
    return key, tuple(refs)


def measured(state: State, uid: str, lang: str, scale: float, signed: Signature,
             words: Callable[[], Content]) -> TileSpec:
    """``measure`` of ``uid``'s tile at ``scale``, kept by its ``signature``: the spec measured before for the same
    values (a spec is never changed once made), else measured (``words``: its content) and kept."""
    key, refs = signed
    found = _specs.found((key, scale))
    if found is not None and len(found[0]) == len(refs) and all(a is b for a, b in zip(found[0], refs, strict=True)):
        return found[1]  # type: ignore[no-any-return]
    spec = measure(state, uid, lang, scale, words())
    _specs.keep((key, scale), (refs, spec))
    return spec


# -- drawing --------------------------------------------------------------------------------


TILE_SPRITE_BYTES = 2 << 20
"""Heap bytes of drawn tile bodies kept per process (``kit_sprites``): ~36 KB a body, so ~55 of them, the
tiles of the two or three tables a worker drew last. At 5,000 live games few tables come back before their
bodies go (12 % of bodies pasted, ``bench/render_caches.py``), and 3 MB cost the PSS target more than it gave."""
SPRITES = kit_sprites.Sprites(TILE_SPRITE_BYTES, __name__)


def draw_tile(draw: ImageDraw.ImageDraw, spec: TileSpec, box: tuple[int, int, int, int]) -> None:
    """The card frame (its turn as a shape), then the name, the content lines and the item chips.

    The body (everything in ``box``) is pasted when the same body was drawn twice before (``kit_sprites``):
    it fills its box first and draws only inside it, and what it shows is all in the key (the uid only names
    the tile for tests' marks, which draw every body afresh). So is the parity of its corner: a chip's text is
    centred with ``round(y + h / 2)``, which rounds a half to the even side, so a body moved by an odd number
    of pixels may set that text one pixel apart (the scripted game's pictures showed it). Its other shapes move
    exactly: whole-pixel rectangles and pips, and 45° wide lines (a wound's cross, the stunned hatching)."""
    x0, y0, x1, y1 = box
    key = (x1 - x0, y1 - y0, x0 & 1, y0 & 1, spec.orient, spec.name, spec.band, tuple(spec.name_lines),
           tuple(tuple(line) for line in spec.lines))
    SPRITES.draw(draw, key, box, lambda: _draw_body(draw, spec, box))
    cy = y1
    for chip, continues in spec.chips:
        cy += 0 if continues else _DU(1)
        kit_ink.draw_chip(draw, x0, cy, chip, TEXT)
        cy += kit_panel.chip_height(TEXT)


def _draw_body(draw: ImageDraw.ImageDraw, spec: TileSpec, box: tuple[int, int, int, int]) -> None:
    """The card frame, its name and its content lines: all inside ``box``, which it fills first."""
    x0, y0, x1, y1 = box
    fill = {"ready": TILE, "spent": TILE_SPENT, "stunned": TILE_STUN}[spec.orient]
    draw.rectangle(box, fill=fill, outline=TILE_EDGE, width=2)
    if spec.orient == "stunned":
        _hatch(draw, box)
    if spec.orient == "ready":
        draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + 2 + BAND), fill=spec.band)
        top = y0 + 2 + BAND + PAD // 2
        plain: Box | None = (x0 + 2, y0 + 3 + BAND, x1 - 2, y1 - 2)  # inside the edge, under the band
    elif spec.orient == "spent":
        draw.rectangle((x1 - 2 - BAND, y0 + 2, x1 - 2, y1 - 2), fill=spec.band)
        top = y0 + PAD
        plain = (x0 + 2, y0 + 2, x1 - 3 - BAND, y1 - 2)
    else:
        draw.rectangle((x0 + 2, y1 - 2 - BAND, x1 - 2, y1 - 2), fill=spec.band)
        top = y0 + PAD
        plain = None  # a stunned tile's text lies on its hatching
    left = x0 + PAD
    inner = x1 - x0 - 2 * PAD - (BAND if spec.orient == "spent" else 0)
    kit.note("tile", box, spec.uid)
    floor = _draw_name(draw, spec, left, top, inner, fill, plain)  # the first row below the ink so far
    for k, line in enumerate(spec.lines, start=len(spec.name_lines) or 1):
        y = top + k * LINE
        below, right = floor, 0  # what a line inks may reach the next line's rows: never their ground
        for dx, seg in line:
            inked = _draw_seg(draw, seg, left + dx, y, inner - dx, fill,
                              (max(left + dx, right), floor, plain[2], plain[3]) if plain else None)
            below, right = max(below, inked[3]), max(right, inked[2])
        floor = below


def _draw_name(draw: ImageDraw.ImageDraw, spec: TileSpec, left: int, top: int, inner: int, fill: RGB,
               plain: Box | None) -> int:
    """The printed name in bold, on the lines ``measure`` chose (the tile is wide enough for each); returns
    the first row below its ink. ``plain``: the tile's inside where only its ``fill`` lies (None: unknown)."""
    floor = plain[1] if plain else 0
    for k, line in enumerate(spec.name_lines or [spec.name]):
        ground = (fill, (plain[0], floor, plain[2], plain[3])) if plain else None
        inked = kit_ink.draw_text(draw, (left, top + k * LINE + LINE // 2), kit.fit(line, TEXT, inner, 1), TEXT,
                                  TILE_INK, ground=ground, anchor="lm", bold=True)
        floor = max(floor, inked[3])
    return floor


def _draw_seg(draw: ImageDraw.ImageDraw, seg: Seg, x: int, y: int, room: int, fill: RGB, plain: Box | None) -> Box:
    """One segment at (x, y); returns the box it inked. ``plain``: where the tile's ``fill`` alone lies
    under it (None: unknown)."""
    mid = y + LINE // 2
    if seg.kind == "pips":
        for k in range(seg.hp):
            px = x + k * (PIP + PIP_GAP)
            pip = (px, mid - PIP // 2, px + PIP, mid - PIP // 2 + PIP)
            if k < seg.hp - seg.wounds:
                draw.ellipse(pip, fill=kit.HP_LEFT, outline=TILE_EDGE, width=2)
            else:  # a wound: hollow and crossed, so it differs by shape as well as colour
                draw.ellipse(pip, fill=PIP_EMPTY, outline=WOUND, width=2)
                draw.line((pip[0] + 3, pip[1] + 3, pip[2] - 3, pip[3] - 3), fill=WOUND, width=3)
                draw.line((pip[0] + 3, pip[3] - 3, pip[2] - 3, pip[1] + 3), fill=WOUND, width=3)
        kit.note("pips", (x, mid - PIP // 2, x + seg.width(), mid + PIP // 2), f"{seg.hp - seg.wounds}/{seg.hp}")
        return (x - 1, mid - PIP // 2 - 1, x + seg.width() + 2, mid - PIP // 2 + PIP + 2)  # (and Pillow's rounding)
    if seg.kind == "chip":
        chip = kit_panel.Chip(seg.text, seg.fill)
        if kit_panel.chip_width(chip, TEXT) > room:
            chip = kit_panel.Chip(kit.fit(seg.text, TEXT, room - 2 * max(5, TEXT // 4), 1), seg.fill)
        return kit_ink.draw_chip(draw, x, mid - kit_panel.chip_height(TEXT) // 2, chip, TEXT)
    return kit_ink.draw_text(draw, (x, mid), kit.fit(seg.text, TEXT, room, 1 if seg.bold else 0), TEXT, TILE_INK,
                             ground=(fill, plain) if plain else None, anchor="lm", bold=seg.bold)


@lru_cache(maxsize=64)
def _hatch_lines(w: int, h: int) -> tuple[tuple[int, int, int, int], ...]:
    step = _DU(6)
    out = []
    for k in range(-h, w, step):
        out.append((k, 0, k + h, h))
    return tuple(out)


def _hatch(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """Diagonal hatching inside ``box``: "stunned" as a pattern, so it survives any colour vision."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0 - 4, y1 - y0 - 4
    for a, b, c, d in _hatch_lines(w, h):
        # clip the line (a,b)-(c,d) of slope 1 to the inner box
        sx, sy, ex, ey = a, b, c, d
        if sx < 0:
            sy -= sx
            sx = 0
        if ex > w:
            ey -= ex - w
            ex = w
        if sx < ex:
            draw.line((x0 + 2 + sx, y0 + 2 + sy, x0 + 2 + ex, y0 + 2 + ey), fill=HATCH, width=3)
