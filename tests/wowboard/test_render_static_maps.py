"""The empty maps a render worker keeps are bounded (issue 28's review).

Why: each pack key and language has its own empty map (~4 MB), and a server pack gets a new key on every
re-import. Kept in a plain dictionary, every map a worker ever drew stayed for the process's life. Now at
most ``board.STATIC_LAYERS`` are kept; a map let go is drawn again when needed, with its own layers and
palette, and the pictures come out byte for byte the same."""

from __future__ import annotations

import gc
import weakref

from engines.wowboard.content import builtin
from renderers import wowboard as W
from renderers.wowboard import board, palette
from tests.wowboard.test_render import midgame


def _other_packs(count: int) -> None:
    """Empty maps drawn for ``count`` other pack keys (the built-in map under other names, as server packs
    that keep its regions would be)."""
    for index in range(count):
        board.static_layer(f"server-pack-{index}#v{index}", builtin(), "en")


def test_the_empty_maps_kept_are_bounded_whatever_the_packs_drawn() -> None:
    _other_packs(board.STATIC_LAYERS + 4)
    assert len(board._STATIC) <= board.STATIC_LAYERS
    gone = weakref.ref(board.static_layer("server-pack-0#v0", builtin(), "en"))
    _other_packs(board.STATIC_LAYERS + 1)  # every earlier map let go, the one above included
    gc.collect()
    assert gone() is None, "a map let go is still held (by its layers or its palette)"


def test_a_picture_whose_map_was_let_go_is_drawn_the_same() -> None:
    state = midgame()
    before, before_it = W.render(state), W.render(state, lang="it")
    crop_before = W.render(state, focus=["crossroads"])
    static = board.static_layer(state.pack, builtin(), "en")
    layer = board.map_layer(state.pack, builtin(), "en", 40)
    assert board.map_layer(state.pack, builtin(), "en", 40) is layer  # the same layer while its map lives
    _other_packs(board.STATIC_LAYERS + 1)
    again = board.static_layer(state.pack, builtin(), "en")
    assert again is not static
    assert board.map_layer(state.pack, builtin(), "en", 40).parts[0][0] is again
    assert palette.for_static(again).colours == palette.for_static(static).colours
    assert W.render(state) == before
    assert W.render(state, lang="it") == before_it
    assert W.render(state, focus=["crossroads"]) == crop_before
