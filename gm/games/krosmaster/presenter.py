"""Krosmaster at the table: presenter (image, summary, buttons) and ranked choice lists.

Everything offered to a player here comes from the engine's ``legal_actions`` or its
helpers, so autocomplete and buttons can only propose what ``apply`` will accept. Lists
are ranked as a player would read them (``gm.games.choices``): an enemy to hit before an empty
square, a spell you can cast before one you cannot pay, each saying what it does.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

import engines.krosmaster  # noqa: F401  (registers the engine)
from common.i18n import has, humanize, t
from db.store import Store
from engines.core.errors import TavoloError
from engines.core.events import Event
from engines.core.krosmaster_die import face_from_d6
from engines.krosmaster import actions as A
from engines.krosmaster.content import (
    MAX_PACK_BYTES,
    ORIENTED_AREAS,
    REWARD_COST,
    AreaShape,
    EffectKind,
    Limit,
    Spell,
    SpellKind,
    load_pack,
    name_in,
    pack_for,
)
from engines.krosmaster.engine import KrosmasterEngine, reachable_squares, spell_targets, spells_of
from engines.krosmaster.rules_board import label
from engines.krosmaster.state import PieceState, RewardCard, State
from gm import presenters
from gm.context import Actor, Place
from gm.games.choices import MAX_CHOICES, Choice, Ranked, fit, rank
from gm.games.krosmaster.info import (
    BUILTIN_SPELLS,
    damage_text,
    figurine_powers,
    names_of,
    reward_parts,
    reward_short,
    spell_name,
    spell_parts,
    spell_short,
)
from gm.games.krosmaster.names import (
    card_label,
    localized,
    named_params,
    piece_label,
    pile_label,
    resolve_figurines,
)
from gm.packs import admin as pack_admin
from gm.reply import Button, Reply, Select, SelectOption
from gm.workers import render_pool

ENGINE = KrosmasterEngine()
SETUP_PHASES = ("order_ties", "choose_side", "deploy")
# Events that start a new board image (see KrosmasterPresenter.image_policy): the fight starts, a player
# turn starts, a piece is K.O., the game ends.
NEW_BOARD_EVENTS = frozenset({"fight_started", "turn_started", "ko", "game_won", "game_drawn"})
# Additional effects that help whoever receives them: a special spell made of these is cast on friends.
_HELPFUL = frozenset({EffectKind.GAIN_AP, EffectKind.GAIN_MP, EffectKind.EXTRA_HEAL})
_PILE_ID = re.compile(r"(granite|jade|gold|ruby)(\d+)")  # 103.7: a reward pile's id, rank then number


log = logging.getLogger(__name__)


def figurine_names(ids: list[str], content: dict[str, Any] | None, lang: str = "en") -> list[str]:
    """Display names of a team already accepted by the engine (server pack first, then built-in)."""
    pack = pack_for(content)
    return [name_in(pack.figurine(fid), lang) for fid in ids]


def _spell(state: State, spell_id: str) -> Spell | None:
    piece = state.pieces.get(state.active_piece or "")
    return next((s for s in spells_of(state, piece) if s.id == spell_id), None) if piece else None


def spell_title(state: State, spell_id: str, lang: str) -> str:
    """A spell of the active piece as players read it (Punch in their language), for buttons and errors."""
    spell = _spell(state, spell_id)
    return spell_name(spell, lang) if spell is not None else spell_id


def _pieces(state: State, pieces: Iterable[PieceState], key: Any = None, lang: str = "en") -> list[Ranked]:
    return [Ranked(Choice(piece_label(state, p.id, lang), p.id), key(p) if key else (),
                   (p.short, *names_of(p.figurine))) for p in pieces]


def move_choices(state: State, seat: int, current: str, lang: str) -> list[Choice]:
    """Reachable squares, cheapest first, with their MP cost."""
    legal = {a.to for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Move)}
    options = reachable_squares(state)
    found = []
    for square in legal:
        option = options.get(square)
        label = square if option is None else t("km.ui.move_choice", lang, square=square, cost=option.cost,
                                                 checks=option.lock_checks)
        found.append(Ranked(Choice(label, square), (option.cost if option else 99, square)))
    return rank(found, current)


def _why_not(piece: PieceState, spell: Spell, lang: str) -> str:
    """Why a spell of the active piece cannot be cast now, in a few words."""
    cost = spell.cost
    if spell.limit is Limit.PER_TURN and spell.id in piece.used_turn:
        return t("km.ui.why.used_turn", lang)
    if spell.limit is Limit.PER_GAME and spell.id in piece.used_game:
        return t("km.ui.why.used_game", lang)
    if piece.ap < cost.ap:
        return t("km.ui.why.ap", lang, need=cost.ap)
    if piece.mp < cost.mp:
        return t("km.ui.why.mp", lang, need=cost.mp)
    if piece.wounds + cost.wounds > piece.hp:
        return t("km.ui.why.wounds", lang, need=cost.wounds)
    return t("km.ui.why.no_target", lang)


def spell_choices(state: State, seat: int, current: str, lang: str) -> list[Choice]:
    """The active piece's spells, castable first, each with what it does: "Fire Bolt · 4 targets · 3 AP · …"."""
    piece = state.pieces.get(state.active_piece or "")
    if piece is None or seat != state.active_seat:
        return []
    castable: dict[str, int] = {}
    for action in ENGINE.legal_actions(state, seat):
        if isinstance(action, A.Cast):
            castable[action.spell] = castable.get(action.spell, 0) + 1
    found = []
    for order, spell in enumerate(spells_of(state, piece)):
        if spell.id in piece.used_game:  # 205.2a: a spent once-per-game spell is gone from the card
            continue
        count = castable.get(spell.id, 0)
        status = (t("km.ui.spell_targets", lang, count=count) if count
                  else t("km.ui.not_now", lang, reason=_why_not(piece, spell, lang)))
        parts, importance = spell_parts(spell, lang)
        label = fit([f"{spell_name(spell, lang)} ({status})", *parts], importance=[10, *importance])
        found.append(Ranked(Choice(label, spell.id), (0 if count else 1, order), names_of(spell)))
    return rank(found, current)


