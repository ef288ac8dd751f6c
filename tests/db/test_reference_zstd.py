"""zstd frames against a reference (db/reference_zstd.py): exact, and loud about anything wrong."""

from __future__ import annotations

import json
import zlib

import pytest
import zstandard

from db import reference_zstd, state_codec


def _position(turn: int, size: int = 56000) -> str:
    """A state text of about ``size`` characters that a later position repeats almost whole."""
    units = [{"id": f"unit_{i}", "hp": (i * 7 + (turn if i % 40 == 0 else 0)) % 13, "ready": i % 3 == 0,
              "at": [i % 17, i % 11]} for i in range(size // 70)]
    return json.dumps({"schema_version": 3, "turn": turn, "units": units}, separators=(",", ":"))


def test_a_frame_comes_back_exactly_with_its_reference_or_alone() -> None:
    reference = _position(0).encode()
    data = _position(1).encode()
    assert reference_zstd.decompress(reference_zstd.compress(data, reference), reference) == data
    assert reference_zstd.decompress(reference_zstd.compress(data, None), None) == data
    assert reference_zstd.decompress(reference_zstd.compress(b"", reference), reference) == b""


def test_a_state_longer_than_32_kb_is_stored_against_the_whole_of_its_dictionary() -> None:
    """ARCHITECTURE §5 / issue 28: zlib's window is 32 KB, so a 48 KB position could not refer to its
    dictionary's start and stored ~1/8 of its text; zstd stores a few hundred bytes."""
    dictionary, text = _position(0), _position(1)
    assert len(text) > 40000
    stored = state_codec.encode(text, dictionary)
    assert stored[0] == state_codec.ZSTD_WITH_DICTIONARY
    assert len(stored) * 40 < len(text)
    assert state_codec.decode(stored, dictionary) == text
    alone = state_codec.encode(text, None)
    assert alone[0] == state_codec.ZSTD_PLAIN and state_codec.decode(alone, None) == text


def test_rows_written_with_zlib_before_zstd_still_decode() -> None:
    """Saved games outlive the code: formats 0 and 1 (zlib, issue 18's) are still read."""
    dictionary, text = _position(0, 6000), _position(2, 6000)
    packer = zlib.compressobj(6, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, zdict=dictionary.encode())
    with_dictionary = bytes([state_codec.WITH_DICTIONARY]) + packer.compress(text.encode()) + packer.flush()
    plain = bytes([state_codec.PLAIN]) + zlib.compress(text.encode(), 6)
    assert state_codec.decode(with_dictionary, dictionary) == text
    assert state_codec.decode(plain, None) == text


@pytest.mark.parametrize("damage", ["wrong reference", "no reference", "truncated", "padded", "flipped byte",
                                    "no content size", "too large a claim", "empty"])
def test_anything_but_the_exact_frame_and_reference_raises_damaged(damage: str) -> None:
    reference, data = _position(0, 4000).encode(), _position(1, 4000).encode()
    frame = reference_zstd.compress(data, reference)
    bad, key = {
        "wrong reference": (frame, _position(5, 4000).encode()),
        "no reference": (frame, None),
        "truncated": (frame[:-3], reference),
        "padded": (frame + b"x", reference),
        "flipped byte": (frame[:20] + bytes([frame[20] ^ 0x40]) + frame[21:], reference),
        "no content size": (frame[:4] + zstandard.ZstdCompressor(
            dict_data=zstandard.ZstdCompressionDict(reference, dict_type=zstandard.DICT_TYPE_RAWCONTENT),
            write_content_size=False).compress(data), reference),
        "too large a claim": (reference_zstd.compress(bytes(reference_zstd.MAX_OUTPUT + 1), reference), reference),
        "empty": (b"", reference),
    }[damage]
    with pytest.raises(reference_zstd.Damaged):
        reference_zstd.decompress(bad, key)


def test_a_frames_tag_is_zlibs_crc32_of_its_reference_so_rows_written_before_still_read() -> None:
    """The tag is computed with ISA-L's CRC-32 where it is installed (issue 28: ~10x zlib's on a 40 KB reference,
    every commit); the stored rows were tagged with zlib's, so both must give the same four bytes."""
    import random
    import zlib

    from db import reference_zstd

    rng = random.Random(5)
    for size in (0, 1, 7, 4096, 40_000, 200_003):
        reference = bytes(rng.randrange(256) for _ in range(size))
        assert reference_zstd._tag(reference) == zlib.crc32(reference).to_bytes(4, "little")
    text, reference = b'{"a": 1, "b": [2, 3]}' * 50, b'{"a": 0, "b": [2, 3]}' * 40
    old = zlib.crc32(reference).to_bytes(4, "little") + reference_zstd.compress(text, reference)[4:]
    assert reference_zstd.decompress(old, reference) == text  # a frame tagged the old way reads back
