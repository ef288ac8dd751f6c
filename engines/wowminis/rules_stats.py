"""Stats as the rules compute them (104.2, 201, 302, 401, 402.3c, 704.3, 708): never stored.

A stat is the printed value plus signed modifiers from the form (302.1), buffs and debuffs
(with ``while`` conditions, 708.3a), counters (401.1b) and ongoing auras of allies and totems
(704.3a: range-limited, so their source must be in play; 704.3b: same-named auras apply once).
Values are summed as signed integers and clamped to 0 only where used as a quantity (104.2).
"""

from __future__ import annotations

from engines.wowminis.content import FormDef, Modifier
from engines.wowminis.rules_board import adjacent, allied, dist, has_los, in_play, terrain_at
from engines.wowminis.state import CardInstance, CharState, State

BASE_MOVEMENT = 2  # 404.1


def form_card(c: CharState) -> CardInstance | None:
    """The set-aside card of the character's current form (302.2)."""
    if c.form is None:
        return None
    return next((card for card in c.bar if card.id == c.form), None)


def form_of(c: CharState) -> FormDef | None:
    card = form_card(c)
    return card.defn.form if card is not None and card.defn is not None else None


def _aura_mods(state: State, c: CharState) -> list[Modifier]:
    """Ongoing auras reaching ``c`` from allied characters and totems, once per aura name."""
    if c.pos is None:
        return []
    seen: dict[str, list[Modifier]] = {}
    for src in in_play(state):
        if src.id == c.id or not allied(state, src.controller, c.controller):
            continue
        for aura in src.defn.auras:
            if aura.name in seen:
                continue
            near = (adjacent(src.pos, c.pos) if aura.who == "adjacent_allies" else
                    src.pos is not None and _within(state, src.controller, src.pos, c.pos, aura.radius))
            if near:
                seen[aura.name] = aura.modifiers
    for totem in state.totems.values():
        if not allied(state, totem.controller, c.controller):
            continue
        for aura in totem.defn.auras:
            if aura.name in seen:
                continue
            near = (adjacent(totem.pos, c.pos, totem=True) if aura.who == "adjacent_allies"
                    else _within(state, totem.controller, totem.pos, c.pos, aura.radius))
            if near:
                seen[aura.name] = aura.modifiers
    return [m for mods in seen.values() for m in mods]


def _within(state: State, seat: int, a: str, b: str, radius: int) -> bool:
    """A19: "within range N" means distance and line of sight (405.2)."""
    return dist(a, b) <= radius and has_los(state, seat, a, b)


def modifiers(state: State, c: CharState) -> list[Modifier]:
    """Every modifier in force on ``c`` now (708.2: ongoing effects always read the current state)."""
    mods: list[Modifier] = []
    form = form_of(c)
    if form is not None:
        mods += form.modifiers
    where = terrain_at(state, c.pos) if c.pos is not None else None
    for effect in state.effects:
        if effect.target == c.id:
            mods += [m for m in effect.buff.modifiers if m.while_in is None or m.while_in == where]
    mods += [Modifier(stat=k.stat, delta=k.delta) for k in c.counters if k.stat is not None and k.on_card == "char"]
    mods += _aura_mods(state, c)
    return mods


def _sum(mods: list[Modifier], stat: str) -> int:
    return sum(m.delta for m in mods if m.stat == stat)


def armor(state: State, c: CharState) -> int:
    return max(0, c.defn.armor + _sum(modifiers(state, c), "armor"))


def resist(state: State, c: CharState) -> int:
    return max(0, c.defn.resist + _sum(modifiers(state, c), "resist"))


def movement(state: State, c: CharState) -> int:
    """404.1/404.1c: MP = 2 (or the pet card's value) plus modifiers; 0 or less means no move."""
    return max(0, c.defn.movement + _sum(modifiers(state, c), "movement"))


def max_health(state: State, c: CharState) -> int:
    """402.3c: printed health plus health increases and decreases (not damage)."""
    return c.defn.health + _sum(modifiers(state, c), "health")


def stealthed(state: State, c: CharState) -> bool:
    """708.4a: stealth lasts for the character's own turn once the start-of-turn check passed."""
    return state.turn is not None and state.turn.char == c.id and state.turn.stealthed


def attack_dice(state: State, c: CharState | None, power: int, physical: bool, bonus: int = 0) -> int:
    """601.1: attack power plus modifiers (Stealth +1 on physical attacks, 708.4a), at least 0."""
    total = power + bonus
    if c is not None:
        for m in modifiers(state, c):
            if m.stat == "attack" and (m.attack_kind == "any" or (m.attack_kind == "physical") == physical):
                total += m.delta
        if physical and stealthed(state, c):
            total += 1
    return max(0, total)


def keywords(state: State, c: CharState) -> set[str]:
    return set(c.defn.keywords)


def cant_be_attacked(state: State, c: CharState) -> bool:
    """103.2: a prohibition on the character (a buff) beats any instruction to attack it."""
    return any(e.target == c.id and e.buff.cant_be_attacked for e in state.effects)


def ignores_terrain(state: State, c: CharState) -> bool:
    return "ignores_terrain" in keywords(state, c)
