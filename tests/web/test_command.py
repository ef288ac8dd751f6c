"""``/game web`` through the console (the real cog and command tree): the private link opens the asker's
seat, the public one the spectators' view, ``revoke`` ends them all, and the replay choice is the lobby's."""

from __future__ import annotations

import re

from console.runner import Console
from tests.fakes import RaceEngine
from tests.web.conftest import open_web

URL = re.compile(r"http://127\.0\.0\.1:1(/g/[A-Za-z0-9_-]+)")


def _output(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined,no-any-return]


async def test_game_web_gives_links_revokes_them_and_says_when_the_pages_are_off(console: Console,
                                                                                race: RaceEngine) -> None:
    await console.execute("/game web")
    assert "Web pages are off on this bot" in _output(console)
    web = await open_web(console.bot.app)
    try:
        for line in ("/game new race", "/game web which:replay_off", "/as bob", "/game join",
                     "/game web which:replay_on", "/as alice", "/game start", "/game web which:replay_on"):
            await console.execute(line)
        out = _output(console)
        assert "its replay will keep every hand hidden" in out
        assert "Only the lobby's host or a GM can make the replay choice" in out
        assert "The replay choice is made in the lobby" in out
        await console.execute("/game web")
        await console.execute("/game web which:public")
        await console.execute("/as carol")
        await console.execute("/game web")
        out = _output(console)
        assert "Your private link" in out and "The public link" in out and "You have no seat in this game" in out
        private, public, carol = (URL.findall(out.split(words)[-1])[0] for words in (
            "Your private link", "The public link", "You have no seat"))
        assert "Private view of alice" in await (await web.client.get(private)).text()
        assert "Public view" in await (await web.client.get(public)).text()
        assert "Public view" in await (await web.client.get(carol)).text()
        await console.execute("/game web which:revoke")
        assert "Only a player of this game or a GM can revoke" in _output(console)
        await console.execute("/as alice")
        await console.execute("/lang it")
        await console.execute("/game web which:revoke")
        assert "sono revocati" in _output(console)
        for path in (private, public, carol):
            assert (await web.client.get(path)).status == 404
    finally:
        await web.client.close()
