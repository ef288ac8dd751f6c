"""The private replies behind ``/km preview``, ``/km rewards`` and the board's buttons: where the
active piece can move, a spell's targets and area (a picture, or words when drawing fails), the
seat's rewards and the piles to buy from, and the open question's answers.

Each is built for the position the button was posted with (``ref``): an old board's button is
stale rather than a menu of moves that are gone. The squares and areas come from the engine's own
reach and targeting, which is why this lives here and not in the cog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from common.i18n import humanize, t
from engines.core.errors import TavoloError
from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.rules_board import label
from engines.krosmaster.state import State
from gm.context import Actor, Place
from gm.games.krosmaster import names
from gm.games.krosmaster import presenter as km
from gm.games.krosmaster.actions import game
from gm.reply import Image, Reply, Select, SelectOption
from gm.table.model import game_ref

if TYPE_CHECKING:
    from gm.app import App

__all__ = ["PREVIEW_VERBS", "button_preview", "piles_menu", "preview_reply", "rewards_reply"]

PREVIEW_VERBS = ("moves", "spell", "ask")


async def preview_reply(state: State, ref: str, lang: str, spell: str | None, target: str | None,
                        with_select: bool = False) -> Reply:
    """Where the active piece can move (no spell), or a spell's targets and, with a target, its area;
    ``with_select`` adds a select that casts at one of the targets (the button's preview)."""
    if state.phase != "turn" or state.active_piece is None:
        raise TavoloError("km.ui.no_active_piece")
    if spell is None:
        options = reachable_squares(state)
        squares: dict[str, int] = {s: o.cost for s, o in options.items()}
        data = await km.preview_png(state, squares, "move", None, None, lang)
        text = t("km.ui.preview_moves", lang, count=len(squares))
        if data is None:  # the picture failed: the squares in words instead
            return Reply(text=text + "\n" + ", ".join(f"{s} ({c})" for s, c in sorted(squares.items())),
                         ephemeral=True)
        return Reply(text=text, image=Image(f"km-{ref.replace('.', '-')}-moves.png", data), ephemeral=True)
    spell = names.resolve_spell(state, spell, lang)
    plans = spell_targets(state, spell)
    if not plans:
        raise TavoloError("km.ui.no_targets", spell=km.spell_title(state, spell, lang))
    target_labels = sorted({label(p.target) for p in plans})
    area: list[str] | None = None
    square = None
    if target:
        square, direction = names.parse_target(state, target, lang)
        area = area_for(state, spell, square, direction)
    data = await km.preview_png(state, target_labels, "spell", area, square, lang)
    reply = Reply(text=t("km.ui.preview_targets", lang, count=len(target_labels)), ephemeral=True)
    if data is None:  # the picture failed: the targets in words instead
        reply.text += "\n" + ", ".join(target_labels)
    else:
        reply.image = Image(f"km-{ref.replace('.', '-')}-{spell}.png", data)
    if with_select:
        seat = state.active_seat
        choices = km.target_choices(state, seat, spell, "", lang)
        if choices:
            reply.selects.append(Select(custom_id=f"tv1:km:{ref}:cast:{spell}",
                                        placeholder=t("km.ui.pick_target", lang),
                                        options=tuple(SelectOption(o.label, o.value) for o in choices)))
    return reply


def rewards_reply(state: State, seat: int | None, lang: str, _ref: str) -> Reply:
    """``/km rewards``: this seat's face-down rewards and the piles, for its eyes only."""
    return Reply(title=t("km.ui.rewards_title", lang), text=km.rewards_text(state, seat, lang), ephemeral=True)


async def _at(app: App, place: Place, actor: Actor, ref: str) -> tuple[State, int | None, str]:
    """The channel's game if it is still at the button's position; else the button is stale."""
    state, seat, table = await game(app, place, actor)
    current = game_ref(table)
    if current != ref:
        raise TavoloError("common.stale_button")
    return state, seat, current


async def piles_menu(app: App, place: Place, actor: Actor, ref: str) -> Reply:
    """The buy button's select: each pile's face-up reward, or blind, that this seat can buy now."""
    state, seat, current = await _at(app, place, actor, ref)
    options = km.pile_choices(state, seat, "", actor.locale, both=True) if seat is not None else []
    if not options:
        raise TavoloError("common.stale_button")
    return Reply(text=t("km.ui.pick_pile", actor.locale), ephemeral=True, selects=[
        Select(custom_id=f"tv1:km:{current}:buy", placeholder=t("km.ui.pick_pile", actor.locale),
               options=tuple(SelectOption(o.label, o.value) for o in options))])


async def button_preview(app: App, place: Place, actor: Actor, ref: str, verb: str, rest: list[str]) -> Reply:
    """The reply behind a board button (one of ``PREVIEW_VERBS``): the open question with its answers
    (``ask``), the moves, or a spell's targets with a select that casts (``spell``, named in ``rest``)."""
    state, _, current = await _at(app, place, actor, ref)
    if verb == "ask":
        decision = km.ENGINE.decision(state)
        prompt = decision.prompt_key if decision and decision.prompt_key else "km.ui.answer"
        params: dict[str, Any] = humanize(decision.params, actor.locale, "km") if decision else {}
        reply = Reply(text=t(prompt, actor.locale, **params), ephemeral=True)
        select = km.PRESENTER.decision_select(current, state, actor.locale)
        if select is not None:
            reply.selects.append(select)
        return reply
    spell = rest[0] if verb == "spell" and rest else None
    return await preview_reply(state, current, actor.locale, spell, None, with_select=True)
