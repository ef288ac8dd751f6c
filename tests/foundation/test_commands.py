"""Every slash command, group, option and choice is localized in English and Italian,
checked on the very payload discord.py would send when syncing."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from cogs.client import TavoloBot
from gm.app import App
from gm.settings import Settings

NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def payloads(app: App, settings: Settings) -> AsyncIterator[list[dict[str, Any]]]:
    bot = TavoloBot(settings, app=app)
    await bot.load_tavolo()
    tree = bot.tree
    yield [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]
    await bot.http.close()


def _walk(payload: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    here = f"{path} {payload['name']}".strip()
    yield here, payload
    for option in payload.get("options", []):
        yield from _walk(option, here)
        for choice in option.get("choices", []) or []:
            yield f"{here} {option['name']} choice {choice['value']}", {**choice, "_choice": True}


async def test_every_command_and_option_is_localized(payloads: list[dict[str, Any]]) -> None:
    assert payloads, "no commands registered"
    problems = []
    for top in payloads:
        for path, node in _walk(top):
            names = node.get("name_localizations") or {}
            for locale in ("it", "en-US", "en-GB"):
                if locale not in names:
                    problems.append(f"{path}: no {locale} name")
            if not node.get("_choice"):
                descriptions = node.get("description_localizations") or {}
                for locale in ("it", "en-US", "en-GB"):
                    if locale not in descriptions:
                        problems.append(f"{path}: no {locale} description")
                    elif not 1 <= len(descriptions[locale]) <= 100:
                        problems.append(f"{path}: {locale} description length")
                for locale, name in names.items():
                    if not NAME.match(name) or name != name.lower():
                        problems.append(f"{path}: bad {locale} name {name!r}")
                if names.get("en-US", node["name"]) != node["name"]:
                    problems.append(f"{path}: English name differs from the command name")
    assert problems == []


async def test_localized_names_are_unique_among_siblings(payloads: list[dict[str, Any]]) -> None:
    def check(nodes: list[dict[str, Any]], where: str) -> list[str]:
        seen: dict[str, str] = {}
        clashes = []
        for node in nodes:
            name = (node.get("name_localizations") or {}).get("it", node["name"])
            if name in seen:
                clashes.append(f"{where}: {seen[name]} and {node['name']} are both '{name}' in Italian")
            seen[name] = node["name"]
            if node.get("options") and node["options"][0].get("type") in (1, 2):
                clashes += check(node["options"], f"{where} {node['name']}")
        return clashes

    assert check(payloads, "/") == []


MANAGE_GUILD = 1 << 5
ADMIN_GROUPS = {"rules-admin": {"import", "remove"}, "km-admin": {"pack", "pack-remove", "packs"},
                "mk-admin": {"pack", "pack-remove", "packs"}, "wowm-admin": {"pack", "pack-remove", "packs"},
                "warlord-admin": {"pack", "pack-remove", "packs"}, "wowb-admin": {"pack", "pack-remove", "packs"},
                "game-admin": {"settings"}}


async def test_admin_commands_are_top_level_groups_that_discord_hides_from_members(
        payloads: list[dict[str, Any]]) -> None:
    """Discord reads ``default_member_permissions`` only on top-level commands: an admin
    subcommand inside ``/rules`` or ``/km`` would be visible to every member. So every admin
    command lives in a top-level group that carries Manage Server, and nothing else does."""
    by_name = {p["name"]: p for p in payloads}
    for group, commands in ADMIN_GROUPS.items():
        payload = by_name[group]
        assert str(payload["default_member_permissions"]) == str(MANAGE_GUILD), group
        assert payload.get("contexts") in (None, [0]) or payload.get("dm_permission") is False
        assert {o["name"] for o in payload["options"]} == commands
    for name, payload in by_name.items():
        if name not in ADMIN_GROUPS:
            assert payload.get("default_member_permissions") is None, name
            subcommands = {o["name"] for o in payload.get("options", []) if o.get("type") in (1, 2)}
            assert not subcommands & {"import", "remove", "pack", "pack-remove", "settings"}, name