def _intent(spell: Spell) -> str:
    """"help" for spells cast on friends (heals, boosts), "harm" for the rest."""
    if spell.kind is SpellKind.HEAL:
        return "help"
    if spell.kind is SpellKind.SPECIAL and spell.effects and all(
            e.kind in _HELPFUL or (e.kind in (EffectKind.AP_TOKENS, EffectKind.MP_TOKENS) and e.value > 0)
            for e in spell.effects):
        return "help"
    return "harm"


def _relation(state: State, seat: int, piece: PieceState) -> str:
    if piece.owner == seat:
        return "own"
    return "enemy" if state.enemies(seat, piece.owner) else "ally"


def _distance(a: str | None, b: str) -> int:
    if a is None:
        return 0
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def _target_label(state: State, seat: int, value: str, spell: Spell, direction: str | None,
                  hits: list[PieceState], lang: str) -> str:
    """"D8 — SHA Shadow Rogue (enemy, 4 HP)"; with an area: "D8 S — area towards south · hits SHA (enemy)"."""
    relation = {p.id: t(f"km.ui.relation.{_relation(state, seat, p)}", lang) for p in hits}
    if spell.area is AreaShape.NONE:
        if not hits:
            return value
        piece = hits[0]
        return f"{value} — " + t("km.ui.target_piece", lang, piece=f"{piece.short} {name_in(piece.figurine, lang)}",
                                 relation=relation[piece.id], hp=piece.hp - piece.wounds)
    parts = []
    if spell.area in ORIENTED_AREAS and direction:
        parts.append(t("km.ui.area_towards", lang, direction=t(f"km.dir.{direction}", lang)))
    if hits:
        parts.append(t("km.ui.area_hits", lang, pieces=", ".join(f"{p.short} ({relation[p.id]})" for p in hits)))
    return fit([f"{value} — {parts[0]}", *parts[1:]]) if parts else value


