"""Krosmaster at the table: presenter (image, summary, buttons) and choice lists.

Everything offered to a player here comes from the engine's ``legal_actions`` or its
helpers, so autocomplete and buttons can only propose what ``apply`` will accept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engines.krosmaster  # noqa: F401  (registers the engine)
from common.i18n import humanize, t
from db.store import Store
from engines.core.errors import TavoloError
from engines.core.krosmaster_die import face_from_d6
from engines.krosmaster import actions as A
from engines.krosmaster.content import MAX_PACK_BYTES, REWARD_COST, load_pack, pack_for
from engines.krosmaster.engine import KrosmasterEngine, reachable_squares, spells_of
from engines.krosmaster.state import RewardCard, State
from gm import pack_admin, presenters
from gm.content_packs import read_pack
from gm.context import Actor, Place
from gm.reply import Button, Reply, Select, SelectOption

ENGINE = KrosmasterEngine()
MAX_CHOICES = 25


@dataclass(frozen=True)
class Choice:
    """An autocomplete entry: what the player reads and what goes back in the action."""

    label: str
    value: str


def _piece_label(state: State, piece_id: str) -> str:
    piece = state.pieces.get(piece_id)
    if piece is None:
        return piece_id
    summoner = state.pieces.get(piece.summoner or "")
    if summoner is not None:  # 315: a summon is named with the piece that summoned it
        return f"{piece.short} ({piece.figurine.name} ← {summoner.short})"
    return f"{piece.short} ({piece.figurine.name})"


def figurine_names(ids: list[str], content: dict[str, Any] | None) -> list[str]:
    """Display names of a team already accepted by the engine (server pack first, then built-in)."""
    pack = pack_for(content)
    return [pack.figurine(fid).name for fid in ids]


def _spell_name(state: State, spell_id: str) -> str:
    if state.active_piece is None:
        return spell_id
    for spell in spells_of(state, state.pieces[state.active_piece]):
        if spell.id == spell_id:
            return spell.name
    return spell_id


def _matches(text: str, current: str) -> bool:
    return current.strip().lower() in text.lower()


def move_choices(state: State, seat: int, current: str, lang: str) -> list[Choice]:
    legal = {a.to for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Move)}
    options = reachable_squares(state)
    found = []
    for square in sorted(legal, key=lambda s: (options[s].cost if s in options else 99, s)):
        option = options.get(square)
        label = square if option is None else t("km.ui.move_choice", lang, square=square, cost=option.cost,
                                                 checks=option.lock_checks)
        if _matches(label, current):
            found.append(Choice(label, square))
    return found[:MAX_CHOICES]


def spell_choices(state: State, seat: int, current: str, lang: str) -> list[Choice]:
    castable: dict[str, int] = {}
    for action in ENGINE.legal_actions(state, seat):
        if isinstance(action, A.Cast):
            castable[action.spell] = castable.get(action.spell, 0) + 1
    found = []
    for spell_id, count in castable.items():
        label = t("km.ui.spell_choice", lang, spell=_spell_name(state, spell_id), targets=count)
        if _matches(label, current) or _matches(spell_id, current):
            found.append(Choice(label, spell_id))
    return found[:MAX_CHOICES]


def target_choices(state: State, seat: int, spell_id: str | None, current: str) -> list[Choice]:
    found = []
    for action in ENGINE.legal_actions(state, seat):
        if isinstance(action, A.Cast) and (spell_id is None or action.spell == spell_id):
            value = action.target + (f" {action.direction}" if action.direction else "")
            occupant = state.piece_at(action.target)
            label = value + (f" — {occupant.short}" if occupant else "")
            if _matches(label, current):
                found.append(Choice(label, value))
    return found[:MAX_CHOICES]


def deploy_piece_choices(state: State, seat: int, current: str) -> list[Choice]:
    ids = {a.piece for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Deploy | A.OrderTies)}
    return [Choice(_piece_label(state, p), p) for p in sorted(ids) if _matches(_piece_label(state, p), current)][
        :MAX_CHOICES]


def deploy_square_choices(state: State, seat: int, current: str) -> list[Choice]:
    squares = sorted({a.square for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Deploy)})
    return [Choice(s, s) for s in squares if _matches(s, current)][:MAX_CHOICES]


def own_piece_choices(state: State, seat: int, current: str) -> list[Choice]:
    return [Choice(_piece_label(state, p.id), p.id) for p in state.pieces_of(seat)  # 403.1: Krosmasters only
            if p.in_play and p.summon is None and _matches(_piece_label(state, p.id), current)][:MAX_CHOICES]


def any_piece_choices(state: State, current: str) -> list[Choice]:
    return [Choice(_piece_label(state, pid), pid) for pid in state.pieces
            if _matches(_piece_label(state, pid), current)][:MAX_CHOICES]


def decision_choices(state: State, lang: str, current: str) -> list[Choice]:
    decision = ENGINE.decision(state)
    if decision is None:
        return []
    found = []
    for option in decision.options:
        label = t(option.label_key, lang, **humanize(option.params, lang, "km"))
        if _matches(label, current):
            found.append(Choice(label[:100], option.value))
    return found[:MAX_CHOICES]


def _reward_name(card: RewardCard | None) -> str:
    return card.reward.name if card is not None and card.reward is not None else "?"


def pile_choices(state: State, seat: int, current: str, lang: str) -> list[Choice]:
    """306.4: piles the active piece can buy from now, face up first (read from the seat's view)."""
    view = ENGINE.view(state, seat)
    piles = {p.id: p for p in view.rewards.piles}
    found: dict[str, Choice] = {}
    for action in ENGINE.legal_actions(view, seat):
        if isinstance(action, A.BuyReward) and action.pile not in found:
            pile = piles[action.pile]
            price = REWARD_COST[pile.rank]
            label = (t("km.ui.pile_blind", lang, pile=pile.id, price=price) if action.blind
                     else t("km.ui.pile_face_up", lang, pile=pile.id, reward=_reward_name(pile.top), price=price))
            if _matches(label, current):
                found[action.pile] = Choice(label, action.pile)
    return list(found.values())[:MAX_CHOICES]


def assign_reward_choices(state: State, seat: int, current: str) -> list[Choice]:
    view = ENGINE.view(state, seat)
    ids = {a.reward for a in ENGINE.legal_actions(view, seat) if isinstance(a, A.AssignReward)}
    card = view.rewards.pending
    return [Choice(f"{_reward_name(card)} ({cid})", cid) for cid in sorted(ids)
            if _matches(f"{_reward_name(card)} {cid}", current)][:MAX_CHOICES]


def assign_piece_choices(state: State, seat: int, current: str) -> list[Choice]:
    ids = {a.piece for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.AssignReward)}
    return [Choice(_piece_label(state, p), p) for p in sorted(ids) if _matches(_piece_label(state, p), current)][
        :MAX_CHOICES]


