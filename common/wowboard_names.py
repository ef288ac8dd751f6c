"""How the WoW board game names a character, once, for text and pictures (issue 27.8).

A character is named by its class everywhere ("Arcanist" / "Arcanista"): events, buttons, autocomplete,
private replies, the map legend and the combat panel. The class is what the rules speak of (one
character per class in a game, setup.2; class cards, the draft), and the engine's events carry only the
class id, so a line in the log can be named without the state. Where both help (the sheet's title, a
sheet read as text) the hero printed on the faction's sheet face (health-energy.4) stands beside it:
"Arcanist (Vezza Cindertongue)". ``gm.games.wowboard.text`` and ``renderers.wowboard`` both call these
functions, so the two layers cannot drift; it lives below both (it imports only the engine's content
schemas and ``common.i18n``).
"""

from __future__ import annotations

from common.i18n import t
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import local_name


def class_name(pack: Pack, class_id: str, lang: str = "en") -> str:
    """The character's one name: its class in ``lang`` (the id when the pack has no such class)."""
    return next((local_name(k, lang) for k in pack.classes if k.id == class_id), class_id)


def hero_name(pack: Pack, class_id: str, faction: str | None, lang: str = "en") -> str:
    """The hero printed on the sheet face of ``faction`` (empty when the pack has no such face)."""
    sheet = next((s for s in pack.class_sheets if s.class_id == class_id), None)
    face = sheet.faces.get(faction) if sheet is not None and faction else None  # type: ignore[call-overload]
    return local_name(face, lang) if face is not None else ""


def full_name(pack: Pack, class_id: str, faction: str | None, lang: str = "en") -> str:
    """The class with the hero beside it, "Arcanist (Vezza Cindertongue)", where both help."""
    hero = hero_name(pack, class_id, faction, lang)
    cls = class_name(pack, class_id, lang)
    return t("wowboard.ui.char_full", lang, cls=cls, hero=hero) if hero else cls


def hero_aliases(pack: Pack, class_id: str, faction: str | None = None) -> tuple[str, ...]:
    """Every hero name a player may type for the class's character, in both languages: its own face's
    when the faction is known, both faces' before the draft gives it one."""
    sheet = next((s for s in pack.class_sheets if s.class_id == class_id), None)
    if sheet is None:
        return ()
    faces = [f for side, f in sheet.faces.items() if faction is None or side == faction]
    return tuple(dict.fromkeys(local_name(f, lang) for f in faces for lang in ("en", "it")))
