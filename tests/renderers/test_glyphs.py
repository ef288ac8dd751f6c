"""Images draw only what their font can draw (issue 26, TABLE_UX "the channel is a shared space").

``renderers.kit_glyphs`` writes "?" for a character the bundled font lacks and has no substitute for,
and records it as an accident; ``kit.draw_text`` passes every text through it, so no text escapes.
Here: the rule itself, broken on purpose to show it is caught (in a string, in a drawn text, in a
console game), and every game's full console script played in English and in Italian with
``--strict``, which fails on any accident in a picture and on any label nobody could read.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from common.i18n import catalog
from console.runner import Console
from renderers import kit, kit_glyphs
from renderers.kit_glyphs import SUBSTITUTES, accident_count, accidents_since, drawable, has_glyph, label_problem

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = {
    "krosmaster": ROOT / "tests/krosmaster/full_game.txt",
    "mageknight_challenge": ROOT / "tests/mageknight/challenge.txt",
    "mageknight_assist": ROOT / "tests/mageknight/assist.txt",
    "warlord": ROOT / "tests/warlord/full_game.txt",
    "wowminis": ROOT / "tests/wowminis/full_game.txt",
    "wowboard": ROOT / "tests/wowboard/full_game.txt",
}
WARNINGS = ("console.glyph_accident", "console.bad_label")


# -- the rule, broken on purpose -----------------------------------------------------------------


@pytest.fixture
def fresh() -> Iterator[None]:
    """``drawable`` caches its answers; a test that changes ``SUBSTITUTES`` must not see, nor leave, stale ones."""
    kit_glyphs._drawable.cache_clear()
    yield
    kit_glyphs._drawable.cache_clear()


def test_a_sign_without_a_substitute_is_drawn_as_a_question_mark_and_recorded(fresh: None) -> None:
    before = accident_count()
    assert not has_glyph("🐉")
    assert drawable("Drago 🐉 of test_glyphs") == "Drago ? of test_glyphs"
    [accident] = accidents_since(before)
    assert (accident.char, accident.text) == ("🐉", "Drago 🐉 of test_glyphs")
    assert "U+1F409" in str(accident)


def test_a_substitute_chosen_on_purpose_is_no_accident(fresh: None) -> None:
    before = accident_count()
    assert drawable("🎲 Grunt strikes (test_glyphs)") == "⚄ Grunt strikes (test_glyphs)"
    assert drawable("🎲 Sereth, attack: 3 💥0 (test_glyphs)") == "⚄ Sereth, attack: 3 ★0 (test_glyphs)"
    assert drawable("⚔️ Fight (test_glyphs)") == "⚔ Fight (test_glyphs)"  # the emoji selector goes
    assert drawable("Città, È già −1 → ×2 (test_glyphs)") == "Città, È già −1 → ×2 (test_glyphs)"
    assert accidents_since(before) == []


def test_every_substitute_replaces_a_sign_the_font_lacks_with_signs_it_has() -> None:
    for char, substitute in SUBSTITUTES.items():
        invisible = unicodedata.category(char) in ("Mn", "Cf")  # a selector: drawn as nothing, or as a box
        assert invisible or not has_glyph(char), f"{char!r} has a glyph: no need to draw anything else"
        assert all(has_glyph(c) for c in substitute), f"the substitute of {char!r} is not drawable"


def test_text_drawn_without_going_through_drawable_is_no_empty_box_and_is_caught_too() -> None:
    before = accident_count()
    with kit.recording() as marks:
        kit.draw_text(ImageDraw.Draw(Image.new("RGB", (400, 40))), (2, 2), "raw 🐉 🎲 (test_glyphs)", 22)
    assert [m.text for m in marks] == ["raw ? ⚄ (test_glyphs)"]
    [accident] = accidents_since(before)
    assert accident.char == "🐉"


async def test_a_removed_substitute_fails_a_console_game(console: Console, fresh: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Warlord's log lines start with 🎲 and its picture draws them: without the substitute the
    initiative line would read "? Initiative" in the picture, and the console's glyph check counts it."""
    monkeypatch.delitem(SUBSTITUTES, "🎲")
    console.check_glyphs = True
    lines = SCRIPTS["warlord"].read_text(encoding="utf-8").splitlines()
    await console.run(lines[: lines.index("/warlord discard cards:none") + 3])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors >= 1
    assert "A picture drew '🎲'" in output and "Initiative" in output


