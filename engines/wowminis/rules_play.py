"""Playing payment abilities (300.5, 302.3, 408.2a, 501.3, 702-703).

``begin_play`` is 703.1a-f for the active character: announce and reveal the source card,
check the targets, compute and pay the cost (703.1c; 408.2a may forbid it), exhaust the card
(300.5) or set a form aside (302.2), fix the defenders (703.1f). Everything is checked before
anything changes (703.1d); the react window and the resolution follow on the stack.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis.actions import Play
from engines.wowminis.content import PHYSICAL_TYPES, AbilityDef, ActionCardDef, Step, norm, plain
from engines.wowminis.rules_board import can_stop, ev, walk
from engines.wowminis.rules_effects import affordable, pay
from engines.wowminis.rules_stats import form_of
from engines.wowminis.rules_summons import end_form
from engines.wowminis.rules_targeting import aoe_defenders, check_targets, destinations
from engines.wowminis.state import CardInstance, CharState, PlayFrame, State, TurnMod, shown


@dataclass(frozen=True)
class Playable:
    """One payment ability of a character: ``key`` is what ``Play.ability`` names."""

    key: str
    ability: AbilityDef
    source: str  # main | ability | form | card
    card: CardInstance | None = None


def playables(state: State, c: CharState) -> list[Playable]:
    """700.1: the main attack, bottom-box abilities, the form's granted ones and the bar's cards."""
    found = [Playable("main", c.defn.main_attack, "main")]
    found += [Playable(a.id, a, "ability") for a in c.defn.abilities]
    form = form_of(c)
    if form is not None:
        found += [Playable(a.id, a, "form") for a in form.abilities]
    for card in c.bar:
        if card.zone == "bar" and card.defn is not None and card.defn.category != "react":
            found.append(Playable(card.id, card.defn, "card", card))
    return found


def find_playable(state: State, c: CharState, key: str) -> Playable:
    wanted = norm(key)
    options = playables(state, c)
    for p in options:
        if norm(p.key) == wanted or norm(p.ability.name) == wanted or norm(p.ability.id) == wanted:
            return p
    raise RuleError("wowm.err.unknown_ability", name=key[:40], known=", ".join(p.ability.name for p in options))


def why_not(state: State, c: CharState, p: Playable) -> RuleError | None:
    """Why this ability can't be played now (None: it can, targets and cost aside)."""
    turn = state.turn
    assert turn is not None
    card = p.card.defn if p.card is not None else None
    form = form_of(c)
    if form is not None and form.abilities and p.source != "form" and not (card is not None and card.type == "form"):
        return RuleError("wowm.err.form_locked", rule="302.3", form=form.name)  # E4
    category = p.ability.category
    if category == "action" and turn.action_used:
        return RuleError("wowm.err.one_action", rule="501.3")
    if p.card is not None:
        if not p.card.ready:
            return RuleError("wowm.err.exhausted", rule="300.5", card=p.ability.name)
        if isinstance(card, ActionCardDef) and card.once_per_game and p.card.id in c.used_once:
            return RuleError("wowm.err.once_per_game", rule="400.3b", card=p.ability.name)
    return None


def cost_of(state: State, c: CharState, p: Playable) -> int:
    """703.1c for this ability now: the turn's "next action costs less" changes apply to actions."""
    turn = state.turn
    mods = [(m.amount, m.minimum) for m in turn.mods if m.kind == "next_cost"] if turn else []
    return total_cost(p.ability.cost, mods if p.ability.category == "action" else [])


def total_cost(printed: int, changes: list[tuple[int, int]]) -> int:
    """703.1c: printed cost, plus every increase (negative amounts), minus every reduction; a
    reduction's own minimum only stops *that* reduction, so the cheapest order applies those
    first; never below 0. 408.3: the printed cost itself never changes."""
    total = printed + sum(-amount for amount, _ in changes if amount < 0)
    for amount, minimum in sorted((c for c in changes if c[0] > 0), key=lambda c: -c[1]):
        total = max(min(total, minimum), total - amount) if minimum else total - amount
    return max(0, total)


