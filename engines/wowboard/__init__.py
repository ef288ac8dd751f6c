"""World of Warcraft: The Board Game engine (system ``wowboard``, issue 17) — first step, NOT registered yet.

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

Next, in this order
1. (done) Content in ``content_cards``: P1 class sheets and decks (4 × 16 cards), 2 ancestries, items
   16/8/4/6, 19 quests per faction, 12 events, the Hollow Knight, the Ash Wyrm; coverage test.
2. The rest of the state (§3.2: figures, quests, decks as ``engines.core.hidden_deck``, merchant, events,
   combat, pending), set-up of quests and merchant, train, town, challenge targets and forced challenges,
   equip in management, the track icon step (events, merchant items), turn 31 (End).
3. Combat (normal, groups, pool/stun/reroll/placement/defense), defeat and respawn, quests and rewards,
   levels and talents, PvP and the final battle, the Overlord, victory.
4. Platform: faction-owned decisions and per-seat buttons, team resignation, image policy; then the
   renderer, ``/wowb`` cog, console script, e2e, bench.
"""
