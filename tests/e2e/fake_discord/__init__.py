"""A loopback fake of Discord (REST API v10 + gateway) for end-to-end tests.

Why a fake and not mocks: the bot must be exercised through the *real* discord.py
client — its HTTP layer, gateway state machine, command tree, view store and webhook
adapter — because that is where integration bugs live (a view that is not found after
a reply, a multipart upload that loses its file, a reply that misses the 3-second
deadline). The fake speaks just enough of Discord for that, on 127.0.0.1 with a random
port, and behaves like Discord where the bot could get it wrong:

* it validates what the bot sends (message, embed, component, autocomplete and command
  limits) and answers 400 like Discord would; such requests are recorded in
  :attr:`FakeDiscord.invalid_requests` so the fixture can fail the test;
* an interaction not acknowledged within :data:`INTERACTION_DEADLINE` seconds gets
  ``404 Unknown interaction`` and is recorded in :attr:`FakeDiscord.late_callbacks`;
  a second acknowledgement gets ``400 Interaction has already been acknowledged``;
* a route it does not implement answers 404 and is recorded in
  :attr:`FakeDiscord.unknown_routes`;
* the simulated Discord *client* refuses what a user could not do: click a button that
  is not on the message or is disabled, click someone else's ephemeral message, pick a
  select value that is not offered, run a command that was never synced, pass an option
  the command does not have or leave out a required one.

Faults can be injected per route (:meth:`FakeDiscord.fail_next`): 429 with Retry-After or
5xx, to prove the bot recovers.

Payload shapes follow discord.py 2.7 (``discord/types/``, ``state.py``,
``interactions.py``, ``webhook/async_.py``); see the module tests in ``test_fake.py``.

The fake is a package with one module per concern:

* ``protocol``: Discord's numbers (flags, interaction/callback/option types, locales);
* ``world``, ``messages``, ``records``: guild and members, messages, what happened;
* ``validation``: Discord's limits on what the bot sends;
* ``state``: the data every part shares, and waiting on it; ``inspection``: reading it back;
* ``gateway``: the websocket, identify/resume, dispatch, sharding;
* ``http_server``, ``wire``, ``faults``: the HTTP server and dispatcher, the wire format,
  injected failures;
* ``rest_application``, ``rest_interactions``, ``rest_channels``, ``message_store``: the REST
  routes and the messages they create and edit;
* ``command_options``, ``client``: the simulated Discord client;
* ``fake``: :class:`FakeDiscord` assembled from the parts above.

Tests import from the package: ``from tests.e2e.fake_discord import FakeDiscord, FakeMessage``.
"""

from tests.e2e.fake_discord.fake import FakeDiscord
from tests.e2e.fake_discord.messages import FakeFile, FakeMessage
from tests.e2e.fake_discord.protocol import (
    ADMINISTRATOR,
    API_PREFIX,
    APPLICATION_COMMAND,
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    DISCORD_EPOCH_MS,
    DISCORD_LOCALES,
    EPHEMERAL,
    GATEWAY_PATH,
    GUILD_MEMBERS_INTENT,
    INTERACTION_DEADLINE,
    LOADING,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB,
    OPT_USER,
    PING,
    FakeDiscordError,
    Snowflakes,
)
from tests.e2e.fake_discord.records import FakeInteraction, Fault, Recorded, Response
from tests.e2e.fake_discord.validation import validate_choices, validate_command, validate_message
from tests.e2e.fake_discord.world import FakeChannel, FakeRole, FakeUser, Guild

__all__ = [
    "ADMINISTRATOR",
    "API_PREFIX",
    "APPLICATION_COMMAND",
    "ATTACHMENT_SIZE_LIMIT",
    "AUTOCOMPLETE",
    "CB_AUTOCOMPLETE",
    "CB_DEFERRED_MESSAGE",
    "CB_DEFERRED_UPDATE",
    "CB_MESSAGE",
    "CB_MODAL",
    "CB_UPDATE",
    "DISCORD_EPOCH_MS",
    "DISCORD_LOCALES",
    "EPHEMERAL",
    "GATEWAY_PATH",
    "GUILD_MEMBERS_INTENT",
    "INTERACTION_DEADLINE",
    "LOADING",
    "MANAGE_GUILD",
    "MEMBER_PERMISSIONS",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "OPT_ATTACHMENT",
    "OPT_BOOLEAN",
    "OPT_CHANNEL",
    "OPT_GROUP",
    "OPT_INTEGER",
    "OPT_MENTIONABLE",
    "OPT_NUMBER",
    "OPT_ROLE",
    "OPT_STRING",
    "OPT_SUB",
    "OPT_USER",
    "PING",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeFile",
    "FakeInteraction",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Fault",
    "Guild",
    "Recorded",
    "Response",
    "Snowflakes",
    "validate_choices",
    "validate_command",
    "validate_message",
]
