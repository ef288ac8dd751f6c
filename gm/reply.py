"""Transport-agnostic replies: what cogs and the console turn into messages.

gm never imports discord; a ``Reply`` is plain data so the console, the Discord cog
and tests all see exactly the same answer to an action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Button:
    """A button whose ``custom_id`` is namespaced and versioned (``tv1:<area>:...``)."""

    label: str
    custom_id: str
    style: ButtonStyle = "secondary"
    disabled: bool = False


@dataclass(frozen=True)
class Link:
    """A button that opens an address (a channel's ``https://discord.com/channels/…``) instead of
    sending a click to the bot: nothing to route, so it carries no ``custom_id``."""

    label: str
    url: str


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True)
class Select:
    custom_id: str
    placeholder: str
    options: tuple[SelectOption, ...]
    max_values: int = 1  # more than one: a builder (several picks sent as one action)


@dataclass(frozen=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True)
class Image:
    filename: str
    data: bytes


@dataclass
class Reply:
    """One message: text, optional embed-like card, image, components and mentions.

    ``ephemeral`` replies are seen only by the user who acted. ``mentions`` are user
    ids to ping (the next player). ``extra`` holds further messages to send after this
    one, e.g. a public board after a private confirmation.
    """

    text: str = ""
    title: str | None = None
    fields: list[Field] = field(default_factory=list)
    image: Image | None = None
    buttons: list[Button] = field(default_factory=list)
    selects: list[Select] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    ephemeral: bool = False
    mentions: list[int] = field(default_factory=list)
    ping: bool = True  # False: show mentions without notifying (e.g. a status anyone may ask for)
    is_error: bool = False
    extra: list[Reply] = field(default_factory=list)
    # The channel's board (TABLE_UX "the channel is a shared space"): ``board`` marks a public
    # reply that shows the game's board; ``update_board`` says the change was small (a set-up
    # step, bookkeeping), so the transport edits the board already posted instead of posting a
    # new image, and answers with ``brief`` (what happened and who is next) alone.
    board: bool = False
    update_board: bool = False
    brief: str = ""
    board_text: str = ""  # the board message's own text when it is updated: the position, not the events
    # One public prompt per question answered by several seats at once (a reaction window): an answer that
    # only says "this seat answered" edits the board, whose text names who is still to answer, and the
    # answering seat alone hears what it chose. Without a board to edit the reply is posted as usual.
    quiet: bool = False

    def plain_text(self) -> str:
        """Everything readable in the reply as one string (console, logs, tests)."""
        parts = [p for p in (self.title, self.text) if p]
        parts += [f"{f.name}: {f.value}" for f in self.fields]
        return "\n".join(parts)
