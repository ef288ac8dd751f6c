"""The closed vocabulary of WoW Miniatures content: what a pack may say, and nothing more.

Split from ``content.py`` (issue 29.5) so the schemas stay under the module budget. Every word here is
one the rules engine resolves; a pack naming anything else is refused on load with its field named,
which is how a new or server card is "checked on load". ``content.py`` re-exports every name, so
callers keep importing from there.
"""

from __future__ import annotations

from typing import Literal

Faction = Literal["alliance", "horde", "monster"]
FACTIONS: tuple[str, ...] = ("alliance", "horde", "monster")
DamageType = Literal["arcane", "fire", "frost", "holy", "melee", "nature", "ranged", "shadow"]
PHYSICAL_TYPES = frozenset({"melee", "ranged"})  # A22
Stat = Literal["attack", "armor", "resist", "health", "movement"]
Keyword = Literal["protector", "stealth", "taunt", "ignores_terrain"]
Terrain = Literal["cover", "elevated", "impassable"]
Category = Literal["action", "instant", "react"]
CardType = Literal["attack", "buff", "debuff", "form", "heal", "pet", "totem", "other"]
Side = Literal["A", "B", "neutral"]

StepOp = Literal[
    "damage",  # non-attack damage to each selected (707.1)
    "heal",  # healing, capped at max health (402.2)
    "tick",  # tick the selected clocks up (+) or down (-) (408.1a, 408.2a caps)
    "push",  # move the selected ``amount`` spaces away from the source (404.3b)
    "move",  # move the selected up to ``amount`` spaces to the chosen space (404.3)
    "teleport",  # teleport the selected up to ``amount`` spaces to the chosen space (404.2)
    "exhaust_card",  # the selected character's controller exhausts one of its ready cards (602.2)
    "ready_card",  # ready the card this ability came from
    "extra_hits",  # critical: the attack gains ``amount`` hits now (601.1c)
    "new_attack",  # critical: start the attack ``attack`` after this one (602.5)
    "negate",  # react: the ability that opened the window does nothing (600.2, 703.1g)
    "attack_power",  # react: the attack that opened the window gets ``amount`` more dice
    "next_attack",  # instant: the next matching attack this turn is converted / gains riders
    "next_cost",  # instant: the next action this turn costs ``amount`` less, at least ``minimum`` (703.1c)
    "exhaust_other",  # exhaust another ready card of the caster; if you do, ``steps`` (705.1d)
    "may",  # ``steps`` happen only if the player chose to and can (706.4)
    "control",  # take control of the selected enemy character and play its turn at once (400.3)
]
Selector = Literal[
    "self",  # the character (or totem) whose ability this is
    "target",  # each chosen target
    "attacker",  # the attacking character (triggers, criticals)
    "defender",  # each defender of the attack (criticals)
    "subject",  # the character an event or window is about (the ally targeted, the enemy leaving)
    "adjacent_enemies",  # enemy characters adjacent to ``self``
    "adjacent_allies",  # ally characters adjacent to ``self`` (``self`` excluded)
    "enemies_within",  # enemy characters within ``radius`` (distance and LOS, 405.2)
    "allies_within",  # ally characters within ``radius`` (distance and LOS), ``self`` excluded
]
TriggerOn = Literal[
    "start_of_tick",  # 500.2
    "end_of_tick",  # 502.1, 704.2c
    "enemy_leaves_adjacency",  # an enemy moves from a space adjacent to self to one that is not (404.4)
    "destroyed",  # 403.2a: this character is destroyed
    "attacked",  # 600.3: this character becomes "attacked"
    "after_attack_damage",  # 602.1a: after an attack against this character dealt its damage
]
ReactWhen = Literal[
    "enemy_physical_attack_on_self_or_adjacent_ally",  # E8 (a negate on physical attacks)
    "enemy_ability_not_physical_attack",  # E8 (a negate on everything else; forms excepted, 302.2)
    "enemy_attack_targets_ally",  # 703.1g: an attack targets an ally character of yours
    "ally_plays_attack",  # an ally character (this one included) plays an attack: usable on your own turn
    "enemy_ticks_ally",  # 408.1b: an enemy ticks up one of your characters
    "self_attacked_no_damage",  # 602.4: this character was attacked and took no damage this turn
]
ReplaceOn = Literal[
    "damage_taken",  # the damage this character would take (its controller's side picks, 709.2a)
    "damage_dealt",  # the damage this character would deal (the dealing side picks first, 709.2a)
]
ReplaceOp = Literal[
    "add",  # that much more damage instead
    "reduce",  # that much less damage instead (never below 0)
    "halve",  # half the damage, rounded up, instead
]
Duration = Literal["permanent", "end_of_tick_10", "start_of_next_turn", "end_of_turn"]

SpawnCapture = Literal["never", "end_of_turn"]
"""406.3b: when a neutral spawn point becomes one side's. The seed leaves the how to the scenario:
``end_of_turn`` converts it to the side of a character that ends its turn standing on it."""
