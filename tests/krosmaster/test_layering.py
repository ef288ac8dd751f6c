"""The engine's modules import downwards only (issue: "the rule modules do not call back up").

Layers, bottom to top: data (content, content_arena, state, actions, upgrades) < board < rules (every other
``rules_*`` module, which answer questions and apply single effects) < ``resolution`` (602's
steps 1-8, K.O.s and simultaneity) < ``rules_turn`` < ``rules_setup`` < ``rules_resign`` < ``engine``.
Every import is at module level, so the graph below is the whole truth.
"""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "engines" / "krosmaster"
PREFIX = "engines.krosmaster"
DATA = {"content", "content_arena", "state", "actions", "upgrades"}
TOP = ["resolution", "rules_turn", "rules_setup", "rules_resign", "engine", "__init__"]
FUNCTION_IMPORTS_ALLOWED: dict[str, set[str]] = {}  # module -> imported modules; none are needed today


def modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text("utf-8")) for path in sorted(PACKAGE.glob("*.py"))}


def imported(node: ast.Import | ast.ImportFrom) -> set[str]:
    """Sibling modules an import statement names."""
    names: set[str] = set()
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module == PREFIX:
            names.update(alias.name for alias in node.names)
        elif node.module.startswith(PREFIX + "."):
            names.add(node.module.removeprefix(PREFIX + ".").split(".")[0])
    elif isinstance(node, ast.Import):
        names.update(a.name.removeprefix(PREFIX + ".").split(".")[0] for a in node.names
                     if a.name.startswith(PREFIX + "."))
    return names


def layer(name: str) -> int:
    if name in DATA:
        return 0
    if name == "rules_board":
        return 1
    if name in TOP:
        return 3 + TOP.index(name)
    return 2


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: {dep for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)
                   for dep in imported(node) if dep in found}
            for name, tree in found.items()}


def test_no_imports_inside_functions():
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        assert imported(inner) <= FUNCTION_IMPORTS_ALLOWED.get(name, set()), \
                            f"{name}.{node.name} imports inside a function (line {inner.lineno})"
                        assert not isinstance(inner, ast.ImportFrom) or inner.module not in ("random",), name


def test_the_module_graph_is_acyclic():
    try:
        order = list(TopologicalSorter(graph()).static_order())
    except CycleError as exc:  # pragma: no cover - the message is the point
        raise AssertionError(f"import cycle: {exc.args[1]}") from None
    assert order.index("engine") > order.index("resolution") > order.index("rules_casting")


def test_imports_point_down_the_layers():
    for name, deps in graph().items():
        for dep in deps:
            assert layer(dep) <= layer(name), f"{name} (layer {layer(name)}) imports {dep} (layer {layer(dep)})"
            if layer(name) >= 3:
                assert layer(dep) < layer(name), f"{name} imports {dep} of its own layer"


def test_rule_modules_never_call_back_up():
    for name, deps in graph().items():
        if layer(name) == 2:
            assert not deps & set(TOP), f"{name} imports {deps & set(TOP)}"


def test_engines_stay_pure():
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                roots = {a.name.split(".")[0] for a in node.names} if isinstance(node, ast.Import) else \
                    {(node.module or "").split(".")[0]}
                assert roots <= {"engines", "pydantic", "__future__", "collections", "dataclasses", "enum",
                                 "functools", "heapq", "itertools", "json", "pathlib", "typing", "types"}, (name, roots)


def test_the_pipeline_reads_as_the_steps_of_602_in_order():
    source = (PACKAGE / "resolution.py").read_text("utf-8")
    step = source[source.index("def _step("):source.index("def _additional_effects(")]
    rules = [m for m in re.findall(r"# (602\.\d)", step)]
    assert rules == sorted(rules) and {"602.2", "602.3", "602.4", "602.5", "602.6"} <= set(rules)


def test_every_module_stays_under_600_lines():
    for path in PACKAGE.glob("*.py"):
        assert len(path.read_text("utf-8").splitlines()) <= 600, path.name
