"""Parse untrusted JSON or YAML text into plain data without letting it explode.

Content packs (and any future user data file) are small on disk but YAML aliases can make
them enormous once expanded: 315 bytes of nested aliases ("billion laughs") become
gigabytes in the constructor, and deep nesting overflows the recursion limit. So YAML is
checked on its event stream first, where an alias is one event whatever it stands for:
the walk bounds the nesting depth, the alias-expanded number of values and amount of text,
and refuses an alias to an anchor that is still open (a structure that contains itself).
Only then is the text constructed, with the C safe loader when PyYAML has it.

JSON has no aliases; its only traps are nesting (``RecursionError`` in the parser) and
numbers too long to convert (``ValueError``). It gets the same checks as YAML, and each error
speaks of the format that was actually read: a JSON file's "too many values" says nothing of
aliases, a ``.json`` file's syntax error says JSON.

The bounds serve one game's byte limit (``DataLimits.for_bytes``): they are scaled so that no
JSON file within the limit can exceed them, and only a YAML file's aliases can. A fixed count
used to refuse a legitimate 1 MB WoW Board pack for "more than 100000 values".

Every failure is a ``TavoloError`` with a ``data.*`` key. Pure functions: the offload child
runs them (see ``gm.packs.reading``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import yaml
from yaml import events

from engines.core.errors import TavoloError

MAX_DEPTH = 64
MAX_VALUES = 100_000
MAX_TEXT = 2_000_000  # characters of scalar text once aliases are expanded

_SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class DataLimits:
    """How big parsed data may get: nesting levels, values and characters after expansion."""

    max_depth: int = MAX_DEPTH
    max_values: int = MAX_VALUES
    max_text: int = MAX_TEXT

    @classmethod
    def for_bytes(cls, max_bytes: int) -> DataLimits:
        """The bounds for a game whose packs may be ``max_bytes`` long: never below the defaults, and
        never refusing a JSON file within ``max_bytes`` (nor a YAML file without aliases written
        the usual way).

        Why these figures: as ``check_plain`` counts (a list item is one value, a mapping entry two:
        its key and its value), every value of JSON text costs at least two characters (``0,``; an
        entry ``"":0,`` costs five for two), so ``n`` characters hold at most ``(n + 1) / 2`` values;
        and a string's text is never longer than the characters that spell it.
        """
        return cls(max_values=max(MAX_VALUES, max_bytes // 2 + 1), max_text=max(MAX_TEXT, max_bytes))


def load_data(text: str, filename: str = "", limits: DataLimits = DataLimits()) -> Any:
    """JSON or YAML text → plain data within ``limits``.

    A ``.json`` file is JSON only (its own error is more useful than YAML's); anything else
    is tried as JSON, then as YAML.
    """
    is_json = filename.lower().endswith(".json")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if is_json:
            raise TavoloError("data.syntax_json", line=exc.lineno, column=exc.colno, problem=exc.msg) from None
        return load_yaml(text, limits)
    except RecursionError:
        raise TavoloError("data.too_deep", limit=limits.max_depth) from None
    except ValueError as exc:  # a number longer than int() accepts
        raise TavoloError("data.bad_value", problem=str(exc)[:200]) from None
    check_plain(data, limits)
    return data


def load_yaml(text: str, limits: DataLimits = DataLimits()) -> Any:
    """YAML text → plain data, refusing anything the event-stream check does not pass."""
    check_yaml_events(text, limits)
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.MarkedYAMLError as exc:
        raise _syntax(exc) from None
    except yaml.YAMLError as exc:
        raise TavoloError("data.syntax", line="?", column="?", problem=str(exc)[:200]) from None
    except (ValueError, OverflowError) as exc:  # e.g. a 5,000-digit integer, 30 February
        raise TavoloError("data.bad_value", problem=str(exc)[:200]) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise TavoloError("data.too_deep", limit=limits.max_depth) from None


def _syntax(exc: yaml.MarkedYAMLError) -> TavoloError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else "?"
    column = mark.column + 1 if mark is not None else "?"
    problem = exc.problem or exc.context or "invalid YAML"
    return TavoloError("data.syntax", line=line, column=column, problem=str(problem)[:200])


class _Walk:
    """Running totals of one YAML event stream, as if every alias were expanded."""

    def __init__(self, limits: DataLimits) -> None:
        self.limits = limits
        self.values = 0
        self.text = 0
        self.open: list[tuple[str | None, int, int]] = []  # (anchor, values, text) at its start
        self.anchors: dict[str, tuple[int, int]] = {}  # closed anchor → (values, text) it stands for

    def add(self, values: int, text: int) -> None:
        self.values += values
        self.text += text
        if self.values > self.limits.max_values:  # YAML's keys speak of aliases; JSON's below do not
            raise TavoloError("data.too_many_values", limit=self.limits.max_values)
        if self.text > self.limits.max_text:
            raise TavoloError("data.too_much_text", limit_kb=self.limits.max_text // 1000)

    def start_document(self) -> None:
        self.anchors.clear()  # anchors are per document

    def define(self, anchor: str | None, mark: Any) -> None:
        if anchor is not None and (anchor in self.anchors or any(a == anchor for a, _, _ in self.open)):
            raise TavoloError("data.syntax", line=mark.line + 1, column=mark.column + 1,
                              problem=f"duplicate anchor &{anchor}"[:200])

    def start(self, anchor: str | None, mark: Any) -> None:
        if len(self.open) >= self.limits.max_depth:
            raise TavoloError("data.too_deep", limit=self.limits.max_depth)
        self.define(anchor, mark)
        self.add(1, 0)
        self.open.append((anchor, self.values - 1, self.text))

    def end(self) -> None:
        anchor, values, text = self.open.pop()
        if anchor is not None:
            self.anchors[anchor] = (self.values - values, self.text - text)

    def scalar(self, anchor: str | None, value: str, mark: Any) -> None:
        self.define(anchor, mark)
        self.add(1, len(value))
        if anchor is not None:
            self.anchors[anchor] = (1, len(value))

    def alias(self, anchor: str, mark: Any) -> None:
        if any(a == anchor for a, _, _ in self.open):
            raise TavoloError("data.recursive_alias", alias=anchor[:40], line=mark.line + 1)
        if anchor not in self.anchors:
            raise TavoloError("data.syntax", line=mark.line + 1, column=mark.column + 1,
                              problem=f"undefined alias *{anchor}"[:200])
        self.add(*self.anchors[anchor])


def check_yaml_events(text: str, limits: DataLimits = DataLimits()) -> None:
    """Refuse YAML whose expansion would exceed ``limits``, before anything is constructed.

    Costs one pass over the events (no nodes, no objects): an alias adds the size its
    anchor stands for, so 9 levels of 9 aliases are refused after a few hundred events.
    """
    walk = _Walk(limits)
    try:
        for event in yaml.parse(text, Loader=_SafeLoader):
            mark = event.start_mark
            if isinstance(event, events.CollectionStartEvent):
                walk.start(event.anchor, mark)
            elif isinstance(event, events.CollectionEndEvent):
                walk.end()
            elif isinstance(event, events.ScalarEvent):
                walk.scalar(event.anchor, event.value, mark)
            elif isinstance(event, events.AliasEvent):
                walk.alias(event.anchor, mark)
            elif isinstance(event, events.DocumentStartEvent):
                walk.start_document()
    except yaml.MarkedYAMLError as exc:
        raise _syntax(exc) from None
    except yaml.YAMLError as exc:
        raise TavoloError("data.syntax", line="?", column="?", problem=str(exc)[:200]) from None


def check_plain(data: Any, limits: DataLimits = DataLimits()) -> None:
    """The same depth and size bounds on already-parsed data (JSON), without recursion; its
    errors name JSON (no aliases to count)."""
    values = 0
    text = 0
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        item, depth = pending.pop()
        values += 1
        if values > limits.max_values:
            raise TavoloError("data.too_many_values_json", limit=limits.max_values)
        if isinstance(item, dict):
            if depth >= limits.max_depth:
                raise TavoloError("data.too_deep", limit=limits.max_depth)
            for key, value in item.items():
                values += 1
                text += len(key) if isinstance(key, str) else 0
                pending.append((value, depth + 1))
        elif isinstance(item, list):
            if depth >= limits.max_depth:
                raise TavoloError("data.too_deep", limit=limits.max_depth)
            pending.extend((value, depth + 1) for value in item)
        elif isinstance(item, str):
            text += len(item)
        if text > limits.max_text:
            raise TavoloError("data.too_much_text_json", limit_kb=limits.max_text // 1000)
