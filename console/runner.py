"""``python bot.py --console``: the bot's slash commands typed as text, no Discord.

Lines are parsed against the real command tree (names, option types, choices,
ranges), then the real callbacks run with a fake interaction. Images go to ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import re
import sys
import tempfile
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TextIO

import discord
from discord import app_commands

from common.i18n import normalize, t
from console.fake import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeUser,
    SentMessage,
    Transcript,
)
from console.lines import read_line, strip_comment, words
from gm.settings import Settings
from renderers import kit_glyphs

GUILD_ID = 1
ASKED = "asked"  # ``/as asked``: whoever the game in this channel waits for
_MENTION = re.compile(r"<([@#])!?(\d+)>")
_IMAGE_NUMBER = re.compile(r"^(\d{4,})-")


def user_id_for(name: str) -> int:
    """The same id for the same name in every run, so a game saved with ``--db`` keeps its
    seats after a restart (TABLE_UX "Restarts and identities"). Shaped like a Discord id."""
    digest = hashlib.sha256(name.strip().lower().encode("utf-8")).digest()
    return 10**17 + int.from_bytes(digest[:7], "big") % (9 * 10**17)


def _last_image_number(folder: Path) -> int:
    """Continue numbering after the images a previous run left, never overwrite them."""
    try:
        names = [p.name for p in folder.iterdir()] if folder.is_dir() else []
    except OSError:
        return 0
    return max((int(m.group(1)) for n in names if (m := _IMAGE_NUMBER.match(n))), default=0)
_TRUE = {"true", "yes", "y", "1", "si", "sì", "on", "vero"}
_FALSE = {"false", "no", "n", "0", "off", "falso"}


class ConsoleError(Exception):
    """A line the console could not turn into a command (shown localized, counts for --strict)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Console:
    def __init__(self, bot: Any, *, out_dir: Path, lang: str = "en", user: str = "alice",
                 output: TextIO | None = None, check_glyphs: bool = False) -> None:
        self.bot = bot
        self.out_dir = out_dir
        self.lang = normalize(lang)
        self.output = output or sys.stdout
        self.transcript = Transcript()
        self.guild = FakeGuild(GUILD_ID)
        self.users: dict[str, FakeUser] = {}
        self.channels: dict[str, FakeChannel] = {}
        self.user = self._user(user)
        self.channel = self._channel("table")
        self.errors = 0
        self._image_count: int | None = None  # read from --out on the first image
        self.seat_names: dict[int, str] = {}  # names of players seated in a saved game (--db)
        # --strict: a picture that drew "?" for a character its font lacks, or a label nobody can
        # read, counts as an error (TABLE_UX: "a picture draws only glyphs its font has")
        self.check_glyphs = check_glyphs

    # ----------------------------------------------------------- identities
    def _user(self, name: str, is_gm: bool | None = None) -> FakeUser:
        key = name.lower()
        if key not in self.users:
            self.users[key] = FakeUser(id=user_id_for(name), name=name)
        user = self.users[key]
        if is_gm is not None:
            user.is_gm = is_gm
        return user

    def _channel(self, name: str) -> FakeChannel:
        key = name.lstrip("#").lower()
        if key not in self.channels:
            self.channels[key] = FakeChannel(id=500 + len(self.channels) + 1, name=key, transcript=self.transcript)
        return self.channels[key]

    def _names(self, text: str) -> str:
        by_user = {**self.seat_names, **{u.id: u.name for u in self.users.values()}}
        by_channel = {c.id: c.name for c in self.channels.values()}

        def swap(match: re.Match[str]) -> str:
            ident = int(match.group(2))
            if match.group(1) == "@":
                return "@" + by_user.get(ident, str(ident))
            return "#" + by_channel.get(ident, str(ident))

        return _MENTION.sub(swap, text)

    def _interaction(self, message: SentMessage | None = None, namespace: Any = None) -> FakeInteraction:
        return FakeInteraction(self.bot, self.user, self.channel, self.guild, self.lang, self.transcript,
                               message=message, namespace=namespace)

    # --------------------------------------------------------------- output
    def say(self, text: str) -> None:
        print(text, file=self.output)

    def _print_message(self, message: SentMessage) -> None:
        prefix = f"(only {self.users_by_id(message.author_id)}) " if message.ephemeral else ""
        if message.edit_of is not None:
            prefix = t("console.board_updated", self.lang) + " "
        if message.choices is not None:
            if not message.choices:
                self.say(prefix + t("console.no_choices", self.lang))
            for choice in message.choices:
                self.say(f"{prefix}  · {choice.name}  →  {choice.value}")
            return
        lines: list[str] = []
        if message.content:
            lines.append(message.content)
        for embed in message.embeds:
            if embed.title:
                lines.append(f"== {embed.title} ==")
            if embed.description:
                lines.append(embed.description)
            lines += [f"{f.name}: {f.value}" for f in embed.fields]
        for file in message.files:
            lines.append(f"[image] {self._save(file)}")
        if message.view is not None:
            labels = [label for _, label in _items(message.view)]
            if labels:
                lines.append("[buttons] " + " · ".join(f"{i}) {label}" for i, label in enumerate(labels, 1)))
            for select in _selects(message.view):  # what the menu offers, as Discord shows it (issue 27)
                lines.append("[options] " + " · ".join(option.label for option in select.options))
            links = [child for child in message.view.children
                     if isinstance(child, discord.ui.Button) and child.url is not None]
            if links:
                lines.append("[links] " + " · ".join(f"{link.label} → {link.url}" for link in links))
        text = self._names("\n".join(lines))
        self.say(prefix + text.replace("\n", "\n" + " " * len(prefix)))

    def users_by_id(self, user_id: int) -> str:
        return next((u.name for u in self.users.values() if u.id == user_id), None) or \
            self.seat_names.get(user_id, str(user_id))

    def _save(self, file: discord.File) -> str:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if self._image_count is None:
            self._image_count = _last_image_number(self.out_dir)
        self._image_count += 1
        path = self.out_dir / f"{self._image_count:04d}-{file.filename}"
        file.fp.seek(0)
        path.write_bytes(file.fp.read())
        return str(path)

    # ------------------------------------------------------------- parsing
    def _resolve(self, tokens: list[str]) -> tuple[app_commands.Command, list[str]]:
        name = tokens[0].lstrip("/").lower()
        node = self.bot.tree.get_command(name)
        rest = tokens[1:]
        while isinstance(node, app_commands.Group):
            if not rest:
                subs = ", ".join(c.name for c in node.commands)
                raise ConsoleError("console.needs_subcommand", command=name, subcommands=subs)
            child = node.get_command(rest[0].lower())
            if child is None:
                subs = ", ".join(c.name for c in node.commands)
                raise ConsoleError("console.unknown_subcommand", command=name, sub=rest[0], subcommands=subs)
            name = f"{name} {rest[0].lower()}"
            node, rest = child, rest[1:]
        if node is None:
            raise ConsoleError("console.unknown_command", command=tokens[0])
        return node, rest

    def _options(self, command: app_commands.Command, tokens: list[str],
                 partial: bool = False) -> dict[str, Any]:
        params = {p.display_name: p for p in command._params.values()}
        given: dict[str, str] = {}
        loose: list[str] = []
        last: str | None = None
        for token in tokens:
            key, sep, value = token.partition(":")
            if sep and key.lower() in params:
                last = key.lower()
                given[last] = value
            elif sep and key.lower() in self._option_names():  # Discord would never send it (a playtest)
                raise ConsoleError("console.unknown_option", option=key, command=command.qualified_name,
                                   options=", ".join(f"{name}:" for name in params) or "-")
            elif last is not None and params[last].type is discord.AppCommandOptionType.string:
                given[last] += " " + token  # query:demonic rewards cost is one value, as Discord would take it
            else:
                loose.append(token)
        if loose:
            target = next((p for p in params.values() if p.required and p.display_name not in given), None)
            if target is None:
                target = next((p for p in params.values() if p.display_name not in given), None)
            if target is None:
                raise ConsoleError("console.unexpected_text", text=" ".join(loose))
            given[target.display_name] = " ".join(loose)
        if not partial:
            missing = [p.display_name for p in params.values() if p.required and p.display_name not in given]
            if missing:
                raise ConsoleError("console.missing_option", options=", ".join(missing))
        return {name: self._convert(params[name], raw) for name, raw in given.items()} if not partial else given

    def _option_names(self) -> frozenset[str]:
        """Every command's option names: one the command lacks is a mistake, another word may be text ("Note:")."""
        if self._known_options is None:
            self._known_options = frozenset(
                p.display_name.lower() for c in self.bot.tree.walk_commands()
                if isinstance(c, app_commands.Command) for p in c._params.values())
        return self._known_options

    _known_options: frozenset[str] | None = None

    def _convert(self, param: Any, raw: str) -> Any:
        kind = param.type
        value: Any = raw
        option_type = discord.AppCommandOptionType
        try:
            if kind is option_type.integer:
                value = int(raw)
            elif kind is option_type.number:
                value = float(raw)
            elif kind is option_type.boolean:
                low = raw.strip().lower()
                if low not in _TRUE | _FALSE:
                    raise ValueError(raw)
                value = low in _TRUE
            elif kind is option_type.attachment:
                value = FakeAttachment(_local_file(raw))
            elif kind in (option_type.user, option_type.mentionable):
                value = self._user(raw.lstrip("@"))
        except ValueError as exc:
            raise ConsoleError("console.bad_value", option=param.display_name, value=raw,
                               type=kind.name) from exc
        if param.choices:
            match = next((c for c in param.choices
                          if str(c.value).lower() == str(value).lower() or c.name.lower() == str(value).lower()),
                         None)
            if match is None:
                raise ConsoleError("console.bad_choice", option=param.display_name, value=raw,
                                   choices=", ".join(str(c.value) for c in param.choices))
            value = match.value
        low, high = param.min_value, param.max_value
        # For string options discord.py keeps the length bounds in min/max_value.
        size = len(value) if isinstance(value, str) else value
        too_small = low is not None and isinstance(size, int | float) and size < low
        too_big = high is not None and isinstance(size, int | float) and size > high
        if isinstance(value, str) and (too_small or too_big):
            if too_small:
                raise ConsoleError("console.too_short", option=param.display_name, min=low)
            raise ConsoleError("console.bad_length", option=param.display_name, max=high or "")
        if isinstance(value, int | float) and not isinstance(value, bool) and (too_small or too_big):
            raise ConsoleError("console.out_of_range", option=param.display_name, value=raw,
                               min=low if low is not None else "", max=high if high is not None else "")
        return value

    # ------------------------------------------------------------ commands
    async def execute(self, line: str) -> None:
        line = strip_comment(line).strip()
        if not line or line.startswith("#"):
            return
        start = len(self.transcript.messages)
        error_before = self.errors
        accidents_before = kit_glyphs.accident_count()
        try:
            tokens = words(line)
        except ValueError as exc:  # shlex's two complaints, in the reader's language
            unclosed = "quotation" in str(exc)
            self._error(ConsoleError("console.bad_quotes", detail=t(
                "console.unclosed_quote" if unclosed else "console.lone_backslash", self.lang)))
            return
        head = tokens[0].lower()
        try:
            if not head.startswith("/"):
                raise ConsoleError("console.not_a_command", line=line)
            meta = {"/as": self._as, "/channel": self._channel_cmd, "/lang": self._lang, "/click": self._click,
                    "/pick": self._pick, "/complete": self._complete, "/help": self._help,
                    "/commands": self._help}
            if head in meta:
                await meta[head](tokens[1:])
            else:
                await self._run_command(tokens)
        except ConsoleError as exc:
            self._error(exc)
        for message in self.transcript.messages[start:]:
            self._print_message(message)
        if self.check_glyphs:
            self._check_glyphs(self.transcript.messages[start:], accidents_before)
        if self.errors == error_before and self._last_error_flag:
            self.errors += 1
        self._last_error_flag = False

    _last_error_flag = False

    def _error(self, exc: ConsoleError) -> None:
        self.errors += 1
        self.say("⚠️ " + t(exc.key, self.lang, **exc.params))

    def _check_glyphs(self, messages: list[SentMessage], accidents_before: int) -> None:
        """Each picture drawn by this line, and each label it sent, only with what can be read:
        every accident of ``kit_glyphs`` and every label it would refuse is an error."""
        for accident in kit_glyphs.accidents_since(accidents_before):
            self._error(ConsoleError("console.glyph_accident", char=repr(accident.char), text=accident.text))
        for message in messages:
            for label in _labels(message.view) if message.view is not None else ():
                if kit_glyphs.label_problem(label) is not None:
                    self._error(ConsoleError("console.bad_label", label=label))

    async def _run_command(self, tokens: list[str]) -> None:
        command, rest = self._resolve(tokens)
        values = self._options(command, rest)
        namespace = SimpleNamespace(**values)
        interaction = self._interaction(namespace=namespace)
        interaction.command = command
        await self.bot.tree.interaction_check(interaction)  # first, as on Discord: the edge cleans the options
        try:
            await command._invoke_with_namespace(interaction, namespace)  # type: ignore[arg-type]
        except app_commands.AppCommandError as error:
            await self.bot.tree.on_error(interaction, error)
        self._last_error_flag = bool(interaction.extras.get("tavolo_error"))

    async def _as(self, args: list[str]) -> None:
        if not args:
            raise ConsoleError("console.usage_as")
        if args[0].lower() == ASKED:
            self.user = await self._asked_user()
            self.say(t("console.now_user", self.lang, user=self.user.name))
            return
        self.user = self._user(args[0], is_gm="gm" in (a.lower() for a in args[1:]) or None)
        role = " (GM)" if self.user.is_gm else ""
        self.say(t("console.now_user", self.lang, user=self.user.name) + role)

    async def _asked_user(self) -> FakeUser:
        """``/as asked``: the player this channel's game waits for now (the first of them). One
        person plays every seat in the console, and some games draw who answers first (a class
        draft in a drawn order): a walkthrough then reads the same whoever the draw put first."""
        tables = getattr(getattr(self.bot, "app", None), "tables", None)
        table = await tables.load(self.channel.id) if tables is not None else None
        state = table.state if table is not None and table.problem is None else None
        waiting = tables.waiting_users(table, state) if table is not None and state is not None else []
        if not waiting:
            raise ConsoleError("console.nobody_asked")
        names = {**{s.user_id: s.name for s in table.seats}, **{u.id: u.name for u in self.users.values()}}
        return self._user(names.get(waiting[0], str(waiting[0])))

    async def _channel_cmd(self, args: list[str]) -> None:
        if not args:
            raise ConsoleError("console.usage_channel")
        self.channel = self._channel(args[0])
        self.say(t("console.now_channel", self.lang, channel=self.channel.name))

    async def _lang(self, args: list[str]) -> None:
        if not args or normalize(args[0]) != args[0].lower()[:2]:
            raise ConsoleError("console.usage_lang")
        self.lang = normalize(args[0])
        self.say(t("console.now_lang", self.lang, lang=self.lang))

    def _last_with_items(self) -> SentMessage:
        for message in reversed(self.transcript.messages):
            if message.view is not None and list(_items(message.view)) and (
                    not message.ephemeral or message.author_id == self.user.id):
                return message
        raise ConsoleError("console.no_buttons")

    async def _click(self, args: list[str]) -> None:
        if not args:
            raise ConsoleError("console.usage_click")
        message = self._last_with_items()
        items = list(_items(message.view))
        wanted = " ".join(args)
        chosen = None
        # isdecimal, not isdigit: "²" is a digit int() refuses; and a short number only,
        # since int() refuses more than 4300 digits.
        if wanted.isdecimal() and len(wanted) <= 6 and 1 <= int(wanted) <= len(items):
            chosen = items[int(wanted) - 1][0]
        else:
            chosen = next((item for item, label in items if label.lower() == wanted.lower()), None)
        if chosen is None:
            raise ConsoleError("console.no_such_button", button=wanted,
                               buttons=", ".join(label for _, label in items))
        interaction = self._interaction(message=message)
        await chosen.callback(interaction)
        self._last_error_flag = bool(interaction.extras.get("tavolo_error"))

    async def _pick(self, args: list[str]) -> None:
        if not args:
            raise ConsoleError("console.usage_pick")
        message = self._last_with_items()
        selects = [i for i in message.view.children if isinstance(getattr(i, "item", i), discord.ui.Select)]
        if not selects:
            raise ConsoleError("console.no_buttons")
        wrapper = selects[0]
        select = getattr(wrapper, "item", wrapper)
        wanted = " ".join(args).lower()
        values = [o.value for o in select.options if o.value in args or o.label in args]
        values = values or [o.value for o in select.options if o.label.lower() == wanted]
        if not values and wanted.isdecimal() and len(wanted) <= 6 and 1 <= int(wanted) <= len(select.options):
            values = [select.options[int(wanted) - 1].value]  # as /click N: the Nth option (issue 27)
        if not values:  # the labels people read, never the values behind them (issue 27)
            raise ConsoleError("console.no_such_button", button=" ".join(args),
                               buttons=", ".join(o.label for o in select.options))
        select._values = values  # what discord.py fills from the interaction payload
        interaction = self._interaction(message=message)
        await wrapper.callback(interaction)
        self._last_error_flag = bool(interaction.extras.get("tavolo_error"))

    async def _complete(self, args: list[str]) -> None:
        """``/complete /km move square:C`` shows what autocomplete offers for the last option."""
        if not args:
            raise ConsoleError("console.usage_complete")
        command, rest = self._resolve(args)
        given = self._options(command, rest, partial=True)
        params = {p.display_name: p for p in command._params.values()}
        focused = next((name for name in reversed(list(given)) if params[name].autocomplete), None)
        if focused is None:
            focused = next((p.display_name for p in params.values() if p.autocomplete), None)
            if focused is None:
                raise ConsoleError("console.no_autocomplete")
            given[focused] = ""
        namespace = SimpleNamespace(**given)
        interaction = self._interaction(namespace=namespace)
        interaction.command = command
        await self.bot.tree.interaction_check(interaction)
        await command._invoke_autocomplete(interaction, focused, namespace)  # type: ignore[arg-type]

    async def _help(self, args: list[str]) -> None:
        if args and args[0].lower().lstrip("/") in ("roll", "dice"):  # the dice notation guide
            await self._run_command(["/dice", "help"])
            return
        self.say(t("console.help", self.lang))
        for command in sorted(self.bot.tree.walk_commands(), key=lambda c: c.qualified_name):
            if isinstance(command, app_commands.Command):
                opts = " ".join(f"{p.display_name}:…" if p.required else f"[{p.display_name}:…]"
                                for p in command._params.values())
                self.say(f"  /{command.qualified_name} {opts}".rstrip())

    async def run(self, lines: Iterable[str] | AsyncIterator[str]) -> None:
        if isinstance(lines, AsyncIterator):
            async for line in lines:
                await self.execute(line)
            return
        for line in lines:
            await self.execute(line)


