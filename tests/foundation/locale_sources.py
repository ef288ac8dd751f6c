"""Where the values of a built locale key come from when reading the code alone cannot tell
(``locale_keys`` resolves the rest by itself).

``SOURCES`` maps a template (``km.info.power.{}``) to the code that lists its values — a ``Literal``
or an ``Enum`` of the engine, a constant of the module that builds the key, the built-in content — so a
new value added there without its words fails the check. ``ELSEWHERE`` names templates whose every key
another test checks from the real source (the command tree), or whose values are open (an event key
any rule module may raise), with the reason; ``NEVER_BUILT`` names single keys a template seems to build
but the code never does (a branch the reading cannot tell is dead), each with why.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any


def _of(kind: Any) -> list[str]:
    """The values of a ``Literal`` or an ``Enum``."""
    if isinstance(kind, type) and issubclass(kind, Enum):
        return [str(member.value) for member in kind]
    return [str(value) for value in typing.get_args(kind)]


def _km_entries() -> list[str]:
    from gm.games.krosmaster import info

    return [entry.kind for entry in info.catalogue(None)]


def _mk_entries(kind: str | None = None) -> list[str]:
    from gm.games.mageknight import info

    return [e.kind if kind is None else e.key for e in info.entries(None) if kind is None or e.kind == kind]


def _mk_combat_kinds() -> list[str]:
    """``Effect.combat_kind``: ``attack_<range>_<element>``, ``block_<element>`` or the plain kind."""
    from engines.mageknight import content as mk

    return ([f"attack_{r}_{e}" for r in _of(mk.Range) for e in _of(mk.Element)]
            + [f"block_{e}" for e in _of(mk.Element)] + [k for k in _of(mk.EffectKind) if k not in ("attack", "block")])


def _lazy(module: str, name: str) -> Callable[[], list[str]]:
    def values() -> list[str]:
        import importlib

        return _of(getattr(importlib.import_module(module), name))
    return values


def _constant(module: str, name: str, keys: bool = False) -> Callable[[], list[str]]:
    def values() -> list[str]:
        import importlib

        found = getattr(importlib.import_module(module), name)
        items = found.keys() if keys else found.values() if isinstance(found, dict) else found
        return [str(getattr(v, "value", v)) for v in items]
    return values


def _parsers() -> list[Any]:
    """Every game's action parser (``engines/<game>/actions.py``'s ``PARSER``)."""
    import importlib

    return [importlib.import_module(f"engines.{game}.actions").PARSER
            for game in ("krosmaster", "mageknight", "warlord", "wowboard", "wowminis")]


def _action_words() -> list[str]:
    """``<ns>.action.<kind>``: how a parser error names the action (GM overrides: their own change)."""
    return [f"{p.namespace}.action.{kind}" for p in _parsers() for kind in p.kinds if kind not in p.gm_kinds]


def _field_words() -> list[str]:
    """``<ns>.field.<name>``: how a parser error names a field of an action a player sends."""
    return [f"{p.namespace}.field.{name}" for p in _parsers() for kind, model in p.kinds.items()
            if kind not in p.gm_kinds for name in model.model_fields if name != "kind"]


KM, MK, CORE = "engines.krosmaster.content", "engines.mageknight.content", "engines.core.system_dice"
SOURCES: dict[str, Callable[[], Iterable[str]]] = {  # a template of several holes: its whole keys
    "{}.action.{}": _action_words,
    "{}.field.{}": _field_words,
    # dice and the table
    "dice.mana.{}": _lazy(CORE, "ManaColour"),
    "dice.tension.short.{}": _lazy(CORE, "TensionDouble"),
    "dice.warlord.short.{}": _lazy(CORE, "WarlordOutcome"),
    "dice.wowboard.pool.{}": _lazy(CORE, "BoardColour"),
    "dice.system.{}": lambda: ["notation", "tension", "krosmaster", "mageknight", "warlord", "wowboard", "wowminis"],
    "game.status_{}": lambda: ["lobby", "active", "finished", "abandoned"],
    "game.absent.policy.{}": _constant("gm.table.absent_policy", "POLICIES"),  # issue 32.2
    "game.absent.described.{}": _constant("gm.table.absent_policy", "POLICIES"),
    "game.absent.unit.{}": lambda: ["m", "h", "d"],  # absent_policy.duration_text's units
    "rules.scope.{}": _lazy("common.rules_model", "SourceKind"),
    # Krosmaster
    "km.dir.{}": _constant("gm.games.krosmaster.names", "DIRECTIONS"),
    "km.element.{}": _lazy(KM, "Element"),
    "km.err.team_copies_{}": _constant("engines.krosmaster.rules_team", "COPY_LIMIT", keys=True),
    "km.format.{}": _constant("engines.krosmaster.rules_setup", "FORMATS"),
    "km.info.kind.{}": _km_entries,
    "km.info.power.{}": _lazy(KM, "Keyword"),
    "km.info.power_text.{}": _lazy(KM, "Keyword"),
    "km.info.rank.{}": _lazy(KM, "RewardRank"),
    "km.info.slot.{}": _lazy(KM, "EquipmentSlot"),
    "km.info.spell_name.{}": _constant("gm.games.krosmaster.names", "BUILTIN_NAMES"),
    "km.info.summon_kind.{}": _lazy(KM, "SummonKind"),
    "km.side.{}": _constant("engines.krosmaster.rules_setup", "OPPOSITE", keys=True),  # an arena's sides
    "render.km.face.{}": _lazy("engines.core.krosmaster_die", "Face"),
    # Mage Knight
    "mk.colour.{}": _lazy(MK, "EnemyColour"),
    "mk.effect_kind.{}": _mk_combat_kinds,
    "render.mk.effect.{}": _mk_combat_kinds,
    "mk.element.{}": _lazy(MK, "Element"),
    "mk.face.{}": _lazy(MK, "Face"),
    "render.mk.face_letter.{}": _lazy(MK, "Face"),
    "mk.info.ability_name.{}": _lazy(MK, "Ability"),
    "mk.info.ability_text.{}": lambda: _mk_entries("ability"),
    "mk.info.element_text.{}": lambda: _mk_entries("element"),
    "mk.info.kind.{}": _mk_entries,
    "mk.mode.{}": _lazy("engines.mageknight.state", "Mode"),
    "mk.site.{}": _lazy("engines.mageknight.state", "Site"),
    "mk.ui.mana.{}": lambda: ["die", "crystal", "token"],  # the sources rules_mana.parse_mana accepts
    "mk.ui.time.{}": lambda: ["day", "night"],  # rules_setup: "night" underground or when asked, else "day"
    "render.mk.resist.{}": _lazy(MK, "Resistance"),
    "render.mk.legend.resist_{}": _lazy(MK, "Resistance"),
    "render.mk.ability.{}": _lazy(MK, "Ability"),
    "render.mk.legend.{}": _lazy(MK, "Ability"),
    # Warlord, the WoW board game, WoW Miniatures
    "warlord.trigger.{}": _lazy("engines.warlord.state", "TriggerKind"),
    "warlord.ui.trait.{}": lambda: _warlord_traits(),  # the shipped pack's traits; a pack's own stays as printed
    "warlord.ui.feat.{}": _constant("engines.warlord.rules_checks", "FEATS"),  # the picture legend's feat words
    "wowboard.ui.colour.{}": _lazy("engines.wowboard.content_cards", "QuestColour"),
    "wowboard.ui.war_colour.{}": _constant("engines.wowboard.state", "WAR_COLOURS"),
    "wowm.ui.pref.{}": lambda: _of(_lazy_type("engines.wowminis.state", "AutoPass"))
    + _of(_lazy_type("engines.wowminis.state", "AutoReroll")),
}


def _warlord_traits() -> list[str]:
    """The traits and factions of Warlord's shipped pack, as ``content.trait_key`` words them."""
    from engines.warlord.content import trait_key
    from engines.warlord.packs import builtin

    return sorted({trait_key(t).rsplit(".", 1)[1] for c in builtin().cards for t in c.traits})