def reveal_reward_choices(state: State, seat: int, current: str) -> list[Choice]:
    """306.8: the active piece's face-down rewards it may reveal now."""
    view = ENGINE.view(state, seat)
    ids = {a.reward for a in ENGINE.legal_actions(view, seat) if isinstance(a, A.RevealReward)}
    cards = {c.id: c for p in view.pieces.values() for c in p.rewards}
    return [Choice(f"{_reward_name(cards.get(cid))} ({cid})", cid) for cid in sorted(ids)
            if _matches(f"{_reward_name(cards.get(cid))} {cid}", current)][:MAX_CHOICES]


def rewards_text(state: State, seat: int | None, lang: str) -> str:
    """``/km rewards``: the piles (public side), your face-down rewards, and the revealed ones held."""
    view = ENGINE.view(state, seat)
    none = t("km.ui.rewards_none", lang)
    piles = ", ".join(t("km.ui.pile_status", lang, pile=p.id, count=p.count, top=_reward_name(p.top) if p.top else "—")
                      for p in view.rewards.piles) or none
    yours = [f"{_reward_name(c)} → {p.short} ({c.id})" for p in view.pieces.values() if p.owner == seat
             for c in p.rewards if not c.face_up]
    public = [f"{_reward_name(c)} → {p.short}" for p in view.pieces.values() for c in p.rewards if c.face_up]
    lines = [t("km.ui.rewards_piles", lang, piles=piles)]
    if seat is not None:
        lines.append(t("km.ui.rewards_yours", lang, rewards=", ".join(yours) or none))
    lines.append(t("km.ui.rewards_public", lang, rewards=", ".join(public) or none))
    return "\n".join(lines)


def figurine_choices(current: str, lang: str, content: dict | None = None,
                     limit: int | None = MAX_CHOICES) -> list[Choice]:
    """Complete the last name of a comma-separated team list (``a, b, c…``)."""
    pack = pack_for(content)
    done, _, last = current.rpartition(",")
    prefix = f"{done}, " if done else ""
    chosen = {part.strip().lower() for part in done.split(",") if part.strip()}
    found = []
    for fig in pack.figurines:
        if fig.id in chosen:
            continue
        label = t("km.ui.figurine_choice", lang, name=fig.name, level=fig.level, hp=fig.hp, ap=fig.ap, mp=fig.mp)
        if _matches(label, last) or _matches(fig.id, last):
            value = prefix + fig.id
            found.append(Choice((prefix + label)[-100:], value[:100]))
    return found[:limit]


