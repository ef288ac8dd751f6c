"""What a renderer cache really holds in the heap, and caches bounded by it (issue 28).

Why: a render worker's caches were bounded by entry counts, or by budgets that counted one byte a pixel.
But most of what they keep are small masks and tiles, and a Pillow image costs far more than its pixels:
Pillow's instance with a pointer per row, the Python ``Image`` around it, and, for a palette ("P") image,
a 1 KB palette in C and another in Python. A 30 x 12 text mask holds 360 bytes of pixels and ~1 KB of
heap; a "P" tile of the same size ~2.3 KB. So budgets believed ~65 MB while a worker at 5,000 live games
held ~100 MB more than at start, and PSS missed its 450 MB target. ``image_bytes`` counts what the heap
gives an image (measured with ``bench/render_caches.py`` under ``PYTHONMALLOC=malloc``, to within a few
per cent for the sizes the renderers cache), and ``Budget`` is an LRU dictionary bounded by those bytes.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from PIL import Image

CORE = 300
"""Pillow's instance of an image (``ImagingMemoryInstance``, its blocks list, allocator headers), bytes."""
ROW = 8
"""One row pointer per line of pixels (``im->image``)."""
WRAPPER = 310
"""The Python ``Image.Image`` around a core (the object, its ``__dict__``, ``info``) and the core's handle."""
PALETTE = 1120
"""A "P" image's palette in C (``ImagingPaletteInstance``: 1,024 bytes of colours and its header)."""
PALETTE_WRAPPER = 190
"""The Python ``ImagePalette`` a "P" ``Image`` carries besides (the object and its ``__dict__``)."""
COLOUR = 64
"""One colour of that palette's dictionary of colours: its tuple (the index is a shared small int)."""

ENTRY = 200
"""A cache entry's own bookkeeping: its slots in the cache's dictionaries and the tuple of its value."""

_ONE_BYTE = frozenset(("1", "L", "P"))


def pixel_bytes(mode: str) -> int:
    """Bytes Pillow stores a pixel of ``mode`` in ("1" takes a whole byte, "LA" and "RGB" four)."""
    if mode in _ONE_BYTE:
        return 1
    return 2 if mode.startswith("I;16") else 4


def image_bytes(image: Any) -> int:
    """Heap bytes an ``Image.Image`` or a bare core (``image.im``) holds: its pixels and Pillow's and
    Python's overhead (the module's docstring); 0 for None."""
    if image is None:
        return 0
    width, height = image.size
    mode = image.mode
    size = width * height * pixel_bytes(mode) + ROW * height + CORE
    if mode in ("P", "PA"):
        size += PALETTE
    if isinstance(image, Image.Image):
        size += WRAPPER + _python_palette(image)
    return size


def _python_palette(image: Image.Image) -> int:
    """The Python palette a "P" ``Image`` carries: its entries as a list or bytes, and the dictionary of
    colours Pillow builds when it quantizes (~6 KB for a palette of 172 colours: more than a small tile's
    pixels and Pillow's instance together)."""
    palette = image.__dict__.get("palette")
    if palette is None:
        return 0
    fields = palette.__dict__
    raw = fields.get("_palette")
    colours = fields.get("_colors")
    size = PALETTE_WRAPPER + (sys.getsizeof(raw) if raw is not None else 0)
    if colours:
        size += sys.getsizeof(colours) + COLOUR * len(colours)
    return size


_ATOMS = frozenset((int, float, str, bytes, complex))
"""Exact types counted by their size alone and never walked (the common case in a cache key)."""
_SEQUENCES = (tuple, list, frozenset, set)


def held_bytes(value: Any, seen: set[int] | None = None) -> int:
    """Heap bytes of ``value`` and what it holds (tuples, lists, dictionaries, bytes, strings, images,
    dataclasses), each object counted once: the bytes dropping the last reference to ``value`` frees at
    most. Numbers and other atoms count as their size; a callable or a module is not walked.

    Walked with a stack, not by recursion (issue 28): every entry a cache keeps is sized here, ~90 a
    Warlord picture of a new table, and the recursive walk with a generator per container took 1.5 ms of
    a 20 ms picture. Each object is counted once whatever the order, so the sum is the recursive one
    (``tests/renderers/test_kit_bytes.py`` compares them)."""
    seen = set() if seen is None else seen
    total = 0
    stack = [value]
    pop, push, extend, getsizeof = stack.pop, stack.append, stack.extend, sys.getsizeof
    while stack:
        item = pop()
        kind = type(item)
        if item is None or kind is bool or kind is type:
            continue
        key = id(item)
        if key in seen:
            continue
        seen.add(key)
        if kind in _ATOMS:
            total += getsizeof(item)
        elif isinstance(item, Image.Image) or kind.__name__ == "ImagingCore":
            total += image_bytes(item)
        elif isinstance(item, _SEQUENCES):
            total += getsizeof(item)
            extend(item)
        elif isinstance(item, dict):
            total += getsizeof(item)
            for pair in item.items():
                extend(pair)
        else:
            total += getsizeof(item)
            fields = getattr(item, "__dataclass_fields__", None)
            if fields is not None:
                for name in fields:
                    push(getattr(item, name))
    return total


