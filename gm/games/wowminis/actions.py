"""The actions players ask for with ``/wowm`` commands, where they need more than one name resolved:
a react and its target, the secret action bars (typed, or picked one character at a time); and the
lists read from the table's pack (party, info).

The cog only reads Discord's options and hands them here, so it never needs the engine's types;
``MAX_PACK_BYTES`` is here for the pack admin cog, which refuses a bigger upload before downloading it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.core.errors import TavoloError
from engines.wowminis.content import MAX_PACK_BYTES, pack_for
from engines.wowminis.state import State
from gm.context import Actor, Place
from gm.games.choices import Choice
from gm.games.wowminis import choices, names
from gm.games.wowminis.presenter import bar_menu, bars_from_picks, check_ref, current
from gm.reply import Reply

if TYPE_CHECKING:
    from gm.app import App

__all__ = ["MAX_PACK_BYTES", "bar_pick", "choose_bar", "info_choices", "party_choices", "react"]


# ---------------------------------------------------------------------------- lists from the pack
def party_choices(content: dict[str, Any] | None, current: str, lang: str) -> list[Choice]:
    """``/wowm party``: the characters of the table's pack (the built-in one when ``content`` is None)."""
    return choices.party_choices(pack_for(content), current, lang)


def info_choices(content: dict[str, Any] | None, current: str, lang: str) -> list[Choice]:
    """``/wowm info``: every character and action card of the table's pack."""
    return choices.info_choices(pack_for(content), current, lang)


# ---------------------------------------------------------------------------- play
def react(view: State, seat: int | None, card: str, target: str | None, lang: str = "en") -> dict[str, Any]:
    """A react card of this seat and its target, read like a play's (a react has no orientation); a seat
    the window does not wait for gets the table's "not your turn", not a list of cards."""
    if not names.asked(view, seat):
        return {"kind": "react", "card": card}
    action: dict[str, Any] = {"kind": "react", "card": choices.resolve_react_card(view, seat, card, lang)}
    decoded = choices.decode_play(view, target or "")
    decoded.pop("orientation", None)
    action.update(decoded)
    return action


# ---------------------------------------------------------------------------- the secret bars
async def choose_bar(app: App, place: Place, actor: Actor, bars: dict[str, list[str]],
                     ref: str | None = None) -> Reply:
    """The secret answer goes out privately; the channel only learns that this seat chose."""
    reply = await app.tables.act(place, actor, {"kind": "choose_bar", "bars": bars}, ref=ref)
    private = [extra for extra in reply.extra if extra.ephemeral]
    if reply.update_board:  # one seat is in: a line, not a new picture (TABLE_UX: set-up steps)
        public = Reply(text=reply.brief, mentions=reply.mentions, buttons=reply.buttons)
    else:  # every bar is in: the board, revealed together
        public = Reply(text=reply.text, image=reply.image, buttons=reply.buttons, mentions=reply.mentions,
                       board=reply.board)
    body = "\n".join(p.text for p in private) or reply.text
    return Reply(text=body, ephemeral=True, extra=[public])


async def bar_pick(app: App, place: Place, actor: Actor, ref: str, picked: list[list[str]]) -> Reply:
    """One character's pair picked in the bar menu: ask for the next one, or send the whole secret bar."""
    view, seat, table = await current(app, place, actor)
    now = check_ref(table, ref, same_game=True)  # the other seat may answer meanwhile
    assert view is not None
    if seat is None:
        raise TavoloError("game.panel_spectator")
    heroes = [c for c in view.chars.values() if c.owner == seat and c.kind == "hero"]
    if len(picked) < len(heroes):
        return bar_menu(view, seat, actor.locale, now, picked)
    return await choose_bar(app, place, actor, bars_from_picks(view, seat, picked))
