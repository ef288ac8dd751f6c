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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from engines.wowboard.content import Pack
from engines.wowboard.state import State
from renderers import kit
from renderers.wowboard import board, combat, crop, legend, palette, pieces, sheet, strip
from renderers.wowboard.layout import HEIGHT, WIDTH

__all__ = ["HEIGHT", "WIDTH", "combat_image", "render", "render_combat", "render_image", "render_sheet",
           "sheet_image", "warm_up"]


def _pack(state: State) -> Pack:
    """The state's pack: the built-in one or a server pack this process holds (``content.pack_by_key``)."""
    from engines.wowboard.rules_common import pack_of

    return pack_of(state)


def render_image(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 viewer: int | None = None, log_lines: Sequence[str] | None = None, *,
                 focus: Sequence[str] | None = None) -> Image.Image:
    """The map as a Pillow image (tests, and callers that compose pictures).

    ``viewer`` and ``log_lines`` are accepted for the renderers' common signature: nothing on this
    board is hidden, and the text summary that goes with each image carries the log (spec §7).
    ``focus`` (region ids) asks for the compact update: the map cut around those regions and their
    neighbours, 550-800 px wide, under a compact strip; None, or no known region, gives the full map."""
    full = _full_image(state, lang, seat_names)
    pack = _pack(state)
    if focus:
        part = crop.cropped(full, state, pack, focus, lang, seat_names)
        box = crop.crop_box(pack, focus)
        if part is not None and box is not None:  # issue 27.7: the codes of what the crop shows, in words
            shown = crop.regions_in(pack, box)
            with kit.region("legend"):
                return legend.below(part, legend.band(state, pack, lang, seat_names, part.width, shown))
    with kit.region("legend"):
        return legend.below(full, legend.band(state, pack, lang, seat_names, full.width,
                                              {r.id for r in pack.regions}))


def _full_image(state: State, lang: str, seat_names: Mapping[int, str] | None) -> Image.Image:
    pack = _pack(state)
    image = board.static_layer(state.pack, pack, lang).copy()
    draw = kit.Draw(image)
    with kit.region("strip"):
        strip.draw_strip(draw, state, pack, lang, seat_names)
    with kit.region("map"):
        pieces.draw_pieces(draw, state, pack, lang)
    return image


def render(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           viewer: int | None = None, log_lines: Sequence[str] | None = None, *,
           focus: Sequence[str] | None = None) -> bytes:
    """PNG of the map, or of the crop around ``focus`` (palette image, no metadata: the same state
    gives the same bytes)."""
    image = render_image(state, lang, seat_names, viewer, log_lines, focus=focus)
    return kit.to_png(image, palette=palette.for_static(board.static_layer(state.pack, _pack(state), lang)))


def sheet_image(state: State, character_id: str, lang: str = "en") -> Image.Image:
    """The character sheet of ``character_id`` as a Pillow image (``sheet`` says what it shows)."""
    return sheet.sheet_image(state, character_id, _pack(state), lang)


def render_sheet(state: State, character_id: str, lang: str = "en") -> bytes:
    """PNG of one character's sheet, for the seat that runs it (everything on it is public anyway,
    spec §3.6; it is sent privately to keep the channel quiet). Raises ``KeyError`` for an unknown id."""
    return kit.to_png(sheet_image(state, character_id, lang), palette=palette.panels_palette())


def combat_image(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """The combat panel of ``state.combat`` as a Pillow image (``combat`` says what it shows)."""
    return combat.combat_image(state, _pack(state), lang, seat_names)


def render_combat(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None) -> bytes:
    """PNG of the combat panel: sides, opponents, round and step, the current dice by index, the boxes."""
    return kit.to_png(combat_image(state, lang, seat_names), palette=palette.panels_palette())


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
