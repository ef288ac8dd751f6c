"""Slash command options as the Discord client builds them: the ``data`` of an
APPLICATION_COMMAND or AUTOCOMPLETE interaction for ``/a b c`` with ``{name: value}``,
checked against the command the bot synced.

A test that passes an option the command does not have, leaves out a required one, or
gives a value outside its type, range or choices fails here with
:class:`FakeDiscordError` — the Discord client would not have sent it either.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord.messages import FakeFile, attachment_payload
from tests.e2e.fake_discord.protocol import (
    APPLICATION_COMMAND,
    MEMBER_PERMISSIONS,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB,
    OPT_USER,
    FakeDiscordError,
    guess_type,
)
from tests.e2e.fake_discord.state import FakeState
from tests.e2e.fake_discord.world import FakeChannel, FakeRole, FakeUser


class CommandOptions(FakeState):
    """Builds interaction ``data`` for a command line, as the Discord client does."""

    def _command_data(
        self,
        command: str,
        options: dict[str, Any] | None,
        *,
        focused: str | None = None,
        kind: int = APPLICATION_COMMAND,
    ) -> dict[str, Any]:
        """Build ``data`` for ``/a b c`` as the Discord client does, checked against the synced command."""
        path = command.strip().lstrip("/").split()
        top = self.command(path[0])
        node = top
        chain: list[dict[str, Any]] = []
        for part in path[1:]:
            sub = next(
                (o for o in node.get("options") or [] if o["name"] == part and o["type"] in (OPT_SUB, OPT_GROUP)),
                None,
            )
            if sub is None:
                raise FakeDiscordError(f"/{' '.join(path)}: {part!r} is not a subcommand of {node['name']!r}")
            chain.append(sub)
            node = sub
        defined = [o for o in node.get("options") or [] if o["type"] not in (OPT_SUB, OPT_GROUP)]
        if any(o["type"] in (OPT_SUB, OPT_GROUP) for o in node.get("options") or []):
            raise FakeDiscordError(f"/{' '.join(path)} is a group; name a subcommand")
        options = dict(options or {})
        resolved: dict[str, dict[str, Any]] = {}
        leaf_options: list[dict[str, Any]] = []
        by_name = {o["name"]: o for o in defined}
        for name in options:
            if name not in by_name:
                raise FakeDiscordError(f"/{' '.join(path)} has no option {name!r}; it has {list(by_name)}")
        for opt in defined:
            name = opt["name"]
            if name not in options:
                if opt.get("required") and kind == APPLICATION_COMMAND:
                    raise FakeDiscordError(f"/{' '.join(path)}: required option {name!r} missing")
                continue
            value = options[name]
            is_focused = name == focused
            leaf_options.append(self._option(opt, value, resolved, focused=is_focused))
        if focused is not None and focused not in by_name:
            raise FakeDiscordError(f"/{' '.join(path)}: cannot focus unknown option {focused!r}")
        if focused is not None and not by_name[focused].get("autocomplete"):
            raise FakeDiscordError(f"/{' '.join(path)}: option {focused!r} has no autocomplete")
        if focused is not None and focused not in options:
            leaf_options.append({"name": focused, "type": by_name[focused]["type"], "value": "", "focused": True})
        nested: list[dict[str, Any]] = leaf_options
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {"id": str(top["id"]), "name": top["name"], "type": 1, "options": nested}
        if top.get("guild_id"):
            data["guild_id"] = str(top["guild_id"])
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], *, focused: bool
    ) -> dict[str, Any]:
        kind = opt["type"]
        out: dict[str, Any] = {"name": opt["name"], "type": kind}
        if focused:
            out["focused"] = True
            out["value"] = str(value)  # Discord sends whatever has been typed so far, as text
            return out
        if kind == OPT_USER:
            user = value if isinstance(value, FakeUser) else self._user_by_id(int(value))
            resolved.setdefault("users", {})[str(user.id)] = user.user_payload()
            resolved.setdefault("members", {})[str(user.id)] = self.guild.member_payload(user, with_user=False)
            out["value"] = str(user.id)
        elif kind == OPT_CHANNEL:
            channel = value if isinstance(value, FakeChannel) else self._channel_by_id(int(value))
            resolved.setdefault("channels", {})[str(channel.id)] = channel.payload() | {
                "permissions": str(MEMBER_PERMISSIONS)
            }
            out["value"] = str(channel.id)
        elif kind == OPT_ROLE:
            role = value if isinstance(value, FakeRole) else self.guild.roles[str(value)]
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            out["value"] = str(role.id)
        elif kind == OPT_STRING:
            if not isinstance(value, str):
                raise FakeDiscordError(f"option {opt['name']!r} takes a string, got {value!r}")
            lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise FakeDiscordError(f"option {opt['name']!r}: length {len(value)} not in {lo}..{hi}")
            out["value"] = value
        elif kind in (OPT_INTEGER, OPT_NUMBER):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (kind == OPT_INTEGER and not isinstance(value, int))
            ):
                raise FakeDiscordError(f"option {opt['name']!r} takes a number, got {value!r}")
            if ("min_value" in opt and value < opt["min_value"]) or ("max_value" in opt and value > opt["max_value"]):
                raise FakeDiscordError(
                    f"option {opt['name']!r}: {value} outside {opt.get('min_value')}..{opt.get('max_value')}"
                )
            out["value"] = value
        elif kind == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise FakeDiscordError(f"option {opt['name']!r} takes a boolean, got {value!r}")
            out["value"] = value
        elif kind == OPT_ATTACHMENT:
            if not isinstance(value, FakeFile):
                raise FakeDiscordError(f"option {opt['name']!r} takes a FakeFile upload, got {type(value).__name__}")
            aid = self.ids()
            url = f"{self.base_url}/attachments/{aid}/{value.filename}"
            self.uploads[url] = value
            attachment = attachment_payload(aid, value, url, value.content_type or guess_type(value.filename))
            resolved.setdefault("attachments", {})[str(aid)] = attachment | {"ephemeral": True}
            out["value"] = str(aid)
        else:
            raise FakeDiscordError(f"option type {kind} is not supported by the fake")
        choices = opt.get("choices")
        if choices and out["value"] not in [c["value"] for c in choices]:
            raise FakeDiscordError(f"option {opt['name']!r}: {value!r} is not one of {[c['value'] for c in choices]}")
        return out
