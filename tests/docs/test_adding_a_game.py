"""The docs cannot rot silently (docs/ARCHITECTURE.md, docs/ADDING_A_GAME.md).

- The console walkthrough at the end of ADDING_A_GAME.md plays the race game of ``tests/fakes.py``
  through the real cogs, registered as that page says (the ``race`` fixture and ``RaceCog``): every
  ``# → text`` note must be printed by its own line, and the game must end with a winner.
- Every existing game still has every entry of the page's checklist: each backticked path or dotted
  name with ``<system>`` in it is checked for every system of ``gm.app.GAME_MODULES``, and the
  page's ``.importlinter`` table names contracts that list every game.
- Every path and dotted ``module.name`` in backticks in both pages exists, and every ``python``
  excerpt (first line ``# <file>``) still matches its file line for line.
- ARCHITECTURE.md summarises every ``.importlinter`` contract, and the README links both pages.
- The checkers themselves are tried on broken text, so a checker that stopped finding anything
  fails here too.
"""

from __future__ import annotations

import configparser
import importlib
import importlib.util
import io
import re
from functools import cache
from pathlib import Path

import pytest

from cogs.client import EXTENSIONS, TavoloBot
from common.rules_model import SYSTEMS as RULES_SYSTEMS
from console.runner import Console
from engines import registry
from gm import presenters
from gm.app import GAME_MODULES, App
from gm.context import Place
from gm.settings import Settings
from tests.fakes_cog import RaceCog

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
ADDING = ROOT / "docs" / "ADDING_A_GAME.md"
DOCS = (ARCHITECTURE, ADDING)
SYSTEMS = [module.split(".")[2] for module in GAME_MODULES]  # gm.games.<system>.presenter

# Dotted names are checked when they start with one of the project's packages; ``bot`` is left out
# on purpose: ``bot.load_tavolo()`` in prose means the client object, not the entry-point module.
PACKAGES = frozenset({"cogs", "common", "console", "db", "engines", "gm", "renderers", "tests"})
FILE_SUFFIXES = (".py", ".json", ".yaml", ".yml", ".md", ".txt", ".sql", ".toml", ".ttf", ".ini", ".cfg")
FENCE = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`]+)`")  # a code span may run over a line break, as in Markdown
PATH = re.compile(r"[\w.\-/*<>]+")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
PLACEHOLDER = re.compile(r"<[^<>/]+>")
NOTE = "# →"


# ------------------------------------------------------------------ the checkers
def inline_code(text: str) -> list[str]:
    """Backticked spans of the prose (fenced blocks left out: they are checked as excerpts)."""
    return [" ".join(span.split()) for span in INLINE.findall(FENCE.sub("", text))]


@cache
def _project_files() -> list[Path]:
    """The project's own files and folders (no virtualenv, caches or local output)."""
    skip = {".venv", ".git", "__pycache__", ".hypothesis", ".ruff_cache", ".grimp_cache", ".import_linter_cache",
            "out", "data", ".pytest_cache"}
    return [p for p in ROOT.rglob("*") if not skip & set(p.relative_to(ROOT).parts)]


def _path_problem(token: str) -> str | None:
    directory = token.endswith("/")
    pattern = PLACEHOLDER.sub("*", token).rstrip("/")
    if "/" not in pattern and not pattern.startswith("."):  # a bare name, in a row that says which folder
        found = [p for p in _project_files() if p.match(pattern) and (p.is_dir() or not directory)]
        return None if found else f"no {'folder' if directory else 'file'} named {token} in the project"
    if "*" in pattern:
        found = [p for p in ROOT.glob(pattern) if p.is_dir() or not directory]
        return None if found else f"no file matches {token}"
    path = ROOT / pattern
    if not path.exists() or (directory and not path.is_dir()):
        return f"missing {'folder' if directory else 'file'} {token}"
    return None


