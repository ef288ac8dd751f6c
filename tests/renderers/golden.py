"""Golden-image comparison with a small tolerance; ``UPDATE_GOLDEN=1`` rewrites the files.

Why a tolerance: glyph anti-aliasing can differ by a level or two between FreeType
builds. Why per tile as well as overall: a missing token changes ~0.3% of a 1200 px
picture, which an overall mean would forgive, but it wrecks the tiles it sits on.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
MEAN_LIMIT = 0.75  # mean absolute difference per channel over the picture (0..255)
TILE = 16
TILE_LIMIT = 10.0  # worst mean absolute difference of any 16 x 16 tile


def updating() -> bool:
    return os.environ.get("UPDATE_GOLDEN", "") not in ("", "0")


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def difference(actual: Image.Image, expected: Image.Image) -> tuple[float, float, tuple[int, int]]:
    """Overall mean difference, the worst tile's mean and where that tile is."""
    diff = ImageChops.difference(actual, expected).convert("L")
    overall = ImageStat.Stat(diff).mean[0]
    worst, where = 0.0, (0, 0)
    small = diff.reduce(TILE) if diff.width >= TILE and diff.height >= TILE else diff
    for y in range(small.height):
        for x in range(small.width):
            value = float(small.getpixel((x, y)))  # type: ignore[arg-type]
            if value > worst:
                worst, where = value, (x * TILE, y * TILE)
    return overall, worst, where


def check(name: str, png: bytes, tmp_dir: Path) -> None:
    """Compare ``png`` with ``golden/<name>.png``; on failure keep the actual picture to look at."""
    path = GOLDEN_DIR / f"{name}.png"
    if updating():
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        return
    assert path.is_file(), f"missing golden {path.name}: run with UPDATE_GOLDEN=1 and look at the picture"
    actual, expected = _rgb(png), _rgb(path.read_bytes())
    assert actual.size == expected.size, f"{name}: size {actual.size} != golden {expected.size}"
    overall, worst, where = difference(actual, expected)
    if overall > MEAN_LIMIT or worst > TILE_LIMIT:
        kept = tmp_dir / f"{name}.actual.png"
        kept.write_bytes(png)
        raise AssertionError(
            f"{name}: differs from golden (mean {overall:.2f} > {MEAN_LIMIT} or tile {worst:.1f} > {TILE_LIMIT} "
            f"at {where}); actual picture kept at {kept}; UPDATE_GOLDEN=1 regenerates once it looks right"
        )
