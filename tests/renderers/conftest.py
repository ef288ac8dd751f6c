from collections.abc import Iterator

import pytest

from tests.renderers.picture_orders import fresh_scenes  # noqa: F401  (a fixture the scene tests ask for)


@pytest.fixture
def no_drawn_copies() -> Iterator[None]:
    """No drawing kept by what it is over (``kit_palette_draw.Draw.on_one_colour``) before and after a test."""
    from renderers import kit_palette_draw

    kit_palette_draw._kept_drawn.clear()
    kit_palette_draw._sighted_drawn.clear()
    yield
    kit_palette_draw._kept_drawn.clear()
    kit_palette_draw._sighted_drawn.clear()