def test_a_wow_miniatures_dice_line_is_drawn_as_the_chat_reads_it_without_its_markdown() -> None:
    """The chat line "🎲 Sereth, attack: 3 💥0 2 **5**" bolds its hits; the picture has no Markdown."""
    from engines.wowminis import ENGINE
    from gm.games.wowminis.presenter import WowMinisPresenter
    from tests.renderers import wowminis_states

    before = accident_count()
    with kit.recording() as marks:
        WowMinisPresenter().render(ENGINE.view(wowminis_states.opening(), None), viewer=None, lang="en",
                                   seat_names=["alice", "bob"], log_lines=["🎲 Sereth, attack: 3 💥0 2 **5**"])
    assert [m.text for m in marks if "Sereth" in m.text] == ["⚄ Sereth, attack: 3 ★0 2 5"]
    assert accidents_since(before) == []


@pytest.mark.parametrize(("label", "problem"), [
    ("Answer…", False), ("Città → Ranger", False), ("⚔️ Attack", False), ("🏆", False), ("Fine turno", False),
    ("?", True), ("", True), ("? → Ranger", True), ("??", True), ("مرحبا", True),
])
def test_a_label_reads_when_the_font_or_discords_emoji_draw_it(label: str, problem: bool) -> None:
    assert (label_problem(label) is not None) is problem


# -- every game's full script, in English and in Italian ----------------------------------------


def _italian(lines: list[str]) -> list[str]:
    """The script as an Italian player types it: a button clicked by its English label is clicked by
    its Italian one (found through the locale key that words it); commands and ids stay as they are."""
    english, italian = catalog("en"), catalog("it")
    out = []
    for line in lines:
        label = line.removeprefix("/click ").strip()
        if line.startswith("/click ") and not label.isdecimal():
            key = next((k for k, v in sorted(english.items()) if v == label and k in italian), None)
            line = f"/click {italian[key]}" if key else line
        out.append(line)
    return out


def _play(name: str, lang: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """A fresh process, so no picture or word cached by another test hides an accident."""
    script = tmp / f"{name}-{lang}.txt"
    lines = SCRIPTS[name].read_text(encoding="utf-8").splitlines()
    script.write_text("\n".join(_italian(lines) if lang == "it" else lines) + "\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--console", "--seed", "1", "--strict", "--lang", lang,
         "--script", str(script), "--out", str(tmp / f"out-{name}-{lang}")],
        capture_output=True, text=True, cwd=tmp, timeout=600,
    )


@pytest.fixture(scope="module")
def played(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[tuple[str, str], concurrent.futures.Future]]:
    """The selected games start at once, as many at a time as there are cores (twelve one after the
    other take twice as long); each test waits for its own."""
    tmp = tmp_path_factory.mktemp("glyph_scripts")
    wanted = sorted({(item.callspec.params["name"], item.callspec.params["lang"]) for item in request.session.items
                     if item.originalname == "test_a_full_game_draws_and_labels_only_what_can_be_read"})
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        yield {key: pool.submit(_play, *key, tmp) for key in wanted}


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_full_game_draws_and_labels_only_what_can_be_read(name: str, lang: str, played: dict) -> None:
    result = played[(name, lang)].result()
    warnings = sorted({line.strip() for line in result.stdout.splitlines()
                       if any(catalog(lang)[key].split("{")[0] in line for key in WARNINGS)})
    assert warnings == [], "\n".join(warnings[:20])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]  # the whole script played
    assert "Traceback" not in result.stderr
