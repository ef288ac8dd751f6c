"""Warlord: Saga of the Storm engine (system ``warlord``), issue 16. Importing this package registers it.

Status (for the next session; spec = ../shared/specs/warlord.md, ids = gm/rules/digests/warlord.*.yaml):

Implemented
- content: card schema (card-types, characters), abilities stored as effect DSL data (golden-rule:
  not interpreted yet), packs validated with ``validate_pack``; the two original 50-card decks
  ``stonewardens`` and ``ashen_horde`` in ``data/builtin.json``.
- deck-building validation at new game (50+, ≤3 copies, Epic 1, no type over half, one Warlord,
  ≤1 Overlord, campaign only, a legal starting army exists).
- starting-army: simultaneous secret decision, strict faction reading (no Mercenary exemption),
  uniques once; placement 3/2/1, all ready; no opening hand.
- turn-structure: ready-phase (one step upright), draw-phase (simultaneous secret discards, draw to
  hand size from an unordered pool via ``Dice.pick``, never reshuffle, no forced discard),
  initiative-phase (d20 + modifiers, tied leaders reroll, play order clockwise from the winner),
  order-phase / passing (one order at a time; ends when all living players pass in a row;
  end-of-turn expiry of "turn"/"strike" modifiers), optional ``max_turns`` draw.
- ranks / adjacency: legality, distance, adjacency, reform decision ("fall forward", ready → spent →
  stunned per step), armies reform in play order before anything else.
- orders: attack (spend, one melee strike per ATK, targets within one rank chosen strike by strike,
  stop), recruit (bring-characters: rank = level, legal formation, Unique, loyalty → stunned unless
  Mercenary), equip (class, level + rank ≥ item level, same name, Unique, trait clash discards the
  old item ignoring Unique/Epic/Treasure), maneuver (forward/back/same, spend, may trigger reform),
  pass.
- dice / astral-ethereal: natural 20/1 on strikes, Ethereal odd miss, Astral even miss and 19 hit.
- attack / victory: wounds, death to discard with items, a dead Warlord eliminates its player (cards
  removed), last standing wins, simultaneous loss = draw.
- bonuses: modifier layering (``+N`` and "changes to") in ``rules_common.layered``; item ATK/AC.
- ranged-strikes helpers (``rules_strikes.ranged_targets``: exactly two ranks, ``extra_reach`` for
  Marksmanship; ``ranged_bonus``: printed number + ranged-only bonuses), used by ``use_order``
  (card-orders, ``rules_use``) for printed "Spend Order: +N ranged strike" on characters and items
  (the bearer performs an item's order); any other printed order is refused as ``warlord.err.unmodeled``.
- skill-checks / feats as pure functions (``rules_checks``): check/save/feat check vs DC 20, feat sources
  add up, item ``modify`` statics on skill; the ten feat ids in ``FEATS``.
- actions / card-orders performer gate (``rules_actions.check_performer``: your army, not stunned,
  class, level incl. "+1 level for spells", Spend needs ready) — the gate only, no card is playable yet.
- view hides other hands, every deck pool, other seats' secret choices; JSON state v1 (upgrades.py,
  frozen fixture tests/warlord/fixtures/warlord.v1.json).
- ``legal_actions``: exactly what ``apply`` accepts (filtered through the same checks); for the
  starting army it offers one legal army (the first found), for draw discards none or one card, recruit
  at the right end of the rank, reform to either end of the rank in front.

Not yet (in this order)
1. Action cards and the other printed orders (actions, card-orders): ``PlayOrder`` using
   ``rules_actions.check_performer``, the effect DSL interpreter (melee strike with first ATK only,
   modify/set_atk with ``Modifier.seq`` layering, heal, set_state, save, draw/retrieve, attach, move),
   spell strikes ignoring Astral/Ethereal (``hits(spell=True)`` exists), cards to discard after use.
2. Feats as actions (feats: Medicine/Riding/Scribe/Stealth orders, the react feats through the
   windows of step 3; once per turn except Stealth, ``CharState.used``), saves wired into spells, the
   Marksmanship +1 rank/+5/+1 wound choice; a ``Modifier.seq`` counter (``State.next_seq``) when effects
   start creating modifiers.
3. React windows (reacts): polling in initiative order, ``react_prompts`` auto/stops, yield, the
   ``after_initiative`` / ``reforming`` / strike windows; ``reform_free``.
4. GM overrides, concede/resign (contract ``supports_resign`` for 3–4 seats), enemy-formation
   (Stealth), deck search conventions; then register in ``engines.registry`` with contract tests.
"""

from engines.registry import register
from engines.warlord.engine import WarlordEngine

ENGINE = register(WarlordEngine())

__all__ = ["ENGINE", "WarlordEngine"]