def target_choices(state: State, seat: int, spell_id: str | None, current: str, lang: str = "en") -> list[Choice]:
    """Legal targets ranked as a player reads them (TABLE_UX): squares with an enemy first for an
    attack (an ally first for a heal or a boost), the most pieces hit first, then the nearest
    empty squares; each label names who stands there or what the area hits."""
    piece = state.pieces.get(state.active_piece or "")
    if piece is None:
        return []
    casts = [a for a in ENGINE.legal_actions(state, seat)
             if isinstance(a, A.Cast) and (spell_id is None or a.spell == spell_id)]
    plans: dict[tuple[str, str, str | None], Any] = {}
    for spell in {a.spell for a in casts}:
        for plan in spell_targets(state, spell):
            plans.setdefault((spell, label(plan.target), plan.direction), plan)
            plans.setdefault((spell, label(plan.target), None), plan)
    found = []
    for action in casts:
        plan = plans.get((action.spell, action.target, action.direction))
        spell = plan.spell if plan is not None else _spell(state, action.spell)
        if spell is None:
            continue
        hits = [state.pieces[p] for p in (plan.pieces if plan else ()) if p in state.pieces]
        direction = action.direction or (plan.direction if plan else None)
        value = action.target + (f" {action.direction}" if action.direction else "")
        enemies = sum(1 for h in hits if state.enemies(seat, h.owner))
        friends = len(hits) - enemies
        wanted, other = (friends, enemies) if _intent(spell) == "help" else (enemies, friends)
        tier = 0 if wanted else 1 if other else 2
        hurt = -max((h.wounds for h in hits), default=0) if _intent(spell) == "help" else 0
        key = (tier, -wanted, other, hurt, _distance(piece.pos, action.target), value)
        text = _target_label(state, seat, value, spell, direction, hits, lang)
        found.append(Ranked(Choice(text, value), key, tuple(h.short for h in hits)))
    return rank(found, current)


def deploy_piece_choices(state: State, seat: int, current: str, lang: str = "en") -> list[Choice]:
    ids = {a.piece for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Deploy | A.OrderTies)}
    return rank(_pieces(state, (state.pieces[p] for p in sorted(ids)), lang=lang), current)


def deploy_square_choices(state: State, seat: int, current: str) -> list[Choice]:
    squares = sorted({a.square for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Deploy)})
    return rank([Ranked(Choice(s, s)) for s in squares], current)


def own_piece_choices(state: State, seat: int, current: str, lang: str = "en") -> list[Choice]:
    return rank(_pieces(state, (p for p in state.pieces_of(seat)  # 403.1: Krosmasters only
                                if p.in_play and p.summon is None), lang=lang), current)


def any_piece_choices(state: State, current: str, lang: str = "en") -> list[Choice]:
    return rank(_pieces(state, state.pieces.values(), lambda p: (not p.in_play,), lang), current)


def decision_choices(state: State, lang: str, current: str) -> list[Choice]:
    """The open question's answers in the reader's language; pieces named as on the board."""
    decision = ENGINE.decision(state)
    if decision is None:
        return []
    found = []
    for option in decision.options:
        label = t(option.label_key, lang, **humanize(named_params(state, option.params, lang), lang, "km"))
        found.append(Ranked(Choice(label, option.value)))
    return rank(found, current)


def pile_choices(state: State, seat: int, current: str, lang: str, *, both: bool = False) -> list[Choice]:
    """306.4: piles the active piece can buy from now, face up first (read from the seat's view).

    ``both``: one entry per way of buying (face up and blind, value ``"<pile> blind"``), for the
    select behind the buy button; the command's ``blind`` option chooses otherwise."""
    view = ENGINE.view(state, seat)
    piles = {p.id: p for p in view.rewards.piles}
    found = []
    for action in ENGINE.legal_actions(view, seat):
        if not isinstance(action, A.BuyReward):
            continue
        pile = piles[action.pile]
        price = REWARD_COST[pile.rank]
        name = pile_label(pile, lang)
        if action.blind:
            label = t("km.ui.pile_blind", lang, pile=name, price=price)
        else:
            reward = pile.top.reward if pile.top else None
            label = fit([t("km.ui.pile_face_up", lang, pile=name, reward=card_label(pile.top, lang), price=price),
                         *(reward_parts(reward, lang)[1:] if reward else [])])
        value = f"{action.pile} blind" if both and action.blind else action.pile
        found.append(Ranked(Choice(label, value), (action.blind, price, action.pile), (name, pile.id)))
    return rank(found, current)