def _local_file(raw: str) -> Path:
    """A file typed after ``file:``; any path the OS refuses (too long, unknown ``~user``,
    a NUL byte) is just a file that is not there, never a crash of the console."""
    try:
        path = Path(raw).expanduser()
        if path.is_file():
            return path
    except (OSError, RuntimeError, ValueError):
        pass
    raise ConsoleError("console.no_file", path=raw[:80])


def _items(view: discord.ui.View) -> Iterator[tuple[Any, str]]:
    for child in view.children:
        inner = getattr(child, "item", child)
        if isinstance(inner, discord.ui.Button) and inner.url is None:  # a link is no button to /click
            yield child, inner.label or inner.custom_id or "?"
        elif isinstance(inner, discord.ui.Select):
            yield child, f"[{inner.placeholder}]"


def _selects(view: discord.ui.View) -> Iterator[discord.ui.Select]:
    for child in view.children:
        inner = getattr(child, "item", child)
        if isinstance(inner, discord.ui.Select):
            yield inner


def _labels(view: discord.ui.View) -> Iterator[str]:
    """Every label a view shows: its buttons' (an emoji-only button counts as its emoji) and its
    selects' options'."""
    for child in view.children:
        inner = getattr(child, "item", child)
        if isinstance(inner, discord.ui.Button):
            yield inner.label or (str(inner.emoji) if inner.emoji else "")
        elif isinstance(inner, discord.ui.Select):
            yield from (option.label for option in inner.options)