async def import_pack(store: Store, place: Place, actor: Actor, filename: str, data: bytes,
                      name: str | None, *, replace: bool = False) -> Reply:
    """Validate and store a server's content pack; nothing is saved unless all of it is valid,
    and an existing pack of the same name is only overwritten with ``replace``."""
    if not actor.can_manage_guild:
        raise TavoloError("common.missing_permissions")
    if len(data) > MAX_PACK_BYTES:
        raise TavoloError("km.err.pack_too_big", size=len(data), limit=MAX_PACK_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TavoloError("km.ui.pack_not_text") from exc
    pack = await read_pack(text, filename, load_pack)  # parsed and validated off the loop, within a budget
    name = pack_admin.pack_name(name or pack["name"] or filename.rsplit(".", 1)[0])
    replaced = await pack_admin.save(store, place, actor, "krosmaster", name, pack, replace)
    key = "km.ui.pack_replaced" if replaced else "km.ui.pack_saved"
    return Reply(text=t(key, actor.locale, name=name, figurines=len(pack["figurines"]), arenas=len(pack["arenas"])))


class KrosmasterPresenter:
    system = "krosmaster"

    def render(self, view: State, *, viewer: int | None, lang: str, seat_names: list[str]) -> bytes | None:  # type: ignore[override]
        from renderers.krosmaster import render

        return render(view, lang=lang, seat_names=dict(enumerate(seat_names)))

    def summary(self, view: State, *, lang: str, seat_names: list[str]) -> str:  # type: ignore[override]
        if view.phase == "over":
            return ""
        player = view.player(view.active_seat)
        parts = [t("km.ui.summary_turn", lang, turn=max(1, view.turn_number), player=player.name)]
        if view.phase == "turn" and view.active_piece:
            piece = view.pieces[view.active_piece]
            parts.append(t("km.ui.summary_piece", lang, piece=piece.short, name=piece.figurine.name, ap=piece.ap,
                           mp=piece.mp, hp=piece.hp - piece.wounds))
        gg = " · ".join(f"{p.name} {p.gg}" for p in view.players)
        parts.append(t("km.ui.summary_gg", lang, gg=gg, wild=view.wild_gg))
        return "\n".join(parts)

    def buttons(self, ref: str, view: State, *, seat: int | None, lang: str) -> list[Button]:  # type: ignore[override]
        if seat is None or view.phase == "over":
            return []
        prefix = f"tv1:km:{ref}"
        if view.multi is not None and (view.multi.gifts or view.multi.tension):  # 702.5/702.6 choices first
            return [Button(t("km.ui.answer", lang), f"{prefix}:ask", style="primary")]
        if view.phase == "turn":
            buttons = [Button(t("km.ui.end_turn", lang), f"{prefix}:end", style="primary"),
                       Button(t("km.ui.preview_move", lang), f"{prefix}:moves")]
            casts: dict[str, str] = {}
            for action in ENGINE.legal_actions(view, seat):
                if isinstance(action, A.Cast) and action.spell not in casts:
                    casts[action.spell] = _spell_name(view, action.spell)
            buttons += [Button(name[:70], f"{prefix}:spell:{spell_id}") for spell_id, name in casts.items()]
            return buttons[:10]
        if view.phase in ("choose_side", "tension_faces", "order_effects", "assign_reward"):
            return [Button(t("km.ui.answer", lang), f"{prefix}:ask", style="primary")]
        if view.phase == "inspiration":
            return [Button(t("km.ui.keep_dice", lang), f"{prefix}:keep", style="secondary")]
        return []

    def decision_select(self, ref: str, view: State, lang: str) -> Select | None:
        options = decision_choices(view, lang, "")
        if not options:
            return None
        return Select(custom_id=f"tv1:km:{ref}:choose", placeholder=t("km.ui.answer", lang),
                      options=tuple(SelectOption(label=o.label, value=o.value) for o in options))

    def help_text(self, lang: str) -> str:
        return t("km.ui.help", lang)

    def die_faces(self, sides: int) -> dict[int, str] | None:
        """The special d6's symbols (106), for typing physical dice in manual dice mode."""
        if sides != 6:
            return None
        return {value: f"km.face.{face_from_d6(value).value}" for value in range(1, 7)}

    def piece_choices(self, view: State, current: str) -> list[Choice]:
        """Every piece, for GM overrides (which may target K.O. or undeployed pieces too)."""
        return any_piece_choices(view, current)


PRESENTER = presenters.register(KrosmasterPresenter())

