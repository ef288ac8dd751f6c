"""REST routes of interactions: the callback that acknowledges one (message, deferral,
update, autocomplete choices) within the deadline, and the interaction webhook —
followups, and reading, editing or deleting the original response and followups.

This is where Discord's interaction rules live: a late or second acknowledgement, a
followup before any acknowledgement, and the first followup after a "thinking" deferral
that edits it (keeping the deferral's visibility: an ephemeral followup goes public).
"""

from __future__ import annotations

import time
from typing import Any

from tests.e2e.fake_discord.message_store import MessageStore
from tests.e2e.fake_discord.messages import FakeMessage
from tests.e2e.fake_discord.protocol import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
)
from tests.e2e.fake_discord.records import FakeInteraction, Recorded
from tests.e2e.fake_discord.state import Handler
from tests.e2e.fake_discord.validation import Invalid, require_valid_message, validate_choices


class InteractionRoutes(MessageStore):
    """Interaction callbacks and the interaction webhook."""

    def _interaction_routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("POST", "/interactions/{id}/{token}/callback", self._post_callback),
            ("POST", "/webhooks/{app}/{token}", self._post_followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._patch_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message),
        ]

    async def _post_callback(self, rec: Recorded, id: str, token: str) -> Any:
        inter = self.interactions.get(int(id))
        if inter is None or inter.token != token:
            return 404, {"message": "Unknown interaction", "code": 10062}
        inter.attempts.append(rec)
        if time.monotonic() - inter.created_at > self.deadline:
            self.late_callbacks.append(inter)
            return 404, {"message": "Unknown interaction", "code": 10062}
        if inter.acknowledged:
            self.double_acks.append(inter)
            return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}
        body = rec.payload if isinstance(rec.payload, dict) else {}
        cb_type = body.get("type")
        data = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
            MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
            AUTOCOMPLETE: {CB_AUTOCOMPLETE},
            MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE},
        }[inter.type]
        if cb_type not in allowed:
            raise Invalid([f"callback type {cb_type} is not valid for interaction type {inter.type}"], code=40004)
        message: FakeMessage | None = None
        if cb_type == CB_AUTOCOMPLETE:
            errors = validate_choices(data.get("choices"))
            if errors:
                raise Invalid(errors)
            inter.choices = list(data.get("choices") or [])
        elif cb_type == CB_MESSAGE:
            require_valid_message(data, len(rec.files), creating=True)
            message = self._create_message(inter.channel_id, data, rec.files, interaction=inter)
            inter.original_id = message.id
        elif cb_type == CB_DEFERRED_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self._create_message(inter.channel_id, {"content": "", "flags": flags}, [], interaction=inter)
            inter.original_id = message.id
        elif cb_type in (CB_DEFERRED_UPDATE, CB_UPDATE):
            assert inter.component_message_id is not None
            inter.original_id = inter.component_message_id
            if cb_type == CB_UPDATE:
                require_valid_message(data, len(rec.files), creating=False)
                message = self._edit_message(self.messages[inter.component_message_id], data, rec.files)
        inter.callback, inter.callback_type, inter.callback_at = rec, cb_type, time.monotonic()
        response: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": cb_type == CB_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
        }
        if message is not None:
            response["interaction"]["response_message_id"] = str(message.id)
            response["resource"] = {"type": cb_type, "message": message.payload()}
        elif cb_type != CB_AUTOCOMPLETE:
            response["resource"] = {"type": cb_type}
        return response

    def _interaction_for(self, app: str, token: str) -> FakeInteraction:
        inter = self._by_token.get(token)
        if inter is None or app != str(self.application_id):
            raise Invalid([f"unknown webhook {app}/{token}"], code=10015)
        return inter

    async def _post_followup(self, rec: Recorded, app: str, token: str) -> Any:
        inter = self._by_token.get(token)
        if inter is None or app != str(self.application_id):
            return 404, {"message": "Unknown Webhook", "code": 10015}
        if not inter.acknowledged:
            return 400, {"message": "Interaction has not been acknowledged.", "code": 40060}
        data = rec.payload if isinstance(rec.payload, dict) else {}
        require_valid_message(data, len(rec.files), creating=True)
        if inter.callback_type == CB_DEFERRED_MESSAGE and inter.edits == 0 and not inter.followup_ids:
            # Discord turns the first followup after a "thinking" deferral into the original response.
            # Its ephemerality was fixed by the deferral: an ephemeral followup here goes public.
            original = self.messages[inter.original_id]  # type: ignore[index]
            wanted = int(data.get("flags") or 0)
            if wanted & EPHEMERAL and not original.ephemeral:
                self.ephemeral_leaks.append((inter, data))
            flags = (wanted & ~EPHEMERAL & ~LOADING) | (original.flags & EPHEMERAL)
            self._edit_message(original, data | {"flags": flags}, rec.files)
            inter.edits += 1
            return original.payload()
        message = self._create_message(inter.channel_id, data, rec.files, interaction=inter)
        inter.followup_ids.append(message.id)
        return message.payload()

    def _webhook_message(self, inter: FakeInteraction, message: str) -> FakeMessage:
        mid = inter.original_id if message == "@original" else int(message)
        found = self.messages.get(mid) if mid is not None else None
        if found is None or found.deleted:
            raise Invalid([f"Unknown Message {message}"], code=10008)
        return found

    async def _get_webhook_message(self, rec: Recorded, app: str, token: str, message: str) -> Any:
        inter = self._interaction_for(app, token)
        return self._webhook_message(inter, message).payload()

    async def _patch_webhook_message(self, rec: Recorded, app: str, token: str, message: str) -> Any:
        inter = self._interaction_for(app, token)
        if not inter.acknowledged:
            return 404, {"message": "Unknown Message", "code": 10008}
        target = self._webhook_message(inter, message)
        data = dict(rec.payload) if isinstance(rec.payload, dict) else {}
        require_valid_message(data, len(rec.files), creating=False)
        if target.loading:
            data["flags"] = (int(data.get("flags") or 0) | target.flags) & ~LOADING
        self._edit_message(target, data, rec.files)
        inter.edits += 1
        return target.payload()

    async def _delete_webhook_message(self, rec: Recorded, app: str, token: str, message: str) -> Any:
        inter = self._interaction_for(app, token)
        target = self._webhook_message(inter, message)
        target.deleted = True
        inter.edits += 1
        return 204, None