def lap_ok(state: State, c: CharState, cost: int) -> bool:
    """408.2a: a cost may not take the clock 10 or more ticks ahead of the master (400.3a: nor the clock of
    the character that took control of ``c``, which pays too)."""
    return affordable(state, c, cost)


def begin_play(state: State, c: CharState, action: Play) -> list[Event]:
    """703.1a-f, then the frame that opens the window (703.1g) and resolves."""
    p = find_playable(state, c, action.ability)
    problem = why_not(state, c, p)
    if problem is not None:
        raise problem
    targets, space, spaces = check_targets(state, c, p.ability, action.targets, action.space, action.orientation)
    check_destination(state, c, p.ability, targets, space, action.options)
    cost = cost_of(state, c, p)
    if not lap_ok(state, c, cost):
        raise RuleError("wowm.err.lap", rule="408.2a", cost=cost, name=c.defn.name)
    # 703.1d: nothing changed so far; from here on the play happens.
    turn = state.turn
    assert turn is not None
    events: list[Event] = []
    if p.card is not None and not p.card.face_up:
        p.card.face_up = True  # 703.1a
        events.append(ev("card_revealed", char=c.id, name=c.defn.name, card=p.ability.name))
    events += pay(state, c, cost)
    if p.ability.category == "action":
        turn.action_used = True
        turn.mods = [m for m in turn.mods if m.kind != "next_cost"]
    if p.card is not None:
        if p.ability.type == "form":
            p.card.zone = "set_aside"  # 302.2: no orientation while set aside
        else:
            p.card.ready = False  # 300.5
        if isinstance(p.card.defn, ActionCardDef) and p.card.defn.once_per_game:
            c.used_once.append(p.card.id)
    frame = PlayFrame(id=state.new_id(), seat=c.controller, caster=c.id, ability=plain(p.ability),
                      card=p.card.id if p.card else None, source=p.source, targets=targets, space=space,  # type: ignore[arg-type]
                      orientation=action.orientation, options=dict(action.options), area=spaces)
    if p.ability.type == "attack":
        _prepare_attack(state, c, frame)
    state.stack.append(frame)
    events.append(ev("ability_played", char=c.id, name=c.defn.name, ability=p.ability.name, cost=cost,
                     tick=shown(c.clock),
                     targets=[_name(state, t) for t in (frame.defenders if frame.area else targets)],
                     space=space or ""))
    return events


def _prepare_attack(state: State, c: CharState, frame: PlayFrame) -> None:
    """600.1c and E8: an instant may convert this attack; 703.1f fixes the defenders."""
    ability = frame.ability
    frame.damage_type = ability.damage_type
    frame.physical = ability.is_physical
    turn = state.turn
    if turn is not None:
        for mod in list(turn.mods):
            if mod.kind == "next_attack" and _mod_fits(mod, frame):
                turn.mods.remove(mod)
                if mod.damage_type is not None:
                    frame.damage_type = mod.damage_type
                    frame.physical = mod.damage_type in PHYSICAL_TYPES
                frame.extra_critical += mod.critical
                frame.rider_card = mod.card
                frame.set_critical = frame.set_critical or mod.set_critical
                break
    frame.defenders = aoe_defenders(state, c.controller, frame.area) if frame.area else list(frame.targets)


def _mod_fits(mod: TurnMod, frame: PlayFrame) -> bool:
    if mod.only == "physical":
        return frame.physical
    if mod.only == "physical_ranged":
        return frame.physical and frame.damage_type == "ranged"
    if mod.only == "magic":
        return not frame.physical
    return True


