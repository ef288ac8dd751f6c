"""The optional rules a table may switch on in its lobby (variants): Deadly PvP and Defeat the Overlord!.

``variant:none`` (the default) plays the base rules. ``variant:deadly_pvp`` (variants.1) changes one step of every
PvP fight, the resolution, in ``rules_pvp``; ``variant:defeat_overlord`` (variants.2) sends the turn marker back to
space 1 instead of the End (``rules_final``) and makes the item icons of that second lap give circle items
(``rules_items``). Both may be asked together, comma-separated (``variant:deadly_pvp,defeat_overlord``).

Why the options live apart: the lobby check, the set-up and three rule modules read them, and none of those
should import another only to know which optional rules are on.
"""

from __future__ import annotations

from typing import Any

from engines.core.errors import RuleError
from engines.wowboard.state import State

DEADLY_PVP = "deadly_pvp"  # variants.1
DEFEAT_OVERLORD = "defeat_overlord"  # variants.2
VARIANTS = (DEADLY_PVP, DEFEAT_OVERLORD)
NONE = "none"
_ALIASES = {"pvp_mortale": DEADLY_PVP, "deadly": DEADLY_PVP, "sconfiggere_overlord": DEFEAT_OVERLORD,
            "sconfiggi_overlord": DEFEAT_OVERLORD, "defeat_the_overlord": DEFEAT_OVERLORD}
"""The Italian rulebook's names of the two variants, and the spellings people try, as the option's words."""


def parse_variants(value: Any) -> str:
    """The lobby's ``variant:`` as the stored words: ``none`` or the chosen variants in a fixed order, comma
    separated; an unknown word is refused with the list (never silently ignored: a table would play rules it
    did not ask for)."""
    words = [w.strip().lower().replace("-", "_").replace(" ", "_") for w in str(value or NONE).split(",")]
    chosen: set[str] = set()
    for word in words:
        if word in ("", NONE, "no", "off", "nessuna"):
            continue
        name = _ALIASES.get(word, word)
        if name not in VARIANTS:
            raise RuleError("wowboard.err.bad_variant", rule="variants", value=word[:30],
                            known=", ".join((NONE, *VARIANTS)))
        chosen.add(name)
    return ",".join(v for v in VARIANTS if v in chosen) or NONE


def variant_on(state: State, name: str) -> bool:
    """Whether the table plays the optional rule ``name`` (a game saved before variants existed plays none)."""
    return name in str(state.options.get("variant", NONE)).split(",")
