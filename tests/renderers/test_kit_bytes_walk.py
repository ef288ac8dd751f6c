"""``kit_bytes.held_bytes`` walks with a stack (issue 28): the same sum as the recursive definition it
replaced, on any nesting of the things cache keys and values are made of."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from renderers import kit_bytes


def recursive_held_bytes(value: Any, seen: set[int] | None = None) -> int:
    """The definition before issue 28's stack walk, kept here as the specification."""
    seen = set() if seen is None else seen
    key = id(value)
    if key in seen or value is None or type(value) in (bool, type):
        return 0
    seen.add(key)
    if isinstance(value, Image.Image) or type(value).__name__ == "ImagingCore":
        return kit_bytes.image_bytes(value)
    size = sys.getsizeof(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        return size + sum(recursive_held_bytes(item, seen) for item in value)
    if isinstance(value, dict):
        return size + sum(recursive_held_bytes(k, seen) + recursive_held_bytes(v, seen) for k, v in value.items())
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return size + sum(recursive_held_bytes(getattr(value, name), seen) for name in fields)
    return size


@dataclasses.dataclass
class Call:
    """A recorded call as the scene caches keep one: a name, arguments, a picture."""

    name: str
    args: tuple[Any, ...]
    picture: Any = None


IMAGES = [Image.new(mode, size) for mode, size in (("L", (30, 12)), ("P", (8, 8)), ("RGBA", (3, 5)), ("1", (40, 2)))]
atoms = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12),
                  st.binary(max_size=40), st.sampled_from(IMAGES), st.sampled_from([int, str, Image.Image]))


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    hashable = st.one_of(st.integers(), st.text(max_size=6), st.tuples(st.integers(), st.integers()))
    return st.one_of(st.tuples(children, children), st.lists(children, max_size=5),
                     st.frozensets(hashable, max_size=4), st.dictionaries(hashable, children, max_size=4),
                     st.builds(Call, st.text(max_size=8), st.tuples(children), children))


values = st.recursive(atoms, _containers, max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(values, st.booleans())
def test_the_stack_walk_counts_what_the_recursive_one_did(value: Any, shared: bool) -> None:
    if shared:  # the same objects reached twice: each counted once
        value = (value, [value, {"again": value}], Call("x", (value,), value))
    assert kit_bytes.held_bytes(value) == recursive_held_bytes(value)


def test_a_caller_s_seen_set_is_shared_across_calls() -> None:
    mask = IMAGES[0]
    seen: set[int] = set()
    first = kit_bytes.held_bytes((mask, "label"), seen)
    assert first > kit_bytes.image_bytes(mask)
    assert kit_bytes.held_bytes([mask], seen) == sys.getsizeof([mask])  # the mask was counted already
