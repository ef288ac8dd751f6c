"""What a player reads, and the internal words it must never contain (issue 26, TABLE_UX "Names people use").

A console session records every message the bot sends (``console.fake.Transcript``); ``visible_texts``
takes from each one what Discord would show — the text, the embeds, button labels, a select's
placeholder and options, the names (not the values) of autocomplete choices — and ``leaks`` says, for
one line, which internal word it carries:

- an unfilled ``{placeholder}`` (a template whose parameters were not passed);
- a dotted locale key (``wowm.err.ally_target``: a key missing from the locales);
- an internal id: a ``snake_case`` word (``order_ties``), a ``name-1`` piece id (``brannoc-1``), or a bare
  action kind standing where a log line names an action ("#1 alice: start");
- a Python repr: ``['…']``, ``{'…': …}``, ``None``/``True``/``False`` as words, ``<… object at 0x…>``;
- an empty name (``⚠️  is not a space``: a parameter filled with nothing).

Board labels (``H10``, ``SHA``, ``C3``), dice (``2d6``), mentions and URLs are not internal words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from console.runner import Console

_URL = re.compile(r"\b(?:https?://|www\.)\S+")
_MENTION = re.compile(r"<[@#][!&]?\d+>")
_CODE = re.compile(r"`[^`]*`")  # a command quoted for the reader to type (`/km move square:C3`)
_COMMAND = re.compile(r"(?<![\w/])/[a-z][a-z-]*(?: [a-z][a-z_-]*)*(?: [a-z_]+:\S*)*")  # /wowm play ability:…
_FILE_SUFFIXES = ("png", "jpg", "jpeg", "gif", "webp", "txt", "json", "yaml", "yml", "md", "pdf", "py", "csv")

CHECKS: dict[str, re.Pattern[str]] = {
    "placeholder": re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:\|[^{}]*)?\}"),
    "locale key": re.compile(r"(?<![\w/.@-])[a-z][a-z0-9_]*(?:\.[a-z0-9_]+){1,}(?![\w/-])"),
    "snake_case id": re.compile(r"(?<![\w/.:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w-])"),
    "piece id": re.compile(r"(?<![\w/.:-])[a-z]+(?:-[a-z]+)*-\d+(?![\w-])"),
    "python repr": re.compile(r"\[\s*['\"]|['\"]\s*\]|\{\s*['\"]|\bNone\b(?! of\b)|\bTrue\b|\bFalse\b|"
                              r"<\w[\w.]* object at 0x|Traceback \(most recent"),
    "empty name": re.compile(r"^(?:⚠️|❓|➡️)\s{2,}|\"\"|“”|«\s*»|\(\s*\)|:\s+[,.;]|,\s*,"),
}


@dataclass(frozen=True)
class Seen:
    """One line a player read: the command that produced it, where it was shown, and the text."""

    command: str
    where: str
    text: str


def _clean(line: str) -> str:
    """The line without what is not the bot's own wording: links, mentions, commands quoted to type."""
    for pattern, stand_in in ((_URL, "URL"), (_MENTION, "@Someone"), (_CODE, "CODE"), (_COMMAND, "/COMMAND")):
        line = pattern.sub(stand_in, line)
    return line


def leaks(line: str, namespaces: Iterable[str] = (), action_kinds: Iterable[str] = (),
          foreign: Iterable[str] = ()) -> list[str]:
    """The internal words in one line a player reads (empty: the line is fine).

    ``namespaces``: the locale's top-level names; a dotted word starting with one is a raw key even with a
    single dot (``game.over``), any other dotted word needs two dots (``a.b.c``) to count. ``action_kinds``:
    internal action names, wrong when a log line ("#3 alice: start") shows one bare. ``foreign``: game terms
    of the other language, wrong as a parenthesised word ("(triangle)" in Italian text)."""
    found: list[str] = []
    text = _clean(line)
    known = set(namespaces)
    for name, pattern in CHECKS.items():
        for match in pattern.finditer(text):
            word = match.group(0)
            if name == "locale key":
                parts = word.split(".")
                if parts[-1] in _FILE_SUFFIXES or (parts[0] not in known and len(parts) < 3):
                    continue
            found.append(f"{name}: {word.strip() or repr(word)}")
    found += [f"other language: ({word})" for word in foreign if f"({word})" in text]
    log_entry = re.match(r"^#\d+ [^:]+: ([^—↩]+?)(?: ↩)?(?: — |$)", line)
    if log_entry and log_entry.group(1).strip() in set(action_kinds):
        found.append(f"action kind: {log_entry.group(1).strip()}")
    return found


def words_of(line: str, terms: Iterable[str]) -> list[str]:
    """The terms (whole words, any case) that one line a player reads carries, outside the commands it quotes
    for the reader to type: an English term in Italian text, or an Italian word the seed does not use."""
    text = _clean(line).casefold()
    return [term for term in terms
            if re.search(rf"(?<![\w-]){re.escape(term.casefold())}(?![\w-])", text)]


def visible_texts(message: Any) -> Iterator[tuple[str, str]]:
    """(where, text) of everything Discord shows of one sent message; autocomplete values are not shown."""
    if message.content:
        yield "text", message.content
    for embed in message.embeds:
        for where, value in (("title", embed.title), ("description", embed.description),
                             ("footer", embed.footer.text if embed.footer else None),
                             ("author", embed.author.name if embed.author else None)):
            if value:
                yield where, value
        for embed_field in embed.fields:
            yield "field", f"{embed_field.name}: {embed_field.value}"
    if message.view is not None:
        for child in message.view.children:
            item = getattr(child, "item", child)
            if isinstance(item, discord.ui.Button) and item.label:
                yield "button", item.label
            elif isinstance(item, discord.ui.Select):
                if item.placeholder:
                    yield "select", item.placeholder
                for option in item.options:
                    yield "option", option.label + (f" — {option.description}" if option.description else "")
    for choice in message.choices or []:
        yield "autocomplete", choice.name


def _button_index(console: Console, label: str) -> str | None:
    """``/click LABEL`` as ``/click N`` (the same button in any language), None when there is no such label."""
    try:
        message = console._last_with_items()
    except Exception:
        return None
    labels = [getattr(getattr(c, "item", c), "label", None) or "" for c in message.view.children]
    found = next((i for i, text in enumerate(labels, 1) if text.lower() == label.lower()), None)
    return None if found is None else f"/click {found}"


async def play(console: Console, lines: Iterable[str]) -> tuple[list[Seen], list[str]]:
    """Run ``lines``; every line a player read, and the script with each ``/click LABEL`` as ``/click N``
    so that the same script can be replayed in another language, whose labels differ."""
    seen: list[Seen] = []
    portable: list[str] = []
    for line in lines:
        command = line.strip()
        if command.lower().startswith("/click ") and not command[7:].strip().isdecimal():
            command = _button_index(console, command[7:].strip().strip('"')) or command
        portable.append(command)
        start = len(console.transcript.messages)
        await console.execute(command)
        for message in console.transcript.messages[start:]:
            for where, text in visible_texts(message):
                seen += [Seen(command, where, part) for part in text.splitlines() if part.strip()]
    return seen, portable


def report(seen: Iterable[Seen], namespaces: Iterable[str] = (), action_kinds: Iterable[str] = (),
           foreign: Iterable[str] = ()) -> list[str]:
    """One line per leak, with the command that produced it: what a failing test prints."""
    known, kinds, other = set(namespaces), set(action_kinds), tuple(foreign)
    return [f"{item.command!r} → {item.where}: {item.text!r} [{', '.join(found)}]"
            for item in seen if (found := leaks(item.text, known, kinds, other))]
