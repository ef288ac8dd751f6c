"""Targets (405.2, 407, 708.5, 103.2): who an ability may target, AOE areas and defenders.

A legal target is within range with clear LOS (405.2), on the right side (407.1a: attacks and
debuffs at enemies, buffs and heals at allies; totems only for attacks, 303.2), not protected by
a prohibition (103.2). Taunt (708.5) then restricts which legal targets an attack may pick.
"""

from __future__ import annotations

from itertools import combinations

from engines.core.errors import RuleError
from engines.wowminis.content import AbilityDef, RangeDef, norm
from engines.wowminis.rules_board import (
    adjacent,
    allied,
    area,
    can_stop,
    dist,
    geometry,
    has_los,
    in_play,
    parse_space,
    within_range,
)
from engines.wowminis.rules_stats import cant_be_attacked, keywords
from engines.wowminis.state import CharState, Ctx, State

MAX_COMBOS = 60  # enumerating "up to N" targets for legal_actions never explodes


def resolve_piece(state: State, text: str) -> str:
    """A character or totem as players name it: id, short label, name or an unambiguous prefix."""
    wanted = norm(text)
    pieces = [(c.id, c.short, c.defn.name) for c in state.chars.values()]
    pieces += [(t.id, t.short, t.defn.name) for t in state.totems.values()]
    for pid, short, name in pieces:
        if wanted in (norm(pid), norm(short), norm(name)):
            return pid
    hits = [pid for pid, _short, name in pieces if wanted and norm(name).startswith(wanted)]
    if len(hits) == 1:
        return hits[0]
    raise RuleError("wowm.err.unknown_piece", name=str(text)[:40],
                    known=", ".join(sorted(c.defn.name for c in state.chars.values())))


def is_attack(ability: AbilityDef) -> bool:
    return ability.type == "attack"


def single_targets(state: State, caster: CharState, ability: AbilityDef) -> list[str]:
    """Every piece that could fill one target slot (405.2, 407.1, 407.1a, 103.2)."""
    spec = ability.target
    if caster.pos is None or spec.side not in ("enemy", "ally"):
        return []
    result: list[str] = []
    for c in in_play(state):
        ally = allied(state, c.controller, caster.controller)
        if (spec.side == "ally") != ally:
            continue
        if is_attack(ability) and cant_be_attacked(state, c):
            continue  # 103.2: the prohibition wins
        if within_range(state, caster.controller, caster.pos, c.pos or "", spec.range.min, spec.range.max,
                        spec.range.los):
            result.append(c.id)
    if spec.side == "enemy" and is_attack(ability) and spec.totems:
        for t in state.totems.values():  # 407.1a: attacks may target enemy totems (range 0 too, E7)
            if not allied(state, t.controller, caster.controller) and within_range(
                    state, caster.controller, caster.pos, t.pos, spec.range.min, spec.range.max, spec.range.los):
                result.append(t.id)
    return result


def taunters(state: State, caster: CharState, legal: list[str]) -> list[str]:
    """708.5: legal targets with Taunt adjacent to the attacker (empty: no restriction, 708.5a)."""
    return [t for t in legal if t in state.chars and "taunt" in keywords(state, state.chars[t])
            and adjacent(caster.pos, state.chars[t].pos)]


def check_taunt(state: State, caster: CharState, ability: AbilityDef, chosen: list[str], legal: list[str]) -> None:
    """708.5b/708.5c: a single-target attack picks a taunter; a multi-target one includes
    min(N, |T|) taunters (E15). AOE is unaffected (A27)."""
    if not is_attack(ability) or ability.target.aoe:
        return
    taunt = taunters(state, caster, legal)
    if not taunt:
        return
    need = min(len(chosen), len(taunt))
    if sum(t in taunt for t in chosen) < need:
        raise RuleError("wowm.err.taunt", rule="708.5", names=", ".join(state.chars[t].defn.name for t in taunt))


def target_sets(state: State, caster: CharState, ability: AbilityDef) -> list[list[str]]:
    """Every legal choice of targets for a characters-targeting ability (Taunt applied)."""
    spec = ability.target
    if spec.side == "self":
        return [[caster.id]] if caster.pos is not None else []
    if spec.side in ("none", "space"):
        return [[]]
    legal = single_targets(state, caster, ability)
    sizes = range(1, spec.count + 1) if spec.up_to else [spec.count]
    result: list[list[str]] = []
    for size in sizes:
        for combo in combinations(legal, size):
            try:
                check_taunt(state, caster, ability, list(combo), legal)
            except RuleError:
                continue
            result.append(list(combo))
            if len(result) >= MAX_COMBOS:
                return result
    return result


def aoe_choices(state: State, caster: CharState, ability: AbilityDef) -> list[tuple[str, int, list[str]]]:
    """407.2/407.2a: (target space, orientation, the 3 spaces) for every legal AOE placement."""
    if caster.pos is None:
        return []
    spec = ability.target
    geo = geometry(state)
    result = []
    for hexa in sorted(geo.spaces):
        space = geo.label(hexa)
        if not within_range(state, caster.controller, caster.pos, space, spec.range.min, spec.range.max,
                            spec.range.los):
            continue
        for orientation in range(6):
            spaces = area(state, space, orientation)
            if spaces is not None:
                result.append((space, orientation, spaces))
    return result


def aoe_defenders(state: State, seat: int, spaces: list[str]) -> list[str]:
    """703.1f/407.2b: every non-allied character in the area; totems are immune (303.2)."""
    return [c.id for c in in_play(state) if c.pos in spaces and not allied(state, c.controller, seat)]


