"""The code as data for the locale-key check (``locale_keys``): parsed modules, strings built from parts,
and what annotations say a value can be (``Literal``, ``Enum``, a field of a model, what the game writes
into a plain ``str`` field). Split from ``locale_keys`` so each module stays small enough to read."""

from __future__ import annotations

import ast
import enum
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

Values = frozenset[str] | None  # None: not resolvable from the code alone
_DEPTH = 6


@dataclass
class Module:
    """One parsed source file, with parent links and (when importable) the live module for its constants."""

    path: str
    name: str
    tree: ast.Module
    parents: dict[ast.AST, ast.AST]
    live: types.ModuleType | None
    _globals: dict[str, Any] | None = None

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(node)

    def globals(self) -> dict[str, Any]:
        """The module's names plus its ``if TYPE_CHECKING:`` imports, so annotations can be evaluated."""
        if self._globals is not None:
            return self._globals
        names: dict[str, Any] = dict(vars(self.live)) if self.live else {}
        self._globals = names
        for node in ast.walk(self.tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                for stmt in node.body:
                    try:
                        exec(compile(ast.Module([stmt], []), self.path, "exec"), names)  # imports only
                    except Exception:
                        continue
        return names


def template_of(node: ast.expr) -> tuple[list[str | ast.expr], bool]:
    """The parts of a string built from constants, f-strings and ``+``; False when it is not a string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value], True
    if isinstance(node, ast.JoinedStr):
        parts: list[str | ast.expr] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                parts.append(value.value)
        return parts, True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, ok_left = template_of(node.left)
        right, ok_right = template_of(node.right)
        if ok_left or ok_right:
            return (left if ok_left else [node.left]) + (right if ok_right else [node.right]), True
    return [node], False


class TypeReader:
    """Types of expressions as far as annotations tell; ``Scanner`` adds the values."""

    modules: dict[str, Module]
    _resolving: set[tuple[str, int, int]]

    def values(self, module: Module, node: ast.expr, depth: int) -> Values:
        raise NotImplementedError

    def _scopes(self, module: Module, node: ast.AST) -> Iterator[ast.AST]:
        raise NotImplementedError

    def _field_writes(self, module: Module, node: ast.Attribute, depth: int) -> Values:
        """A plain ``str`` field of a known model: every value the game's code writes into it
        (``state.end_reason = "honor"``, ``Pending(kind="choose")``) and its default."""
        owner = _strip(self.type_of(module, node.value, depth + 1))
        classes = [c for c in (typing.get_args(owner) if _is_union(owner) else (owner,)) if isinstance(c, type)]
        game = _game(module.name) or _game(getattr(classes[0], "__module__", "")) if classes else None
        if not classes:
            return None
        classes += [sub for c in classes for sub in _game_subclasses(c, game)]
        names = {c.__name__ for c in classes}
        marker = (module.path, node.lineno, hash(ast.dump(node)))
        if marker in self._resolving:
            return frozenset()
        self._resolving.add(marker)
        try:
            found: Values = frozenset()
            writes = 0
            defaults = frozenset(_text(d) for cls in classes
                                 if isinstance(d := getattr(getattr(cls, "model_fields", {}).get(node.attr),
                                                            "default", None), str | enum.Enum))
            for other in self.modules.values():
                if game is not None and _game(other.name) != game:
                    continue  # a shared class (no game): only writes typed as that class count, anywhere
                for sub in ast.walk(other.tree):
                    value: ast.expr | None = None
                    if isinstance(sub, ast.Assign | ast.AnnAssign) and sub.value is not None and any(
                            isinstance(t, ast.Attribute) and t.attr == node.attr
                            and _strip(self.type_of(other, t.value, depth + 1)) in classes
                            for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])):
                        value = sub.value
                    elif isinstance(sub, ast.Call) and _callee(sub) in names:
                        value = next((k.value for k in sub.keywords if k.arg == node.attr), None)
                        order = _field_order(classes, node.attr)
                        if value is None and order is not None and order < len(sub.args):
                            value = sub.args[order]
                        if value is None and defaults and not sub.args and all(k.arg for k in sub.keywords):
                            found, writes = _union(found, defaults), writes + 1  # built with the default
                    if value is None or (isinstance(value, ast.Constant) and value.value is None):
                        continue
                    writes += 1
                    found = _union(found, self.values(other, value, depth + 1))
                    if found is None:
                        return None
            return found if writes else None
        finally:
            self._resolving.discard(marker)

    def _annotation(self, module: Module, node: ast.expr | None) -> Any:
        if node is None:
            return None
        text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ast.unparse(node)
        try:
            return eval(text, module.globals())  # annotations only
        except Exception:
            return None

    def type_of(self, module: Module, node: ast.expr, depth: int) -> Any:
        """The annotated type of ``node`` as far as annotations tell (None: unknown)."""
        if depth > _DEPTH:
            return None
        if isinstance(node, ast.Name):
            for scope in self._scopes(module, node):
                if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                    args = scope.args
                    narrowed = _asserted_type(scope, node.id)
                    if narrowed is not None:
                        return self._annotation(module, narrowed)
                    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                        if arg.arg == node.id:
                            if arg.arg == "self" and arg.annotation is None:
                                return self._class_of(module, scope)
                            return self._annotation(module, arg.annotation)
                    for stmt in _own_nodes(scope):
                        if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and \
                                stmt.target.id == node.id:
                            args_of = typing.get_args(self.type_of(module, stmt.iter, depth + 1))
                            return args_of[0] if args_of else None
                        if isinstance(stmt, ast.AnnAssign) and _binds(stmt.target, node.id):
                            return self._annotation(module, stmt.annotation)
                        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                                isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == node.id:
                            return self.type_of(module, stmt.value, depth + 1)
            return None
        if isinstance(node, ast.Attribute):
            return _field_type(self.type_of(module, node.value, depth + 1), node.attr, _game(module.name))
        if isinstance(node, ast.Subscript):
            args = typing.get_args(_strip(self.type_of(module, node.value, depth + 1)))
            return args[-1] if args and args[-1] is not Ellipsis else args[0] if args else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = _strip(self.type_of(module, node.func.value, depth + 1))
            method = getattr(owner, node.func.attr, None) if isinstance(owner, type) else None
            try:
                return typing.get_type_hints(method).get("return") if callable(method) else None
            except Exception:
                return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and module.live is not None:
            target = module.globals().get(node.func.id)
            if isinstance(target, type):
                return target
            if callable(target):
                try:
                    return typing.get_type_hints(target).get("return")
                except Exception:
                    return None
        return None

    def _class_of(self, module: Module, func: ast.AST) -> Any:
        parent = module.parent(func)
        if isinstance(parent, ast.ClassDef) and module.live is not None:
            return getattr(module.live, parent.name, None)
        return None


_UNBOUND = object()
_ANY: frozenset[str] = frozenset({"\0any"})  # not known yet: only a positive test can say what it is


def _union(a: Values, b: Values) -> Values:
    return None if a is None or b is None else a | b


def _text(value: Any) -> str:
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


def _asserted_type(scope: ast.AST, name: str) -> ast.expr | None:
    """``assert isinstance(state, State)`` in a function: the type ``state`` has there."""
    for stmt in _own_nodes(scope):
        if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Call) and _callee(stmt.test) == "isinstance" \
                and len(stmt.test.args) == 2 and isinstance(stmt.test.args[0], ast.Name) \
                and stmt.test.args[0].id == name and not isinstance(stmt.test.args[1], ast.Tuple):
            return stmt.test.args[1]
    return None


def _field_order(classes: list[type], name: str) -> int | None:
    """The position of a field in a model's or dataclass's constructor (``Entry("spell", …)``)."""
    for cls in classes:
        fields = list(getattr(cls, "model_fields", None) or getattr(cls, "__dataclass_fields__", None) or [])
        if name in fields:
            return fields.index(name)
    return None


def _is_has_of(node: ast.AST, *, name: str | None = None, dumps: set[str] | None = None) -> bool:
    """``has(<name>)`` or ``has(<the same f-string>)``: the code checks the key exists before using it."""
    if not (isinstance(node, ast.Call) and _callee(node) == "has" and node.args):
        return False
    first = node.args[0]
    return (isinstance(first, ast.Name) and first.id == name) or (dumps is not None and ast.dump(first) in dumps)


def _callee(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _binds(target: ast.expr, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(target))


def _position(target: ast.expr, name: str) -> int | None:
    if isinstance(target, ast.Tuple):
        return next(i for i, elt in enumerate(target.elts) if _binds(elt, name))
    return None


def _static(node: ast.expr) -> bool:
    """Only names, attributes, constant subscripts and ``.items()``-like calls: safe to evaluate."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and not (isinstance(sub.func, ast.Attribute)
                                              and sub.func.attr in ("items", "keys", "values") and not sub.args):
            return False
        if isinstance(sub, ast.Lambda | ast.NamedExpr):
            return False
    return True


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a function body, not of the functions or classes nested in it."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))


