"""Warlord packs: the shipped pack and server packs laid over it, loaded and checked (deck-building).

Why a module of its own: a pack is only accepted once every deck in it is legal, so loading reads the
deck rules (``rules_deck``), which read the card schema (``content``); the loader sits above both.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from engines.core.errors import RuleError
from engines.core.packs import by_id, known, read_pack_file, validate_pack
from engines.warlord.content import MAX_PACK_BYTES, Pack
from engines.warlord.rules_deck import validate_deck

DATA = Path(__file__).resolve().parent / "data" / "builtin.json"


@lru_cache(maxsize=1)
def builtin() -> Pack:
    """The shipped pack with the two original decks (spec §4.2)."""
    return read_pack_file(DATA, load_pack)


def load_pack(data: Any, *, over_builtin: bool = False) -> Pack:
    """A validated pack; every deck names only cards the pack defines and is a legal deck
    (deck-building: checked at import, so a server pack never offers a deck that cannot be played).
    ``over_builtin`` lays a server pack over the shipped one: its cards and decks may use the shipped
    cards, the same id replaces, the factions add up."""
    pack = validate_pack(Pack, data, "warlord", MAX_PACK_BYTES)
    if over_builtin:
        base = builtin()
        pack = Pack(factions=list(dict.fromkeys([*base.factions, *pack.factions])),
                    loyalty_exempt=pack.loyalty_exempt, cards=by_id(base.cards, pack.cards),
                    decks=by_id(base.decks, pack.decks))
    ids = {c.id for c in pack.cards}
    for deck in pack.decks:
        for cid in deck.cards:
            if cid not in ids:
                raise RuleError("warlord.err.unknown_card", name=cid, known=known(ids))
    for deck in pack.decks:
        validate_deck(pack, deck)
    return pack
