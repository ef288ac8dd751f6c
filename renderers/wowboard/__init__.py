"""World of Warcraft: The Board Game map picture (spec §4.10 "Drawing", §7 "Board image").

``render`` turns a state into PNG bytes: the status strip (turn, who acts, each faction's XP and
eligible quests, the merchant, seat numbers, the turn track with its event and item spaces and
the marker) over the 6×6 map, or (``focus``) a crop of it around the regions an action touched under
a compact strip. Everything on the map is public (spec §3.6), so a seat's view and the full state
draw the same picture. ``render_sheet`` draws one character's sheet (sent privately) and
``render_combat`` the combat panel.

The package is split by what it draws, on top of the shared kit (``renderers.kit*``): ``layout``
(canvas geometry, fixed colours, codes), ``board`` (the static layer, cached once per pack, and
where items go on a region), ``glyphs`` (badges, tier shapes, flag, star, crown), ``pieces`` (the
dynamic layer), ``strip`` (the status strip), ``words`` (drawable translations) and ``palette``
(every colour, so the PNG is quantized by a look-up); ``crop`` (the compact map), ``sheet``,
``combat``, ``panels`` (what those two share), ``cardtext`` (card effects in words) and ``legend``
(the map's codes in words, under the map and under each crop). This module composes them.

Every picture is drawn on one canvas, recorded as draw calls (``kit_scene.Recorder``) over a static
layer: the empty map (with room for the legend), a crop's layer (the strip's ground, the cut of the
map, the legend's ground: a ``kit.Layer``), a panel's background as tall as its content. Parts laid
out in their own coordinates (the legend, a crop's strip and pieces) are drawn where they go through
``kit.Shifted``. The calls are replayed on the palette indexes (``kit_replay``), at once for a table's
first picture of a kind and only where it changed for the next ones (issue 28).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from PIL import Image

from engines.wowboard.content import Pack
from engines.wowboard.state import State
from renderers import kit, kit_replay, kit_scene, kit_warm
from renderers.kit_palette import Palette
from renderers.wowboard import board, combat, crop, legend, palette, pieces, sheet, strip
from renderers.wowboard.layout import HEIGHT, WIDTH
from renderers.wowboard.panels import Sheet

__all__ = ["HEIGHT", "WIDTH", "combat_image", "render", "render_combat", "render_image", "render_sheet",
           "sheet_image", "warm_up"]

Static = Image.Image | kit.Layer


def _pack(state: State) -> Pack:
    """The state's pack: the built-in one or a server pack this process holds (``content.pack_by_key``)."""
    from engines.wowboard.rules_common import pack_of

    return pack_of(state)


def _picture(state: State, lang: str, seat_names: Mapping[int, str] | None, focus: Sequence[str] | None
             ) -> tuple[Hashable, Static, list[kit_scene.Entry]]:
    """The map picture as draw calls over its static layer, and what tells its scene apart (the kind of
    picture and its layer's size); see :func:`render_image` for ``focus``."""
    pack = _pack(state)
    static = board.static_layer(state.pack, pack, lang)
    box = crop.crop_box(pack, focus) if focus else None
    entries: list[kit_scene.Entry] = []
    if box is None:  # the full map, its legend under it
        with kit.region("legend"):
            flowed = legend.rows(state, pack, lang, seat_names, WIDTH, {r.id for r in pack.regions})
        layer = board.map_layer(state.pack, pack, lang, legend.height(flowed))
        draw = kit_scene.Recorder(entries)
        with kit.region("strip"):
            strip.draw_strip(draw, state, pack, lang, seat_names)
        with kit.region("map"):
            pieces.draw_pieces(draw, state, pack, lang)
        with kit.region("legend"):
            legend.paint(kit.Shifted(draw, 0, HEIGHT), flowed, WIDTH)
        return ("map",), layer, entries
    return _crop(state, pack, static, box, lang, seat_names)