async def _interactive_lines(console: Console) -> AsyncIterator[str]:
    """Lines typed at a terminal, each read in a thread of its own: while nobody types, the event loop
    keeps serving what the console started (the web pages of ``--web``, live updates, workers)."""
    while True:
        line = await read_line(f"{console.user.name}@#{console.channel.name}> ")
        if line is None:
            return
        yield line


async def _main(args: argparse.Namespace, settings: Settings) -> int:
    from cogs.client import TavoloBot
    from gm.app import App

    tmp: tempfile.TemporaryDirectory[str] | None = None
    # The console plays on a throw-away SQLite file, or on --db (a file, or a postgresql:// URL): never
    # silently on the DATABASE_URL of a .env meant for the bot.
    settings.database_url = None
    if args.db and args.db.startswith(("postgresql://", "postgres://")):
        settings.database_url = args.db
    elif args.db:
        settings.database_path = Path(args.db)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="tavolo-")
        settings.database_path = Path(tmp.name) / "console.sqlite3"
    app = await App.open(settings, seed=args.seed)
    bot = TavoloBot(settings, app=app)
    try:
        await bot.load_tavolo()
        console = Console(bot, out_dir=Path(args.out), lang=args.lang or settings.default_locale,
                          user=args.as_user, check_glyphs=args.strict)
        from db import games as games_repo

        console.seat_names = await games_repo.seat_names(app.store.conn)
        if args.script:
            with open(args.script, encoding="utf-8") as fh:
                await console.run(fh.read().splitlines())
        elif sys.stdin.isatty():
            console.say(t("console.welcome", console.lang))
            await console.run(_interactive_lines(console))
        else:
            await console.run(sys.stdin.read().splitlines())
    finally:
        await app.close()
        with contextlib.suppress(Exception):
            await bot.http.close()
        if tmp is not None:
            tmp.cleanup()
    return 1 if args.strict and console.errors else 0


def run_console(args: argparse.Namespace, settings: Settings) -> int:
    return asyncio.run(_main(args, settings))
