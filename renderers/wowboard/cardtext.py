"""Card text in words for the pictures: a thin adapter over ``common.wowboard_card_words``.

Spec §4.1: effects are data, the locale writes them. The words come from the one shared vocabulary
(``wowboard.card.*``, the same sentences ``/wowb card`` replies with, issue 17), so the sheet and the
combat panel never say something other than the reply; this module only shapes them for drawing: one
line per effect, each op in its short form (a companion's "companion, 3 health" without the rule
reminder), one line per creature ability, and only characters the font can draw
(``renderers.wowboard.words.plain``). A card's ``text_override`` (a pack's own wording) wins when present.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from common import wowboard_card_words as words
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import Ancestry, ClassCard, Item, PrePrinted
from renderers.wowboard.words import plain

Card = ClassCard | Item | PrePrinted | Ancestry


def card_text(card: Card, lang: str) -> list[str]:
    """The card's sentences: its pack's own wording if it has one, else one per effect."""
    override = getattr(card, "text_override", None)
    if override:
        return [plain(str(override))]
    return [plain(s) for s in words.effects_text(card.effects, lang, short=True)]


def ability_text(ability: Mapping[str, Mapping[str, Any]], lang: str, pack: Pack | None = None) -> list[str]:
    """A creature's, boss's or Overlord's ability in words, one line per keyword (stun-curse.1), so the
    panel says why a roll wounded, stunned or cursed; ``pack`` names a summoned creature type."""
    return [plain(words.ability_text({name: spec}, lang, pack)) for name, spec in ability.items()]
