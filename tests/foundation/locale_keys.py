"""Every locale key the code can build, found by reading the code (issue 26: no internal word ever
reaches a player).

A key written out whole (``t("game.over")``, ``key = "wowm.err.ally_target" if … else …``, a tuple or a
dict of keys) is a string constant shaped like a key. A key *built* by the code (``f"wowm.err.{kind}_target"``,
``"km.dir." + d``, ``tr(f"deck.{name}")`` through a helper that adds ``wowboard.img.``) is a template with
holes; each hole is resolved to the values it can take from the code itself:

- constants, ``a if c else b``, ``a or b``, ``str(x)``/``x.strip()``/``x.lower()``;
- names: their assignments and ``for`` loops in the function, comprehension targets, closures, module
  constants (evaluated by importing the module: ``for deck in ITEM_DECKS``);
- types: a parameter's or a field's annotation when it is a ``Literal``, an ``Enum`` (``.value``) or a
  union of models each with a ``Literal`` field (``action.kind`` over the action union);
- a helper's parameter: the arguments of every call of that helper in the code (``ev("moved")`` →
  ``wowm.ev.moved``), resolved in the caller's own context.

What cannot be resolved this way is reported, so a new dynamic key is either resolvable or named in the
test's table of declared sources; a resolver that guessed would let a raw key through.
"""

from __future__ import annotations

import ast
import enum
import importlib
import re
import types
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.foundation.key_code import (
    _ANY,
    _DEPTH,
    _UNBOUND,
    Module,
    TypeReader,
    Values,
    _binds,
    _callee,
    _constant_values,
    _default_of,
    _is_has_of,
    _own_nodes,
    _position,
    _static,
    _text,
    _union,
    template_of,
    values_of_type,
)

HOLE = "{}"
KEY_SHAPE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+")
_SAME_VALUE_CALLS = {"str", "strip", "lower", "upper", "casefold"}


@dataclass(frozen=True)
class KeyUse:
    """A key built by the code: ``template`` with ``{}`` for each hole, the holes' expressions in order."""

    path: str
    line: int
    template: str
    holes: tuple[ast.expr, ...] = field(compare=False, hash=False)
    node: ast.expr = field(default_factory=lambda: ast.Constant(""), compare=False, hash=False)


def _lead(parts: list[str | ast.expr]) -> str:
    return parts[0] if parts and isinstance(parts[0], str) else ""


