"""The channel's Krosmaster game for the ``/km`` commands, and the actions players ask for with them:
each command's typed names ("SHA", "Fire Bolt", "d8 sud") become the ids of the action, read from
the position in play; a rules error that names a piece by id names it as the board does.

Everything is read from the seat's view (``gm.games.seat_view``), never the full state: a face-down
reward of another seat (306.6b) cannot reach an autocomplete list, a typed name or its error (issue 26.1).

The cog only reads Discord's options and hands them here: which pieces may deploy or take a reward
is read from ``legal_actions``, which is rules knowledge the cog should not import. ``MAX_PACK_BYTES``
is here for the pack admin cog, which refuses a bigger upload before downloading it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from common.i18n import t
from engines.core.errors import RuleError, TavoloError
from engines.krosmaster import actions as A
from engines.krosmaster.content import MAX_PACK_BYTES
from engines.krosmaster.state import State
from gm.context import Actor, Place
from gm.games.choices import Choice
from gm.games.krosmaster import info, names
from gm.games.krosmaster.presenter import ENGINE, figurine_names
from gm.games.seat_view import require_seat_view, seat_view
from gm.reply import Reply

if TYPE_CHECKING:
    from gm.app import App
    from gm.table.model import Table

__all__ = ["MAX_PACK_BYTES", "SYSTEM", "Build", "act", "assign_reward", "cast", "current", "deploy", "game",
           "info_choices", "inspire", "order_ties", "reveal_reward", "set_team"]

SYSTEM = "krosmaster"
Build = Callable[[State, int | None, str], dict[str, Any]]
"""(the position in play, the user's seat, their language) -> the action, with ids for names."""


# ---------------------------------------------------------------------------- the channel's game
async def current(app: App, place: Place, actor: Actor) -> tuple[State | None, int | None, Table | None]:
    """The channel's Krosmaster position as the user's seat sees it (None when there is no started
    game of it here), the seat and the table: what the autocomplete lists and the typed names are read
    from, so nothing hidden from the seat can be offered or named."""
    return await seat_view(app, place, actor, SYSTEM, ENGINE, State)


async def game(app: App, place: Place, actor: Actor) -> tuple[State, int | None, Table]:
    """Like ``current`` but an error when there is no started Krosmaster game here (the words say
    which of the three cases it is)."""
    return await require_seat_view(app, place, actor, SYSTEM, ENGINE, State, "km.ui.not_krosmaster")


async def act(app: App, place: Place, actor: Actor, action: dict[str, Any], *, ref: str | None = None,
              build: Build | None = None) -> Reply:
    """One command on the channel's game. ``build`` turns the names a player typed into the ids of
    the action, from the position in play; without a Krosmaster game here ``action`` goes as typed and
    the table says what is wrong. An engine error that names a piece by id names it as the board does."""
    state, seat, _table = await current(app, place, actor)
    try:
        named = build(state, seat, actor.locale) if state is not None and build is not None else action
        return await app.tables.act(place, actor, named, ref=ref)
    except RuleError as exc:
        raise names.name_error(exc, state, actor.locale) from None


# ---------------------------------------------------------------------------- lobby
async def set_team(app: App, place: Place, actor: Actor, figurines: str) -> Reply:
    """``/km team``: figurines by name, id or beginning (commas or spaces), from the table's pack."""
    table = await app.tables.table_for(place)
    if table is None or table.game.system != SYSTEM:
        raise TavoloError("km.ui.no_lobby")
    ids = names.resolve_figurines(figurines, table.content, actor.locale)  # names, ids, prefixes; commas or spaces
    reply = await app.tables.configure_seat(place, actor, {"team": ids})  # 101, or 701.2 in four
    team = figurine_names(ids, table.content, actor.locale)
    reply.text = t("km.ui.team_set", actor.locale, user=actor.mention, team=", ".join(team))
    return reply


async def info_choices(app: App, place: Place, actor: Actor, current: str) -> list[Choice]:
    """``/km info``: spells, rewards, figurines, powers and arenas of the table's pack; in a game,
    the pieces in play first (as the asker's seat sees them)."""
    state, _seat, table = await seat_view(app, place, actor, SYSTEM, ENGINE, State)
    content = table.content if table is not None and table.game.system == SYSTEM else None
    return info.info_choices(current, actor.locale, content, state)


# ---------------------------------------------------------------------------- typed names → actions
def _legal(state: State, seat: int | None, kind: type[Any], field: str) -> set[str]:
    """The values of ``field`` in the seat's legal actions of one kind (to settle a shared name)."""
    if seat is None:
        return set()
    return {getattr(a, field) for a in ENGINE.legal_actions(state, seat) if isinstance(a, kind)}


def _own_piece(state: State, seat: int | None, text: str, lang: str = "en") -> str:
    """One of the seat's pieces by what the board shows; the legal ones win a shared name."""
    mine = [p for p in state.pieces.values() if p.owner == seat or seat is None]
    prefer = _legal(state, seat, A.Deploy, "piece") | _legal(state, seat, A.OrderTies, "piece")
    return names.resolve_piece(state, text, mine, what="km.ui.what.your_piece", prefer=prefer, lang=lang)


def order_ties(state: State, seat: int | None, piece: str, lang: str = "en") -> dict[str, Any]:
    return {"kind": "order_ties", "piece": _own_piece(state, seat, piece, lang)}


def deploy(state: State, seat: int | None, piece: str, square: str, lang: str = "en") -> dict[str, Any]:
    return {"kind": "deploy", "piece": _own_piece(state, seat, piece, lang), "square": square.strip().upper()}


def cast(state: State, spell: str, target: str, lang: str) -> dict[str, Any]:
    """``/km cast``: the spell by name, the target as a square (``D8 S``, ``d8 sud``) or a piece."""
    square, direction = names.parse_target(state, target, lang)
    action: dict[str, Any] = {"kind": "cast", "spell": names.resolve_spell(state, spell, lang), "target": square}
    if direction:
        action["direction"] = direction
    return action


def inspire(state: State, seat: int | None, placements: list[dict[str, Any]], lang: str = "en") -> dict[str, Any]:
    """``/km inspire``: each die's piece, one of the seat's (``placements``: die number and name)."""
    mine = [p for p in state.pieces.values() if p.owner == seat or seat is None]
    return {"kind": "inspire", "placements": [
        {"die": p["die"], "piece": names.resolve_piece(state, p["piece"], mine, what="km.ui.what.your_piece",
                                                       lang=lang)}
        for p in placements]}


def assign_reward(state: State, seat: int | None, reward: str, piece: str, lang: str = "en") -> dict[str, Any]:
    """``/km reward-assign``: the reward just bought (as this seat sees it) on one of its pieces."""
    view = ENGINE.view(state, seat)
    pending = [view.rewards.pending] if view.rewards.pending else []
    mine = [p for p in state.pieces.values() if p.owner == seat or seat is None]
    return {"kind": "assign_reward", "reward": names.resolve_card(pending, reward, lang) if pending else reward,
            "piece": names.resolve_piece(state, piece, mine, what="km.ui.what.your_piece",
                                         prefer=_legal(state, seat, A.AssignReward, "piece"), lang=lang)}


def reveal_reward(state: State, seat: int | None, reward: str, lang: str = "en") -> dict[str, Any]:
    """``/km reward-reveal``: one of the active piece's face-down rewards, as this seat sees them."""
    view = ENGINE.view(state, seat)
    active = view.pieces.get(view.active_piece or "")
    cards = [c for c in active.rewards if not c.face_up] if active is not None else []
    return {"kind": "reveal_reward", "reward": names.resolve_card(cards, reward, lang) if cards else reward.strip()}