def assign_reward_choices(state: State, seat: int, current: str, lang: str = "en") -> list[Choice]:
    view = ENGINE.view(state, seat)
    ids = {a.reward for a in ENGINE.legal_actions(view, seat) if isinstance(a, A.AssignReward)}
    card = view.rewards.pending
    aliases = names_of(card.reward) if card is not None and card.reward is not None else ()
    return rank([Ranked(Choice(card_label(card, lang), cid), (), aliases) for cid in sorted(ids)], current)


def assign_piece_choices(state: State, seat: int, current: str, lang: str = "en") -> list[Choice]:
    ids = {a.piece for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.AssignReward)}
    return rank(_pieces(state, (state.pieces[p] for p in sorted(ids)), lang=lang), current)


def reveal_reward_choices(state: State, seat: int, current: str, lang: str = "en") -> list[Choice]:
    """306.8: the active piece's face-down rewards it may reveal now, each with what it does."""
    view = ENGINE.view(state, seat)
    ids = {a.reward for a in ENGINE.legal_actions(view, seat) if isinstance(a, A.RevealReward)}
    cards = {c.id: c for p in view.pieces.values() for c in p.rewards}
    found = []
    for cid in sorted(ids):
        card = cards.get(cid)
        detail = reward_short(card.reward, lang) if card is not None and card.reward is not None else ""
        aliases = names_of(card.reward) if card is not None and card.reward is not None else ()
        found.append(Ranked(Choice(fit([card_label(card, lang), detail]), cid), (), aliases))
    return rank(found, current)


def _top_text(card: RewardCard | None, lang: str) -> str:
    """The face-up reward on a pile and what it does ("Healing Herb (boost, heals 2)")."""
    if card is None or card.reward is None:
        return "—"
    return f"{name_in(card.reward, lang)} ({', '.join(reward_parts(card.reward, lang)[1:])})"


def rewards_text(state: State, seat: int | None, lang: str) -> str:
    """``/km rewards``: the piles (public side), your face-down rewards, and the revealed ones held."""
    view = ENGINE.view(state, seat)
    none = t("km.ui.rewards_none", lang)
    piles = "".join("\n• " + t("km.ui.pile_status", lang, pile=pile_label(p, lang), count=p.count,
                                top=_top_text(p.top, lang)) for p in view.rewards.piles) or none
    yours = [f"{card_label(c, lang)} → {p.short}" for p in view.pieces.values() if p.owner == seat
             for c in p.rewards if not c.face_up]
    public = [f"{card_label(c, lang)} → {p.short}" for p in view.pieces.values() for c in p.rewards if c.face_up]
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
    try:
        chosen = set(resolve_figurines(done, content, lang)) if done.strip() else set()
    except TavoloError:  # an earlier name is still wrong: the command will say which
        chosen = set()
    found = []
    for order, fig in enumerate(pack.figurines):
        if fig.id in chosen:
            continue
        label = t("km.ui.figurine_choice", lang, name=name_in(fig, lang), level=fig.level, hp=fig.hp, ap=fig.ap,
                  mp=fig.mp)
        found.append(Ranked(Choice((prefix + label)[-100:], (prefix + fig.id)[:100]), (order,),
                            (*names_of(fig), fig.id)))
    return [Choice(c.label, c.value) for c in rank(found, last, limit)]


