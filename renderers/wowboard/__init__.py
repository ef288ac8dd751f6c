"""World of Warcraft: The Board Game map picture (spec §4.10 "Drawing", §7 "Board image").

``render`` turns a state into PNG bytes: the status strip (turn, who acts, each faction's XP and
eligible quests, the merchant, seat numbers, the turn track with its event and item spaces and
the marker) over the 6×6 map. Everything on the map is public (spec §3.6), so a seat's view and
the full state draw the same picture.

The package is split by what it draws, on top of the shared kit (``renderers.kit*``): ``layout``
(canvas geometry, fixed colours, codes), ``board`` (the static layer, cached once per pack, and
where items go on a region), ``glyphs`` (badges, tier shapes, flag, star, crown), ``pieces`` (the
dynamic layer), ``strip`` (the status strip), ``words`` (drawable translations) and ``palette``
(every colour, so the PNG is quantized by a look-up). This module composes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from engines.wowboard.content import Pack, builtin
from engines.wowboard.state import State
from renderers import kit
from renderers.wowboard import board, palette, pieces, strip
from renderers.wowboard.layout import HEIGHT, WIDTH

__all__ = ["HEIGHT", "WIDTH", "render", "render_image", "warm_up"]


def _pack(state: State) -> Pack:
    """The state's pack; only the built-in one exists so far (``rules_setup.pack_of``)."""
    return builtin()


def render_image(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 viewer: int | None = None, log_lines: Sequence[str] | None = None) -> Image.Image:
    """The map as a Pillow image (tests, and callers that compose pictures).

    ``viewer`` and ``log_lines`` are accepted for the renderers' common signature: nothing on this
    board is hidden, and the text summary that goes with each image carries the log (spec §7)."""
    pack = _pack(state)
    image = board.static_layer(state.pack, pack).copy()
    draw = kit.Draw(image)
    with kit.region("strip"):
        strip.draw_strip(draw, state, pack, lang, seat_names)
    with kit.region("map"):
        pieces.draw_pieces(draw, state, pack)
    return image


def render(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           viewer: int | None = None, log_lines: Sequence[str] | None = None) -> bytes:
    """PNG of the map (palette image, no metadata: the same state gives the same bytes)."""
    image = render_image(state, lang, seat_names, viewer, log_lines)
    return kit.to_png(image, palette=palette.for_static(board.static_layer(state.pack, _pack(state))))


def warm_up() -> None:
    """Load the fonts, build the palette and the static layer, and draw one map in both languages.

    Why: those caches cost a few hundred ms the first time; a render worker calls this at start so
    no player's first picture pays for them."""
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.wowboard.engine import WowBoardEngine

    engine = WowBoardEngine()
    seats = [SeatSetup(seat=0, user_id=0, name="warm"), SeatSetup(seat=1, user_id=1, name="up")]
    state = engine.new_game(Setup(seats=seats, options={}), SeededDice(1))
    for lang in ("en", "it"):
        render(engine.view(state, None), lang=lang)  # type: ignore[arg-type]
