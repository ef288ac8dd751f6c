"""How the harness tells that a line broke something: every WARNING+ log record is
captured, an ERROR (or the bot's own "unexpected error" logger) is a failure, and each
failure gets a signature — exception type and innermost project frame — so one bug
reported a thousand times reads as one.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path
from typing import Any

FAIL_LEVEL = logging.ERROR
ERRORS_LOGGER = "tavolo.errors"


def unexpected_prefixes() -> list[str]:
    """The fixed part of ``common.unexpected`` in every shipped language."""
    from common.i18n import SUPPORTED, catalog

    prefixes = []
    for lang in SUPPORTED:
        text = catalog(lang).get("common.unexpected", "")
        head = text.split("{", 1)[0].strip()
        if head:
            prefixes.append(head[:60])
    return prefixes


class LogCapture(logging.Handler):
    """Every WARNING+ record from any logger while the harness runs."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def failure_signature(exc_info: Any, fallback: str) -> str:
    """Exception type and the innermost frame inside the project: groups repeats of one bug."""
    if not exc_info or exc_info[0] is None:
        return fallback
    kind, _value, tb = exc_info
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if "/site-packages/" not in f.filename and "/lib/python" not in f.filename]
    frame = (ours or frames or [None])[-1]
    where = f"{Path(frame.filename).name}:{frame.lineno} {frame.name}" if frame else "?"
    return f"{kind.__name__} at {where}"  # the message is in the traceback; one bug, one group


def format_exc_info(exc_info: Any) -> str:
    if not exc_info or exc_info[0] is None:
        return ""
    return "".join(traceback.format_exception(*exc_info))
