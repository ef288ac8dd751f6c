"""``/gm`` overrides fit the game in the channel (issue 26, convention 5): each subcommand works for the
games that declare it and is refused in words everywhere else; its autocomplete offers nothing there."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic import ValidationError

from cogs.gm import GameMaster
from console.runner import Console
from engines import registry
from engines.core.errors import RuleError, TavoloError
from gm import presenters
from gm.app import GAME_MODULES, App
from gm.table.overrides import check_override, gm_commands

GAMES = sorted(module.split(".")[2] for module in GAME_MODULES)
COG = Path(__file__).resolve().parents[2] / "cogs" / "gm.py"


def _kinds_by_command() -> dict[str, str]:
    """Each ``/gm`` subcommand and the action kind its body builds, read from the cog's source."""
    found = {}
    for node in ast.walk(ast.parse(COG.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.AsyncFunctionDef):
            continue
        names = [kw.value.value for d in node.decorator_list if isinstance(d, ast.Call)
                 for kw in d.keywords if kw.arg == "name" and isinstance(kw.value, ast.Constant)]
        kinds = [v.value for d in ast.walk(node) if isinstance(d, ast.Dict)
                 for k, v in zip(d.keys, d.values, strict=True)
                 if isinstance(k, ast.Constant) and k.value == "kind" and isinstance(v, ast.Constant)]
        if names and kinds:
            found[names[0]] = kinds[0]
    return found


def test_every_subcommand_builds_a_gm_action() -> None:
    commands = {c.name for c in GameMaster.gm.commands} - GameMaster.platform  # /gm absent: every game (32.2)
    assert set(_kinds_by_command()) == commands
    assert all(kind.startswith("gm_") for kind in _kinds_by_command().values())


@pytest.mark.parametrize("system", GAMES)
async def test_a_game_declares_only_overrides_its_engine_takes(app: App, system: str) -> None:
    engine, kinds = registry.get(system), _kinds_by_command()
    declared = gm_commands(system)
    assert declared and declared <= set(kinds)
    for command in declared:  # the engine knows the kind: at most the fields are missing
        try:
            engine.parse_action({"kind": kinds[command]})
        except RuleError as refused:
            assert not refused.key.endswith(".unknown_action"), (system, command)
        except ValidationError as refused:
            assert all(e["type"] != "union_tag_invalid" for e in refused.errors()), (system, command)


@pytest.mark.parametrize("system", GAMES)
async def test_every_other_override_is_refused_in_words(app: App, system: str) -> None:
    for command in {c.name for c in GameMaster.gm.commands} - gm_commands(system):
        with pytest.raises(TavoloError) as refused:
            check_override(system, command)
        assert refused.value.key == "game.gm_not_here" and f"/gm {command}" == refused.value.params["command"]
        assert all(f"/gm {c}" in refused.value.params["available"] for c in gm_commands(system))


def test_a_game_without_overrides_refuses_them_all(app: App) -> None:
    assert presenters.get("race") is not None and gm_commands("race") == frozenset()
    with pytest.raises(TavoloError) as refused:
        check_override("race", "note")
    assert refused.value.params["available"] == "—"


async def test_wow_miniatures_gm_note_is_refused_in_words_not_action_names(console: Console) -> None:
    """Bug: ``/gm note``, ``/gm move`` and ``/gm wounds`` at a WoW Miniatures table answered with internal
    action names ("Unknown action gm_note. Actions: choose_bar, …")."""
    await console.run(["/as alice", '/game new wowminis options:"first:1 goal:4"',
                       '/wowm party characters:"lyssara, brannoc, elowen"', "/as bob", "/game join",
                       '/wowm party characters:"grushka, sereth, thrak"', "/game start", "/as judge gm"])
    start = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run(["/gm note text:hello", "/gm move piece:LYS to:hand", "/gm wounds piece:LYS wounds:1"])
    text = console.output.getvalue()[start:]  # type: ignore[attr-defined]
    assert "gm_" not in text and "Unknown action" not in text
    assert text.count("is not an override of wowminis") == 3 and "/gm health" in text
    start = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run(["/complete /gm wounds piece:"])  # Krosmaster's and Warlord's override: nothing here
    assert "(no suggestions)" in console.output.getvalue()[start:]  # type: ignore[attr-defined]
    await console.run(["/complete /gm health piece:"])  # WoW Miniatures' own: its characters
    assert "LYS Lyssara Windquill" in console.output.getvalue()[start:]  # type: ignore[attr-defined]


def test_gm_autocomplete_and_resolver_speak_the_gms_language() -> None:
    """Issue 26.10: an Italian GM reads Italian names in the ``/gm`` autocompletes, and a name in either
    language resolves."""
    import gm.games.wowminis.presenter  # noqa: F401  (registers the presenter)
    from gm import presenters
    from tests.wowminis.builders import board, put

    state = board()
    put(state, "brannoc-1", "C4")
    wowm = presenters.get("wowminis")
    italian = [c.label for c in wowm.piece_choices(state, "", lang="it")]
    english = [c.label for c in wowm.piece_choices(state, "", lang="en")]
    assert any("Forgiabrace" in label for label in italian) and not any("Forgiabrace" in label for label in english)
    assert wowm.gm_resolve(state, {"char": "forgiabrace"}, lang="it")["char"] == "brannoc-1"
    assert wowm.gm_resolve(state, {"char": "emberforge"}, lang="it")["char"] == "brannoc-1"
