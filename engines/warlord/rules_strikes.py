"""Attacks and melee strikes, wounds, death and victory (attack, dice, astral-ethereal, victory).

An attack spends a ready character, then makes one melee strike per ATK value, each at an opposing
character within one rank chosen strike by strike. A strike hits when d20 + ATK reaches the target's
AC; a natural 20 always hits and a natural 1 always misses (dice), except that Ethereal targets dodge
odd naturals and Astral targets dodge even naturals (natural 20 included) while a natural 19 always
hits them (astral-ethereal). After each strike: deaths, victory, then reform, then the next strike.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.system_dice import roll_warlord
from engines.warlord import rules_ranks as R
from engines.warlord import rules_turn
from engines.warlord.rules_checks import item_statics
from engines.warlord.rules_common import armor, army_uids, atk_values, ev, find_in, hit_points, layered
from engines.warlord.rules_orders import own_character
from engines.warlord.state import AttackState, State, StrikeFrame


def melee_targets(state: State, striker: str) -> list[str]:
    """attack: opposing characters (any state) within one rank of the striker."""
    me = state.chars[striker].controller
    return [u for p in state.players if p.alive for u in army_uids(state, p.seat)
            if state.chars[u].controller != me and R.distance(state, striker, u) <= 1]


RANGED_REACH = 2  # ranged-strikes: exactly two ranks away (reading §6.9; Marksmanship adds one)


def ranged_targets(state: State, striker: str, extra_reach: int = 0) -> list[str]:
    """ranged-strikes: opposing characters exactly two ranks away (up to ``2 + extra_reach``)."""
    me = state.chars[striker].controller
    return [u for p in state.players if p.alive for u in army_uids(state, p.seat)
            if state.chars[u].controller != me
            and RANGED_REACH <= R.distance(state, striker, u) <= RANGED_REACH + extra_reach]


def ranged_bonus(state: State, striker: str, printed: int) -> int:
    """ranged-strikes: the printed number plus only what says it applies to ranged strikes (no weapon
    ATK, no printed ATK); one strike whatever the ATK list."""
    return layered(printed, state.chars[striker].mods, "ranged") + item_statics(state, striker, "ranged")


def check_attack(state: State, seat: int, ref: str) -> str:
    uid = own_character(state, seat, ref, "attack", anywhere=True)
    if state.chars[uid].state == "stunned":
        raise RuleError("warlord.err.performer_stunned", rule="ready-spent-stunned", name=state.name(uid))
    if state.chars[uid].state != "ready":
        raise RuleError("warlord.err.not_ready", rule="ready-spent-stunned", name=state.name(uid))
    if not melee_targets(state, uid):  # reading §6.4: an attack needs a first target
        raise RuleError("warlord.err.out_of_range", rule="attack", name=state.name(uid))
    return uid


def do_attack(state: State, seat: int, ref: str) -> list[Event]:
    uid = check_attack(state, seat, ref)
    state.chars[uid].state = "spent"  # attack: the cost
    state.chars[uid].non_stealth_action = True
    state.attack = AttackState(attacker=uid, seat=seat, total=len(atk_values(state, uid)))
    return [ev("attack_declared", seat=seat, name=state.name(uid), strikes=state.attack.total)]


def check_strike(state: State, seat: int, ref: str) -> str:
    a = state.attack
    assert a is not None
    return find_in(state, melee_targets(state, a.attacker), ref, "attack")


def hits(natural: int, total: int, ac: int, astral: bool, ethereal: bool, spell: bool = False) -> tuple[bool, str]:
    """dice + astral-ethereal: whether a strike roll hits, and why (for the log)."""
    if not spell and astral:
        if natural == 19:
            return True, "astral_19"
        if natural % 2 == 0:
            return False, "astral_even"
    if not spell and ethereal and natural % 2 == 1:
        return False, "ethereal_odd"
    if natural == 20:
        return True, "crit"
    if natural == 1:
        return False, "crit"
    return total >= ac, ""


def do_strike(state: State, seat: int, ref: str) -> list[Event]:
    """attack: the next melee strike of the open attack, at ``ref``; it resolves as a frame (reacts)."""
    target = check_strike(state, seat, ref)
    a = state.attack
    assert a is not None
    bonus = atk_values(state, a.attacker)[a.made]
    a.made += 1
    a.last_target = target
    state.stack.append(StrikeFrame(striker=a.attacker, seat=seat, target=target, bonus=bonus, index=a.made,
                                   of=a.total))
    return [ev("strike_declared", seat=seat, striker=state.name(a.attacker), target=state.name(target),
               index=a.made, of=a.total)]


def roll_strike(state: State, f: StrikeFrame, dice: Dice) -> list[Event]:
    """dice + astral-ethereal: d20 + the strike's bonus against the target's AC at the moment of the roll."""
    bonus = f.bonus + f.strike_mods
    ac = armor(state, f.target)
    roll = roll_warlord(dice, bonus, ac)
    d = state.defn(f.target)
    f.natural, f.total, f.ac = roll.natural, roll.total, ac
    f.hit, f.why = hits(roll.natural, roll.total, ac, d.has("Astral"), d.has("Ethereal"), spell=f.spell)
    key = "ranged_rolled" if f.ranged else "strike_rolled"
    return [ev(key, rolls=dice.take_drawn(), striker=state.name(f.striker), target=state.name(f.target),
               natural=roll.natural, bonus=bonus, total=roll.total, ac=ac, hit=f.hit, why=f.why, index=f.index,
               of=f.of)]


def reroll_strike(state: State, f: StrikeFrame, dice: Dice) -> list[Event]:
    """feats (Charisma): the strike's die is rolled again; the new roll stands."""
    return roll_strike(state, f, dice)