def figurine_lines(lang: str, content: dict[str, Any] | None) -> list[str]:
    """``/km figurines``: each figurine with its level and stats, and its powers; the id only
    where two figurines share a name (the id is then the way to tell them apart)."""
    pack = pack_for(content)
    shared = {f.name for f in pack.figurines if sum(1 for g in pack.figurines if g.name == f.name) > 1}
    lines = []
    for fig in pack.figurines:
        line = t("km.ui.figurine_choice", lang, name=name_in(fig, lang), level=fig.level, hp=fig.hp, ap=fig.ap,
                 mp=fig.mp)
        powers = figurine_powers(fig, lang)
        lines.append(line + (f" · {', '.join(powers)}" if powers else "") + (f" — `{fig.id}`" if fig.name in shared
                                                                               else ""))
    return lines


async def import_pack(store: Store, place: Place, actor: Actor, filename: str, data: bytes,
                      name: str | None, *, replace: bool = False) -> Reply:
    """Validate and store a server's content pack; nothing is saved unless all of it is valid,
    and an existing pack of the same name is only overwritten with ``replace``."""
    pack = await pack_admin.read_upload(place, actor, data, filename, load_pack, max_bytes=MAX_PACK_BYTES,
                                        too_big="km.err.pack_too_big", not_text="km.ui.pack_not_text")
    name = pack_admin.pack_name(name or pack["name"] or filename.rsplit(".", 1)[0])
    replaced = await pack_admin.save(store, place, actor, "krosmaster", name, pack, replace)
    key = "km.ui.pack_replaced" if replaced else "km.ui.pack_saved"
    return Reply(text=t(key, actor.locale, name=name, figurines=len(pack["figurines"]), arenas=len(pack["arenas"])))