def _crop(state: State, pack: Pack, static: Image.Image, box: tuple[int, int, int, int], lang: str,
          seat_names: Mapping[int, str] | None) -> tuple[Hashable, Static, list[kit_scene.Entry]]:
    """The compact update: the strip laid out for the cut's width, the cut, the codes it shows in words.

    The map's pieces are drawn where the full map has them, moved by the cut's corner
    (``kit.Shifted``), and only those of regions the cut shows; a neighbour above the cut may
    reach into the strip's rows, which are painted over before the strip is drawn."""
    width = box[2] - box[0]
    head: list[kit_scene.Entry] = []
    with kit.region("compact"):
        head_h = strip.draw_compact(kit_scene.Recorder(head), state, pack, lang, seat_names, min(width, crop.MAX_W))
    scaled = width > crop.MAX_W
    map_h = round((box[3] - box[1]) * crop.MAX_W / width) if scaled else box[3] - box[1]
    width = min(width, crop.MAX_W)
    with kit.region("legend"):
        flowed = legend.rows(state, pack, lang, seat_names, width, crop.regions_in(pack, box))
    legend_top = head_h + map_h
    entries: list[kit_scene.Entry] = []
    draw = kit_scene.Recorder(entries)
    if scaled:  # a flight across the map: the cut is scaled down, a picture of its own
        image = static.copy()
        with kit.region("map"):
            pieces.draw_pieces(kit.Draw(image), state, pack, lang, crop.drawn_regions(pack, box, lang))
        part = image.crop(box).resize((width, map_h), Image.Resampling.LANCZOS)
        layer: Static = kit.Layer((width, legend_top + legend.height(flowed)), kit.BACKGROUND,
                                  ((part, None, (0, head_h)),), (((0, 0, width, head_h), kit.PANEL),))
    else:
        layer = crop.layer(static, (state.pack, lang, box, head_h, legend.height(flowed)), box, head_h,
                           legend.height(flowed))
        shown = crop.drawn_regions(pack, box, lang)
        with kit.region("map"):
            pieces.draw_pieces(kit.Shifted(draw, -box[0], head_h - box[1]), state, pack, lang, shown)
        if entries and any(board.content_top(pack.region(r), lang) < box[1] for r in shown):
            draw.rectangle((0, 0, width - 1, head_h - 1), fill=kit.PANEL)
    entries += head
    with kit.region("legend"):
        legend.paint(kit.Shifted(draw, 0, legend_top), flowed, width)
    return ("crop", box, head_h), layer, entries


def _png(kind: Hashable, lang: str, seat_names: Mapping[int, str] | None, layer: Static, pal: Palette,
         entries: list[kit_scene.Entry]) -> bytes:
    """The picture's PNG: drawn again only where it changed when the table drew a picture of this kind
    lately (``kit_scene``), else drawn at once. The scene is the table the render pool names, the kind
    of picture, its language and players."""
    names = tuple(sorted(seat_names.items())) if seat_names else ()
    scene = ("wowboard", kit_scene.current_table(), kind, lang, names)
    if kit_scene.wants(scene):
        return kit_replay.encode(scene, layer, pal, entries)
    return kit_replay.png(layer, pal, entries)


def render_image(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 viewer: int | None = None, log_lines: Sequence[str] | None = None, *,
                 focus: Sequence[str] | None = None) -> Image.Image:
    """The map as a Pillow image (tests, and callers that compose pictures).

    ``viewer`` and ``log_lines`` are accepted for the renderers' common signature: nothing on this
    board is hidden, and the text summary that goes with each image carries the log (spec §7).
    ``focus`` (region ids) asks for the compact update: the map cut around those regions and their
    neighbours, 550-800 px wide, under a compact strip; None, or no known region, gives the full map."""
    _kind, layer, entries = _picture(state, lang, seat_names, focus)
    image = layer.copy()
    kit_scene.replay(image, entries)
    return image


