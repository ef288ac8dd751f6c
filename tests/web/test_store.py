"""Migration 015 (db/web_links.py) on SQLite and PostgreSQL: revocation generations, the replay choice,
the signing key shared by every process on one database, and the timeline's history rows."""

from __future__ import annotations

from db import games as repo
from db import web_links
from gm.app import App
from gm.settings import Settings
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RaceEngine


async def test_links_policy_revocation_and_key_on_both_backends(any_settings: Settings, race: RaceEngine) -> None:
    app = await App.open(any_settings, seed=3)
    try:
        await app.tables.new(TABLE, ALICE, "race", "target:20")
        await app.tables.join(TABLE, BOB)
        await app.tables.start(TABLE, ALICE)
        for actor, amount in ((ALICE, 1), (BOB, 2), (ALICE, 3)):
            await app.tables.act(TABLE, actor, {"kind": "add", "amount": amount})
        game = await repo.open_game(app.store.conn, TABLE.channel_id)
        assert game is not None
        conn = app.store.conn
        assert await web_links.policy(conn, game.id) == web_links.LinkPolicy(0, True)  # no row: the defaults
        async with app.store.transaction() as tx:
            assert await web_links.revoke(tx, game.id) == 1
            assert await web_links.revoke(tx, game.id) == 2
            await web_links.set_replay_reveal(tx, game.id, False)
        assert await web_links.policy(conn, game.id) == web_links.LinkPolicy(2, False)
        async with app.store.transaction() as tx:
            first = await web_links.signing_secret(tx)
        async with app.store.transaction() as tx:
            assert await web_links.signing_secret(tx) == first and len(first) >= 32
        rows = await web_links.history(conn, game.id)
        seqs = [r.seq for r in rows]
        assert len(seqs) >= 3 and seqs == sorted(seqs) and await web_links.live_seqs(conn, game.id) == seqs
        dictionary = await web_links.dictionary(conn, game.id)
        kept = [r for r in rows if r.stored_before is not None]  # the start has no state before it
        assert len(kept) >= 3 and all(web_links.decode_before(r, dictionary) for r in kept)
        await app.tables.undo(TABLE, ALICE)
        assert await web_links.live_seqs(conn, game.id) == seqs[:-1]  # the undone action leaves the timeline
        assert [r.seq for r in await web_links.history(conn, game.id, after_seq=seqs[0])] == seqs[1:-1]
    finally:
        await app.close()
