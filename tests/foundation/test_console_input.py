"""The console reads a typed line in a thread of its own (issue 31: ``--console --web`` serves pages while
nobody types): the event loop keeps running during the wait, the end of input ends the lines, and an error
of the reader reaches the awaiting code."""

from __future__ import annotations

import asyncio
import threading

import pytest

from console.runner import read_line


async def test_the_loop_keeps_running_while_a_line_is_awaited() -> None:
    typed = threading.Event()
    ticks = 0

    def slow_input(prompt: str) -> str:
        assert prompt == "alice> "
        typed.wait(5)
        return "/roll 1d6"

    async def ticker() -> None:
        nonlocal ticks
        while not typed.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    running = asyncio.ensure_future(ticker())
    reading = asyncio.ensure_future(read_line("alice> ", slow_input))
    await asyncio.sleep(0.2)
    assert not reading.done() and ticks >= 5  # other work went on during the wait
    typed.set()
    assert await reading == "/roll 1d6"
    await running


async def test_end_of_input_and_errors() -> None:
    def closed(_prompt: str) -> str:
        raise EOFError

    def broken(_prompt: str) -> str:
        raise OSError("terminal gone")

    assert await read_line("> ", closed) is None
    with pytest.raises(OSError, match="terminal gone"):
        await read_line("> ", broken)
