"""gm.workers.render_pool.rehearse: a render worker draws each game's warm-up positions once more before it
says it is ready (issue 28).

A worker forked from the warm fork server shares the warm-up's pages copy-on-write. Its first picture of
a game wrote to thousands of them (the reference counts of the masks, fonts and layers it read): ~4,000
page faults in a fresh worker's first Warlord picture, against ~200 in the next one. The counts here are
the kernel's minor page faults, not times.
"""

from __future__ import annotations

import gc
import logging
import os
import resource
from typing import Any

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.warlord.engine import WarlordEngine
from gm import presenters
from gm.games.warlord.presenter import WarlordPresenter
from gm.workers import render_pool
from renderers import kit_warm


def _setup(names: tuple[str, str], decks: tuple[str, str]) -> Setup:
    return Setup(seats=[SeatSetup(seat=n, user_id=n, name=name, config={"deck": deck})
                        for n, (name, deck) in enumerate(zip(names, decks, strict=True))], options={})


def test_a_playout_keeps_its_first_and_last_positions_as_the_rehearsal() -> None:
    views = list(kit_warm.playout(WarlordEngine(), _setup(("warm", "up"), ("stonewardens", "ashen_horde"))))
    assert len(views) >= 3
    assert kit_warm.REHEARSALS["warlord"] == [views[0], views[-1]]
    assert kit_warm.REHEARSALS["warlord"][0] is views[0] and kit_warm.REHEARSALS["warlord"][1] is views[-1]


class _Tripping:
    system = "tv_rehearsal_trips"

    def render(self, view: Any, **_: Any) -> bytes:
        raise ValueError("the renderer tripped")


def test_a_rehearsal_that_fails_is_logged_and_the_other_games_are_still_drawn(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    start = next(kit_warm.playout(WarlordEngine(), _setup(("warm", "up"), ("stonewardens", "ashen_horde"))))
    monkeypatch.setattr(kit_warm, "REHEARSALS", {"warlord": [start], _Tripping.system: [start],
                                                 "tv_no_presenter": [start]})
    monkeypatch.setattr(presenters, "get", lambda system: {"warlord": WarlordPresenter(),
                                                          _Tripping.system: _Tripping()}.get(system))
    with caplog.at_level(logging.ERROR, logger="gm.workers.render_pool"):
        drawn = render_pool.rehearse()
    assert drawn == ["warlord"]
    assert any("rehearsal of tv_rehearsal_trips failed" in r.getMessage() for r in caplog.records)


def _faults_of_a_first_picture(rehearsed: bool, position: Any) -> int:
    """In a child forked from this warm process, as a render worker forks from the fork server: the minor
    page faults of its first picture of a table the warm-up never drew."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        try:
            os.close(read)
            gc.freeze()  # as the worker does before its first job
            if rehearsed:
                render_pool.rehearse()
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            render_pool._render_here(WarlordPresenter(), position, "en", ["alice", "bob"], ["alice plays."])
            os.write(write, str(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        found = answer.read()
    os.waitpid(pid, 0)
    return int(found)


def test_a_rehearsed_worker_pays_far_fewer_page_faults_at_its_first_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    presenter = presenters.get("warlord")
    assert presenter is not None
    other = list(kit_warm.playout(WarlordEngine(), _setup(("alice", "bob"), ("ashen_horde", "stonewardens")),
                                  seed=5, steps=30))[-1]  # a table the warm-up never drew
    monkeypatch.setattr(kit_warm, "REHEARSALS", {})
    presenter.warm_up()  # type: ignore[attr-defined]  (what the fork server draws; it keeps the rehearsal)
    assert len(kit_warm.REHEARSALS["warlord"]) == 2
    gc.collect()
    plain = _faults_of_a_first_picture(False, other)
    rehearsed = _faults_of_a_first_picture(True, other)
    print(f"page faults of the first picture: {plain} plain, {rehearsed} rehearsed")
    # Measured: ~3,750 faults without the rehearsal, ~2,060 after it (~4,050 and ~1,400 for the first
    # picture of `bench/acts.py`'s table, a start position like the rehearsal's first).
    assert rehearsed < plain * 0.75, (plain, rehearsed)


def test_the_rehearsal_draws_as_a_job_comes_its_view_read_back_with_names_and_a_log(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: a worker's first job reads its view back from JSON (``state_versions.parse_json``: a Warlord
    view's card definitions are parsed once per deck choice) and draws players' names and a log; the rehearsal
    goes the same way, so those first reads are not the first table's."""
    from engines.core import state_versions

    start = next(kit_warm.playout(WarlordEngine(), _setup(("warm", "up"), ("stonewardens", "ashen_horde"))))
    monkeypatch.setattr(kit_warm, "REHEARSALS", {"warlord": [start]})
    read: list[str] = []
    parse = state_versions.parse_json
    monkeypatch.setattr(state_versions, "parse_json", lambda model, text: read.append(text) or parse(model, text))
    drawn: list[tuple[list[str], list[str] | None]] = []
    here = render_pool._render_here

    def keep(presenter: Any, view: Any, lang: str, seat_names: list[str], log_lines: list[str] | None = None,
             *rest: Any) -> bytes | None:
        drawn.append((seat_names, log_lines))
        return here(presenter, view, lang, seat_names, log_lines, *rest)

    monkeypatch.setattr(render_pool, "_render_here", keep)
    assert render_pool.rehearse() == ["warlord"]
    assert read == [start.model_dump_json()]
    assert drawn == [(list(render_pool.REHEARSAL_NAMES), list(render_pool.REHEARSAL_LOG))]
