"""Reading what a console player types: the lines (off the event loop) and their words.

Split from ``runner`` (which drives the fake Discord) because reading a line is a job of its own: a
terminal read must never block the loop, a pasted walkthrough keeps its ``# notes``, and a button's label
is taken as written.
"""

from __future__ import annotations

import asyncio
import shlex
import threading
from collections.abc import Callable


def strip_comment(line: str) -> str:
    """Drop a ``# comment`` that starts after a space, outside quotes (as in a shell script),
    so a pasted walkthrough with notes at the end of its lines runs as written."""
    quote: str | None = None
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def words(line: str) -> list[str]:
    """The line's words as a shell reads them, except a button's label: ``/click Tutto all'Eroe`` is taken
    as written (an apostrophe is no quote there), quotes around the whole label allowed."""
    head, _, rest = line.partition(" ")
    if head.lower() not in ("/click", "/pick"):
        return shlex.split(line)
    rest = rest.strip()
    if len(rest) >= 2 and rest[0] == rest[-1] and rest[0] in "'\"":
        rest = rest[1:-1]
    return [head, *rest.split()]


async def read_line(prompt: str, read: Callable[[str], str] = input) -> str | None:
    """One ``read(prompt)`` off the loop; None at the end of input. A daemon thread, not the loop's
    executor, so that Ctrl-C ends the console at once instead of waiting for a line that never comes."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str | None] = loop.create_future()

    def settle(value: str | None, error: BaseException | None) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(value)

    def reader() -> None:
        try:
            value: str | None = read(prompt)
        except EOFError:
            value = None
        except BaseException as exc:  # handed to the loop, which raises it where the line was awaited
            loop.call_soon_threadsafe(settle, None, exc)
            return
        loop.call_soon_threadsafe(settle, value, None)

    threading.Thread(target=reader, name="console-input", daemon=True).start()
    return await answer
