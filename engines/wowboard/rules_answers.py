"""Answers to the open questions the game keeps in ``state.pending`` (spec §3.5): where a defeated
character respawns (character-defeat.2), which drawn item the group keeps (quest-rewards.5, .7), which
special item (quest-rewards.6), whether a character at 0 health uses a card to stay up
(character-defeat.1), how many of an opponent's ability wounds a companion takes (power-cards.4), which
talent on a level gained (power-cards.6, levels.3), which item leaves a full Bag (items.3), which quest
deck the faction draws from (quest-rewards.8), which opponent falls when the group's hits could fell one
of several (defense-phase.1), which enemy box a faction's armor strips first in PvP (pvp-defense.1),
what the winners of a PvP loot (pvp-defense.4) and whether a partner takes a trade (items.7). Sealed
auction bids are not answers of this kind: they are ``bid`` actions (rules_auction).
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.rules_defeat import respawn
from engines.wowboard.rules_fight import answer_invite, answer_optional, answer_strip
from engines.wowboard.rules_fight import companion_wounds as answer_companion
from engines.wowboard.rules_fight import hit_target as answer_hit
from engines.wowboard.rules_fight import last_chance as answer_last_chance
from engines.wowboard.rules_fight import order_effects as answer_order
from engines.wowboard.rules_items import resolve_overflow
from engines.wowboard.rules_pvp import take_loot
from engines.wowboard.rules_quests import draw_quest, keep_item, next_deck_options, take_special
from engines.wowboard.rules_sheet import do_take_talent, talent_options
from engines.wowboard.rules_trade import answer_trade
from engines.wowboard.state import Pending, State


def _talent_level(state: State, char: str) -> int:
    c = state.characters[char]
    return min(lv for lv in range(2, c.level + 1) if lv not in c.talents)


def pending_options(state: State) -> list[str]:
    top = state.pending[0]
    if top.kind == "talent" and top.character:
        return talent_options(state, top.character, _talent_level(state, top.character))
    if top.kind == "bag_overflow" and top.character:
        return list(state.characters[top.character].bag)
    return list(top.options)


def answer(state: State, seat: int, value: str, dice: Dice) -> list[Event]:
    top = state.pending[0]
    if value not in pending_options(state):
        raise RuleError("wowboard.err.not_an_option", value=value, known=", ".join(pending_options(state)))
    char = top.character or ""
    if top.kind == "respawn":
        return respawn(state, seat, value)
    state.pending.pop(0)
    if top.kind in ("keep_item", "special"):  # quest-rewards.7: ``card@member`` picks another receiver
        card, _, receiver = value.partition("@")
        cards = list(dict.fromkeys(o.partition("@")[0] for o in top.options))
        if top.kind == "special":
            return take_special(state, receiver or char, card, cards)
        return keep_item(state, receiver or char, card, [c for c in cards if c != card])
    if top.kind == "talent":
        return do_take_talent(state, seat, char, value, _talent_level(state, char))
    if top.kind == "bag_overflow":
        return resolve_overflow(state, char, value)
    if top.kind == "companion_wounds" and top.character:  # power-cards.4
        return answer_companion(state, char, value, top.n, dice)
    if top.kind == "last_chance" and top.character:  # character-defeat.1
        return answer_last_chance(state, char, value, top.n, dice)
    if top.kind == "invite":  # challenge.5
        return answer_invite(state, top, value, dice)
    if top.kind == "hit_target":  # defense-phase.1
        return answer_hit(state, value, dice)
    if top.kind == "effect_order":  # card-limits.6
        return answer_order(state, value, dice, top)
    if top.kind == "optional_trigger":  # a trigger with a price: its owner uses it or not
        return answer_optional(state, top, value, dice)
    if top.kind == "armor_strip" and top.faction is not None:  # pvp-defense.1
        return answer_strip(state, top.faction, value, dice)
    if top.kind == "loot" and top.character:  # pvp-defense.4
        return take_loot(state, value, char)
    if top.kind == "trade_offer":  # items.7: the partner's seat agrees or not
        return answer_trade(state, top, value)
    if top.kind == "next_quest_deck" and top.faction is not None:
        events = draw_quest(state, top.faction, value, dice)
        if any(e.key.endswith("quest_deck_failed") for e in events):
            # reading §6.8: another colour, never one that failed earlier in this draw (the question's options
            # are what was left then): re-offering every other colour let two failing decks alternate forever
            options = [c for c in next_deck_options(state, top.faction, failed=[value]) if c in top.options]
            if options:
                state.pending.insert(0, Pending(kind="next_quest_deck", seats=top.seats, faction=top.faction,
                                                options=options, default=options[0]))
        return events
    raise RuleError("wowboard.err.not_an_option", value=value, known="-")


def open_overflows(state: State, events: list[Event]) -> list[Event]:
    """items.3: every Bag that now holds a fourth item asks its owner which one goes."""
    for e in events:
        if e.key != "wowboard.ev.bag_overflow":
            continue
        cid = str(e.params.get("name", ""))
        if cid in state.characters and not any(p.kind == "bag_overflow" and p.character == cid
                                                for p in state.pending):
            state.pending.insert(0, Pending(kind="bag_overflow", seats=[state.characters[cid].seat], character=cid))
    return []
