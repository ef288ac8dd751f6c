"""REST routes about the application itself: who the bot is (``/users/@me``, the
application, the gateway URL) and its application commands, global and per guild —
validated like Discord validates a sync, and kept with stable ids across syncs.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord.records import Recorded
from tests.e2e.fake_discord.state import FakeState, Handler
from tests.e2e.fake_discord.validation import Invalid, duplicate_names, validate_command


class ApplicationRoutes(FakeState):
    """Identity and command-sync routes."""

    def _application_routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("PUT", "/applications/{app}/commands", self._put_global_commands),
            ("GET", "/applications/{app}/commands", self._get_global_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_guild_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_guild_commands),
        ]

    # -- identity

    async def _get_me(self, rec: Recorded) -> dict[str, Any]:
        return self.bot_user.user_payload() | {"verified": True, "mfa_enabled": False, "flags": 0}

    async def _get_application(self, rec: Recorded) -> dict[str, Any]:
        owner = self.users["owner"]
        return {
            "id": str(self.application_id),
            "name": "Tavolo",
            "description": "fake",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner.user_payload(),
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "summary": "",
            "tags": [],
            "bot": self.bot_user.user_payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
        }

    async def _get_gateway(self, rec: Recorded) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    # -- commands

    def _store_commands(self, rec: Recorded, guild_id: int | None) -> list[dict[str, Any]]:
        if not isinstance(rec.payload, list):
            raise Invalid(["body must be a list of commands"])
        errors: list[str] = []
        names: set[tuple[str, int]] = set()
        for cmd in rec.payload:
            errors += validate_command(cmd)
            key = (cmd.get("name", ""), cmd.get("type", 1))
            if key in names:
                errors.append(f"duplicate command {key}")
            names.add(key)
        for kind in {c.get("type", 1) for c in rec.payload}:
            errors += duplicate_names([c for c in rec.payload if c.get("type", 1) == kind], "commands")
        if len(rec.payload) > 100:
            errors.append("more than 100 commands")
        if errors:
            raise Invalid(errors)
        previous = {
            (c["name"], c.get("type", 1)): c["id"]
            for c in (self.guild_commands.get(guild_id, []) if guild_id else self.global_commands)
        }
        stored = []
        for cmd in rec.payload:
            key = (cmd["name"], cmd.get("type", 1))
            out = dict(cmd) | {
                "id": previous.get(key) or str(self.ids()),
                "application_id": str(self.application_id),
                "version": str(self.ids()),
                "type": cmd.get("type", 1),
            }
            if guild_id:
                out["guild_id"] = str(guild_id)
            stored.append(out)
        if guild_id:
            self.guild_commands[guild_id] = stored
        else:
            self.global_commands = stored
        self.command_syncs.append(rec)
        return stored

    async def _put_global_commands(self, rec: Recorded, app: str) -> Any:
        self._check_app(app)
        return self._store_commands(rec, None)

    async def _get_global_commands(self, rec: Recorded, app: str) -> Any:
        return self.global_commands

    async def _put_guild_commands(self, rec: Recorded, app: str, guild: str) -> Any:
        self._check_app(app)
        if int(guild) != self.guild.id:
            return 403, {"message": "Missing Access", "code": 50001}
        return self._store_commands(rec, int(guild))

    async def _get_guild_commands(self, rec: Recorded, app: str, guild: str) -> Any:
        return self.guild_commands.get(int(guild), [])

    def _check_app(self, app: str) -> None:
        if app != str(self.application_id):
            raise Invalid([f"unknown application {app}"], code=10002)

