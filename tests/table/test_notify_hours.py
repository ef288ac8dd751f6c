"""Quiet hours and the daily digest in a member's own time zone (issue 32.4): the moments ``route`` picks.

No database: ``now`` is injected, so midnight, other zones and daylight-saving changes are exact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.core.errors import TavoloError
from gm.table.notify import DIGEST_HOUR, LATER, NONE, Prefs, next_digest, parse_quiet, quiet_until, route

ROME = Prefs(quiet=(22, 8), tz="Europe/Rome")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_quiet_hours_run_across_midnight_in_the_members_zone() -> None:
    # January: Rome is UTC+1. 23:30 in Rome is 22:30 UTC; quiet until 08:00 Rome = 07:00 UTC next day.
    assert quiet_until(ROME, utc(2024, 1, 15, 22, 30)) == utc(2024, 1, 16, 7)
    assert quiet_until(ROME, utc(2024, 1, 16, 6, 59)) == utc(2024, 1, 16, 7)  # 07:59 in Rome, after midnight
    assert quiet_until(ROME, utc(2024, 1, 16, 7)) is None  # 08:00 in Rome: over
    assert quiet_until(ROME, utc(2024, 1, 15, 20, 59)) is None  # 21:59 in Rome: not yet
    assert quiet_until(ROME, utc(2024, 1, 15, 21)) == utc(2024, 1, 16, 7)  # 22:00 in Rome


def test_the_same_hours_mean_other_moments_in_another_zone() -> None:
    new_york = Prefs(quiet=(22, 8), tz="America/New_York")  # UTC-5 in January
    moment = utc(2024, 1, 15, 22, 30)  # 17:30 in New York, 23:30 in Rome
    assert quiet_until(new_york, moment) is None and quiet_until(ROME, moment) is not None
    assert quiet_until(new_york, utc(2024, 1, 16, 4)) == utc(2024, 1, 16, 13)  # 23:00 → 08:00 New York


def test_quiet_hours_within_one_day_and_across_a_daylight_saving_change() -> None:
    afternoon = Prefs(quiet=(13, 15), tz="Europe/Rome")
    assert quiet_until(afternoon, utc(2024, 7, 1, 11, 30)) == utc(2024, 7, 1, 13)  # summer: UTC+2
    assert quiet_until(afternoon, utc(2024, 7, 1, 13, 0)) is None
    # The night Rome moves to summer time (31 March 2024, 02:00 → 03:00): 08:00 that morning is 06:00 UTC.
    assert quiet_until(ROME, utc(2024, 3, 30, 22)) == utc(2024, 3, 31, 6)


def test_the_daily_digest_goes_when_quiet_hours_end_or_at_nine() -> None:
    assert next_digest(ROME, utc(2024, 1, 15, 12)) == utc(2024, 1, 16, 7)  # 08:00 Rome, next morning
    plain = Prefs(digest=True, tz="Asia/Tokyo")  # UTC+9, no quiet hours: 09:00 Tokyo = 00:00 UTC
    assert DIGEST_HOUR == 9
    assert next_digest(plain, utc(2024, 1, 15, 23, 59)) == utc(2024, 1, 16, 0)
    assert next_digest(plain, utc(2024, 1, 16, 0)) == utc(2024, 1, 17, 0)  # 09:00 exactly: the next day's


def test_route_puts_vacation_first_then_none_then_quiet_then_digest() -> None:
    night = utc(2024, 1, 15, 23)  # midnight in Rome
    back = utc(2024, 1, 20)
    assert route(Prefs(mode="none"), night, back) == (LATER, back)  # away: held, whatever the mode
    assert route(Prefs(mode="none", quiet=(22, 8), tz="Europe/Rome"), night) == (NONE, None)
    assert route(Prefs(mode="dm", quiet=(22, 8), tz="Europe/Rome"), night) == (LATER, utc(2024, 1, 16, 7))
    noon = utc(2024, 1, 15, 11)
    assert route(Prefs(mode="dm", digest=True, tz="Europe/Rome"), noon) == (LATER, utc(2024, 1, 16, 8))
    assert route(Prefs(mode="dm", digest=True, tz="Europe/Rome"), noon, owed=True) == ("dm", None)
    assert route(Prefs(), noon, utc(2024, 1, 1)) == ("mention", None)  # a vacation already over


@pytest.mark.parametrize("text", ["22", "22-22", "24-08", "a-b", "22-08-01", ""])
def test_bad_quiet_hours_are_refused(text: str) -> None:
    with pytest.raises(TavoloError) as refused:
        parse_quiet(text)
    assert refused.value.key == "notify.bad_quiet"


def test_quiet_hours_read_as_players_type_them() -> None:
    assert parse_quiet("22-08") == (22, 8) and parse_quiet(" 22:00 – 8:00 ") == (22, 8) and parse_quiet("off") is None


@given(start=st.integers(0, 23), end=st.integers(0, 23), zone=st.sampled_from(
    ["UTC", "Europe/Rome", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]),
    moment=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC)))
def test_a_quiet_moment_ends_within_a_day_at_the_chosen_hour(start: int, end: int, zone: str, moment: datetime) -> None:
    """Property: quiet hours always end, later than now, within a day (plus a DST hour), at ``end`` o'clock."""
    if start == end:
        return
    prefs = Prefs(quiet=(start, end), tz=zone)
    until = quiet_until(prefs, moment)
    if until is None:
        return
    assert moment < until <= moment + timedelta(hours=25)
    local = until.astimezone(prefs.zone)
    assert local.minute in (0, 30) and quiet_until(prefs, until) is None
