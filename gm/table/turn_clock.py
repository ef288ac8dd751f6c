"""The turn clock (issue 32.6), as on Board Game Arena: ``clock:48h+7d`` gives every seat 48 hours for each
move and a bank of 7 days that only drains once a move's own time is spent.

Readings this table takes (docs/ARCHITECTURE.md §5 "Turn clock"):

- A *move* is one wait: from the moment the game starts waiting for a seat to the moment it stops (so a
  Krosmaster turn of many activations, or a faction's shared turn, is one move). Each wait starts with the
  whole per-move time; what a wait uses beyond it comes out of the bank, which never refills.
- Time the seat's member is on vacation (``/game away``) during a wait is not counted, up to the server's
  ``max_away_days`` per wait.
- At zero the table's absent policy plays for the seat at once (forfeit, autopilot or skip): with a clock
  the policy's ``after:`` is not used, the clock decides when. With ``absent:wait`` nothing is played for a
  human who did not choose it: the channel is told once per wait that the seat is out of time, and the GM
  may pick another policy with ``/gm absent``.

Pure: no I/O (the store side is ``gm.table.clock_sync``). ``clock`` is a platform option, like ``absent``:
every game takes it and no engine sees it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from common.i18n import t
from engines.core.errors import TavoloError
from gm.table.absent_policy import MAX_AFTER, MIN_AFTER, UNITS, duration_phrase, duration_text, parse_duration

CLOCK_OPTION = "clock"
NO_CLOCK = ("off", "none", "no")
_SPLIT = re.compile(r"^\s*([^+\s]+)\s*(?:\+\s*([^+\s]+)\s*)?$")


@dataclass(frozen=True)
class Clock:
    """Time per move and the bank every seat starts with."""

    per_move: timedelta
    bank: timedelta

    @property
    def text(self) -> str:
        """As a player types it: ``48h+7d``."""
        return f"{duration_text(self.per_move)}+{duration_text(self.bank) if self.bank else '0'}"

    def words(self, lang: str) -> str:
        """As a player reads it: "48 h per move + 7 d bank"."""
        bank = t("game.clock.no_bank", lang) if not self.bank else _phrase(self.bank, lang)
        return t("game.clock.described", lang, move=_phrase(self.per_move, lang), bank=bank)


def _phrase(value: timedelta, lang: str) -> str:
    phrase = duration_phrase(value)
    return t(phrase.key, lang, **phrase.params)


def parse_clock(text: Any) -> Clock:
    """``48h+7d`` (``48h`` alone: no bank; ``+0`` too) → a ``Clock``, or an error that says how to write one."""
    raw = str(text).strip().lower()
    match = _SPLIT.match(raw)
    if match is None:
        raise _bad(raw)
    try:
        per_move = parse_duration(match.group(1))
        bank_text = match.group(2)
        bank = timedelta(0) if bank_text in (None, "0") else parse_duration(bank_text)
    except TavoloError as exc:
        raise _bad(raw) from exc
    return Clock(per_move, bank)


def _bad(raw: str) -> TavoloError:
    return TavoloError("game.clock.bad", value=raw[:30], min=duration_phrase(MIN_AFTER), max=duration_phrase(MAX_AFTER),
                       units=", ".join(sorted(UNITS)))


def take(options: dict[str, Any]) -> dict[str, str]:
    """Remove ``clock`` from a lobby's options (engines never see it) and return it checked and normalized."""
    if CLOCK_OPTION not in options:
        return {}
    value = options.pop(CLOCK_OPTION)
    if str(value).strip().lower() in NO_CLOCK:
        return {}
    return {CLOCK_OPTION: parse_clock(value).text}


def clock_of(options: dict[str, Any]) -> Clock | None:
    """The table's clock from its stored options; None without one (or with a value this code cannot read)."""
    value = options.get(CLOCK_OPTION)
    if value is None:
        return None
    try:
        return parse_clock(value)
    except TavoloError:
        return None


# ----------------------------------------------------------------------------------- the arithmetic
def overlap(spans: list[tuple[datetime, datetime]], start: datetime, end: datetime, cap: timedelta) -> timedelta:
    """Time within ``[start, end)`` covered by the member's vacations, at most ``cap`` (the server's maximum)."""
    total = timedelta(0)
    last = start
    for begin, finish in sorted(spans):
        begin, finish = max(begin, last), min(finish, end)
        if finish > begin:
            total += finish - begin
            last = finish
    return min(total, cap)


def used(since: datetime, now: datetime, away: timedelta) -> timedelta:
    """The clock time a wait has used: the time since it began, less the time away."""
    return max(timedelta(0), now - since - away)


def bank_after(clock: Clock, bank: timedelta, since: datetime, now: datetime, away: timedelta) -> timedelta:
    """The bank left when a wait ends at ``now``: only what went beyond the per-move time is taken."""
    over = used(since, now, away) - clock.per_move
    return max(timedelta(0), bank - max(timedelta(0), over))


def zero_at(clock: Clock, bank: timedelta, since: datetime, away: timedelta) -> datetime:
    """When a wait runs out, with the time away counted so far left out."""
    return since + clock.per_move + bank + away


def left(clock: Clock, bank: timedelta, since: datetime, now: datetime, away: timedelta) -> timedelta:
    """The time a waiting seat has left at ``now`` (per-move time, then bank); zero or less: out of time."""
    return clock.per_move + bank - used(since, now, away)


def span_text(value: timedelta, lang: str) -> str:
    """A length as players read it, to the hour from a day on ("6 d 4 h"), else to the minute ("47 h", "35 min")."""
    minutes = max(0, int(value.total_seconds() // 60))
    days, hours = divmod(minutes // 60, 24)
    if days:
        text = t("game.absent.unit.d", lang, n=days)
        return text + (" " + t("game.absent.unit.h", lang, n=hours) if hours else "")
    if minutes >= 60:
        return t("game.absent.unit.h", lang, n=minutes // 60)
    return t("game.absent.unit.m", lang, n=minutes)


def when_text(moment: datetime) -> str:
    """A moment as Discord shows it to each reader, relative ("in 2 days") and always current."""
    return f"<t:{int(moment.timestamp())}:R>"
