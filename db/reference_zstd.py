"""zstd frames compressed against a reference text: how positions are kept small, stored and cached.

Why zstd, not zlib (issue 28): a position repeats most of its game's first one, but deflate can refer
back only 32 KB. A Warlord state is ~40 KB of JSON, so the end of the text never saw the start of its
reference: 5.9 KB a row and 1.06 ms of the loop's CPU at zlib level 6. zstd refers to the whole
reference: 0.5 KB in 0.11 ms (``bench/state_codec.py`` measures every game).

A frame written here is 4 bytes, the reference's CRC-32, then a zstd frame with its content size and
its checksum. The CRC makes a wrong reference fail at once (zstd's raw-content dictionaries carry no id
of their own), the checksum catches damaged bytes, and the content size is checked against a bound
before anything is allocated, so a damaged header cannot ask for gigabytes.

A compressor with a reference holds ~1 MB of tables at level 3, so none is kept between calls: making
one is part of the 0.1 ms above.
"""

from __future__ import annotations

import zstandard

try:  # ISA-L's CRC-32 (the same values as zlib's): ~10x faster, and a 30-40 KB reference is tagged on every commit
    from isal.isal_zlib import crc32 as _crc32
except ImportError:  # pragma: no cover (isal is in requirements.txt; zlib's gives the same tags)
    from zlib import crc32 as _crc32

LEVEL = 3
"""zstd's default: level 1 is 20 % faster and 15 % larger; level 6 twice as slow for 3 % less."""
MAX_OUTPUT = 64 * 1024 * 1024
"""The largest text a frame may claim: a position is 5–60 KB, so anything near this is damage."""
_TAG = 4


class Damaged(ValueError):
    """Bytes that do not decode to what was compressed: damaged, truncated, padded, or a wrong reference."""


def _tag(reference: bytes | None) -> bytes:
    return _crc32(reference or b"").to_bytes(_TAG, "little")


def _dictionary(reference: bytes | None) -> zstandard.ZstdCompressionDict | None:
    if not reference:
        return None
    return zstandard.ZstdCompressionDict(reference, dict_type=zstandard.DICT_TYPE_RAWCONTENT)


def compress(data: bytes, reference: bytes | None, level: int = LEVEL) -> bytes:
    """``data`` compressed against ``reference`` (what it likely repeats), or alone when there is none."""
    dictionary = _dictionary(reference)
    packer = zstandard.ZstdCompressor(level=level, dict_data=dictionary, write_checksum=True,
                                      write_content_size=True)
    return _tag(reference) + packer.compress(data)


def decompress(data: bytes, reference: bytes | None) -> bytes:
    """``compress`` undone with the same ``reference``; anything else raises ``Damaged``."""
    if len(data) <= _TAG or data[:_TAG] != _tag(reference):
        raise Damaged("not compressed against this reference")
    frame = data[_TAG:]
    try:
        size = zstandard.frame_content_size(frame)
        if size < 0 or size > MAX_OUTPUT:
            raise Damaged(f"a frame that claims {size} bytes")
        unpacker = zstandard.ZstdDecompressor(dict_data=_dictionary(reference))
        out = unpacker.decompress(frame, max_output_size=MAX_OUTPUT, allow_extra_data=False)
    except zstandard.ZstdError as exc:
        raise Damaged(str(exc)) from None
    if len(out) != size:
        raise Damaged("a frame shorter than it claims")
    return out
