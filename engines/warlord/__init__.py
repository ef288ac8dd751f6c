"""Warlord: Saga of the Storm engine (system ``warlord``, issue 16). Importing this package registers it.

Rules by module (ids = sections of gm/rules/digests/warlord.*.yaml; spec = ../shared/specs/warlord.md):
- content, rules_deck, packs: the card schema; deck building (deck-building); the two built-in decks and
  server packs, loaded and checked against the deck rules.
- rules_setup: the secret simultaneous starting army (starting-army).
- rules_turn: ready, draw (secret discards), initiative (ties reroll, Ill Omen), orders, passing, end of
  turn (turn-structure, ready-phase, draw-phase, initiative-phase, order-phase, passing).
- rules_ranks, rules_stealth: ranks, distance, adjacency, reform; the enemy formation (ranks, adjacency,
  enemy-formation).
- rules_orders, rules_play, rules_candidates: recruit, equip, maneuver; Order action cards, printed
  orders, feat orders (bring-characters, equip, maneuver, actions, card-orders, feats).
- rules_stack, rules_windows, rules_reacts: the resolution frames (strikes step by step, actions), the
  reaction windows and their polling (auto/stops, yields), reacts from hand, items and feats (reacts).
- rules_effects: the effect vocabulary of card text (golden-rule, bonuses).
- rules_strikes, rules_checks: strikes, dice, Astral/Ethereal, wounds, death, victory; checks, saves,
  feats (attack, ranged-strikes, dice, astral-ethereal, victory, skill-checks, feats).
- rules_gm: GM overrides and resignation; rules_view: what each seat may see.

Layers, top to bottom (a module imports only from the layers below its own, so the order of resolution
reads from the imports):
- engine: the dispatcher (the Engine contract: decisions, legal actions, apply).
- rules_stack: the resolution frames, which run strikes and actions step by step.
- rules_reacts, rules_candidates: reacts and their polling; the candidates of ``legal_actions``.
- rules_play, rules_effects, rules_gm: orders and action cards, the effect vocabulary, GM overrides.
- rules_strikes: strikes, dice, wounds, death, victory.
- rules_orders, rules_actions, rules_setup: recruit, equip, maneuver; who may perform a card; the
  starting army.
- rules_turn, rules_checks, rules_stealth: the turn's phases; checks, saves and feats; the enemy formation.
- rules_windows, rules_ranks, rules_view, rules_common, packs, upgrades: reaction windows, ranks and
  distance, what a seat may see, shared helpers; loading packs; saved states of older schemas.
- rules_deck, state: deck legality; the game state.
- content, actions: the card schema; the action models.

Not modeled (text shown, resolved by the GM and logged): "after a character is killed" reacts (the kill
credit is recorded on the event), a character that loses Stealth while infiltrating.
"""

from engines.registry import register
from engines.warlord.engine import WarlordEngine

ENGINE = register(WarlordEngine())

__all__ = ["ENGINE", "WarlordEngine"]