def destinations(state: State, mover: CharState, reach: int, *, origin: str | None = None) -> list[str]:
    """404.2a: where a teleport of up to ``reach`` may land: a character-free, enterable space."""
    start = origin or mover.pos
    if start is None or reach <= 0:
        return []
    geo = geometry(state)
    return sorted(geo.label(x) for x in geo.spaces
                  if 0 < dist(start, geo.label(x)) <= reach and can_stop(state, mover, geo.label(x)))


def check_targets(state: State, caster: CharState, ability: AbilityDef, targets: list[str], space: str | None,
                  orientation: int | None) -> tuple[list[str], str | None, list[str]]:
    """703.1b: validate the chosen targets; returns (target ids, space, AOE area)."""
    spec = ability.target
    if spec.aoe:
        if space is None or orientation is None:
            raise RuleError("wowm.err.need_space", rule="407.2")
        where = parse_space(state, space)
        if caster.pos is None or not within_range(state, caster.controller, caster.pos, where, spec.range.min,
                                                  spec.range.max, False):
            raise range_error(dist(caster.pos, where) if caster.pos is not None else None, spec.range, where)
        if spec.range.los and not has_los(state, caster.controller, caster.pos, where):
            raise RuleError("wowm.err.no_los", rule="405.3", target=where)
        spaces = area(state, where, orientation)
        if spaces is None:
            raise RuleError("wowm.err.bad_area", rule="407.2a", space=where, orientation=orientation)
        return [], where, spaces
    if spec.side == "self":
        return [caster.id], _space(state, space), []
    if spec.side == "none":
        return [], _space(state, space), []
    ids = [resolve_piece(state, t) for t in targets]
    if len(set(ids)) != len(ids):
        raise RuleError("wowm.err.duplicate_target", rule="407.1b")
    if not ids or len(ids) > spec.count or (not spec.up_to and len(ids) != spec.count):
        raise RuleError("wowm.err.target_count", rule="703.1b", count=spec.count, given=len(ids))
    legal = single_targets(state, caster, ability)
    for pid in ids:
        if pid not in legal:
            raise _why_illegal(state, caster, ability, pid)
    check_taunt(state, caster, ability, ids, legal)
    return ids, _space(state, space), []


def _space(state: State, space: str | None) -> str | None:
    return parse_space(state, space) if space else None


def _why_illegal(state: State, caster: CharState, ability: AbilityDef, pid: str) -> RuleError:
    """The most useful reason a chosen target is not legal."""
    spec = ability.target
    piece = state.chars.get(pid)
    seat = piece.controller if piece else state.totems[pid].controller
    pos = piece.pos if piece else state.totems[pid].pos
    name = piece.defn.name if piece else state.totems[pid].defn.name
    if pos is None:
        return RuleError("wowm.err.not_in_play", rule="403.3", target=name)
    if pid in state.totems and not (is_attack(ability) and spec.totems):
        return RuleError("wowm.err.totem_target", rule="303.2", target=name)
    if allied(state, seat, caster.controller) != (spec.side == "ally"):
        key = "wowm.err.ally_target" if spec.side == "enemy" else "wowm.err.enemy_target"
        return RuleError(key, rule="407.1a", target=name)
    if piece is not None and is_attack(ability) and cant_be_attacked(state, piece):
        return RuleError("wowm.err.cant_be_attacked", rule="103.2", target=name)
    d = dist(caster.pos or pos, pos)
    if not spec.range.min <= d <= spec.range.max:
        return range_error(d, spec.range, name)
    return RuleError("wowm.err.no_los", rule="405.3", target=name)



def range_error(d: int | None, reach: RangeDef, target: str) -> RuleError:
    """Why a target outside the range is refused, in the words of the bound it broke: too close
    for a minimum range (405.2a, issue 27.2), else too far (405.2)."""
    if d is not None and d < reach.min:
        return RuleError("wowm.err.too_close", rule="405.2a", target=target, min=reach.min)
    return RuleError("wowm.err.out_of_range", rule="405.2", target=target, max=reach.max)


def select(state: State, who: str, ctx: Ctx, radius: int = 1, where: str | None = None) -> list[str]:
    """The pieces a step's selector names (706.3), from the context of its ability or trigger.

    ``where`` overrides the source's position (an on-destroy trigger reads where it stood,
    704.2b). Adjacency around a totem includes its own space (303.4)."""
    if who == "self":
        return [ctx.source] if ctx.source else []
    if who == "target":
        return [t for t in ctx.targets if t in state.chars or t in state.totems]
    if who == "attacker":
        return [ctx.attacker] if ctx.attacker and ctx.attacker in state.chars else []
    if who == "defender":
        return [d for d in ctx.defenders if d in state.chars or d in state.totems]
    if who == "subject":
        return [ctx.subject] if ctx.subject and ctx.subject in state.chars else []
    seat = ctx.seat if ctx.seat is not None else 0
    centre = where or _pos(state, ctx.source)
    if centre is None:
        return []
    totem = ctx.source in state.totems
    result = []
    for c in in_play(state):
        if c.id == ctx.source:
            continue
        if (who in ("adjacent_enemies", "enemies_within")) == allied(state, c.controller, seat):
            continue
        if who.startswith("adjacent"):
            if adjacent(centre, c.pos, totem=totem):
                result.append(c.id)
        elif c.pos is not None and dist(centre, c.pos) <= radius and has_los(state, seat, centre, c.pos):
            result.append(c.id)
    return result


def _pos(state: State, piece: str | None) -> str | None:
    if piece is None:
        return None
    if piece in state.chars:
        return state.chars[piece].pos
    totem = state.totems.get(piece)
    return totem.pos if totem else None