def resolves(name: str) -> bool:
    """``a.b.c.D.e``: the longest importable module prefix, then attributes (modules are only
    imported when an attribute must be read, so naming a module with side effects is harmless)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        module_name = ".".join(parts[:i])
        try:
            spec = importlib.util.find_spec(module_name)
        except (ImportError, ValueError):  # a parent that is a module, not a package
            spec = None
        if spec is None:
            continue
        if i == len(parts):
            return True
        target: object = importlib.import_module(module_name)
        for attribute in parts[i:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def _reference_problem(token: str) -> str | None:
    token = token.strip().removesuffix("()")
    if not token or any(c in token for c in " \"'@:,(") or token.startswith(("/", "../")):
        return None  # commands, options, calls, ids: not references to check
    if PATH.fullmatch(token) and ("/" in token or token.endswith(FILE_SUFFIXES) or token.startswith(".")):
        return _path_problem(token)
    if DOTTED.fullmatch(token) and token.split(".")[0] in PACKAGES:
        return None if resolves(token) else f"{token} does not resolve"
    return None


def reference_problems(text: str, systems: list[str]) -> list[str]:
    """Every backticked path or dotted name that does not exist; ``<system>`` stands for each system."""
    problems = []
    for token in inline_code(text):
        for variant in ([token.replace("<system>", s) for s in systems] if "<system>" in token else [token]):
            problem = _reference_problem(variant)
            if problem is not None:
                problems.append(problem)
    return sorted(set(problems))


def excerpt_problems(text: str) -> list[str]:
    """Every ``python`` block names its source on its first line (``# tests/fakes.py``), and each of
    its other lines (``...`` marks a cut) is a line of that file, indentation aside."""
    problems = []
    for block in re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        lines = block.splitlines()
        source = lines[0].removeprefix("#").strip() if lines and lines[0].startswith("# ") else ""
        if not source or not (ROOT / source).is_file():
            problems.append(f"an excerpt without a source file: {lines[:1]}")
            continue
        known = {line.strip() for line in (ROOT / source).read_text(encoding="utf-8").splitlines()}
        problems += [f"{source}: no line {line.strip()!r}" for line in lines[1:]
                     if line.strip() not in ("", "...") and line.strip() not in known]
    return problems


def walkthrough(text: str) -> list[str]:
    """The console block that plays the race game."""
    blocks = [b for b in re.findall(r"^```text\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
              if "/game new system:race" in b]
    assert len(blocks) == 1, "ADDING_A_GAME.md must have exactly one race walkthrough"
    return blocks[0].splitlines()


def contract_rows(text: str) -> list[tuple[str, str]]:
    """``(contract id, module pattern)`` from the table of the page's "Contracts" section."""
    section = text.split("## 10. Contracts", 1)[-1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([\w-]+)` \| `([\w.<>]+)`", section, re.MULTILINE)


def importlinter_modules() -> dict[str, set[str]]:
    """Every module each ``.importlinter`` contract names, in whichever of its module lists."""
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter", encoding="utf-8")
    prefix = "importlinter:contract:"
    lists = ("modules", "source_modules", "forbidden_modules", "containers", "layers", "ancestors")
    return {section.removeprefix(prefix): {word.strip("()") for key in lists for word in
                                           config[section].get(key, "").replace("|", " ").replace(":", " ").split()}
            for section in config.sections() if section.startswith(prefix)}


# ------------------------------------------------------------------ the docs as they are
@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_backticked_path_and_name_exists(doc: Path) -> None:
    assert reference_problems(doc.read_text(encoding="utf-8"), SYSTEMS) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_code_excerpt_matches_its_source(doc: Path) -> None:
    assert excerpt_problems(doc.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_game_is_registered_the_documented_way(system: str) -> None:
    importlib.import_module(f"gm.games.{system}.presenter")  # registers the engine and the presenter
    assert registry.get(system) is not None, f"{system}: no engine registered by its presenter module"
    assert presenters.get(system) is not None, f"{system}: no presenter registered"
    assert f"cogs.{system}" in EXTENSIONS, f"{system}: its cog is not in cogs.client.EXTENSIONS"
    assert system in RULES_SYSTEMS, f"{system}: /rules does not know it (common.rules_model.SYSTEMS)"
    contracts = importlinter_modules()
    rows = contract_rows(ADDING.read_text(encoding="utf-8"))
    assert rows, "ADDING_A_GAME.md lost its table of .importlinter contracts"
    for contract, pattern in rows:
        assert contract in contracts, f".importlinter has no contract {contract}"
        module = pattern.replace("<system>", system)
        assert module in contracts[contract], f".importlinter: {contract} does not list {module}"


async def test_the_race_game_plays_as_documented(app: App, settings: Settings, tmp_path: Path) -> None:
    """``app`` comes with the ``race`` fixture: the engine and presenter registered as the page says."""
    bot = TavoloBot(settings, app=app)
    await bot.load_tavolo()
    await bot.add_cog(RaceCog())
    output = io.StringIO()
    console = Console(bot, out_dir=tmp_path / "out", output=output)
    notes = []
    try:
        for line in walkthrough(ADDING.read_text(encoding="utf-8")):
            start = len(output.getvalue())
            await console.execute(line)
            printed = output.getvalue()[start:]
            if NOTE in line:
                note = line.split(NOTE, 1)[1].strip()
                notes.append(note)
                assert note in printed, f"{line.strip()!r} printed:\n{printed}"
    finally:
        await bot.http.close()
    assert console.errors == 0, output.getvalue()
    assert notes and notes[-1].startswith("🏆 Game over — winner:"), "the walkthrough must end with a winner"
    finished = await app.tables.finished_game(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert finished is not None and finished.game.status == "finished", "the game did not end"
    winner = notes[-1].rsplit("@", 1)[-1].strip(" .")
    assert getattr(finished.state, "winner", None) == finished.seat_of(console.users[winner].id)


# ------------------------------------------------------------------ the checkers can fail
def test_the_reference_checker_finds_what_is_broken() -> None:
    text = ("`gm/table/no_such_module.py`, `gm.app.NO_SUCH_NAME`, `engines/<system>/no_such.py`, "
            "`gm/no_such_folder/`, `tests.fakes.RaceEngine.no_such_hook`, `gm.table.manager.TableManager.act`, "
            "`/km move square:H10`, `tv1:km:<game>.<version>:end`\n"
            "```text\n`gm/only_in_a_fence.py`\n```\n")
    assert reference_problems(text, ["krosmaster"]) == [
        "gm.app.NO_SUCH_NAME does not resolve",
        "missing file engines/krosmaster/no_such.py",
        "missing file gm/table/no_such_module.py",
        "missing folder gm/no_such_folder/",
        "tests.fakes.RaceEngine.no_such_hook does not resolve",
    ]


def test_the_excerpt_checker_finds_what_is_broken() -> None:
    text = ("```python\n# tests/fakes.py\nclass RaceEngine:\n    ...\n    system: ClassVar[str] = \"chess\"\n```\n"
            "```python\nprint('no source named')\n```\n")
    assert excerpt_problems(text) == ["tests/fakes.py: no line 'system: ClassVar[str] = \"chess\"'",
                                      "an excerpt without a source file: [\"print('no source named')\"]"]


def test_the_contract_rows_are_read_from_the_page() -> None:
    rows = dict(contract_rows(ADDING.read_text(encoding="utf-8")))
    assert rows.get("engines-independent") == "engines.<system>"
    assert rows.get("cogs-independent") == "cogs.<system>"


def test_the_readme_layout_links_both_pages() -> None:
    layout = (ROOT / "README.md").read_text(encoding="utf-8").split("## Layout", 1)[-1].split("\n## ", 1)[0]
    for doc in DOCS:
        assert f"(docs/{doc.name})" in layout, f"README's Layout section lost its link to {doc.name}"


def test_architecture_summarises_every_importlinter_contract() -> None:
    """ARCHITECTURE.md is the prose half of ``.importlinter``: one row per contract, no more, no less."""
    section = ARCHITECTURE.read_text(encoding="utf-8").split("## 1. Layers", 1)[-1].split("\n## ", 1)[0]
    summarised = set(re.findall(r"^\| `([\w-]+)` \|", section, re.MULTILINE))
    assert summarised == set(importlinter_modules())
