"""Saved games outlive the code: versioned engine states and the chain that upgrades them.

A game lasts days and the bot is redeployed in between, so a state saved by an older
version must still load. Each engine declares its current ``version`` and one pure upgrade
function per step (``upgrades[1]`` turns a version-1 dict into version 2, and so on), the
same way numbered SQL migrations upgrade the database. Loading applies the missing steps,
then validates with the current model, which refuses unknown keys (``extra="forbid"`` on
``StateModel``) so nothing is ever dropped silently on the next save.

A state that still cannot be read raises ``StateUnreadable``; the table layer quarantines
that one game instead of failing the channel or the bot.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from engines.core.errors import TavoloError

Upgrade = Callable[[dict[str, Any]], dict[str, Any]]
M = TypeVar("M", bound=BaseModel)


class StateUnreadable(TavoloError):
    """A stored state this version of the code cannot turn into a state model.

    ``reason`` is one of ``not_json``, ``newer``, ``bad_version``, ``upgrade_failed`` and
    ``invalid``; ``detail`` is a short technical hint for the log and the GM, never shown
    to players on its own.
    """

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(f"game.state_{reason}", **params)
        self.reason = reason


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err.get("loc", ()))
    return f"{where}: {err.get('type', '')}"[:200]


class SharedPart:
    """A field of a stored state that a game never changes once set up, parsed once per distinct text and
    shared by every state that holds that text (issue 28).

    Why: a Warlord state carries the definitions of its cards (30 of its ~39 KB), so that a game keeps
    its cards when the server's pack changes; the table parses its committed state before every act, and
    most of that parse was the same definitions again (~0.6 of ~1 ms). The state is parsed without them
    and given the kept ones. Sharing is safe because nothing changes a definition after set-up (the
    playouts of ``tests/warlord`` check it); the field's dict itself is each state's own copy.

    The field is found by its key and the key the model dumps after it. The split is trusted only when
    both halves parse and the field of the rest came back empty (the key found was the top-level one);
    anything else returns None and the caller parses the whole text, so a state that does not look as
    this code dumps it (an old field order, a hand-edited row) still loads, only slower."""

    def __init__(self, name: str, follows: str, adapter: TypeAdapter[dict[str, Any]], kept: int = 8) -> None:
        self.name = name
        self.opening = f'"{name}":'
        self.closing = f',"{follows}":'
        self.adapter = adapter
        self.kept: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.limit = kept  # distinct texts kept (deck choices): Warlord's built-in decks, ~0.3 MB each parsed
        self.lock = threading.Lock()  # states are read in threads too (a web page, a picture drawn in a thread)

    def load(self, model: type[M], text: str) -> M | None:
        """``text`` parsed with the field's kept value, or None when the fast way does not apply."""
        start = text.find(self.opening)
        if start < 0:
            return None
        body = start + len(self.opening)
        end = text.find(self.closing, body)
        if end < 0:
            return None
        part = text[body:end]
        with self.lock:
            shared = self.kept.get(part)
            if shared is not None:
                self.kept.move_to_end(part)
        if shared is None:
            try:
                shared = self.adapter.validate_json(part)
            except ValidationError:
                return None
            with self.lock:
                self.kept[part] = shared
                if len(self.kept) > self.limit:
                    self.kept.popitem(last=False)
        try:
            state = model.model_validate_json(text[:body] + "{}" + text[end:])
        except ValidationError:
            return None
        if getattr(state, self.name):  # the key found was not the top-level field's
            return None
        setattr(state, self.name, dict(shared))
        return state


_SHARED: dict[type[BaseModel], SharedPart] = {}
"""Each state model's shared part, for texts that are not a stored state (``parse_json``)."""


def parse_json(model: type[M], text: str) -> M:
    """``model.model_validate_json(text)``, with the model's shared part kept and shared when its schema
    names one: a render worker reads each picture's view this way (a Warlord view holds the definitions of
    the cards it shows). Raises what ``model_validate_json`` raises."""
    shared = _SHARED.get(model)
    fast = shared.load(model, text) if shared is not None else None
    return fast if fast is not None else model.model_validate_json(text)


@dataclass(frozen=True)
class StateSchema(Generic[M]):
    """The current state model of an engine, its version and the upgrades from older ones."""

    model: type[M]
    version: int
    upgrades: Mapping[int, Upgrade] = field(default_factory=dict)
    shared: SharedPart | None = None  # a field parsed once per distinct text (``SharedPart``)

    def __post_init__(self) -> None:
        missing = [n for n in range(1, self.version) if n not in self.upgrades]
        extra = [n for n in self.upgrades if not 1 <= n < self.version]
        if missing or extra:
            raise ValueError(f"upgrade steps must cover 1..{self.version - 1}: missing {missing}, extra {extra}")
        if self.shared is not None:
            _SHARED[self.model] = self.shared

    def load(self, raw: str | bytes) -> M:
        """Parse a stored state of any known version into the current model."""
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if text.startswith(f'{{"schema_version":{self.version},'):  # what this code saves: no upgrade
            fast = self.shared.load(self.model, text) if self.shared is not None else None
            return fast if fast is not None else self._validate_json(text)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise StateUnreadable("not_json", detail=str(exc)[:120]) from None
        if not isinstance(data, dict):
            raise StateUnreadable("not_json", detail=type(data).__name__)
        found = data.get("schema_version", 1)
        if not isinstance(found, int) or isinstance(found, bool) or found < 1:
            raise StateUnreadable("bad_version", found=str(found)[:20], known=self.version)
        if found > self.version:
            raise StateUnreadable("newer", found=found, known=self.version)
        return self.validate(self.upgrade(data, found))

    def upgrade(self, data: dict[str, Any], found: int) -> dict[str, Any]:
        """Apply every step from ``found`` to the current version (each step is pure)."""
        for step in range(found, self.version):
            try:
                data = self.upgrades[step](dict(data))
            except Exception as exc:  # an upgrade that cannot read this old state
                raise StateUnreadable("upgrade_failed", found=found, step=step,
                                      detail=f"{type(exc).__name__}: {exc}"[:120]) from None
            data["schema_version"] = step + 1
        return data

    def validate(self, data: dict[str, Any]) -> M:
        try:
            return self.model.model_validate(data)
        except ValidationError as exc:
            raise StateUnreadable("invalid", detail=_first_error(exc)) from None

    def _validate_json(self, raw: str | bytes) -> M:
        try:
            return self.model.model_validate_json(raw)
        except ValidationError as exc:
            raise StateUnreadable("invalid", detail=_first_error(exc)) from None
