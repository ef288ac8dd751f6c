"""World of Warcraft: The Board Game engine (system ``wowboard``, issue 17), registered: ``/wowb`` plays it.

Status (for the next session; spec = ../shared/specs/wowboard.md, rule ids = its §2 checklist, hung under
the sections of gm/rules/digests/wowboard.*.yaml):

Done
- ``engines/core/system_dice``: ``roll_pool`` (phantom dice beyond 7 of a colour, dice-pool.2) and
  ``reroll_chosen`` (the player picks the dice, each once, reroll.1).
- content: the "Embervale" map (28 regions, 7 areas, 46 two-way roads, 4 flight paths, 3 towns and one
  start region per faction, 6 graveyards, drawing coordinates), the six P1 creature types, the four P1
  class level tables, the turn track with its icons and the XP track, validated on load.
- rules_travel: destinations of a travel action with paths (travel.1–4) and the nearest graveyards
  (character-defeat.2).
- rules_boxes: the arithmetic of the combat boxes — placement, hit assignment, damage, resolution with
  carry-over, PvP threat, armor strip, PvP resolution, excess wounds (token-placement, defense-phase,
  pvp-combat, pvp-defense, combat-general.2), with the worked examples W27, W29–W32, W36–W38.
- rules_rewards: reward splits with remainders, XP penalty and bonus, fallen members, XP and levels,
  the stronger faction (quest-rewards.1–4, levels.1–4, events.4; W13, W19–W21, W25).
- state (seats, characters, the turn), actions, rules_setup (two seats, one faction each, ``duel``; the
  class draft round-robin in a drawn order), rules_turn (two actions per active character, interleaved;
  travel; rest and pass; the management step; the marker and the other faction's turn), engine.py (the
  contract over all this; ``view`` hides nothing yet as nothing is hidden yet).

- rules_quests, rules_supply, rules_items, rules_events, rules_setup_content: quests (draw, spawn within the
  supply, scarce creatures, completion, rewards with offers), the figure supply, the Bag and the merchant,
  the track step (items, event chains, the wandering Ash Wyrm), the set-up of content.
- rules_sheet, rules_town: sheets, equip rules, capacity, talents, effects in play; train and town.
- rules_combat, rules_fight: normal combat step by step and its wiring (challenge with joiners, pool
  from the cards in play with paid instants, automatic steps, rewards, respawns); rules_defeat.
- rules_answers: the open questions (respawn, item to keep, special item, talent, Bag, next quest deck).
- bosses and the Overlord as challenge targets with their abilities (armor counts half, a scorch at each
  round's start); a beaten boss pays each survivor and leaves; beating the Overlord wins (victory.1).
- ``renderers/wowboard``: the map (areas, roads, black borders, feature badges, characters, creature
  pills, quest flags, boss star, Overlord crown) and the status strip (turn track, factions, merchant).
- engine.py wires all of it (decisions, legal actions, apply); random playouts to turn 12 keep the §3.7
  invariants (tests/wowboard/test_playouts.py).

- rules_pvp, rules_final, rules_final_battle: PvP (alternating attack phases, per-faction boxes, the armor
  strip, hits both ways, resolution, loot) and the End: the stronger faction attacks, everyone refills,
  management for all, one PvP with every character; survivors win, a double wipe is a draw (victory.2–3).
- rules_setup: four seats with one character each, dealt two per faction (setup.1, setup.3); rules_resign
  (a teammate takes a resigning seat's characters; the last seat of a faction concedes); rules_gm (GM
  overrides, logged, cards and figures kept counted); server packs over the built-in one, named by key
  (content.register_pack / pack_by_key; the table hands packs over through ``use_content``).

Layers, top to bottom (a module imports only from the lines below its own, so the order of resolution
reads from the imports; a step that needs what comes next from above stops, and the module above goes on):
- engine: the dispatcher (decisions, legal actions, apply).
- rules_answers, rules_final_battle: the answers to open questions; the last management step and the start
  of the final battle.
- rules_fight: a challenge from its action to what follows the fight, and the answers that resume a fight
  (``settle`` drives every fight, PvP included).
- rules_pvp, rules_town, rules_setup, rules_candidates: PvP; Train and Town; set-up and the draft; a faction
  turn's candidate actions.
- rules_combat, rules_turn, rules_setup_content, rules_gm: the steps of a fight; the faction turn and its
  end; the table's set-up after the draft; GM overrides.
- rules_wounds, rules_pool: wounds and falls inside a fight (last chance, companions); what an attack phase
  counts with (opponents, threat, the pool the cards add) — split out of rules_combat (issue 30).
- rules_quests, rules_defeat, rules_final: quests and rewards; defeat, respawn, the last chance's question;
  the End and the game's outcome.
- rules_spot, rules_participants: cards that act on the rolled dice (spotting, removing and changing dice,
  secondary abilities, the order of simultaneous triggers); effects on the participating friends as a fight
  starts and ends (issue 30.3).
- rules_events, rules_sheet: the track step and event cards; the character sheet and the effects in play.
- rules_items, rules_conditions, rules_resign: items out of combat; card conditions; resigning.
- rules_abilities: the P2 creatures' threat against one dice colour and their energy drain (issue 30.2).
- rules_common, rules_supply, rules_limits, rules_challenge, rules_autopilot, upgrades: ``ev`` and
  ``pack_of``; the figure supply; once-per-round marks; challenge targets; an absent seat's defaults; saved
  states of older schemas.
- state, rules_travel: the game state; travel and distances on the map.
- content: the pack (map, tables, loading, server packs) and its whole-pack checks.
- content_cards, combat_state, actions, rules_boxes, rules_rewards: the card schemas; the fight's state; the
  action models; the pure arithmetic of boxes and rewards.

Left (see the closing notes of issue 17): card-limits.4 once-per-round marks where not covered, P2 rules
(wars, auction, trading, the other Overlords), autopilot for absent seats (P3); spotting cards since 30.3.
"""

from engines.registry import register
from engines.wowboard.engine import WowBoardEngine

ENGINE = register(WowBoardEngine())

__all__ = ["ENGINE", "WowBoardEngine"]
