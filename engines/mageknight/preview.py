"""Previews for the cog: "can I block this?" and "what would this unit soak?", without committing.

Each helper runs the real rule functions on a deep copy of the state and reads the result,
so a preview can never disagree with what ``apply`` will do. The given state is untouched.
A preview of an action the rules refuse raises the same ``RuleError`` the action would.

- ``preview_column(state)``: the open column: total (efficient + ⌊inefficient ÷ 2⌋), what it
  needs (Σ armor, or attack ×2 if swift), whether something was halved, whether it is enough.
- ``preview_action(state, action)``: the same, as if ``target``/``play``/``sideways``/
  ``activate``/``add`` were applied first (e.g. "Quickstep ⚡ Ranged 3 → 3 vs armor 5").
- ``preview_assign(state, to, enemy)``: what one ``assign`` would do (soaked, wounded,
  destroyed, left over; hero Wounds into the hand and onto the discard pile; knock-out).
- ``enemy_numbers(state, enemy)``: an enemy's numbers now (armor in this phase, block need,
  damage if unblocked, fortification), for the token card and autocomplete.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from engines.core.contract import Action
from engines.mageknight import actions as A
from engines.mageknight import rules_damage, rules_staging
from engines.mageknight.content import WOUND
from engines.mageknight.rules_base import find_enemy, find_unit
from engines.mageknight.rules_resolve import evaluate
from engines.mageknight.rules_values import armor_of, attack_of, block_need, damage_of, double_fortified, fortified
from engines.mageknight.state import State


class ColumnPreview(BaseModel):
    kind: str  # attack or block
    targets: list[str]  # enemy names
    total: int
    need: int
    efficient: int
    inefficient: int
    halved: bool
    enough: bool
    swift: bool = False  # a block against a swift attacker (the need is doubled)


class EnemyNumbers(BaseModel):
    uid: str
    name: str
    armor: int  # in the current phase (a duel die may add 1, M51; a white city garrison 1, M49)
    attack: int
    block_need: int  # ×2 if swift
    damage: int  # if unblocked: ×2 if brutal
    element: str
    fortified: bool
    double_fortified: bool
    resistances: list[str]
    abilities: list[str]
    status: str


class AssignPreview(BaseModel):
    enemy: str
    damage: int  # what was left to assign before this step
    to: str  # unit name or "hero"
    absorbed: int = 0
    left: int = 0
    soaked: bool = False  # unit: no wound thanks to a resistance (N3e)
    wounded: bool = False
    destroyed: bool = False
    unit_wounds: int = 0
    hero_wounds: int = 0  # Wound cards into the hand
    discard_wounds: int = 0  # poison's copies on the discard pile
    knocked_out: bool = False  # this step knocks the hero out
    discarded: list[str] = Field(default_factory=list)  # non-Wound cards lost (knock-out, paralyze)


def preview_column(state: State) -> ColumnPreview | None:
    staged = state.staged
    if staged is None:
        return None
    tally, need, targets = evaluate(state, staged)
    return ColumnPreview(kind=staged.kind, targets=[e.name for e in targets], total=tally.total, need=need,
                         efficient=tally.efficient, inefficient=tally.inefficient, halved=tally.halved,
                         enough=tally.total >= need, swift=staged.kind == "block" and targets[0].has("swift"))


def preview_action(state: State, action: Action | dict[str, object]) -> ColumnPreview | None:
    """The column as it would be after a staging action (nothing is committed or changed)."""
    copy = state.model_copy(deep=True)
    act = A.parse_action(action)  # type: ignore[arg-type]
    if isinstance(act, A.Target):
        rules_staging.open_column(copy, act.enemies)
    elif isinstance(act, A.Play):
        rules_staging.play(copy, act)
    elif isinstance(act, A.Sideways):
        rules_staging.sideways(copy, act)
    elif isinstance(act, A.Activate):
        rules_staging.activate(copy, act)
    elif isinstance(act, A.Add):
        rules_staging.add_free(copy, act)
    return preview_column(copy)


def preview_block(state: State, enemy: str) -> ColumnPreview:
    """"Can I block this?": the open block column against ``enemy``, or a new empty one."""
    copy = state.model_copy(deep=True)
    if copy.staged is not None and copy.staged.targets != [find_enemy(copy, enemy).uid]:
        rules_staging.take_back(copy)  # the open column is about another enemy: start afresh
    if copy.staged is None:
        rules_staging.open_column(copy, [enemy])
    result = preview_column(copy)
    assert result is not None
    return result


def preview_assign(state: State, to: str, enemy: str | None = None) -> AssignPreview:
    copy = state.model_copy(deep=True)
    step = rules_damage.start(copy, enemy)
    before_hand = list(copy.hero.hand)
    name = "hero" if to.strip().casefold() in rules_damage.HERO else find_unit(copy, to).name
    unit = None if name == "hero" else find_unit(copy, to)
    damage = step.remaining
    enemy_name = copy.enemy(step.enemy).name  # read now: a summoned token leaves the combat once its damage is placed
    events = rules_damage.assign(copy, enemy, to)
    after = copy.damage
    left = after.remaining if after is not None and after.enemy == step.enemy else 0
    preview = AssignPreview(enemy=enemy_name, damage=damage, to=name, left=left,
                            absorbed=damage - left if unit is not None else damage)
    keys = {e.key.removeprefix("mk.ev.") for e in events}
    if unit is not None:
        after_unit = copy.unit(unit.uid)
        preview.soaked = after_unit.soaked
        preview.destroyed = after_unit.destroyed
        preview.wounded = after_unit.wounds > 0 or after_unit.destroyed
        preview.unit_wounds = after_unit.wounds
    else:
        preview.hero_wounds = copy.hero.combat_hand_wounds - state.hero.combat_hand_wounds
        preview.discard_wounds = copy.hero.combat_discard_wounds - state.hero.combat_discard_wounds
        preview.knocked_out = "knocked_out" in keys
        lost = [c for c in before_hand if c != WOUND]
        kept = [c for c in copy.hero.hand if c != WOUND]
        preview.discarded = [state.cards[c].name if c in state.cards else c for c in lost[len(kept):]]
    return preview


def enemy_numbers(state: State, enemy: str) -> EnemyNumbers:
    found = find_enemy(state, enemy)
    abilities = list(dict.fromkeys([*found.token.abilities, *found.extra_abilities]))
    return EnemyNumbers(uid=found.uid, name=found.name, armor=armor_of(state, found), attack=attack_of(state, found),
                        block_need=block_need(state, found),
                        damage=damage_of(state, found), element=found.token.element, fortified=fortified(found),
                        double_fortified=double_fortified(found), resistances=list(found.token.resistances),
                        abilities=abilities, status=found.status)


__all__ = ["AssignPreview", "ColumnPreview", "EnemyNumbers", "enemy_numbers", "preview_action", "preview_assign",
           "preview_block", "preview_column"]
