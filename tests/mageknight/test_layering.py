"""The Mage Knight modules import downwards only, at module level, and stay pure and small.

Layers, bottom to top: data (content, state, actions, upgrades) < base (rules_values, rules_base) < rules
(every other ``rules_*`` module) < ``rules_legal`` < ``preview`` < ``rules_view`` < ``engine`` < ``__init__``.
"""

from __future__ import annotations

import ast
from graphlib import TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "engines" / "mageknight"
PREFIX = "engines.mageknight"
DATA = {"content", "state", "actions", "upgrades"}
BASE = {"rules_values", "rules_base"}
TOP = ["rules_legal", "preview", "rules_view", "engine", "__init__"]
STDLIB = {"__future__", "collections", "dataclasses", "functools", "itertools", "json", "pathlib", "re", "typing",
          "types"}


def modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text("utf-8")) for path in sorted(PACKAGE.glob("*.py"))}


def imported(node: ast.Import | ast.ImportFrom) -> set[str]:
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
    if name in BASE:
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
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{name}.{node.name} imports inside a function"


def test_the_module_graph_is_acyclic_and_points_down():
    edges = graph()
    list(TopologicalSorter(edges).static_order())
    for name, deps in edges.items():
        for dep in deps:
            assert layer(dep) <= layer(name), f"{name} (layer {layer(name)}) imports {dep} (layer {layer(dep)})"
            if layer(name) >= 3:
                assert layer(dep) < layer(name), f"{name} imports {dep} of its own layer"


def test_engines_stay_pure():
    """Only the standard library, pydantic and engines.core (and this package): no random, no I/O layers."""
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for mod in mods:
                    root = mod.split(".")[0]
                    assert root in STDLIB | {"pydantic", "engines"}, (name, mod)
                    if root == "engines":
                        assert mod.startswith(("engines.core", PREFIX)) or mod == "engines.registry", (name, mod)


def test_every_module_stays_under_600_lines_and_says_why():
    for path in PACKAGE.glob("*.py"):
        text = path.read_text("utf-8")
        assert len(text.splitlines()) <= 600, path.name
        assert ast.get_docstring(ast.parse(text)), f"{path.name} needs a module docstring"
