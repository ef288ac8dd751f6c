"""Timestamps as SQLite writes them (``strftime('%Y-%m-%dT%H:%M:%fZ')``), so strings compare in time order."""

from __future__ import annotations

from datetime import UTC, datetime


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_iso(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
