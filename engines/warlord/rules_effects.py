"""The effect vocabulary of card text (golden-rule, spec §4.1): what a modeled ability does.

Abilities are data; this module is the one place that reads their ``effects``. Each effect runs
with a context: the seat, the performer, "this" (the card's character, or an item's host), the
chosen target or word (a discard card to retrieve, a direction to move), and the window the react
answers, whose frame below it is the strike or action the react changes. A strike effect pushes a
``StrikeFrame`` that the stack driver resolves step by step, so reacts can answer it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.warlord import rules_ranks as R
from engines.warlord.rules_checks import save, succeeded
from engines.warlord.rules_common import atk_values, ev, hit_points, layered
from engines.warlord.rules_strikes import ranged_bonus, wound
from engines.warlord.rules_turn import draw_cards, reevaluate_initiative
from engines.warlord.state import ActionFrame, Modifier, State, StrikeFrame, WindowFrame, WoundFrame


@dataclass
class Ctx:
    """Who does what: ``card`` is the source uid (or ``feat:<name>``), ``choice`` the chosen target or word."""

    seat: int
    performer: str
    this: str
    card: str
    spell: bool = False
    choice: str | None = None
    target: str | None = None
    window: WindowFrame | None = None
    below: StrikeFrame | ActionFrame | WoundFrame | None = None
    extra_bonus: int = 0
    extra_wounds: int = 0


def new_mod(state: State, source: str, stat: str, until: str, amount: int = 0, set_to: int | None = None) -> Modifier:
    """bonuses: every modifier gets the next timestamp so "changes to" layers correctly."""
    state.next_seq += 1
    return Modifier(id=f"m{state.next_seq}", source=source, stat=stat, amount=amount, set_to=set_to,
                    until=until, seq=state.next_seq)  # type: ignore[arg-type]


def target_char(state: State, ctx: Ctx, spec: dict[str, Any]) -> str | None:
    to = spec.get("to")
    if to == "host" or to == "this":
        return ctx.this
    if ctx.target is not None:
        return ctx.target
    return ctx.this if ctx.window is None else None


def strike_bonus(state: State, striker: str, kind: str, printed: int | None) -> int:
    """bonuses/ranged-strikes: an action's melee strike uses the first ATK (or the set number, plus items
    and effects, never the printed ATK); a ranged strike adds only what applies to ranged strikes."""
    if kind == "ranged":
        return ranged_bonus(state, striker, printed or 0)
    if printed is None:
        return atk_values(state, striker)[0]
    c = state.chars[striker]
    return layered(printed, c.mods, "atk") + sum(state.defn(i).atk_bonus for i in c.items)


def run(state: State, ctx: Ctx, effects: list[dict[str, Any]], dice: Dice) -> list[Event]:
    events: list[Event] = []
    for effect in effects:
        if state.phase == "over":
            break
        ((name, spec),) = effect.items()
        events += _one(state, ctx, name, spec or {}, dice)
    return events


def _one(state: State, ctx: Ctx, name: str, spec: dict[str, Any], dice: Dice) -> list[Event]:
    below = ctx.below
    if name == "strike":
        at = ctx.window.source if spec.get("at") == "trigger.source" and ctx.window else ctx.target
        if at not in state.chars or ctx.performer not in state.chars:
            return [ev("strike_lost", name=state.name(ctx.performer))]
        kind = spec.get("kind", "melee")
        bonus = strike_bonus(state, ctx.performer, kind, spec.get("bonus")) + ctx.extra_bonus
        state.stack.append(StrikeFrame(striker=ctx.performer, seat=ctx.seat, target=at, ranged=kind == "ranged",
                                       spell=ctx.spell, bonus=bonus, source=ctx.card,
                                       step="targeted" if spec.get("at") == "trigger.source" else "before_roll",
                                       wounds=1 + ctx.extra_wounds))
        return []
    if name == "extra_wounds" and isinstance(below, StrikeFrame):
        below.wounds += int(spec.get("amount", 1))
        below.action_wounds += int(spec.get("amount", 1))
        return [ev("wounds_changed", name=state.name(below.target), n=below.wounds)]
    if name == "reduce_wounds" and isinstance(below, (StrikeFrame, WoundFrame)):
        below.wounds = max(0, below.wounds - int(spec.get("amount", 1)))
        return [ev("wounds_changed", name=state.name(below.target), n=below.wounds)]
    if name == "cancel" and below is not None:
        below.cancelled = True
        return [ev("cancelled", name=state.name(ctx.performer))]
    if name == "modify" and spec.get("until") == "strike" and isinstance(below, StrikeFrame):
        below.strike_mods += int(spec.get("amount", 0))
        return [ev("strike_modified", name=state.name(below.striker), amount=int(spec.get("amount", 0)))]
    if name == "modify" and spec.get("stat") == "initiative":
        warlord = state.player(ctx.seat).warlord
        if warlord in state.chars:
            state.chars[warlord].mods.append(new_mod(state, ctx.card, "initiative", "turn",
                                                     int(spec.get("amount", 0))))
        return reevaluate_initiative(state, ctx.seat, int(spec.get("amount", 0)), dice)
    if name == "reform_free":
        state.reform_free.append(ctx.seat)
        return [ev("reform_free", seat=ctx.seat)]
    if name == "draw":
        drawn = draw_cards(state, ctx.seat, int(spec.get("n", 1)), dice)
        events = [ev("drew", seat=ctx.seat, n=len(drawn), draws=dice.take_picked())]
        if drawn:
            events.append(ev("drew_cards", private_to=[ctx.seat], seat=ctx.seat,
                             cards=", ".join(state.name(u) for u in drawn)))
        return events
    if name == "retrieve" and spec.get("from") == "deck":
        return _search(state, ctx.seat, ctx.choice or "", str(spec.get("filter", "")))
    if name == "retrieve":
        player = state.player(ctx.seat)
        if ctx.choice in player.discard:
            player.discard.remove(ctx.choice)
            player.hand.append(ctx.choice)
            return [ev("retrieved", seat=ctx.seat, name=state.name(ctx.choice))]
        return []
    uid = target_char(state, ctx, spec)
    if uid is None or uid not in state.chars:
        return []
    c = state.chars[uid]
    if name == "modify":
        c.mods.append(new_mod(state, ctx.card, str(spec["stat"]), str(spec.get("until", "turn")),
                              int(spec.get("amount", 0))))
        return [ev("modified", name=state.name(uid), stat=spec["stat"], amount=int(spec.get("amount", 0)))]
    if name == "set_atk":
        c.mods.append(new_mod(state, ctx.card, "atk", str(spec.get("until", "turn")), set_to=int(spec["value"])))
        return [ev("atk_set", name=state.name(uid), value=int(spec["value"]))]
    if name == "grant_feat":
        c.mods.append(new_mod(state, ctx.card, f"feat:{spec['feat']}", str(spec.get("until", "turn")),
                              int(spec.get("bonus", 0))))
        return [ev("modified", name=state.name(uid), stat=f"feat:{spec['feat']}", amount=int(spec.get("bonus", 0)))]
    if name == "heal":
        healed = min(c.wounds, int(spec.get("amount", 1)))
        c.wounds -= healed
        return [ev("healed", name=state.name(uid), n=healed, wounds=c.wounds)]
    if name == "set_state":
        c.state = spec.get("state", "ready")  # reading §6.11: set directly, whatever the state was
        return [ev("state_set", name=state.name(uid), state=c.state)]
    if name in ("wound", "kill"):
        n = int(spec.get("amount", 1)) if name == "wound" else max(1, hit_points(state, uid) - c.wounds)
        if state.phase != "orders":  # no stack outside the order phase: nothing can answer
            return wound(state, uid, n)
        # reacts/attack: the wounds wait on the stack for their "before wounds" window (rules_stack); in every
        # modeled ability a wound is the last effect of its list, so nothing later runs before it lands
        state.stack.append(WoundFrame(seat=ctx.seat, source=ctx.performer, card=ctx.card, target=uid, wounds=n,
                                      by="spell" if ctx.spell else "action"))
        return []
    if name == "save":
        roll = save(state, uid, str(spec.get("kind", "magic")), int(spec.get("dc", 20)), dice)
        ok = succeeded(roll)
        events = [ev("save_rolled", rolls=dice.take_drawn(), name=state.name(uid), kind=spec.get("kind", "magic"),
                     natural=roll.natural, total=roll.total, dc=int(spec.get("dc", 20)), ok=ok)]
        sub = Ctx(**{**ctx.__dict__, "target": uid})
        return events + run(state, sub, list(spec.get("on_success" if ok else "on_fail", [])), dice)
    if name == "attach":
        player = state.player(state.cards[ctx.card].owner) if ctx.card in state.cards else None
        if player is not None and ctx.card in player.discard:
            player.discard.remove(ctx.card)
            c.attached.append(ctx.card)
        for sub in spec.get("while", []):
            mod = sub.get("modify")
            if mod:
                c.mods.append(new_mod(state, ctx.card, str(mod["stat"]), "attached", int(mod.get("amount", 0))))
        return [ev("attached", name=state.name(ctx.card), host=state.name(uid))]
    if name == "move":
        return _move(state, uid, ctx.choice or "forward")
    raise RuleError("warlord.err.unmodeled", rule="golden-rule", name=state.name(ctx.card))


def _search(state: State, seat: int, wanted: str, kind: str) -> list[Event]:
    """deck-building conventions: searching the deck for a card of a kind reveals the card found, and the
    deck is shuffled afterwards (cards known on top lose their place: shuffling is not retrieving)."""
    player = state.player(seat)
    folded = wanted.strip().casefold()
    found = next((u for u in [*player.deck_top, *player.deck_pool]
                  if (state.name(u).casefold() == folded or u == wanted)
                  and (not kind or state.defn(u).type == kind)), None)
    events: list[Event] = []
    if found is not None:
        (player.deck_top if found in player.deck_top else player.deck_pool).remove(found)
        player.hand.append(found)
        events.append(ev("revealed", seat=seat, name=state.name(found)))
    else:
        events.append(ev("search_failed", seat=seat))
    player.deck_pool = sorted([*player.deck_pool, *player.deck_top])
    player.deck_top = []
    return [*events, ev("shuffled", seat=seat)]


def _move(state: State, uid: str, direction: str) -> list[Event]:
    """A card's move is not a maneuver: no spend, and an illegal result is reformed (ranks)."""
    army, rank, _ = R.locate(state, uid)
    dest = rank - 1 if direction == "forward" else rank + 1
    ranks = state.player(army).ranks
    ranks[rank - 1].remove(uid)
    R.place(ranks, dest, uid, None)
    R.trim(ranks)
    return [ev("moved", name=state.name(uid), frm=rank, to=dest)]
