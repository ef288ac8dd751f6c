"""A table's policy for absent players (issue 32.2), read from the game's options: what the table does
for a seat that has not moved for a while.

- ``absent:wait`` (the default): reminders only;
- ``absent:autopilot after:48h``: the seat plays its engine's safe default moves (``autopilot``);
- ``absent:skip after:48h``: the seat passes where the rules let it pass, and waits elsewhere;
- ``absent:forfeit after:7d``: the seat resigns, as ``/game resign`` does.

``absent`` and ``after`` are platform options, like ``dice`` and ``pack``: every game takes them, no
engine sees them. Old WoW board game tables that set ``autopilot_hours:N`` (issue 17) read as
``absent:autopilot after:Nh``. Pure: no I/O, so the lobby, the GM's command and the runner share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from common.i18n import Phrase
from engines.core.errors import TavoloError

ABSENT_OPTION = "absent"
AFTER_OPTION = "after"
LEGACY_OPTION = "autopilot_hours"  # the WoW board game's own option before issue 32
OPTIONS = (ABSENT_OPTION, AFTER_OPTION)
POLICIES = ("wait", "autopilot", "skip", "forfeit")
DEFAULT_AFTER = {"autopilot": timedelta(hours=48), "skip": timedelta(hours=48), "forfeit": timedelta(days=7)}
# Long enough that a player on a short break is never played for, short enough for a quick test table.
MIN_AFTER = timedelta(minutes=10)
MAX_AFTER = timedelta(days=60)
UNITS = {"m": timedelta(minutes=1), "min": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1),
         "g": timedelta(days=1)}  # "g": giorni, as an Italian player writes days
_DURATION = re.compile(r"^\s*(\d{1,6}(?:[.,]\d{1,3})?)\s*([a-z]{1,3})\s*$")


@dataclass(frozen=True)
class Policy:
    """What the table does for an absent seat; ``after`` is None for ``wait``."""

    name: str = "wait"
    after: timedelta | None = None

    @property
    def acts(self) -> bool:
        return self.name != "wait" and self.after is not None

    def phrase(self) -> Phrase:
        """The policy as players read it ("autopilot after 48 h"), in the reader's language."""
        if not self.acts:
            return Phrase("game.absent.described.wait")
        assert self.after is not None
        return Phrase(f"game.absent.described.{self.name}", {"after": duration_phrase(self.after)})


def parse_duration(text: Any) -> timedelta:
    """``90m``, ``48h``, ``7d`` (``7g``, ``1.5d``) → a duration within ``MIN_AFTER``–``MAX_AFTER``, or a clear error."""
    raw = str(text).strip().lower()
    match = _DURATION.match(raw)
    unit = UNITS.get(match.group(2)) if match else None
    if match is None or unit is None:
        raise _bad_duration(raw)
    value = unit * float(match.group(1).replace(",", "."))
    if not MIN_AFTER <= value <= MAX_AFTER:
        raise _bad_duration(raw)
    return value


def _bad_duration(raw: str) -> TavoloError:
    return TavoloError("game.absent.bad_duration", value=raw[:20], min=duration_phrase(MIN_AFTER),
                       max=duration_phrase(MAX_AFTER))


def duration_text(value: timedelta) -> str:
    """A duration as a player types it: whole days from three days on (``7d``), else whole hours (``48h``,
    as players count a day or two), else minutes (``90m``)."""
    minutes = round(value.total_seconds() / 60)
    if minutes % (24 * 60) == 0 and minutes >= 3 * 24 * 60:
        return f"{minutes // (24 * 60)}d"
    if minutes % 60 == 0:
        return f"{minutes // 60}h"
    return f"{minutes}m"


def duration_phrase(value: timedelta) -> Phrase:
    """A duration as a player reads it ("48 h", "7 d"; "7 g" in Italian)."""
    text = duration_text(value)
    return Phrase(f"game.absent.unit.{text[-1]}", {"n": text[:-1]})


def normalize(policy: Any, after: Any) -> dict[str, str]:
    """The options that store a policy (``{"absent": "autopilot", "after": "48h"}``; nothing for ``wait``),
    checked: a misspelt policy or duration is refused in words, never ignored."""
    name = str(policy if policy is not None else "wait").strip().lower()
    if name not in POLICIES:
        raise TavoloError("game.absent.bad_policy", value=name[:20])
    if name == "wait":
        if after not in (None, ""):
            raise TavoloError("game.absent.after_without_policy", value=str(after)[:20])
        return {}
    duration = parse_duration(after) if after not in (None, "") else DEFAULT_AFTER[name]
    return {ABSENT_OPTION: name, AFTER_OPTION: duration_text(duration)}


def take(options: dict[str, Any]) -> dict[str, str]:
    """Remove ``absent``/``after`` from a lobby's options (engines never see them) and return them checked."""
    if not any(name in options for name in OPTIONS):
        return {}
    return normalize(options.pop(ABSENT_OPTION, None), options.pop(AFTER_OPTION, None))


def policy_of(options: dict[str, Any]) -> Policy:
    """The table's policy from its stored options; an old ``autopilot_hours`` table reads as autopilot."""
    name = options.get(ABSENT_OPTION)
    if name in POLICIES and name != "wait":
        try:
            return Policy(str(name), parse_duration(options.get(AFTER_OPTION) or duration_text(DEFAULT_AFTER[name])))
        except TavoloError:  # a stored value this code cannot read: the table waits, as by default
            return Policy()
    if name is None:
        try:
            hours = float(options.get(LEGACY_OPTION) or 0)
        except (TypeError, ValueError):
            hours = 0.0
        if hours > 0:
            return Policy("autopilot", timedelta(hours=hours))
    return Policy()
