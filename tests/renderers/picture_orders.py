"""The orders in which a render worker may meet a table's pictures, shared by every game's scene tests.

A worker draws one table's pictures back to back, or interleaved with other tables (every other one), or
after an undo (backwards), or in no order at all; a scene or cached band that outlives its picture must
give the same bytes in all of them."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TypeVar

import pytest

from renderers import kit_scene

T = TypeVar("T")

ORDERS = ("consecutive", "every_other", "backwards", "shuffled")


def in_order(pictures: Sequence[T], order: str, seed: int = 5) -> list[T]:
    """The pictures as a worker would meet them in ``order`` (the shuffle is seeded, so a failure repeats)."""
    items = list(pictures)
    if order == "consecutive":
        return items
    if order == "every_other":
        return items[::2]
    if order == "backwards":
        return items[::-1]
    if order == "shuffled":
        return random.Random(seed).sample(items, len(items))
    raise ValueError(f"unknown order {order!r}")


@pytest.fixture
def fresh_scenes() -> Iterator[None]:
    """No scene recorded by another test reaches this one, and none of this test's outlives it."""
    kit_scene.forget()
    yield
    kit_scene.forget()
