"""Who sees what (issue 31.3), on real games: each game's full console script (seed 1) is played, then
every position of its timeline is served to a public link, to a seat's link and to an expired link.

What counts as hidden at a position: every text value of the full state that appears nowhere in the
public view (``view(state, None)``): a hand, a deck's order, a secret bar, a secret army, a hidden pick.
The public page's words and the view its picture is drawn from must hold none of them, at any step; its
log must hold no line of an event private to some seats; an expired link opens nothing. Each game must
have such hidden values at some step (else the check would prove nothing), and a seat's link must show
its own panel, so the checks are seen to bite.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from db import games as repo
from engines.core.events import Event
from gm.table.replies import event_text
from tests.conftest import ConsoleOf
from tests.table.test_image_budget import SCRIPTS
from tests.web.conftest import open_web
from web.limits import Rate
from web.links import Link, sign
from web.pages import Audience, view_for
from web.service import WebConfig

MIN_LENGTH = 4  # shorter values ("red", "1") are words any page may use for other reasons
# A hidden value that names one thing (a card's id, a name) rather than a kind of things ("initiative", "mage",
# which the page says for other reasons): an id has an underscore or a digit, a name a space.
IDENTITY = re.compile(r"[_\d ]")


def leaves(value: Any, found: set[str] | None = None) -> set[str]:
    found = set() if found is None else found
    if isinstance(value, dict):
        for item in value.values():
            leaves(item, found)
    elif isinstance(value, list):
        for item in value:
            leaves(item, found)
    elif isinstance(value, str) and len(value) >= MIN_LENGTH:
        found.add(value)
    return found


def differing(full: Any, public: Any) -> list[Any]:
    """The values of the full state that the public view does not show as they are (hidden or masked)."""
    if isinstance(full, dict) and isinstance(public, dict):
        return [v for k in full for v in (differing(full[k], public[k]) if k in public else [full[k]])]
    if isinstance(full, list) and isinstance(public, list) and len(full) == len(public):
        return [v for a, b in zip(full, public, strict=True) for v in differing(a, b)]
    return [] if full == public else [full]


@pytest.mark.parametrize("system", sorted(SCRIPTS))
async def test_a_public_or_expired_link_never_shows_hidden_information(console_of: ConsoleOf, system: str) -> None:
    console = await console_of(1)
    for line in SCRIPTS[system].read_text(encoding="utf-8").splitlines():
        if line.strip():
            await console.execute(line)
    assert console.errors == 0
    app = console.bot.app
    game = await repo.last_game(app.store.conn, console.channel.id)
    assert game is not None
    unlimited = Rate(burst=1e9, per_second=1e9)  # this test walks every step at once; limits are tested apart
    web = await open_web(app, WebConfig(port=1, per_ip=unlimited, per_token=unlimited))
    try:
        await web.service.set_replay_reveal(game.id, False)  # the opened replay is checked below
        public_path = await web.path(game.id, None)
        seat_path = await web.path(game.id, 0)
        timeline = await web.service.timelines.get(game.id)
        assert timeline is not None and timeline.count > 10
        engine = timeline.engine
        public_log = await (await web.client.get(f"{public_path}/timeline.json?lang=en")).json()
        public_lines = {line for entry in public_log["log"] for line in entry["lines"]}
        html_of = {timeline.count - 1: await (await web.client.get(f"{public_path}?lang=en")).text()}
        private_only = set()
        for row in timeline.rows:
            events = [Event.model_validate(e) for e in row.events]
            shown = {event_text(e, "en", system) for e in events if not e.private_to}
            private_only |= {text for e in events if e.private_to and (text := event_text(e, "en", system))} - shown
        assert not (public_lines & private_only), sorted(public_lines & private_only)[:3]

        states = [timeline.state(index) for index in range(timeline.count)]
        publics = [engine.view(state, None) for state in states]
        said = set().union(*(leaves(json.loads(p.model_dump_json())) for p in publics))  # public at some step
        steps_with_secrets, seat_panels, sample = 0, 0, set()
        for index, (state, public) in enumerate(zip(states, publics, strict=True)):
            masked = differing(json.loads(state.model_dump_json()), json.loads(public.model_dump_json()))
            steps_with_secrets += bool(masked)
            drawn = view_for(timeline, timeline.state(index), Audience(seat=None))  # what the picture is drawn from
            assert drawn.model_dump_json() == public.model_dump_json(), index
            secret = {v for v in leaves(masked) - said if IDENTITY.search(v)}  # never public: a page may not hold them
            sample |= set(list(secret)[:2])
            words = await (await web.client.get(f"{public_path}/step/{index}.json?lang=en")).json()
            assert words["panels"] == []
            text = json.dumps(words, ensure_ascii=False) + html_of.get(index, "")
            leaked = [v for v in secret if re.search(rf"(?<!\w){re.escape(v)}(?!\w)", text)]
            assert not leaked, (index, leaked[:3])
            mine = await (await web.client.get(f"{seat_path}/step/{index}.json?lang=en")).json()
            seat_panels += bool(mine["panels"])
        print(f"{system}: {timeline.count} positions, {steps_with_secrets} with hidden values, "
              f"{len(private_only)} private log lines kept off the public log; never-public values such as "
              f"{sorted(sample)[:4]}")
        assert steps_with_secrets > 0, "no hidden value at any step: this check would prove nothing"
        assert seat_panels > 0, "a seat's link never showed its own panel"

        key = await web.service.key()
        expired = sign(key, Link(game.id, None, int(time.time()) - 1, 0))
        expired_seat = sign(key, Link(game.id, 0, int(time.time()) - 1, 0))
        for token in (expired, expired_seat):
            for suffix in ("", "/timeline.json", "/step/0.json", f"/step/{timeline.count - 1}.json", "/img/0.png"):
                response = await web.client.get(f"/g/{token}{suffix}")
                assert response.status == 404 and await response.text() == "404: Not Found"

        await web.service.set_replay_reveal(game.id, True)  # the table's choice: the full replay, once over
        revealed = await (await web.client.get(f"{public_path}/step/{timeline.count - 1}.json?lang=en")).json()
        assert len(revealed["panels"]) == len(timeline.seats)
    finally:
        await web.client.close()