def wound(state: State, uid: str, n: int, by: str = "action") -> list[Event]:
    """Wounds are counters; then deaths and victory (wounds, attack). ``by`` is what gets the kill
    credit if these wounds kill (glossary: "killed by a melee strike")."""
    state.chars[uid].wounds += n
    events = [ev("wounds_placed", name=state.name(uid), n=n, wounds=state.chars[uid].wounds)]
    return events + deaths(state, {uid: by})


def killed_by(f: StrikeFrame) -> str:
    """glossary (reading §6.15): when any wound of the lethal packet came from an action performed
    during the strike (a react's extra wounds, Powerattack), the action killed; otherwise the strike."""
    if f.action_wounds > 0:
        return "action"
    return "ranged_strike" if f.ranged else "melee_strike"


def deaths(state: State, credit: dict[str, str] | None = None) -> list[Event]:
    """attack/glossary: wounds ≥ HP, or Astral and Ethereal at once, kills; the card, its items and
    attached actions go to their owners' discard piles. Then the victory check (victory)."""
    dead = [u for u, c in state.chars.items()
            if c.wounds >= hit_points(state, u) or (state.defn(u).has("Astral") and state.defn(u).has("Ethereal"))]
    events: list[Event] = []
    for uid in dead:
        c = state.chars.pop(uid)
        R.remove(state.player(c.army_of).ranks, uid)
        for other in [*c.items, *c.attached]:
            state.items.pop(other, None)
            state.player(state.cards[other].owner).discard.append(other)
        state.player(state.cards[uid].owner).discard.append(uid)
        events.append(ev("killed", name=state.name(uid), seat=c.controller, by=(credit or {}).get(uid, "")))
    for p in state.players:
        if p.alive and p.warlord in dead:
            p.alive = False
            events.append(ev("warlord_killed", seat=p.seat, name=state.name(p.warlord)))
            events += eliminate(state, p.seat)
    living = state.living()
    if len(living) <= 1 and state.phase != "over":
        state.phase = "over"
        state.winners = living
        state.end_reason = "warlord_killed" if living else "all_warlords_killed"
        state.attack = None
        state.reforming = None
        state.stack = []
        events.append(ev("game_won", seat=living[0]) if living else ev("game_drawn", turn=state.turn))
    return events


def eliminate(state: State, seat: int) -> list[Event]:
    """victory (P2): an eliminated player's characters and items leave the game; other players'
    infiltrators in its army go home to their owners' front ranks, stunned (enemy-formation reading)."""
    player = state.player(seat)
    for uid, c in state.chars.items():
        if c.army_of == seat and c.controller != seat:
            R.remove(player.ranks, uid)
            R.place(state.player(c.controller).ranks, 1, uid, None)
            c.army_of, c.state = c.controller, "stunned"
    for uid in [u for u, c in state.chars.items() if c.controller == seat or c.army_of == seat]:
        c = state.chars.pop(uid)
        R.remove(state.player(c.army_of).ranks, uid)
        for other in [*c.items, *c.attached]:
            state.items.pop(other, None)
            state.player(state.cards[other].owner).removed.append(other)
        state.player(state.cards[uid].owner).removed.append(uid)
    player.ranks = []
    if state.order_seat == seat:  # the rotation goes on with the next seat still in the game
        order = state.initiative or [p.seat for p in state.players]
        k = order.index(seat) if seat in order else 0
        state.order_seat = next((s for s in order[k + 1:] + order[:k] if state.player(s).alive), None)
    state.initiative = [s for s in state.initiative if state.player(s).alive]
    if state.attack is not None and state.attack.seat == seat:
        state.attack = None
    if state.reforming == seat:
        state.reforming = None
    return [ev("player_eliminated", seat=seat)]


def stop_attack(state: State) -> list[Event]:
    a = state.attack
    assert a is not None
    state.attack = None
    rules_turn.order_given(state, a.seat)
    return [ev("attack_ended", seat=a.seat, made=a.made, of=a.total)]
