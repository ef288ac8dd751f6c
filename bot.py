"""Tavolo entry point.

``python bot.py`` runs the Discord bot (token from ``.env``);
``python bot.py --console`` runs the same slash commands locally as text, no Discord needed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence

import discord
from pydantic import ValidationError

from cogs.client import EXTENSIONS, TavoloBot, apply_discord_overrides, make_bot
from common.i18n import t
from gm.app import configure_render_pool
from gm.settings import Settings
from gm.workers import render_pool

__all__ = ["EXTENSIONS", "TavoloBot", "apply_discord_overrides", "main", "make_bot"]

log = logging.getLogger("tavolo")

def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bot.py", description="Tavolo, a game master for Discord.")
    parser.add_argument("--console", action="store_true", help="play locally: slash commands typed as text")
    parser.add_argument("--db", help="console: database file or postgresql:// URL (default: a throw-away file)")
    parser.add_argument("--seed", type=int, help="console: make every roll reproducible")
    parser.add_argument("--as", dest="as_user", default="alice", help="console: starting user name")
    parser.add_argument("--script", help="console: read commands from this file instead of stdin")
    parser.add_argument("--out", default="out", help="console: folder for images (default ./out)")
    parser.add_argument("--strict", action="store_true",
                        help="console: exit 1 if any line produced an error (a picture's \"?\" for a glyph its "
                             "font lacks, a label nobody can read)")
    parser.add_argument("--lang", default=None, help="console: reply language, en or it")
    parser.add_argument("--check-db", action="store_true",
                        help="report the database: backend, migration level, counts (then exit)")
    parser.add_argument("--copy-to-postgres", metavar="URL",
                        help="copy the SQLite database (DATABASE_PATH) into an empty PostgreSQL database")
    parser.add_argument("--recompute-ratings", action="store_true",
                        help="rate every finished game again, in the order they ended, and say which stored ratings "
                             "differed (issue 32.5)")
    parser.add_argument("--web", type=int, metavar="PORT",
                        help="serve the games' web pages on this port (WEB_PORT), e.g. --console --web 8080")
    parser.add_argument("--web-only", action="store_true",
                        help="serve every game's web page from the database, with no Discord connection")
    return parser.parse_args(argv)


def run_discord(settings: Settings) -> int:
    if not settings.discord_token:
        print(t("cli.missing_token", settings.default_locale), file=sys.stderr)
        return 2
    apply_discord_overrides(settings)
    bot = make_bot(settings)

    async def runner() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        async with bot:
            start = asyncio.create_task(bot.start(settings.discord_token or ""))
            stopper = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({start, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if start in done:
                start.result()  # re-raise login/connection failures
            stopper.cancel()
            log.info("shutting down")
        # ``async with`` closed the bot, which closed the database.

    try:
        asyncio.run(runner())
    except discord.LoginFailure:
        print(t("cli.bad_token", settings.default_locale), file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(t("cli.intents", settings.default_locale), file=sys.stderr)
        return 2
    return 0


def redacted(url: str | None) -> str:
    """A database URL as it may be printed: the password replaced (an operator pastes this output)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url or "")
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts)


def check_db(settings: Settings) -> int:
    """``--check-db``: print what ``gm.database.check_db`` finds, 0 when the database opens, 2 when it cannot."""
    from gm.database.check_db import report

    lang = settings.default_locale

    async def run() -> list[str]:
        store = await settings.open_store()
        where = redacted(settings.database_url) if settings.uses_postgres else str(settings.database_path)
        try:
            return await report(store, lang, where, "PostgreSQL" if settings.uses_postgres else "SQLite")
        finally:
            await store.close()

    try:
        lines = asyncio.run(run())
    except Exception as exc:  # the operator reads why, not a traceback
        print(t("cli.check_db.failed", lang, error=f"{type(exc).__name__}: {exc}"), file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def recompute_ratings(settings: Settings) -> int:
    """``--recompute-ratings``: every rating again from the stored games, in one transaction; prints how
    many games were replayed and which stored ratings differed (none when each game was rated as it
    ended). 0 when done, 2 when the database cannot be opened."""
    from gm.table.ratings import recompute

    lang = settings.default_locale

    async def run() -> list[str]:
        store = await settings.open_store()
        try:
            async with store.transaction() as conn:
                done = await recompute(conn)
        finally:
            await store.close()
        lines = [t("cli.ratings.done", lang, games=done.games, rated=done.rated, ratings=done.ratings,
                   differing=len(done.differing))]
        lines += [t("cli.ratings.differed", lang, guild=g, system=s, user=u) for g, s, u in done.differing[:50]]
        return lines

    try:
        lines = asyncio.run(run())
    except Exception as exc:  # the operator reads why, not a traceback
        print(t("cli.check_db.failed", lang, error=f"{type(exc).__name__}: {exc}"), file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def copy_to_postgres(settings: Settings, url: str) -> int:
    """``--copy-to-postgres URL``: every game, action, roll, rulebook and pack of the SQLite file into an
    empty PostgreSQL database, checked by counts and by loading every game; 2 and the reason otherwise."""
    from gm.database.copy_to_postgres import copy_database

    lang = settings.default_locale
    if not url.startswith(("postgresql://", "postgres://")):
        print(t("cli.copy.not_postgres", lang, url=redacted(url)), file=sys.stderr)
        return 2
    try:
        report = asyncio.run(copy_database(settings.database_path, url))
    except Exception as exc:  # the operator reads why, not a traceback
        print(t("cli.copy.failed", lang, error=f"{type(exc).__name__}: {exc}"), file=sys.stderr)
        return 2
    counts = ", ".join(f"{table} {n}" for table, n in report.counts.items())
    print(t("cli.copy.done", lang, source=str(settings.database_path), target=redacted(url), counts=counts,
            games=report.games_loaded))
    if report.games_unreadable:
        print(t("cli.copy.unreadable", lang, ids=", ".join(map(str, report.games_unreadable))), file=sys.stderr)
        return 1
    return 0


def web_only(settings: Settings) -> int:
    """``--web-only``: the web pages of every game in the database (docs/WEB.md), no Discord connection;
    pictures are drawn by the render workers, as in the bot."""
    from web.run import serve

    if settings.web_port is None:
        print(t("cli.web_port_missing", settings.default_locale), file=sys.stderr)
        return 2
    configure_render_pool(settings)

    async def run() -> int:
        await render_pool.start_workers()
        return await serve(settings)

    return asyncio.run(run())


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(t("cli.bad_settings", "en", detail=str(exc)), file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level if not args.console else "WARNING",
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.check_db:
        return check_db(settings)
    if args.copy_to_postgres:
        return copy_to_postgres(settings, args.copy_to_postgres)
    if args.recompute_ratings:
        return recompute_ratings(settings)
    render_pool.tune_allocator()  # before the first picture: freed image buffers stay in the process
    if args.web is not None:  # issue 31: the web pages on this port (the web cog starts them)
        settings.web_port = args.web
    if args.web_only:
        return web_only(settings)
    if args.console:
        from console.runner import run_console

        # Voice support warnings mean nothing without Discord.
        logging.getLogger("discord.client").setLevel(logging.ERROR)

        return run_console(args, settings)  # pictures in threads: a local session needs no worker processes
    # Board pictures in worker processes (RENDER_POOL, RENDER_WORKERS), started before READY (setup_hook).
    configure_render_pool(settings)
    return run_discord(settings)


if __name__ == "__main__":
    sys.exit(main())