class Budget(OrderedDict):  # type: ignore[type-arg]
    """An LRU dictionary bounded by the heap bytes of its entries (``keep``): the least recently kept or
    found entries go first whenever the total would pass ``budget``. ``used`` is that total (what
    ``gm.workers.render_memory.caches`` reports). An entry larger than the whole budget is not kept.

    Reads (``found``) take no lock: a render thread may miss an entry another is evicting, which only
    costs drawing it again."""

    def __init__(self, budget: int, size: Callable[[Any, Any], int] | None = None, limit: int | None = None
                 ) -> None:
        super().__init__()
        self.budget = budget
        self.limit = limit  # entries at most besides the bytes (None: no such bound)
        self.used = 0
        self.sizes: dict[Hashable, int] = {}
        self.size = size or (lambda key, value: ENTRY + held_bytes(key) + held_bytes(value))
        self.lock = threading.Lock()

    def found(self, key: Hashable) -> Any:
        """The entry kept under ``key`` (now the most recent), or None."""
        value = self.get(key)
        if value is not None:
            try:  # noqa: SIM105 (contextlib.suppress would cost more than the look-up)
                self.move_to_end(key)
            except KeyError:  # evicted by another thread meanwhile: still a valid answer
                pass
        return value

    def keep(self, key: Hashable, value: Any, size: int | None = None) -> Any:
        """Remember ``value`` under ``key`` (``size``: its bytes when the caller knows them) and answer it."""
        size = self.size(key, value) if size is None else size
        with self.lock:
            self.used -= self.sizes.pop(key, 0)
            self.pop(key, None)
            if size > self.budget:
                return value
            while self and (self.used + size > self.budget or (self.limit is not None and len(self) >= self.limit)):
                oldest, _value = self.popitem(last=False)
                self.used -= self.sizes.pop(oldest, 0)
            self[key] = value
            self.sizes[key] = size
            self.used += size
        return value

    def take(self, key: Hashable) -> Any:
        """The entry under ``key``, out of the cache (None: none)."""
        with self.lock:
            value = self.pop(key, None)
            if value is not None:
                self.used -= self.sizes.pop(key, 0)
            return value

    def clear(self) -> None:
        with self.lock:
            super().clear()
            self.sizes.clear()
            self.used = 0


class Sightings:
    """Keys seen once, for a cache that keeps an entry at its second sighting only (``kit_sprites``): most
    of what a picture draws once (a log line, a new table's names) is never drawn again, and kept it would
    push out what recurs. Their hashes are remembered, not the keys (4,096-8,192 keys of texts and mask ids
    held ~4 MB), at most ``limit`` of them; a collision only keeps an entry at its first sighting. ``pop``,
    not a test then ``del``: two render threads may see one key at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen: dict[int, None] = {}

    def again(self, key: Hashable) -> bool:
        """Whether ``key`` was seen before (and is then forgotten); else it is remembered as seen."""
        digest = hash(key)
        if self.seen.pop(digest, _UNSEEN) is not _UNSEEN:
            return True
        if len(self.seen) >= self.limit:
            self.seen.clear()
        self.seen[digest] = None
        return False

    def clear(self) -> None:
        self.seen.clear()

    def __len__(self) -> int:
        return len(self.seen)


_UNSEEN = object()


class CacheInfo(NamedTuple):
    """``functools.lru_cache``'s figures, and the bytes: what the benches and tests read."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    used: int


def cached(budget: int, size: Callable[[Any, Any], int] | None = None) -> Callable[[Callable[..., Any]], Any]:
    """``functools.lru_cache`` bounded by heap bytes (``Budget``) instead of a count of entries: for a
    function of positional, hashable arguments whose answers differ widely in size (a word's masks: a
    few hundred bytes to tens of KB). The wrapper keeps ``cache_info``, ``cache_clear`` and adds
    ``cache`` (the ``Budget``)."""

    def decorate(function: Callable[..., Any]) -> Any:
        cache = Budget(budget, size)
        counts = [0, 0]
        get, move = cache.get, cache.move_to_end

        def wrapper(*args: Any) -> Any:
            found = get(args)
            if found is not None:
                counts[0] += 1
                try:  # noqa: SIM105 (contextlib.suppress would cost more than the look-up)
                    move(args)
                except KeyError:  # evicted by another thread meanwhile
                    pass
                return found
            counts[1] += 1
            return cache.keep(args, function(*args))

        def cache_info() -> CacheInfo:
            return CacheInfo(counts[0], counts[1], cache.budget, len(cache), cache.used)

        def cache_clear() -> None:
            cache.clear()
            counts[0] = counts[1] = 0

        functools.update_wrapper(wrapper, function)
        wrapper.cache = cache  # type: ignore[attr-defined]
        wrapper.cache_info = cache_info  # type: ignore[attr-defined]
        wrapper.cache_clear = cache_clear  # type: ignore[attr-defined]
        return wrapper

    return decorate
