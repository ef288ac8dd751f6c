"""The architecture as checks that fail (issue 25): the import contracts hold, every game is named in
them, and no module grows past the size a reader can hold in mind.

``.ci/run`` runs ``lint-imports`` too; running it here as well means the README's one test command
catches a broken layer on a developer's machine before CI does.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 600
GAMES = ("krosmaster", "mageknight", "warlord", "wowboard", "wowminis")


def _contracts() -> configparser.ConfigParser:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter", encoding="utf-8")
    return config


def test_the_import_contracts_hold() -> None:
    lint = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(lint).exists():
        pytest.fail("lint-imports is missing: pip install -r requirements-dev.txt")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_every_game_is_named_in_the_contracts_of_its_layers() -> None:
    """A sixth game added without its contracts would be free to import another game's internals."""
    from gm.app import GAME_MODULES

    systems = {module.split(".")[2] for module in GAME_MODULES}
    assert systems == set(GAMES)
    config = _contracts()
    for section, prefix in (("engines-independent", "engines"), ("renderers-independent", "renderers"),
                            ("gm-games-independent", "gm.games"), ("cogs-independent", "cogs")):
        named = set(config[f"importlinter:contract:{section}"]["modules"].split())
        assert named == {f"{prefix}.{system}" for system in systems}, section
    for section in ("cogs-no-game-engine", "engine-core-below-games"):
        forbidden = set(config[f"importlinter:contract:{section}"]["forbidden_modules"].split())
        assert {f"engines.{system}" for system in systems} <= forbidden, section


def test_no_module_is_longer_than_600_lines() -> None:
    """Small modules with one job: code files, tests included (data files are not Python)."""
    tracked = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=False)
    files = tracked.stdout.split() if tracked.returncode == 0 else [
        str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if ".venv" not in p.parts]
    long = {name: n for name in files if (path := ROOT / name).exists()
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_gm_has_no_game_named_module_at_its_top() -> None:
    """Each game's table code lives in gm/games/<system>/, so gm's own folders are its architecture."""
    top = {path.stem for path in (ROOT / "gm").glob("*.py")}
    assert not {name for name in top if any(name.startswith(game) for game in GAMES)}