class Scanner(TypeReader):
    """The key uses of a source tree, and the values each hole can take."""

    def __init__(self, root: Path, folders: Iterable[str], namespaces: set[str], *, package: str | None = "",
                 groups: Iterable[str] = ()) -> None:
        """``groups``: second parts of the known keys (``err`` of ``km.err.bad_action``), which tell a key whose
        namespace is a hole (``f"{ns}.err.bad_action"``) from any other dotted text."""
        self.root = root
        self.namespaces = namespaces
        self.groups = set(groups)
        self.modules: dict[str, Module] = {}
        for folder in folders:
            base = root / folder
            for path in sorted([base] if base.suffix == ".py" else base.rglob("*.py")):
                rel = path.relative_to(root)
                name = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
                tree = ast.parse(path.read_text(encoding="utf-8"))
                parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
                live = None
                if package is not None:
                    try:
                        live = importlib.import_module(name)
                    except Exception:
                        live = None
                self.modules[name] = Module(str(rel), name, tree, parents, live)
        self._resolving: set[tuple[str, int, int]] = set()
        self._calls: dict[str, list[tuple[Module, ast.Call]]] | None = None
        self._imports: dict[tuple[str, str], set[str]] = {}
        self._aliases: dict[str, set[tuple[str, str]]] = {}

    # ------------------------------------------------------------------ finding keys
    def _is_key_start(self, text: str) -> bool:
        head, dot, _ = text.partition(".")
        return bool(dot) and head in self.namespaces and re.fullmatch(r"[a-z0-9_.]*", text) is not None

    def literal_keys(self) -> Iterator[tuple[str, int, str]]:
        """Whole keys written as constants anywhere (a prefix of a built key is not one)."""
        for module in self.modules.values():
            for node in ast.walk(module.tree):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                    continue
                parent = module.parent(node)
                if isinstance(parent, ast.JoinedStr | ast.BinOp | ast.FormattedValue):
                    continue
                if KEY_SHAPE.fullmatch(node.value) and node.value.split(".")[0] in self.namespaces:
                    yield module.path, node.lineno, node.value

    def optional(self, module: Module, use: KeyUse) -> bool:
        """A key the code looks up with ``has(key)`` first and falls back from (``t(k) if has(k) else …``,
        ``key = f"…"; return t(key) if has(key, lang) else …``): a missing one is never shown."""
        node = use.node
        parent = module.parent(node)
        if isinstance(parent, ast.Call) and _callee(parent) == "has":
            return True
        wanted = {ast.dump(node)}
        while isinstance(parent, ast.BoolOp | ast.IfExp):  # ``key = request.purpose and f"…"``
            parent = module.parent(parent)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            name = parent.targets[0].id
            scope = next(iter(self._scopes(module, parent)))
            if any(_is_has_of(n, name=name) for n in ast.walk(scope)):
                return True
        child: ast.AST = node
        while (parent := module.parent(child)) is not None:
            in_body = isinstance(parent, ast.If | ast.IfExp) and child is not parent.test and (
                child in parent.body if isinstance(parent.body, list) else child is parent.body)
            if in_body and any(_is_has_of(n, dumps=wanted) for n in ast.walk(parent.test)):  # type: ignore[union-attr]
                return True
            child = parent
        return False

    def key_uses(self) -> Iterator[tuple[Module, KeyUse]]:
        """Every string built with holes whose constant start is a locale namespace."""
        for module in self.modules.values():
            for node in ast.walk(module.tree):
                if not isinstance(node, ast.JoinedStr | ast.BinOp):
                    continue
                if isinstance(module.parent(node), ast.BinOp | ast.FormattedValue):
                    continue  # the outermost expression carries the whole key
                parts, is_text = template_of(node)
                holes = tuple(p for p in parts if not isinstance(p, str))
                tail = parts[1] if len(parts) > 1 and isinstance(parts[1], str) else ""
                headless = not isinstance(parts[0], str) and tail.count(".") >= 2 and tail.split(".")[1] in self.groups
                if is_text and holes and (self._is_key_start(_lead(parts)) or headless):
                    template = "".join(p if isinstance(p, str) else HOLE for p in parts)
                    yield module, KeyUse(module.path, node.lineno, template, holes, node)

    # ------------------------------------------------------------------ values
    def expand(self, module: Module, use: KeyUse) -> Values:
        """Every key ``use`` can build, or None when one of its holes is not resolvable."""
        keys: set[str] = {""}
        pieces = use.template.split(HOLE)
        for i, piece in enumerate(pieces):
            keys = {k + piece for k in keys}
            if i < len(use.holes):
                values = self.values(module, use.holes[i], 0)
                if values is None:  # unknown, unless a test around it says which (``if reason in (…):``)
                    values = self._narrow(module, use.holes[i], _ANY)
                    if values is _ANY:
                        return None
                else:
                    values = self._narrow(module, use.holes[i], values)
                keys = {k + v for k in keys for v in values if v}  # "": a default that builds no key
        return frozenset(keys)

    def _narrow(self, module: Module, hole: ast.expr, values: frozenset[str]) -> frozenset[str]:
        """The values left where the hole is used: inside ``if x == "a"``/``if x in KINDS``, after
        ``if x == "none": return``, in the ``else`` of a test, under a comprehension's ``if``."""
        wanted = ast.dump(hole)
        node: ast.AST = hole
        while (parent := module.parent(node)) is not None:
            tests: list[tuple[ast.expr, bool]] = []
            if isinstance(parent, ast.If | ast.While):
                tests.append((parent.test, node in parent.body))
                if node in parent.body or node in parent.orelse:
                    pass
                else:
                    tests.clear()
            elif isinstance(parent, ast.IfExp) and node is not parent.test:
                tests.append((parent.test, node is parent.body))
            elif isinstance(parent, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) and \
                    node not in parent.generators:
                tests += [(cond, True) for gen in parent.generators for cond in gen.ifs]
            for field_name in ("body", "orelse", "finalbody"):
                block = getattr(parent, field_name, None)
                if isinstance(block, list) and node in block:
                    for before in block[:block.index(node)]:
                        if isinstance(before, ast.If) and not before.orelse and before.body and \
                                isinstance(before.body[-1], ast.Return | ast.Raise | ast.Continue | ast.Break):
                            tests.append((before.test, False))
            for test, holds in tests:
                values = self._apply_test(module, test, holds, wanted, values)
            node = parent
        return values

    def _apply_test(self, module: Module, test: ast.expr, holds: bool, wanted: str,
                    values: frozenset[str]) -> frozenset[str]:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._apply_test(module, test.operand, not holds, wanted, values)
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And if holds else ast.Or):
            for part in test.values:
                values = self._apply_test(module, part, holds, wanted, values)
            return values
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and ast.dump(test.left) == wanted):
            return values
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, ast.Eq | ast.NotEq):
            found: Values = self.values(module, right, _DEPTH - 1)
        elif isinstance(op, ast.In | ast.NotIn):
            items = self._items(module, right, _DEPTH - 1)
            found = None if items is None else frozenset(_text(i) for i in items)
        else:
            return values
        if found is None:
            return values
        keep = holds == isinstance(op, ast.Eq | ast.In)
        if values is _ANY:
            return found if keep else values
        return values & found if keep else values - found

    def values(self, module: Module, node: ast.expr, depth: int) -> Values:
        """The strings ``node`` can evaluate to (None: unknown)."""
        if depth > _DEPTH:
            return None
        if isinstance(node, ast.Constant):
            return frozenset({str(node.value)}) if isinstance(node.value, str | int) else None
        if isinstance(node, ast.JoinedStr | ast.BinOp):
            parts, is_text = template_of(node)
            if not is_text:
                return None
            out: set[str] = {""}
            for part in parts:
                found = frozenset({part}) if isinstance(part, str) else self.values(module, part, depth + 1)
                if found is None:
                    return None
                out = {a + b for a in out for b in found}
            return frozenset(out)
        if isinstance(node, ast.IfExp):
            return _union(self.values(module, node.body, depth + 1), self.values(module, node.orelse, depth + 1))
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            found: Values = frozenset()
            for value in node.values:
                found = _union(found, self.values(module, value, depth + 1))
            return found
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "str" and node.args:
                return self.values(module, node.args[0], depth + 1)
            if isinstance(func, ast.Name) and (returned := self._returns(module, func.id, depth)) is not None:
                return returned  # a helper of this module: what its ``return`` statements give
            if isinstance(func, ast.Attribute) and func.attr in _SAME_VALUE_CALLS and not node.args:
                found = self.values(module, func.value, depth + 1)
                return None if found is None else frozenset(getattr(v, func.attr)() for v in found)
        if isinstance(node, ast.Name):
            bound = self._name_values(module, node, depth)
            if bound is not None:
                return bound
        if isinstance(node, ast.Attribute) and node.attr == "value":
            if isinstance(node.value, ast.Name) and (members := self._name_values(module, node.value, depth)):
                return members  # ``for colour in BoardColour: … colour.value``: the members' values
            kind = self.type_of(module, node.value, depth + 1)
            if isinstance(kind, type) and issubclass(kind, enum.Enum):
                return frozenset(str(m.value) for m in kind)
        found = values_of_type(self.type_of(module, node, depth + 1))
        if found is None and isinstance(node, ast.Attribute):
            found = self._field_writes(module, node, depth)
        return found

    def _returns(self, module: Module, name: str, depth: int) -> Values:
        func = next((n for n in module.tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
        if func is None:
            return None
        found: Values = frozenset()
        returns = [n for n in _own_nodes(func) if isinstance(n, ast.Return) and n.value is not None]
        for ret in returns:
            found = _union(found, self.values(module, typing.cast(ast.expr, ret.value), depth + 1))
        return found if returns else None

    # ------------------------------------------------------------------ names
    def _scopes(self, module: Module, node: ast.AST) -> Iterator[ast.AST]:
        current = module.parent(node)
        while current is not None:
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.comprehension
                          | ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
                yield current
            current = module.parent(current)
        yield module.tree

    def _name_values(self, module: Module, node: ast.Name, depth: int) -> Values:
        for scope in self._scopes(module, node):
            found = self._bound_in(module, scope, node.id, depth)
            if found is not _UNBOUND:
                return typing.cast(Values, found)
        return None

    def _bound_in(self, module: Module, scope: ast.AST, name: str, depth: int) -> Values | object:
        if isinstance(scope, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            found: Values | object = _UNBOUND
            for gen in scope.generators:
                got = self._target_values(module, gen.target, gen.iter, name, depth)
                if got is not _UNBOUND:
                    found = got
            return found
        if isinstance(scope, ast.Module):
            if module.live is not None and hasattr(module.live, name):
                return _constant_values(getattr(module.live, name))
            return _UNBOUND
        if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return _UNBOUND
        bindings: list[Values] = []
        for stmt in _own_nodes(scope):
            if isinstance(stmt, ast.Assign) and any(_binds(t, name) for t in stmt.targets):
                target = next(t for t in stmt.targets if _binds(t, name))
                bindings.append(self.values(module, stmt.value, depth + 1) if isinstance(target, ast.Name)
                                else self._unpacked(module, target, stmt.value, name, depth))
            elif isinstance(stmt, ast.AnnAssign) and _binds(stmt.target, name):
                bindings.append(self.values(module, stmt.value, depth + 1) if stmt.value else
                                values_of_type(self._annotation(module, stmt.annotation)))
            elif isinstance(stmt, ast.For | ast.AsyncFor) and _binds(stmt.target, name):
                bindings.append(typing.cast(Values, self._target_values(module, stmt.target, stmt.iter, name, depth)))
            elif isinstance(stmt, ast.NamedExpr) and _binds(stmt.target, name):
                bindings.append(self.values(module, stmt.value, depth + 1))
        args = scope.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        param = next((a for a in params if a.arg == name), None)
        if param is not None:
            from_type = values_of_type(self._annotation(module, param.annotation)) if param.annotation else None
            bindings.append(from_type if from_type is not None else self._from_callers(module, scope, name, depth))
        if not bindings:
            return _UNBOUND
        result: Values = frozenset()
        for found in bindings:
            result = _union(result, found)
        return result

    def _unpacked(self, module: Module, target: ast.expr, value: ast.expr, name: str, depth: int) -> Values:
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            for elt, val in zip(target.elts, value.elts, strict=True):
                if _binds(elt, name):
                    return self.values(module, val, depth + 1)
        return None

    def _target_values(self, module: Module, target: ast.expr, iterable: ast.expr, name: str,
                       depth: int) -> Values | object:
        """Values ``name`` takes when ``target`` (a name or a tuple) runs over ``iterable``."""
        if not _binds(target, name):
            return _UNBOUND
        position = _position(target, name)
        if position is not None and isinstance(iterable, ast.Tuple | ast.List) and all(
                isinstance(e, ast.Tuple) and len(e.elts) > position for e in iterable.elts):
            found: Values = frozenset()  # ``for c, n in ((BLUE, blue), (RED, red))``: each pair's part
            for elt in iterable.elts:
                found = _union(found, self.values(module, typing.cast(ast.Tuple, elt).elts[position], depth + 1))
            return found
        items = self._items(module, iterable, depth)
        if items is not None:
            position = _position(target, name)
            try:
                return frozenset(_text(item if position is None else item[position]) for item in items)
            except (TypeError, IndexError, KeyError):
                return None
        if isinstance(target, ast.Name):
            kind = self.type_of(module, iterable, depth + 1)
            element = typing.get_args(kind)[0] if typing.get_args(kind) else None
            return values_of_type(element)
        literal = self._local_dict(module, iterable)
        if literal is not None and (isinstance(target, ast.Name) or position == 0):
            return self._dict_keys(module, literal, depth)
        if isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(iterable, ast.Call) and \
                isinstance(iterable.func, ast.Attribute) and iterable.func.attr == "items":
            pair = typing.get_args(self.type_of(module, iterable.func.value, depth + 1))
            position = _position(target, name)
            return values_of_type(pair[position]) if len(pair) == 2 and position is not None else None
        return None

    def _local_dict(self, module: Module, iterable: ast.expr) -> ast.Dict | None:
        """``for field, ids in options.items()`` where ``options = {…}`` is written in the function."""
        base = iterable
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and base.func.attr in (
                "items", "keys") and not base.args:
            base = base.func.value
        if isinstance(base, ast.Dict) or not isinstance(base, ast.Name):
            return base if isinstance(base, ast.Dict) else None
        scope = next((s for s in self._scopes(module, base) if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)),
                     None)
        assigned = [n.value for n in _own_nodes(scope) if isinstance(n, ast.Assign | ast.AnnAssign) and len(
            targets := n.targets if isinstance(n, ast.Assign) else [n.target]) == 1
                    and isinstance(targets[0], ast.Name) and targets[0].id == base.id] if scope else []
        return assigned[0] if len(assigned) == 1 and isinstance(assigned[0], ast.Dict) else None

    def _dict_keys(self, module: Module, literal: ast.Dict, depth: int) -> Values:
        found: Values = frozenset()
        for key in literal.keys:
            found = None if key is None else _union(found, self.values(module, key, depth + 1))
            if found is None:
                return None
        return found

    def _items(self, module: Module, node: ast.expr, depth: int) -> list[Any] | None:
        """The items of an iterable known without running the game: literals, module constants."""
        try:
            literal = ast.literal_eval(node)
            return list(literal)
        except (ValueError, TypeError, SyntaxError):
            pass
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            out: list[Any] = []
            for elt in node.elts:
                found = self.values(module, elt, depth + 1)
                if found is None:
                    return None
                out.extend(found)
            return out
        if module.live is None or not _static(node):
            return None
        try:
            value = eval(compile(ast.Expression(node), module.path, "eval"), module.globals())  # module constants
        except Exception:
            return None
        if isinstance(value, type) and issubclass(value, enum.Enum):
            return list(value)
        if isinstance(value, dict):
            return list(value)
        return list(value) if isinstance(value, list | tuple | set | frozenset | types.MappingProxyType) or \
            type(value).__name__ in ("dict_items", "dict_keys", "dict_values") else None

    def _from_callers(self, module: Module, func: ast.AST, param: str, depth: int) -> Values:
        """A helper's parameter: the values every call of the helper in the code passes."""
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            return None
        marker = (module.path, func.lineno, hash(param))
        if marker in self._resolving:
            return frozenset()  # a recursive call adds nothing new
        positions = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
        is_method = bool(positions) and positions[0] in ("self", "cls")
        index = positions.index(param) - (1 if is_method else 0) if param in positions else None
        default = _default_of(func, param)
        owner = module.parent(func)
        if func.name == "__init__" and isinstance(owner, ast.ClassDef):  # ``ActionParser("km", …)``
            func, is_method = ast.FunctionDef(name=owner.name, args=func.args, body=[], decorator_list=[],
                                              lineno=func.lineno), False
        self._resolving.add(marker)
        try:
            found: Values = frozenset()
            calls = 0
            for caller, call in self._calls_of(module, func.name, is_method):
                arg = next((k.value for k in call.keywords if k.arg == param), None)
                if arg is None and index is not None and index < len(call.args):
                    arg = call.args[index]
                    if isinstance(arg, ast.Starred):
                        return None
                if arg is None and default is None:
                    continue  # no default: not a key built from this call
                calls += 1
                passed = self.values(caller, arg, depth + 1) if arg is not None else \
                    self.values(module, default, depth + 1)  # ``namespace: str = "km"`` left out
                if passed is None:  # ``elif verb == "menu" and value in wb.MENU_KINDS: wb.menu(…, value, …)``
                    passed = self._narrow(caller, arg, _ANY)
                    passed = None if passed is _ANY else passed
                found = _union(found, passed)
                if found is None:
                    return None
            return found if calls else None
        finally:
            self._resolving.discard(marker)

    def _calls_of(self, module: Module, name: str, is_method: bool) -> Iterator[tuple[Module, ast.Call]]:
        """Calls of ``module.name``: by bare name where it is visible, as ``x.name`` on an instance
        (a method) or on the module imported under its last name."""
        if self._calls is None:
            self._calls = {}
            self._imports = {}
            for other in self.modules.values():
                for node in ast.walk(other.tree):
                    if isinstance(node, ast.Call):
                        func = node.func
                        called = func.id if isinstance(func, ast.Name) else \
                            func.attr if isinstance(func, ast.Attribute) else None
                        if called:
                            self._calls.setdefault(called, []).append((other, node))
                    elif isinstance(node, ast.ImportFrom) and node.module:
                        for alias in node.names:
                            self._imports.setdefault((node.module, alias.name), set()).add(other.name)
                            # ``from gm.games.wowboard import presenter as wb``: ``wb.builder(…)`` calls it
                            self._aliases.setdefault(f"{node.module}.{alias.name}", set()).add(
                                (other.name, alias.asname or alias.name))
                    elif isinstance(node, ast.Import):
                        for alias in node.names:
                            if alias.asname:
                                self._aliases.setdefault(alias.name, set()).add((other.name, alias.asname))
        importers = self._imports.get((module.name, name), set()) | {module.name}
        aliases = self._aliases.get(module.name, set())
        for other, node in self._calls.get(name, []):
            func = node.func
            by_name = isinstance(func, ast.Name) and not is_method and other.name in importers
            by_attribute = isinstance(func, ast.Attribute) and ((is_method and other is module) or (
                isinstance(func.value, ast.Name) and (module.name.rsplit(".", 1)[-1] == func.value.id
                                                      or (other.name, func.value.id) in aliases)))
            if by_name or by_attribute:
                yield other, node



_FILE_SUFFIXES = {"png", "jpg", "json", "yaml", "txt", "sqlite3", "pdf", "md", "py"}


def check(scanner: Scanner, catalogs: dict[str, dict[str, str]], sources: dict[str, Any],
          elsewhere: dict[str, str], never_built: dict[str, str]) -> list[str]:
    """What is wrong, one line each: a key (whole or built) missing from a language, a built key whose
    template uses a placeholder its ``RuleError``/``TavoloError`` does not pass, a hole whose values the
    code does not tell and nobody declared, a declaration no code needs any more."""
    from common.i18n import placeholders

    problems: list[str] = []

    def need(where: str, key: str) -> None:
        for lang, words in catalogs.items():
            if key not in words and not any(k.startswith(key + ".") for k in words):
                problems.append(f"{where}: {key} is missing from {lang}")

    for path, line, key in scanner.literal_keys():
        if key.rsplit(".", 1)[-1] not in _FILE_SUFFIXES:
            need(f"{path}:{line}", key)
    unresolved: set[str] = set()
    for module, use in scanner.key_uses():
        where = f"{use.path}:{use.line} {use.template}"
        if scanner.optional(module, use):
            continue
        keys = scanner.expand(module, use)
        if keys is None:
            unresolved.add(use.template)
            if use.template in sources:  # one hole: its values; several: the whole keys
                keys = frozenset(use.template.replace(HOLE, str(v)) if use.template.count(HOLE) == 1 else str(v)
                                 for v in sources[use.template]())
            elif use.template not in elsewhere:
                problems.append(f"{where}: the code does not tell the values of "
                                f"{', '.join(ast.unparse(h) for h in use.holes)}; declare their source")
                continue
            else:
                continue
        for key in sorted(keys - set(never_built)):
            need(where, key)
        call = module.parent(use.node)
        spread = [scanner._local_dict(module, k.value) for k in call.keywords if k.arg is None] \
            if isinstance(call, ast.Call) else []
        if isinstance(call, ast.Call) and _callee(call) in ("RuleError", "TavoloError") and call.args \
                and call.args[0] is use.node and None not in spread:
            passed = {k.arg for k in call.keywords if k.arg and k.arg != "rule"}
            passed |= {k.value for d in spread if d is not None for k in d.keys if isinstance(k, ast.Constant)}
            passed |= {name[:-4] for name in passed if name.endswith("_key")}
            for key in sorted(keys):
                for lang, words in catalogs.items():
                    extra = placeholders(words.get(key, "")) - passed
                    if extra:
                        problems.append(f"{where}: {key} ({lang}) needs {sorted(extra)}, not passed")
    for template in sorted((set(sources) | set(elsewhere)) - unresolved):
        problems.append(f"{template}: declared, but no code builds it any more with values it cannot tell")
    return problems
