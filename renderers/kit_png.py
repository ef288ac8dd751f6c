"""PNG writer for palette pictures that re-uses the compressed bands of earlier pictures.

Why (issue 13): encoding is half of a board picture's CPU (Pillow, zlib level 2: ~2.2 ms of a
~5 ms Krosmaster snapshot), and most of a picture is what the previous one showed: the arena
away from the pieces, the legend, most of the panel. Deflate can start afresh at any byte
(a "full flush" forgets the history), so the picture is cut into bands of rows, each band is
compressed on its own and the compressed bytes of a band already seen are taken from a cache.
A band compresses to the same bytes whether it came from the cache or not, so the file depends
on the pixels only, as before; bands cost ~3 % in size (no match reaches back across a band).

Measured on a seeded game's consecutive pictures (bench/render_krosmaster.py): two thirds of
the bands were seen before and the encode took about half of Pillow's time.

The bands are deflated by ISA-L (``isal``, Intel's deflate, through python-isal) where it is
installed, as the requirements ask, at its level 0 (``deflate_level`` says why not 1): a whole board
in about a quarter of zlib level 2's time, ~30 % bigger. Deflate is a format, not a program, so any
reader inflates it; without ``isal`` the standard library's zlib writes the same kind of stream, slower.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from PIL import Image

try:
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - a platform with no isal wheel: the standard library's zlib
    _deflate = zlib  # type: ignore[assignment]

DEFLATE = "isal" if _deflate is not zlib else "zlib"
"""Which library compresses the bands (tests check the requirements' choice is the one in use)."""

BAND_ROWS = 32
"""Rows per band: smaller bands hit more often but compress worse and cost more look-ups
(8: 73 % hits, +12 % size; 32: 65 %, +3 %; 64: 55 %, +1 %; 32 was the fastest)."""
CACHE_BYTES = 3 << 20
"""Heap bytes of bands remembered per process (issue 28): a band's compressed bytes and its entry
(``BAND_ENTRY``). Once a count of 2,048 bands, which at 5,000 live games held ~3.6 MB of payload a render
worker (1.7 KB a band, not the ~1 KB once measured): bands grow with busier pictures, so a count does not
bound the bytes. ~1,400 bands of that size, ~60 board pictures' worth. A table's next picture re-uses its
own bands through ``kit_scene``; this cache serves pictures drawn whole."""
BAND_ENTRY = 430
"""Heap bytes of a band's entry besides its payload: the ``bytes`` object's header, the key and value
tuples with their ints, the ordered dictionary's slot and link (~390 measured under
``PYTHONMALLOC=malloc``, plus the ``bytes`` header)."""
MIN_PIXELS = 1 << 16
"""Below this a picture is left to Pillow, which also picks a smaller bit depth for few colours."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KiB window; the level bits are only a hint to readers
_ADLER_BASE = 65521


class BandCache:
    """Compressed bands by content, least recently used first out, bounded by the heap bytes they hold
    (``budget``) and, where set, by a count (``capacity``).

    Keyed by Python's hash of the band (keyed SipHash: no one can aim a collision at it) and
    checked against the band's Adler-32, which the zlib stream needs anyway: a wrong band would
    take both a 64-bit and a 32-bit collision at once."""

    def __init__(self, budget: int = CACHE_BYTES, capacity: int | None = None) -> None:
        self.budget = budget
        self.capacity = capacity
        self.used = 0
        self._bands: OrderedDict[tuple[int, int], tuple[int, bytes]] = OrderedDict()
        self._lock = threading.Lock()  # render threads share a process's cache
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[int, int], adler: int) -> bytes | None:
        with self._lock:
            found = self._bands.get(key)
            if found is None or found[0] != adler:
                self.misses += 1
                return None
            self._bands.move_to_end(key)
            self.hits += 1
            return found[1]

    def put(self, key: tuple[int, int], adler: int, packed: bytes) -> None:
        with self._lock:
            old = self._bands.pop(key, None)
            if old is not None:
                self.used -= BAND_ENTRY + len(old[1])
            self._bands[key] = (adler, packed)
            self.used += BAND_ENTRY + len(packed)
            while self._bands and (self.used > self.budget
                                   or (self.capacity is not None and len(self._bands) > self.capacity)):
                _key, (_adler, gone) = self._bands.popitem(last=False)
                self.used -= BAND_ENTRY + len(gone)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self.used = 0
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._bands)


CACHE = BandCache()


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """Adler-32 of A + B from those of A and B and B's length (zlib's ``adler32_combine``,
    which Python's ``zlib`` does not offer): each band's checksum serves the cache and the stream."""
    remainder = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (remainder * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - remainder) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def deflate_level(level: int) -> int:
    """``level`` on zlib's 0-9 scale as the band compressor's own: ISA-L's 0 up to zlib's 2
    (``kit.PNG_LEVEL``), its 3 above.

    Why not ISA-L's 1 or 2, which give zlib level 2's size at a third of its time: on an AVX-512
    machine they do not always give the same bytes for the same band. Inside a render worker, now
    and then, a band comes out another (valid) way, so a picture's bytes differ from one run to the
    next while its pixels do not. In 22 fresh runs of a worker's pictures (issue 28's review, two
    batches drawing 13,700 and 17,346 distinct bands; ``bench/png_determinism.py`` is that
    diagnostic), 98 bands came out two ways at level 1 and 4 at level 2, none at 0 or 3. A tight loop
    of the same calls never varies, so the cause lies in what the rest of the process leaves behind,
    not in the input. Level 0 is also the fastest (~0.7x level 1's time, ~30 % bigger); level 3 costs
    zlib's time. The promise kept: the same pixels give the same file, which tests compare byte for
    byte."""
    if _deflate is zlib:
        return level
    return 0 if level <= 2 else 3


_FINAL_BLOCK = zlib.compressobj(1, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)  # an empty last block ends the stream


def _chunk(kind: bytes, body: bytes) -> bytes:
    # (ISA-L's CRC-32 is the same function, ~20x faster than zlib's over a picture's IDAT)
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", _deflate.crc32(body, _deflate.crc32(kind)))


def suits(image: Image.Image) -> bool:
    """Pictures this writer takes: large 8-bit palette pictures with no transparency."""
    return (image.mode == "P" and image.width * image.height >= MIN_PIXELS and "transparency" not in image.info
            and image.palette is not None and image.palette.mode == "RGB")


Band = tuple[bytes, int, int]
"""One band of rows as the stream holds it: its deflate bytes (ending on a full flush), the Adler-32
of its raw rows and their length, which is what joining bands into one zlib stream needs."""


def pixels(core: Any, box: tuple[int, int, int, int] | None = None) -> bytes:
    """The bytes of a one-byte-a-pixel image core (``Image.im``, "P" or "L"), or of its part ``box``, row after
    row: what ``Image.tobytes()`` returns.

    Why: the renderers key their kept blends by the few hundred bytes under a text's box, ~100 times a
    picture, and ``tobytes`` (a wrapper image, ``load``, the encoder looked up by name) cost ~12 us for
    them where Pillow's raw encoder called straight costs ~2 us (issue 28, a lone picture's CPU)."""
    box = box or (0, 0, *core.size)
    width, height = box[2] - box[0], box[3] - box[1]
    if width <= 0 or height <= 0:
        return b""
    encoder = _raw_encoder(core.mode, core.mode)
    encoder.setimage(core, box)
    chunks = []
    # All of it in one call: in 64 KB pieces (``tobytes``'s) a picture's 2.2 MB of rows took 0.5-3 ms against
    # 0.25 ms at once (issue 28).
    size = max(65536, width * height + width)
    while True:
        _length, status, data = encoder.encode(size)
        chunks.append(data)
        if status:
            if status < 0:  # pragma: no cover - Pillow's raw encoder does not fail on an image it holds
                raise RuntimeError(f"raw encoder error {status}")
            return data if len(chunks) == 1 else b"".join(chunks)


_raw_encoder = Image.core.raw_encoder


def pack_picture(image: Image.Image, *, level: int, cache: BandCache | None = CACHE) -> list[Band]:
    """``image`` cut into bands of ``BAND_ROWS`` rows as PNG filters them (a 0, no filter, before each row),
    each compressed on its own or taken from ``cache`` when seen before; each band framed on its own in a
    band-tall frame the thread keeps.

    Why (issue 28): the rows were once framed whole, two buffers the size of the picture each time (the
    framed copy and its bytes: 4.4 MB for a 1200 x 1843 Warlord table). When the heap held no free block that large, the
    allocator grew it and the picture faulted ~900 new pages in (a render worker's first Warlord picture
    and, later, each taller one than before: ~0.9 ms); and each band was read from memory three times
    more (Adler-32, hash, deflate) after the whole picture had passed through the caches. A band framed
    alone is ~38 KB, framed, hashed and deflated while it is in the cache, in a frame that stays (its
    column 0, the rows' filter bytes, is never written)."""
    width, height = image.size
    frame = _frame(width + 1)
    source = image.im
    own_level = deflate_level(level)
    bands: list[Band] = []
    for top in range(0, height, BAND_ROWS):
        frame.paste(source, (1, -top, width + 1, height - top))  # (Pillow clips it to the frame's rows)
        bands.append(_pack(pixels(frame, (0, 0, width + 1, min(BAND_ROWS, height - top))), own_level, cache))
    return bands


def _pack(band: bytes, own_level: int, cache: BandCache | None) -> Band:
    band_adler = _deflate.adler32(band)  # ISA-L's is ~6x faster than zlib's
    key = (hash(band), len(band))
    packed = cache.get(key, band_adler) if cache is not None else None
    if packed is None:
        compressor = _deflate.compressobj(own_level, _deflate.DEFLATED, -15)
        packed = compressor.compress(band) + compressor.flush(_deflate.Z_FULL_FLUSH)
        if cache is not None:
            cache.put(key, band_adler, packed)
    return (packed, band_adler, len(band))


FRAMES_KEPT = 4
"""Band frames a thread keeps, for the widths used last (~38 KB each): each game draws at widths of its own."""
_frames = threading.local()


def _frame(width: int) -> Any:
    """A core ``width`` wide and ``BAND_ROWS`` tall, this thread's, whose column 0 is all zeros."""
    kept: OrderedDict[int, Any] | None = getattr(_frames, "kept", None)
    if kept is None:
        kept = _frames.kept = OrderedDict()
    frame = kept.pop(width, None)
    if frame is None:
        frame = Image.new("P", (width, BAND_ROWS), 0).im
    kept[width] = frame
    while len(kept) > FRAMES_KEPT:
        kept.popitem(last=False)
    return frame


def forget_frames() -> None:
    """Let this thread's frames go (the fork server, once its warm-ups drew: each worker keeps its own)."""
    _frames.kept = None


def assemble(width: int, height: int, palette: bytes, bands: Sequence[Band]) -> bytes:
    """The PNG file of a ``width`` x ``height`` palette picture whose rows are ``bands``, in order."""
    adler = 1
    for _packed, band_adler, length in bands:
        adler = adler32_combine(adler, band_adler, length)
    stream = b"".join((_ZLIB_HEADER, *(packed for packed, _adler, _length in bands), _FINAL_BLOCK,
                       struct.pack(">I", adler)))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, deflate, no filter, no interlace
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette[:768]), _chunk(b"IDAT", stream),
                     _chunk(b"IEND", b"")))


def palette_bytes(image: Image.Image) -> bytes:
    return bytes(image.getpalette() or [0, 0, 0])[:768]


def encode(image: Image.Image, *, level: int, cache: BandCache = CACHE) -> bytes:
    """``image`` (see ``suits``) as PNG: 8-bit palette, no filter (what Pillow writes for palette
    pictures), no metadata, IDAT compressed band by band at zlib ``level``."""
    bands = pack_picture(image, level=level, cache=cache)
    return assemble(image.width, image.height, palette_bytes(image), bands)
