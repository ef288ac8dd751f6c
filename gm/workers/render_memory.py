"""A render worker's memory: what it holds, and giving back what its pictures freed (issue 28).

Why: 5,000 live games must fit in 450 MB of PSS, the bot, its fork server and its render workers
together. A worker's caches are bounded (by count or by bytes, each where it is defined), yet its
resident size kept growing with the tables it drew: the allocator kept the pages the pictures had
freed. ``tune_allocator`` raises glibc's trim threshold so a picture's image buffers are not handed
back to the kernel and faulted in again by the next picture; the price is that freed memory between
long-lived cache entries (masks, bands, scenes) is never returned either, and a worker that drew a
thousand tables held ~100 MB of free heap. So a worker trims its heap between pictures, when the free
heap passes ``FREE_BUDGET``, keeping ``KEEP`` bytes at the top for the next picture's buffers.

``report`` answers what a worker holds (its sizes, the heap, each renderer cache), for the benches
and tests; it is importable at module level, so the pool can run it in a worker like a picture.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from typing import Any

FREE_BUDGET = 6 * 1024 * 1024
"""Free heap (bytes) a worker lets grow before it trims: what triggers a trim, not what the next picture
needs (``KEEP`` is left for that). 24 MB left workers at 5,000 live games with ~40 MB of free heap beside
their caches; 12 MB (with ``KEEP`` 8 MB) still left 19-20 MB of free pages resident in each (what a
``malloc_trim(0)`` gave back at the end of ``bench/live_games.py``). 6 MB with 4 MB kept leaves ~10 MB: a
trim every ~9 pictures instead of ~80 (~0.9 ms each, between pictures), and the pictures' CPU within the
run-to-run spread (+0-4 % over 1,118 pictures of the five games, issue 28)."""
KEEP = 4 * 1024 * 1024
"""Free bytes left at the heap's top by a trim: the next picture's palette canvas and its buffers are
allocated there without faulting their pages in again."""
CHECK_EVERY = 4
"""Pictures between two looks at the resident size (cheap) and, when it grew, the free heap (``mallinfo2``
walks the allocator's bins: ~0.1 ms on a fragmented heap, too much to pay after every picture)."""


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def _libc() -> Any:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        libc.malloc_trim.argtypes, libc.malloc_trim.restype = (ctypes.c_size_t,), ctypes.c_int
    except (OSError, AttributeError):  # not glibc, or older than 2.33 (no mallinfo2): nothing to trim
        return None
    return libc


_LIBC = _libc()


def heap() -> dict[str, int]:
    """The allocator's main figures in bytes: ``used`` by live blocks, ``free`` inside the heap (kept by
    the allocator, counted in the process's resident size once touched), ``mapped`` (large blocks);
    empty where glibc is not the allocator."""
    if _LIBC is None:
        return {}
    info = _LIBC.mallinfo2()
    return {"used": info.uordblks, "free": info.fordblks, "mapped": info.hblkhd, "heap": info.arena}


def trim(keep: int = KEEP) -> bool:
    """Give the free heap's pages back to the kernel, ``keep`` bytes at the top excepted; whether any
    memory went back."""
    return bool(_LIBC is not None and _LIBC.malloc_trim(keep))


class Trimmer:
    """Decides, between two pictures, whether a worker trims its heap (``after_picture``).

    The signal is the process's resident size, not the allocator's free count: a trim leaves the free
    blocks free (their pages go back, the blocks stay), so the free count alone would ask for a trim every
    time once past the budget. A trim happens when the resident size grew by ``budget`` since the last
    one settled and the heap holds at least that much free.

    Settled, not right after the trim (issue 28): a trim gives back the pages of every free block, the
    next picture's buffers included, and that picture faults them in again (a Warlord picture: ~2,000
    faults, 1.5-2 ms). Measured from the trimmed size, that regrowth alone passed the budget, so a worker
    drawing large pictures trimmed at every look and a quarter of its pictures paid the faults. The floor
    now follows the resident size over the ``every`` pictures after a trim, which holds a picture's
    working set; only growth beyond it (freed blocks stranded between kept ones) asks for the next trim."""

    def __init__(self, budget: int = FREE_BUDGET, keep: int = KEEP, every: int = CHECK_EVERY) -> None:
        self.budget, self.keep, self.every = budget, keep, every
        self.pictures = 0
        self.trims = 0
        self.floor = resident()
        self.settling = 0  # pictures after a trim whose resident size still raises the floor

    def after_picture(self) -> bool:
        """Called once a picture is handed back and no other waits; whether it trimmed."""
        self.pictures += 1
        if _LIBC is None:
            return False
        if self.settling:
            self.settling -= 1
            self.floor = max(self.floor, resident())
            return False
        if self.pictures % self.every:
            return False
        if resident() - self.floor <= self.budget or heap().get("free", 0) <= self.budget:
            return False
        self.trims += 1
        trimmed = trim(self.keep)
        self.floor = resident()
        self.settling = self.every
        return trimmed


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident() -> int:
    """This process's resident bytes (``/proc/self/statm``: one short read, ~10 µs); 0 where unreadable."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def sizes(pid: int | str = "self") -> dict[str, int]:
    """Resident, proportional and private bytes of a process (``/proc/<pid>/smaps_rollup``); empty where
    unreadable."""
    found: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return found
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
            found[name] = int(rest.split()[0]) * 1024
    if found:
        found["Uss"] = found.pop("Private_Clean", 0) + found.pop("Private_Dirty", 0)
    return found


def _image_bytes(value: Any, depth: int = 0) -> int:
    """Pixel bytes of the Pillow images inside ``value`` (tuples, lists and dict values, a few levels deep)."""
    if depth > 4:
        return 0
    im = getattr(value, "im", None)
    if im is not None and hasattr(value, "size") and hasattr(value, "mode"):
        width, height = value.size
        return width * height * (4 if len(value.mode) > 1 or value.mode in ("I", "F") else 1)
    if isinstance(value, bytes):
        return len(value)
    if isinstance(value, (tuple, list)):
        return sum(_image_bytes(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return sum(_image_bytes(item, depth + 1) for item in value.values())
    return sum(_image_bytes(getattr(value, name), depth + 1) for name in getattr(value, "__dataclass_fields__", ()))


def held_by(value: Any, module: str) -> bool:
    """Whether ``value`` is a cache (it has ``cache_info``) that ``module`` holds: a function cached there, or a
    cache object naming ``module`` its ``owner`` (``renderers.kit_sprites.Sprites``); not a cache's class, nor
    a cached function another module imported."""
    if isinstance(value, type) or getattr(value, "cache_info", None) is None:
        return False
    return (getattr(value, "owner", None) or getattr(value, "__module__", None)) == module


def caches() -> dict[str, tuple[int, int]]:
    """Every renderer cache this process holds: name → (entries, bytes: the heap bytes a cache bounded by
    them counts (``renderers.kit_bytes``), else the pixel and byte payload of the entries where they can be
    read; ``functools.lru_cache``s report entries only).

    Found by walking the imported ``renderers`` modules, so a game's cache needs no listing here (this
    layer knows no game)."""
    found: dict[str, tuple[int, int]] = {}
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("renderers") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if held_by(value, name):
                figures = value.cache_info()
                if figures.currsize:  # a cache bounded by bytes (renderers.kit_bytes.cached) says how many
                    found[f"{name}.{attr}"] = (figures.currsize, getattr(figures, "used", 0))
            elif isinstance(value, dict) and attr.startswith("_") and not attr.startswith("__") and value:
                used = getattr(value, "used", None)
                found[f"{name}.{attr}"] = (len(value), used if isinstance(used, int) else _image_bytes(value))
    kit_png = sys.modules.get("renderers.kit_png")
    if kit_png is not None:
        found["renderers.kit_png.CACHE"] = (len(kit_png.CACHE), kit_png.CACHE.used)  # bytes as its budget counts
    return found


def report() -> dict[str, Any]:
    """What this process holds: its pid, sizes, heap and renderer caches (a job the pool can run in a
    worker: ``RenderPool.call(report, affinity=n)``)."""
    return {"pid": os.getpid(), "sizes": sizes(), "heap": heap(), "caches": caches()}