def render(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           viewer: int | None = None, log_lines: Sequence[str] | None = None, *,
           focus: Sequence[str] | None = None) -> bytes:
    """PNG of the map, or of the crop around ``focus`` (palette image, no metadata: the same state
    gives the same bytes)."""
    kind, layer, entries = _picture(state, lang, seat_names, focus)
    pal = palette.for_static(board.static_layer(state.pack, _pack(state), lang))
    return _png(kind, lang, seat_names, layer, pal, entries)


def sheet_image(state: State, character_id: str, lang: str = "en") -> Image.Image:
    """The character sheet of ``character_id`` as a Pillow image (``sheet`` says what it shows)."""
    return sheet.sheet_image(state, character_id, _pack(state), lang)


def render_sheet(state: State, character_id: str, lang: str = "en") -> bytes:
    """PNG of one character's sheet, for the seat that runs it (everything on it is public anyway,
    spec §3.6; it is sent privately to keep the channel quiet). Raises ``KeyError`` for an unknown id."""
    drawn = sheet.character_sheet(state, character_id, _pack(state), lang)
    return _panel_png(("sheet", character_id), lang, None, drawn)


def combat_image(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """The combat panel of ``state.combat`` as a Pillow image (``combat`` says what it shows)."""
    return combat.combat_image(state, _pack(state), lang, seat_names)


def render_combat(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None) -> bytes:
    """PNG of the combat panel: sides, opponents, round and step, the current dice by index, the boxes."""
    return _panel_png(("combat",), lang, seat_names, combat.combat_sheet(state, _pack(state), lang, seat_names))


def _panel_png(kind: Hashable, lang: str, seat_names: Mapping[int, str] | None, drawn: Sheet) -> bytes:
    return _png(kind, lang, seat_names, drawn.layer(), palette.panels_palette(), drawn.entries)


def warm_up() -> None:
    """Load the fonts, build the palettes and the static layer, and draw one map, one crop, one sheet
    and one combat panel in both languages.

    Why: those caches cost a few hundred ms the first time; a render worker calls this at start so
    no player's first picture pays for them."""
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.wowboard.engine import WowBoardEngine

    engine = WowBoardEngine()
    seats = [SeatSetup(seat=0, user_id=0, name="warm"), SeatSetup(seat=1, user_id=1, name="up")]
    state = engine.new_game(Setup(seats=seats, options={}), SeededDice(1))
    for cls in [k.id for k in _pack(state).classes]:  # the draft, so there are characters to draw
        if state.phase != "draft":
            break
        seat = engine.decision(state).seats[0]
        engine.apply(state, seat, engine.parse_action({"kind": "pick_class", "class_id": cls}), SeededDice(1))
    view: State = engine.view(state, None)  # type: ignore[assignment]
    kit_warm.keep_rehearsal(engine.system, view)
    first = next(iter(view.characters.values()), None)
    for lang in ("en", "it"):
        render(view, lang=lang)
        if first is not None:
            render(view, lang=lang, focus=[first.region])
    if first is not None:
        _warm_panels(view, first.id)


def _warm_panels(state: State, character: str) -> None:
    """A sheet and a combat panel (with a hit, a miss and a rerolled die) in both languages, so their
    palette and the glyphs of their sizes are cached from then on."""
    from engines.wowboard.combat_state import AttackPhase, Combat, Die, Opponent

    state = state.model_copy(deep=True)
    first = state.characters[character]
    dice = [Die(colour="blue", value=5, first=2, rerolled=True), Die(colour="red", value=1, first=1)]
    state.combat = Combat(region=first.region, faction=first.faction, participants=[first.id],
                          opponents=[Opponent(ref="warm", name="Warm", threat=4, attack=2, health=3)],
                          step="attack", order=[first.id],
                          attack=AttackPhase(character=first.id, step="reroll", threat=4, dice=dice))
    for lang in ("en", "it"):
        render_sheet(state, first.id, lang)
        render_combat(state, lang)
