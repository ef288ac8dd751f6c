"""The band-reusing PNG writer (renderers/kit_png.py, issue 13): what it writes decodes to the
very pixels and palette it was given, whether bands came from the cache or not."""

from __future__ import annotations

import io
import random
import zlib

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from renderers import kit, kit_png
from renderers import krosmaster as km
from tests.renderers.states import big_teams, midgame


def _picture(seed: int, size: tuple[int, int] = (300, 260), colours: int = 40) -> Image.Image:
    """A palette picture with flat areas and noise, like a board: some rows repeat, some do not."""
    rng = random.Random(seed)
    image = Image.new("P", size, 0)
    image.putpalette([rng.randrange(256) for _ in range(colours * 3)])
    for _ in range(30):
        x0, y0 = rng.randrange(size[0]), rng.randrange(size[1])
        image.paste(rng.randrange(colours), (x0, y0, min(size[0], x0 + rng.randrange(1, 80)),
                                              min(size[1], y0 + rng.randrange(1, 60))))
    for _ in range(500):
        image.putpixel((rng.randrange(size[0]), rng.randrange(size[1])), rng.randrange(colours))
    return image


def _raw_rows(image: Image.Image) -> bytes:
    """The picture's rows as PNG filters them, framed whole: a 0 (no filter) before each row."""
    framed = Image.new("P", (image.width + 1, image.height), 0)
    framed.paste(image, (1, 0))
    return framed.tobytes()


def _whole_rows_bands(image: Image.Image) -> list[kit_png.Band]:
    """The bands as the writer once made them, from the whole framed rows: each ``BAND_ROWS`` rows deflated
    alone at ISA-L's level 0 and ended on a full flush, with its Adler-32 and length."""
    from isal import isal_zlib

    raw = _raw_rows(image)
    step = (image.width + 1) * kit_png.BAND_ROWS
    bands = []
    for start in range(0, len(raw), step):
        part = raw[start:start + step]
        compressor = isal_zlib.compressobj(0, isal_zlib.DEFLATED, -15)
        bands.append((compressor.compress(part) + compressor.flush(isal_zlib.Z_FULL_FLUSH), zlib.adler32(part),
                      len(part)))
    return bands


def _decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@given(st.binary(max_size=3000), st.binary(max_size=3000))
@settings(max_examples=200, deadline=None)
def test_adler32_of_two_parts_combines_as_zlib_computes_the_whole(first: bytes, second: bytes) -> None:
    combined = kit_png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_long_parts_combine_too() -> None:
    """Sums past the modulus many times over (a band is ~32 KB of bytes up to 255)."""
    rng = random.Random(3)
    first, second = bytes(rng.randrange(200, 256) for _ in range(70_000)), b"\xff" * 40_000
    assert kit_png.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == \
        zlib.adler32(first + second)


@given(st.integers(0, 10_000), st.integers(300, 700), st.integers(220, 400), st.integers(2, 256))
@settings(max_examples=25, deadline=None)
def test_what_it_writes_decodes_to_the_same_pixels_and_palette(seed: int, width: int, height: int,
                                                               colours: int) -> None:
    picture = _picture(seed, (width, height), colours)
    assert kit_png.suits(picture)
    decoded = _decoded(kit_png.encode(picture, level=2, cache=kit_png.BandCache()))
    assert decoded.mode == "P" and decoded.size == picture.size
    assert decoded.tobytes() == picture.tobytes()
    assert decoded.getpalette()[: colours * 3] == picture.getpalette()[: colours * 3]


def test_bands_from_the_cache_give_the_same_bytes_as_bands_compressed_afresh() -> None:
    cache = kit_png.BandCache()
    first, second = _picture(1, (400, 300)), _picture(1, (400, 300))
    second.paste(7, (10, 100, 60, 140))  # one band of four differs
    assert kit_png.encode(first, level=2, cache=cache) == kit_png.encode(first, level=2, cache=kit_png.BandCache())
    cache.hits = cache.misses = 0
    again = kit_png.encode(second, level=2, cache=cache)
    assert cache.hits > 0 and cache.misses > 0  # the other bands came from the first picture
    assert again == kit_png.encode(second, level=2, cache=kit_png.BandCache())
    assert _decoded(again).tobytes() == second.tobytes()


def test_a_band_whose_checksum_disagrees_is_compressed_again_not_trusted() -> None:
    """Two different bands under one hash key (a collision) must not swap pictures."""
    cache = kit_png.BandCache()
    picture = _picture(2, (300, 40))
    kit_png.encode(picture, level=2, cache=cache)
    key = next(iter(cache._bands))
    adler, _packed = cache._bands[key]
    cache._bands[key] = (adler ^ 1, b"not this band")
    png = kit_png.encode(picture, level=2, cache=cache)
    assert _decoded(png).tobytes() == picture.tobytes()


def test_the_cache_keeps_at_most_its_capacity() -> None:
    cache = kit_png.BandCache(capacity=5)
    for seed in range(6):
        kit_png.encode(_picture(seed, (300, 300)), level=2, cache=cache)
    assert len(cache) == 5