def _lazy_type(module: str, name: str) -> Any:
    import importlib

    return getattr(importlib.import_module(module), name)


ELSEWHERE: dict[str, str] = {
    "cmd.{}.name": "the command tree: tests/foundation/test_commands.py::test_every_command_and_option_is_localized",
    "cmd.{}.desc": "the command tree: tests/foundation/test_commands.py::test_every_command_and_option_is_localized",
    "cmd.{}.opt.{}.name": "the command tree: tests/foundation/test_commands.py",
    "cmd.{}.opt.{}.desc": "the command tree: tests/foundation/test_commands.py",
    "choice.{}": "the command tree's choices: tests/foundation/test_commands.py",
    "km.{}": "Krosmaster events (rules_board.ev): any rule module raises them; the console scripts read them",
    "wowboard.ev.{}": "WoW board game events (rules_common.ev): the console scripts read them",
    "wowboard.img.{}": "picture words through renderers/wowboard/words.tr: drawn, read in the golden pictures",
    "warlord.img.{}": "picture words through renderers/warlord/words: drawn, read in the golden pictures",
    "wowm.img.{}": "picture words through renderers/wowminis/words: drawn, read in the golden pictures",
}

NEVER_BUILT: dict[str, str] = {
    "mk.ask.setup": "a duel's set-up always holds a pending question, asked by its own mk.ask.<pending> key",
    "render.mk.status.blocked_short": "short chips of a blocked enemy are empty: the stamp says it",
    "render.mk.status.defeated_short": "short chips of a defeated enemy are empty: the cross says it",
    "render.mk.status.out_of_reach_short": "short chips out of reach are empty: the cross says it",
}


TABLE_ACTIONS = ("start", "resign")
"""Actions the table itself logs, named by ``game.action.<kind>``."""


def action_kinds() -> list[tuple[str, str]]:
    """(locale namespace, kind) of every player action of every game, read from the engines' action
    models (GM overrides aside: they are named by their own change)."""
    import importlib

    from engines.core.contract import Action
    from gm import presenters
    from gm.app import GAME_MODULES

    for module in GAME_MODULES:
        importlib.import_module(module)
    found, todo = [], list(Action.__subclasses__())
    while todo:
        model = todo.pop()
        todo += model.__subclasses__()
        kind = model.model_fields["kind"].default if "kind" in model.model_fields else None
        namespace = getattr(presenters.get(model.__module__.split(".")[1]), "locale_namespace", None)
        if isinstance(kind, str) and namespace is not None and not kind.startswith("gm_"):
            found.append((namespace, kind))
    return found