def _constant_values(value: Any) -> Values:
    if isinstance(value, enum.Enum):
        return frozenset({str(value.value)})
    if isinstance(value, str):
        return frozenset({value})
    return None


def _game(module: str) -> str | None:
    """The game a module belongs to (``engines.wowminis.engine``, ``gm.games.wowminis.text`` → wowminis)."""
    parts = module.split(".")
    for i, part in enumerate(parts[:-1]):
        if part in ("engines", "games", "renderers", "cogs") and parts[i + 1] not in ("core", "registry"):
            return parts[i + 1]
    return parts[1] if parts[0] == "cogs" and len(parts) > 1 else None


def _game_subclasses(base: type, game: str | None) -> list[type]:
    """A shared base class (``engines.core.contract.Action``) stands for its subclasses in the game."""
    if game is None:
        return []
    found, todo = [], list(base.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith(f"engines.{game}."):
            found.append(cls)
    return found


def _field_type(owner: Any, name: str, game: str | None = None) -> Any:
    """The annotation of field ``name`` on a class, or the union of it over a union of classes (a shared
    base class without the field: over its subclasses in the game)."""
    members = [m for m in typing.get_args(_strip(owner)) if m is not type(None)] if _is_union(_strip(owner)) \
        else [_strip(owner)]
    if len(members) == 1 and isinstance(members[0], type) and values_of_type(_hints(members[0]).get(name)) is None:
        narrower = [m for m in _game_subclasses(members[0], game) if name in _hints(m)]
        if narrower and values_of_type(_field_type(typing.Union[tuple(narrower)], name)) is not None:  # noqa: UP007
            members = narrower
    found = []
    for member in members:
        if not isinstance(member, type):
            return None
        try:
            hints = typing.get_type_hints(member)
        except Exception:
            hints = {}
        if name in hints:
            found.append(hints[name])
            continue
        prop = getattr(member, name, None)
        if isinstance(prop, property) and prop.fget is not None:
            try:
                found.append(typing.get_type_hints(prop.fget).get("return"))
                continue
            except Exception:
                return None
        return None
    if not found:
        return None
    return found[0] if len(found) == 1 else typing.Union[tuple(found)]  # noqa: UP007


def _hints(cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls)
    except Exception:
        return {}


def _strip(kind: Any) -> Any:
    while typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    return kind


def _is_union(kind: Any) -> bool:
    return typing.get_origin(kind) in (typing.Union, types.UnionType)


def values_of_type(kind: Any) -> Values:
    """A finite set of values a type allows: ``Literal``, ``Enum``, unions of those (``None`` dropped)."""
    kind = _strip(kind)
    if kind is None:
        return None
    if typing.get_origin(kind) is typing.Literal:
        return frozenset(_text(v) for v in typing.get_args(kind))
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return frozenset(str(m.value) for m in kind)
    if _is_union(kind):
        out: Values = frozenset()
        for member in typing.get_args(kind):
            if member is not type(None):
                out = _union(out, values_of_type(member))
        return out
    return None


def _default_of(func: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> ast.expr | None:
    """The default a function gives ``param`` (None: it has none)."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]], args.defaults,
                        strict=True))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None})
    found = defaults.get(param)
    return None if isinstance(found, ast.Constant) and found.value is None else found