def test_small_transparent_and_colour_pictures_are_left_to_pillow() -> None:
    small = _picture(4, (100, 100))
    transparent = _picture(5)
    transparent.info["transparency"] = 0
    assert not kit_png.suits(small) and not kit_png.suits(transparent)
    assert not kit_png.suits(Image.new("RGB", (400, 400)))
    for picture in (small, transparent):
        assert _decoded(kit.to_png(picture, palette=False)).tobytes() == picture.tobytes()


def test_a_board_snapshot_has_the_pixels_pillow_wrote_before_with_and_without_reused_bands() -> None:
    from renderers.krosmaster import palette

    kit_png.CACHE.clear()
    for state in (midgame(), big_teams(), midgame()):
        png = km.render(state)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        quantized = palette.for_arena(state.board.arena.model_dump_json()).quantize(km.render_image(state))
        before = io.BytesIO()
        quantized.save(before, format="PNG", compress_level=kit.PNG_LEVEL)  # what to_png wrote until now
        assert _decoded(png).convert("RGB").tobytes() == _decoded(before.getvalue()).convert("RGB").tobytes()
    assert kit_png.CACHE.hits > 0


def test_the_bands_are_deflated_by_the_library_the_requirements_ask_for() -> None:
    """requirements.txt installs isal: without it the writer still works (zlib), at about twice
    the time per picture, which a benchmark would show but no other test would."""
    assert kit_png.DEFLATE == "isal"
    band = bytes(range(256)) * 200
    rows = Image.frombytes("P", (255, 200), b"".join(band[i + 1:i + 256] for i in range(0, len(band), 256)))
    packed = kit_png.pack_picture(rows, level=2, cache=None)
    assert zlib.decompressobj(-15).decompress(b"".join(p for p, _a, _n in packed)) == band


def test_bands_are_deflated_at_the_isal_level_that_gave_the_same_bytes_every_run() -> None:
    """Inside a render worker on an AVX-512 machine, ISA-L's levels 1 and 2 now and then gave a band
    other (valid) bytes, so the same picture's file differed between runs; level 0 never did in the same
    runs (``kit_png.deflate_level``, ``bench/png_determinism.py``). What is checked here: the pictures'
    level maps to 0, and a band is written as level 0 writes it, alone as in the cache."""
    from isal import isal_zlib

    assert kit_png.deflate_level(kit.PNG_LEVEL) == 0
    picture = _picture(3, size=(300, 64))
    raw = _raw_rows(picture)
    packed = kit_png.pack_picture(picture, level=kit.PNG_LEVEL, cache=None)
    step = 301 * kit_png.BAND_ROWS
    for index, (band, _adler, _length) in enumerate(packed):
        compressor = isal_zlib.compressobj(0, isal_zlib.DEFLATED, -15)
        part = raw[index * step:(index + 1) * step]
        assert band == compressor.compress(part) + compressor.flush(isal_zlib.Z_FULL_FLUSH)


def test_a_picture_packed_from_the_kept_frame_gives_the_bands_of_its_whole_rows() -> None:
    """Issue 28: ``pack_picture`` frames each band alone in a band-tall frame the thread keeps instead of copying
    the whole picture twice. Taller, shorter and other-width pictures in turn, and last bands of every height,
    give the very bands the whole framed rows give, whatever the previous band left in the frame's rows below."""
    kit_png.forget_frames()
    sizes = [(300, 260), (300, 90), (300, 333), (201, 64), (300, 31), (455, 120), (300, 260), (120, 1), (300, 33)]
    for seed, size in enumerate(sizes):
        image = _picture(seed, size=size)
        whole = _whole_rows_bands(image)
        assert kit_png.pack_picture(image, level=kit.PNG_LEVEL, cache=None) == whole, size
        png = kit_png.encode(image, level=kit.PNG_LEVEL, cache=kit_png.BandCache())
        assert _decoded(png).tobytes() == image.tobytes()


def test_a_band_frame_is_kept_for_each_of_the_widths_used_last() -> None:
    kit_png.forget_frames()
    frames = [kit_png._frame(width) for width in (301, 401, 501, 601)]
    assert [kit_png._frame(width) for width in (301, 401, 501, 601)] == frames
    assert frames[0].size == (301, kit_png.BAND_ROWS)
    kit_png._frame(701)  # a fifth width: the one used longest ago (301) goes
    assert list(kit_png._frames.kept) == [401, 501, 601, 701]
    assert kit_png._frame(401) is frames[1] and kit_png._frame(301) is not frames[0]


def test_each_thread_packs_from_a_frame_of_its_own() -> None:
    import threading

    images = [_picture(seed, size=(300, 200 + seed)) for seed in range(4)]
    expected = [_whole_rows_bands(i) for i in images]
    found: dict[int, list[list[kit_png.Band]]] = {}

    def pack(index: int) -> None:
        found[index] = [kit_png.pack_picture(images[index], level=kit.PNG_LEVEL, cache=None) for _ in range(30)]

    threads = [threading.Thread(target=pack, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(bands == [expected[index]] * 30 for index, bands in found.items())
