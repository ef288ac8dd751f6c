"""What the text tests compare: two sets of a text's masks (``kit_masks.Masks``), pixel for pixel."""

from __future__ import annotations

from renderers import kit_masks


def assert_same_masks(found: kit_masks.Masks, expected: kit_masks.Masks) -> None:
    """The same offsets, and each mask the same size and bytes (a missing stroke mask missing in both)."""
    assert found[:2] == expected[:2]
    for got, want in zip(found[2:], expected[2:], strict=True):
        if want is None:
            assert got is None
            continue
        assert got is not None and got.size == want.size
        assert got.tobytes() == want.tobytes()
