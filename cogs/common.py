"""The only place that turns Discord interactions into gm calls (``cogs.messages`` turns the Replies
into messages).

Cogs stay thin: they build an ``Actor``/``Place``, call one gm coroutine through ``respond`` and
let this module handle deferring and errors, and the autocomplete lists' limits. The games' cogs share
three shapes more, kept here so that each cog only says what its commands mean: an action built from
the player's own view (``act_from_view``), a private reply from that view (``private_from_view``),
and a seat's own preference answered privately (``act_privately``).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.messages import app_of, lang_of, send, send_error
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table.model import game_ref

if TYPE_CHECKING:
    from gm.app import App

# Discord allows 3 s before the first response; answer directly when gm is quick and
# defer ("thinking…") only when it is not, so fast errors can still be ephemeral.
DEFER_AFTER = 1.5


def actor_from(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    settings = app_of(interaction).settings
    roles = getattr(user, "roles", []) or []
    perms = getattr(user, "guild_permissions", None)
    is_admin = bool(perms and perms.administrator)
    return Actor(
        user_id=user.id,
        name=getattr(user, "display_name", None) or user.name,
        locale=lang_of(interaction),
        is_gm=is_admin or any(getattr(r, "name", None) == settings.gm_role for r in roles),
        can_manage_guild=bool(perms and (perms.manage_guild or perms.administrator)),
    )


def place_from(interaction: discord.Interaction) -> Place:
    return Place(channel_id=interaction.channel_id or 0, guild_id=interaction.guild_id)


async def respond(interaction: discord.Interaction, work: Callable[[], Awaitable[Reply]],
                  *, system: str | None = None, ephemeral_defer: bool = False) -> None:
    """Run ``work`` and send its Reply; defer if it is slow; turn errors into messages."""
    task = asyncio.ensure_future(work())
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    deferred: bool | None = None
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral_defer)
        deferred = ephemeral_defer
    try:
        reply = await task
    except Exception as exc:  # every failure becomes a message, never a silent interaction
        await send_error(interaction, exc, system, deferred)
        return
    await send(interaction, reply, deferred)


Choices = list[app_commands.Choice[str]]


async def respond_private(interaction: discord.Interaction, work: Callable[[Place, Actor], Awaitable[Reply]],
                          *, system: str | None = None) -> None:
    """A reply for the asking user alone (their hand, a preview, a card's text), deferred privately."""
    place, actor = place_from(interaction), actor_from(interaction)
    await respond(interaction, lambda: work(place, actor), system=system, ephemeral_defer=True)


def to_choices(items: Iterable[Any]) -> Choices:
    """The gm layer's ``Choice(label, value)`` list as Discord's, within its limits (25 entries,
    100 characters each): every game's autocomplete ends here."""
    return [app_commands.Choice(name=c.label[:100], value=c.value[:100]) for c in items][:25]


def typed(interaction: discord.Interaction, name: str) -> Any:
    """What the user has typed so far in another option of the same command (autocomplete)."""
    return getattr(interaction.namespace, name, None)


def admin_group(name: str, description: str) -> app_commands.Group:
    """A top-level group of commands for server managers.

    Discord reads ``default_member_permissions`` only on top-level commands, so admin
    subcommands inside a players' group (``/rules import``) were visible to every member. Each
    game's admin commands live in a group of their own (``/km-admin``), which members do not
    see by default and owners can restrict further in their integration settings; every
    command still checks the permission in code."""
    return app_commands.Group(name=name, description=description, guild_only=True,
                              default_permissions=discord.Permissions(manage_guild=True))


def ctx(interaction: discord.Interaction) -> tuple[App, Place, Actor]:
    return app_of(interaction), place_from(interaction), actor_from(interaction)


CurrentView = Callable[["App", Place, Actor], Awaitable[tuple[Any, int | None, Any]]]
"""A game's ``current(app, place, actor)``: (the user's view or None, their seat, the table); or its
``game``, the same but an error instead of None."""


ChoiceBuild = Callable[[Any, int | None, str], Iterable[Any]]
"""(the user's view, their seat, their language) -> the gm layer's choices for one autocomplete."""


async def seat_choices(interaction: discord.Interaction, current: CurrentView, build: ChoiceBuild) -> Choices:
    """Autocomplete from the channel's game as the user may see it (their own view: hidden
    cards stay hidden); no game here, or another game, simply gets no choices."""
    app, place, actor = ctx(interaction)
    view, seat, _table = await current(app, place, actor)
    return to_choices(build(view, seat, actor.locale)) if view is not None else []


def seat_choices_of(current: CurrentView) -> Callable[[discord.Interaction, ChoiceBuild], Awaitable[Choices]]:
    """``seat_choices`` bound to one game's ``current``: each game's cog keeps one, ``_seat_choices``,
    so that its many autocompletes name only the list they offer."""

    async def bound(interaction: discord.Interaction, build: ChoiceBuild) -> Choices:
        return await seat_choices(interaction, current, build)

    return bound


async def table_content(interaction: discord.Interaction, system: str) -> dict[str, Any] | None:
    """The server pack the channel's game of ``system`` plays with (None: the built-in one)."""
    app, place, _actor = ctx(interaction)
    table = await app.tables.table_for(place)
    return table.content if table is not None and table.game.system == system else None


def typed_text(interaction: discord.Interaction, name: str) -> str | None:
    """``typed`` as text, None when that option is still empty (what the games' lists expect)."""
    value = typed(interaction, name)
    return str(value) if value else None


ActionBuild = Callable[[Any, int | None, str], dict[str, Any]]
"""(the user's view, their seat, their language) -> the action: what the player typed, named as the
engine wants it (each game's ``gm.games.<system>.actions`` has the ones that need the rules' types)."""


ActionNotes = Callable[[Any, dict[str, Any], str], list[str]]
"""(the user's view, the action built, their language) -> notes for the acting user alone, beside the result."""


async def act_from_view(interaction: discord.Interaction, view_of: CurrentView, build: ActionBuild | None,
                        *, typed_action: dict[str, Any] | None = None, ref: str | None = None,
                        system: str, notes: ActionNotes | None = None) -> None:
    """Act on the channel's game. ``build`` turns what the player typed into the action from the
    position they see (their own view, so a name error never reveals a hidden card); it runs in the
    work, so its errors become messages like the table's own. ``view_of`` is the game's ``current``
    (no game of it here: ``typed_action`` goes as typed and the table says what is wrong) or its
    ``game`` (that case is an error already). ``notes``: what the player alone is told beside the result
    (a typed command has no autocomplete label to carry a warning)."""
    app, place, actor = ctx(interaction)

    async def work() -> Reply:
        view, seat, _table = await view_of(app, place, actor)
        named = build(view, seat, actor.locale) if view is not None and build is not None else typed_action
        assert named is not None, "a build, or an action to send as typed"
        said = notes(view, named, actor.locale) if notes is not None and view is not None else []
        reply = await app.tables.act(place, actor, named, ref=ref)
        reply.extra.extend(Reply(text=note, ephemeral=True) for note in said)
        return reply

    await respond(interaction, work, system=system)


PrivateBuild = Callable[[Any, int | None, str, str], Reply | Awaitable[Reply]]
"""(the user's view, their seat, their language, the position's ref) -> a private Reply (may be a
coroutine: pictures are drawn off the loop)."""


async def private_from_view(interaction: discord.Interaction, game: CurrentView, build: PrivateBuild,
                            *, system: str) -> None:
    """A reply for the asking user alone, from the game as ``game`` gives it (the game's ``game``
    lookup: the user's view, or Krosmaster's position in play; no game here is an error), and
    ``build`` gets the position's ref for the buttons and selects it puts in the reply."""
    app = app_of(interaction)

    async def work(place: Place, actor: Actor) -> Reply:
        view, seat, table = await game(app, place, actor)
        reply = build(view, seat, actor.locale, game_ref(table))
        return await reply if inspect.isawaitable(reply) else reply

    await respond_private(interaction, work, system=system)


async def act_privately(interaction: discord.Interaction, action: Callable[[], dict[str, Any]],
                        *, system: str) -> None:
    """A seat's own preference (Warlord's stops, WoW Miniatures' comfort): acted on like any action,
    under the table's lock, but answered privately, so nothing reaches the channel. ``action`` is
    built in the work, so a word it does not know becomes a private message."""
    app, place, actor = ctx(interaction)

    async def work() -> Reply:
        reply = await app.tables.act(place, actor, action())
        return Reply(text="\n".join(e.text for e in reply.extra if e.ephemeral) or reply.text, ephemeral=True)

    await respond(interaction, work, system=system, ephemeral_defer=True)
