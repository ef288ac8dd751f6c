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
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

BAND_ROWS = 32
"""Rows per band: smaller bands hit more often but compress worse and cost more look-ups
(8: 73 % hits, +12 % size; 32: 65 %, +3 %; 64: 55 %, +1 %; 32 was the fastest)."""
CACHE_BANDS = 4096
"""Bands remembered per process: ~1 KB each compressed (~4 MB), ~170 board pictures' worth."""
MIN_PIXELS = 1 << 16
"""Below this a picture is left to Pillow, which also picks a smaller bit depth for few colours."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KiB window; the level bits are only a hint to readers
_ADLER_BASE = 65521


class BandCache:
    """Compressed bands by content, least recently used first out.

    Keyed by Python's hash of the band (keyed SipHash: no one can aim a collision at it) and
    checked against the band's Adler-32, which the zlib stream needs anyway: a wrong band would
    take both a 64-bit and a 32-bit collision at once."""

    def __init__(self, capacity: int = CACHE_BANDS) -> None:
        self.capacity = capacity
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
            self._bands[key] = (adler, packed)
            self._bands.move_to_end(key)
            while len(self._bands) > self.capacity:
                self._bands.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
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


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


def suits(image: Image.Image) -> bool:
    """Pictures this writer takes: large 8-bit palette pictures with no transparency."""
    return (image.mode == "P" and image.width * image.height >= MIN_PIXELS and "transparency" not in image.info
            and image.palette is not None and image.palette.mode == "RGB")


def encode(image: Image.Image, *, level: int, cache: BandCache = CACHE) -> bytes:
    """``image`` (see ``suits``) as PNG: 8-bit palette, no filter (what Pillow writes for palette
    pictures), no metadata, IDAT compressed band by band at zlib ``level``."""
    width, height = image.size
    framed = Image.new("P", (width + 1, height), 0)  # column 0 is each row's filter byte: 0, none
    framed.paste(image, (1, 0))
    raw = framed.tobytes()
    step = (width + 1) * BAND_ROWS
    parts: list[bytes] = []
    adler = 1
    for start in range(0, len(raw), step):
        band = raw[start:start + step]
        band_adler = zlib.adler32(band)
        key = (hash(band), len(band))
        packed = cache.get(key, band_adler)
        if packed is None:
            compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
            packed = compressor.compress(band) + compressor.flush(zlib.Z_FULL_FLUSH)
            cache.put(key, band_adler, packed)
        parts.append(packed)
        adler = adler32_combine(adler, band_adler, len(band))
    parts.append(zlib.compressobj(level, zlib.DEFLATED, -15).flush(zlib.Z_FINISH))  # the final, empty block
    stream = _ZLIB_HEADER + b"".join(parts) + struct.pack(">I", adler)
    palette = bytes(image.getpalette() or [0, 0, 0])[:768]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, deflate, no filter, no interlace
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette), _chunk(b"IDAT", stream),
                     _chunk(b"IEND", b"")))
