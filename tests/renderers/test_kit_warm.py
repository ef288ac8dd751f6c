"""renderers.kit_warm: the warm-ups draw games under way, so a worker's first picture finds its caches warm.

Issue 28: a render worker's first picture of a Krosmaster game cost 26-39 ms of CPU against ~4 ms for
the next ones, although the warm-up had drawn every arena and the panel's texts: a real position's
pieces, tokens and cards were rasterised and looked up for the first time. The counters here are the
caches' own (glyph masks made, blit infos and level masks computed), not times.
"""

from __future__ import annotations

from engines.core.contract import SeatSetup, Setup
from engines.krosmaster.engine import KrosmasterEngine
from engines.warlord.engine import WarlordEngine
from renderers import kit, kit_png, kit_replay, kit_scene, kit_warm, krosmaster
from renderers.krosmaster import surface


def _setup(names: tuple[str, str], teams: tuple[tuple[str, ...], ...]) -> Setup:
    return Setup(seats=[SeatSetup(seat=n, user_id=n, name=name, config={"team": list(team)})
                        for n, (name, team) in enumerate(zip(names, teams, strict=True))])


def _cold() -> None:
    """The caches a first picture fills, emptied (other tests may have drawn before this one)."""
    kit._glyph_masks.cache_clear()
    for cache in (kit_replay._blits, kit_replay._tiles, kit_replay._levels):
        cache.clear()
    kit_png.CACHE.clear()
    kit_scene.forget()
    surface._kept.clear()  # the painters' recorded calls: kept, they would skip the drawing the warm-up must do


def test_the_first_krosmaster_picture_after_the_warm_up_finds_its_masks_and_blits_cached() -> None:
    _cold()
    krosmaster.warm_up()
    other = _setup(("alice", "bob"), tuple(reversed(krosmaster.WARM_TEAMS)))  # not the warm-up's game
    position = list(kit_warm.playout(KrosmasterEngine(), other, seed=5, steps=40))[-1]
    assert position.phase == "turn"  # a fight under way, pieces on the board
    masks, blits, levels = kit._glyph_masks.cache_info().misses, len(kit_replay._blits), len(kit_replay._levels)
    with kit_scene.table("a table's first picture"):
        krosmaster.render(position, lang="en", seat_names={0: "alice", 1: "bob"})
    # Measured: 24 masks, 90 blit infos and 2 level masks made without the sample game; 9, 26 and 0 with it
    # (the players' names and what only this position shows).
    assert kit._glyph_masks.cache_info().misses - masks <= 12
    assert len(kit_replay._blits) - blits <= 40
    assert len(kit_replay._levels) - levels == 0


def test_a_playout_leaves_the_set_up_and_is_the_same_every_time() -> None:
    setup = _setup(("warm", "up"), krosmaster.WARM_TEAMS)
    first = [view.model_dump_json() for view in kit_warm.playout(KrosmasterEngine(), setup)]
    again = [view.model_dump_json() for view in kit_warm.playout(KrosmasterEngine(), setup)]
    assert first == again and len(first) >= 3
    assert KrosmasterEngine().load_state(first[-1]).phase == "turn"


def test_a_playout_whose_set_up_no_longer_fits_the_content_draws_nothing() -> None:
    setup = Setup(seats=[SeatSetup(seat=0, user_id=0, name="warm", config={"deck": "no such deck"})], options={})
    assert list(kit_warm.playout(WarlordEngine(), setup)) == []


def test_a_warm_up_table_leaves_no_scene_behind() -> None:
    kit_scene.forget()
    setup = _setup(("warm", "up"), krosmaster.WARM_TEAMS)
    view = list(kit_warm.playout(KrosmasterEngine(), setup))[-1]
    with kit_scene.table("kept"):
        for _ in range(2):  # a table that drew twice: its scene is kept
            krosmaster.render(view)
    kit_warm.as_a_table("warm", lambda: krosmaster.render(view))
    assert [key[1] for key in kit_scene._scenes] == ["kept"]
    assert all(key[1] != "warm" for key in kit_scene._recent)


def test_the_first_warlord_picture_after_the_warm_up_finds_its_tiles_names_cached() -> None:
    """The warm-up draws a tile of every built-in character (``renderers.warlord.warm_tiles``): a table
    with other armies in other places rasterises only its players' names, its header and its log."""
    from renderers import warlord

    kit._glyph_masks.cache_clear()
    warlord.warm_up()
    decks = ("ashen_horde", "stonewardens")  # the warm-up's decks the other way round: other seats, other rows
    setup = Setup(seats=[SeatSetup(seat=n, user_id=n, name=name, config={"deck": deck})
                         for n, (name, deck) in enumerate(zip(("alice", "bob"), decks, strict=True))], options={})
    position = list(kit_warm.playout(WarlordEngine(), setup, seed=5, steps=60))[-1]
    assert len(position.chars) >= 10  # armies deployed
    masks = kit._glyph_masks.cache_info().misses
    warlord.render(position, lang="it", seat_names={0: "alice", 1: "bob"})
    # Measured: 40 masks made with the warm-up's positions alone, 18 with every character's tile drawn.
    assert kit._glyph_masks.cache_info().misses - masks <= 24