def destination_step(ability: AbilityDef) -> tuple[Step | None, bool]:
    """The step that needs a chosen space (teleport or move), and whether it sits under "may"."""
    for step in ability.steps:
        if step.op in ("teleport", "move"):
            return step, False
        if step.op == "may":
            inner = next((s for s in step.steps if s.op in ("teleport", "move")), None)
            if inner is not None:
                return inner, True
    return None, False


def destination_options(state: State, c: CharState, ability: AbilityDef, targets: list[str]) -> list[str]:
    """Where the ability's teleport (404.2a) or effect move (404.3, 404.3a, A17) may end."""
    step, _ = destination_step(ability)
    if step is None:
        return []
    mover = state.chars.get(c.id if step.who == "self" else (targets[0] if targets else ""))
    if mover is None or mover.pos is None:
        return []
    reach = ability.target.space_range or abs(step.amount)
    if step.op == "teleport":
        return destinations(state, mover, reach)
    walked = walk(state, mover, mover.pos, reach, ignores_terrain=False)
    return sorted(s for s in walked if s != mover.pos and can_stop(state, mover, s))


DESTINATIONS_LISTED = 12  # a refusal lists this many legal destinations, then "…"


def check_destination(state: State, c: CharState, ability: AbilityDef, targets: list[str], space: str | None,
                      options: dict[str, str]) -> None:
    """703.1b: a space the ability will need is chosen with it and must be a legal destination."""
    step, optional = destination_step(ability)
    if step is None or (optional and not may_yes(options)):
        return
    rule = "404.2a" if step.op == "teleport" else "404.3"
    legal = destination_options(state, c, ability, targets)
    if space is None:  # 703.1b: none given: say that one is needed, how to give it, and where it may go
        mover = state.chars.get(targets[0]) if step.who != "self" and targets else None
        example = (f"{mover.short}@" if mover is not None else "") + (legal[0] if legal else "E3")
        shown_spaces = ", ".join(legal[:DESTINATIONS_LISTED]) + (" …" if len(legal) > DESTINATIONS_LISTED else "")
        raise RuleError("wowm.err.no_destination", rule=rule, ability=ability.name, example=example,
                        known=shown_spaces or "—")
    if space not in legal:
        raise RuleError("wowm.err.bad_destination", rule=rule, space=space)


def may_yes(options: dict[str, str]) -> bool:
    """706.4: the player's "may" answer given with the play."""
    return options.get("may", "").strip().lower() in ("yes", "y", "si", "sì", "true", "1")


def _name(state: State, pid: str) -> str:
    if pid in state.chars:
        return state.chars[pid].defn.name
    totem = state.totems.get(pid)
    return totem.defn.name if totem else pid


def leave_form(state: State, c: CharState) -> list[Event]:
    """302.4/A12: an instant of the character's own turn costing nothing."""
    if c.form is None:
        raise RuleError("wowm.err.no_form", rule="302.4")
    return end_form(state, c)


def reveal(state: State, seat: int, key: str) -> list[Event]:
    """300.1/A35: the controller may turn a card face up at any time; it passes nothing."""
    wanted = key.strip().lower()
    for c in state.chars.values():
        if c.controller != seat:
            continue
        for card in c.bar:
            if card.defn is not None and (card.id.lower() == wanted or norm(card.defn.name) == norm(key)):
                if card.face_up:
                    raise RuleError("wowm.err.already_revealed", rule="300.1", card=card.defn.name)
                card.face_up = True
                return [ev("card_revealed", char=c.id, name=c.defn.name, card=card.defn.name)]
    raise RuleError("wowm.err.unknown_card", name=key[:40], known=", ".join(
        sorted(card.defn.name for c in state.chars.values() if c.controller == seat for card in c.bar
               if card.defn and not card.face_up)))


def next_mod(state: State, kind: str, **fields: object) -> None:
    """E8/703.1c: remember an instant's "next attack / next action" change for this turn."""
    if state.turn is not None:
        state.turn.mods.append(TurnMod(kind=kind, **fields))  # type: ignore[arg-type]