class KrosmasterPresenter:
    system = "krosmaster"
    # the /gm overrides of this game (gm.table.overrides)
    gm_commands = frozenset({"place", "wounds", "apmp", "gg"})
    locale_namespace = "km"  # ``km.action.<kind>`` names actions in the log and in undo

    def render(self, view: State, *, viewer: int | None, lang: str, seat_names: list[str]) -> bytes | None:  # type: ignore[override]
        from renderers.krosmaster import render

        return render(view, lang=lang, seat_names=dict(enumerate(seat_names)))

    def summary(self, view: State, *, lang: str, seat_names: list[str]) -> str:  # type: ignore[override]
        if view.phase == "over":
            return ""
        if view.phase in SETUP_PHASES:  # nobody is "to play" yet: the decision line says who acts
            parts = [t("km.ui.summary_setup", lang, step=t(f"render.km.phase.{view.phase}", lang))]
        else:
            player = view.player(view.active_seat)
            parts = [t("km.ui.summary_turn", lang, turn=max(1, view.turn_number), player=player.name)]
        if view.phase == "turn" and view.active_piece:
            piece = view.pieces[view.active_piece]
            parts.append(t("km.ui.summary_piece", lang, piece=piece.short, name=name_in(piece.figurine, lang),
                           ap=piece.ap, mp=piece.mp, hp=piece.hp - piece.wounds))
        gg = " · ".join(f"{p.name} {p.gg}" for p in view.players)
        parts.append(t("km.ui.summary_gg", lang, gg=gg, wild=view.wild_gg))
        return "\n".join(parts)

    def buttons(self, ref: str, view: State, *, seat: int | None, lang: str) -> list[Button]:  # type: ignore[override]
        """Only buttons that lead somewhere: "Where can I move?" when a move is legal, Collect when
        a kama lies under the active piece, the buying buttons on a demon square, one per castable spell."""
        if seat is None or view.phase == "over":
            return []
        prefix = f"tv1:km:{ref}"
        if view.multi is not None and (view.multi.gifts or view.multi.tension):  # 702.5/702.6 choices first
            return [Button(t("km.ui.answer", lang), f"{prefix}:ask", style="primary")]
        if view.phase == "turn":
            legal = ENGINE.legal_actions(view, seat)
            kinds = {a.kind for a in legal}
            buttons = [Button(t("km.ui.end_turn", lang), f"{prefix}:end", style="primary")]
            if "move" in kinds:
                buttons.append(Button(t("km.ui.preview_move", lang), f"{prefix}:moves"))
            casts: dict[str, str] = {}
            for action in legal:
                if isinstance(action, A.Cast) and action.spell not in casts:
                    casts[action.spell] = spell_title(view, action.spell, lang)
            buttons += [Button(name[:70], f"{prefix}:spell:{spell_id}") for spell_id, name in casts.items()]
            if "collect" in kinds:  # 503.4
                buttons.append(Button(t("km.ui.collect", lang), f"{prefix}:collect"))
            if "buy_gg" in kinds:  # 305.3
                buttons.append(Button(t("km.ui.buy_gg", lang), f"{prefix}:buygg"))
            if "buy_reward" in kinds:  # 306.4
                buttons.append(Button(t("km.ui.buy_reward", lang), f"{prefix}:piles"))
            return buttons[:10]
        if view.phase in ("choose_side", "tension_faces", "order_effects", "assign_reward"):
            return [Button(t("km.ui.answer", lang), f"{prefix}:ask", style="primary")]
        if view.phase == "inspiration":
            return [Button(t("km.ui.keep_dice", lang), f"{prefix}:keep", style="secondary")]
        return []

    def private_panel(self, view: State, *, seat: int, lang: str, ref: str) -> Reply:
        """"Show my hand / My options": what this seat alone may know (its face-down rewards) and
        what it can do now (castable spells with what they do, reachable squares), so a player
        who comes back to the channel days later sees their options in one click."""
        lines: list[str] = []
        decision = ENGINE.decision(view)
        if decision is None:
            lines.append(t("km.ui.panel_over", lang))
        elif seat in decision.seats:
            prompt = (t(decision.prompt_key, lang, **humanize(decision.params, lang, "km"))
                      if decision.prompt_key else "")
            lines.append(t("km.ui.panel_your_move", lang, prompt=prompt))
            if view.phase == "turn" and view.active_piece:
                legal = ENGINE.legal_actions(view, seat)
                moves = sum(isinstance(a, A.Move) for a in legal)
                if moves:
                    lines.append(t("km.ui.panel_moves", lang, count=moves))
                for spell_id in dict.fromkeys(a.spell for a in legal if isinstance(a, A.Cast)):
                    spell = _spell(view, spell_id)
                    if spell is not None:
                        lines.append(f"• {spell_name(spell, lang)}: {spell_short(spell, lang, limit=180)}")
        else:
            waiting = ", ".join(view.player(s).name for s in decision.seats)
            lines.append(t("km.ui.panel_waiting", lang, players=waiting))
        lines.append(rewards_text(view, seat, lang))
        return Reply(title=t("km.ui.panel_title", lang, player=view.player(seat).name), text="\n".join(lines),
                     ephemeral=True)

    def image_policy(self, events: list[Event]) -> str:
        """TABLE_UX "the channel is a shared space": about two new pictures per player turn at most.
        A board is posted when the fight starts, a player turn starts (401), a piece is K.O. or the
        game ends; the activations, moves and spells of that player turn, and set-up steps (ordering,
        sides, deploying), update it in place, each with its line of text. One board per piece
        activation was twice the budget: a player turn activates every piece of the team (405), so a
        22-turn game posted 94 boards."""
        keys = {e.key.removeprefix("km.") for e in events if not e.private_to}
        return "new" if keys & NEW_BOARD_EVENTS else "update"

    def player_turns(self, view: State) -> frozenset[tuple[object, ...]]:
        """The player turns under way, for the image budget (TABLE_UX: about two new pictures per player
        turn). A player turn (401) is the active player's, from the tension roll to the end of their
        last piece's activation (each of their pieces acts in it, 405); ``turn_number`` counts them.
        Set-up and the end are nobody's turn."""
        if view.phase in (*SETUP_PHASES, "over") or not view.turn_number:
            return frozenset()
        return frozenset({(view.turn_number,)})

    def seat_line(self, config: dict[str, Any], options: dict[str, Any], lang: str,
                  content: dict[str, Any] | None = None) -> str:
        """The lobby card: a seat's team, or what it still has to choose."""
        team = config.get("team")
        if not isinstance(team, list) or not team:
            return t("km.ui.lobby_no_team", lang)
        pack = pack_for(content)
        names = []
        for fid in team:
            try:
                names.append(name_in(pack.figurine(str(fid)), lang))
            except TavoloError:
                names.append(str(fid))
        return t("km.ui.lobby_team", lang, team=", ".join(names))

    def event_text(self, event: Event, lang: str) -> str | None:
        """A sentence for an event when the plain template is not enough, or None (the table words
        the event from its template): reduced damage says why; Punch and Push-Cube, the format and
        reward piles are named in the reader's language rather than as the engine's words."""
        if event.key == "km.damage":
            text = damage_text(event.params, lang)
            if text is not None:
                return text
        params = localized(dict(event.params), lang)  # the pack's names in the reader's language
        if params.get("spell") in BUILTIN_SPELLS and "spell_name" in params:  # 205.3, 313.6a
            params["spell_name"] = t(f"km.info.spell_name.{params['spell']}", lang)
        if event.key == "km.game_started" and has(f"km.format.{params.get('format')}", lang):
            params["format"] = t(f"km.format.{params['format']}", lang)
        pile = _PILE_ID.fullmatch(str(params.get("pile", "")))
        if pile is not None:  # "granite1" -> "Granite 1"
            params["pile"] = f"{t(f'km.info.rank.{pile.group(1)}', lang)} {pile.group(2)}"
        if params == event.params:
            return None
        return t(event.key, lang, **humanize(params, lang, "km"))

    def decision_select(self, ref: str, view: State, lang: str) -> Select | None:
        options = decision_choices(view, lang, "")
        if not options:
            return None
        return Select(custom_id=f"tv1:km:{ref}:choose", placeholder=t("km.ui.answer", lang),
                      options=tuple(SelectOption(label=o.label, value=o.value) for o in options))

    def resolve_option(self, key: str, value: Any, content: dict[str, Any] | None, lang: str) -> Any:
        """Lobby options that name content go through the one resolver (issue 26.1): ``arena:glade``."""
        if key == "arena" and isinstance(value, str) and value.strip():
            from gm.games.krosmaster.names import resolve_arena

            return resolve_arena(value, content, lang)
        return value

    def warm_up(self) -> None:
        """Fonts, arenas and palettes, drawn once per render worker (``gm.presenters.warm_up_all``)."""
        from renderers.krosmaster import warm_up

        warm_up()

    def help_text(self, lang: str) -> str:
        return t("km.ui.help", lang)

    def die_faces(self, sides: int) -> dict[int, str] | None:
        """The special d6's symbols (106), for typing physical dice in manual dice mode."""
        if sides != 6:
            return None
        return {value: f"km.face.{face_from_d6(value).value}" for value in range(1, 7)}

    def piece_choices(self, view: State, current: str, lang: str = "en") -> list[Choice]:
        """Every piece, for GM overrides (which may target K.O. or undeployed pieces too), in the GM's language."""
        return any_piece_choices(view, current, lang)

    def resolve_piece(self, view: State, text: str, lang: str = "en") -> str:
        """A piece id for a GM override, from what the board shows ("SHA", "Shadow Rogue") or the id."""
        from gm.games.krosmaster.names import resolve_piece

        return resolve_piece(view, text, view.pieces.values(), what="km.ui.what.any_piece", lang=lang)


async def preview_png(state: State, squares: dict[str, int] | list[str], kind: str, area: list[str] | None,
                      target: str | None, lang: str) -> bytes | None:
    """A move or spell preview, drawn by the render pool (a worker process when one runs) like
    every board; None when the picture fails, so the caller answers in words instead."""
    from renderers.krosmaster import render_preview_json

    try:
        return await render_pool.pool().call(render_preview_json, state.model_dump_json(), squares, kind,
                                              area, target, lang)
    except render_pool.RenderFailed:
        log.exception("preview failed (%s)", kind)
        return None


PRESENTER = presenters.register(KrosmasterPresenter())

