"""Scenario builders for Warlord tests: a new game, armies laid out by card id, cards put in hand."""

from __future__ import annotations

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import Dice, RecordedDice
from engines.core.errors import RuleError
from engines.warlord.actions import parse_action
from engines.warlord.content import factions_of
from engines.warlord.engine import WarlordEngine
from engines.warlord.state import CharState, ItemState, Orientation, State

E = WarlordEngine()


def seats(n: int, decks: list[str] | None = None) -> list[SeatSetup]:
    decks = decks or ["stonewardens", "ashen_horde", "stonewardens", "ashen_horde"]
    return [SeatSetup(seat=i, user_id=i + 1, name=f"p{i}", config={"deck": decks[i]}) for i in range(n)]


def fresh(n: int = 2, decks: list[str] | None = None, options: dict | None = None) -> State:
    return E.new_game(Setup(seats=seats(n, decks), options=options or {}), RecordedDice([]))


def take(state: State, seat: int, card: str) -> str:
    """A uid of ``card`` from the seat's deck pool, removed from it."""
    p = state.player(seat)
    for uid in p.deck_pool:
        if state.cards[uid].card == card:
            p.deck_pool.remove(uid)
            return uid
    raise AssertionError(f"no {card} left in seat {seat}'s deck")


def deploy(state: State, seat: int, rows: list[list[str]],
           states: dict[str, Orientation] | None = None) -> list[list[str]]:
    """Lay out an army by card id (rank 1 first); returns the uids in the same shape."""
    p = state.player(seat)
    out: list[list[str]] = []
    for row in rows:
        uids = []
        for card in row:
            uid = take(state, seat, card)
            state.chars[uid] = CharState(uid=uid, controller=seat, army_of=seat,
                                         state=(states or {}).get(card, "ready"))
            if state.defn(uid).has("Warlord"):
                p.warlord = uid
                p.faction = factions_of(state.defn(uid), state.factions)[0]
            uids.append(uid)
        out.append(uids)
    p.ranks = [list(r) for r in out]
    return out


def battle(a: list[list[str]], b: list[list[str]], n: int = 2) -> tuple[State, list[list[str]], list[list[str]]]:
    """Two armies in the order phase of turn 1, seat 0 to act first."""
    state = fresh(n)
    ua = deploy(state, 0, a)
    ub = deploy(state, 1, b)
    state.phase = "orders"
    state.turn = 1
    state.initiative = list(range(n))
    state.order_seat = 0
    return state, ua, ub


def hand(state: State, seat: int, card: str) -> str:
    uid = take(state, seat, card)
    state.player(seat).hand.append(uid)
    return uid


def carry(state: State, host: str, card: str) -> str:
    seat = state.chars[host].controller
    uid = take(state, seat, card)
    state.chars[host].items.append(uid)
    state.items[uid] = ItemState(uid=uid, host=host)
    return uid


def act(state: State, seat: int, data: dict, dice: Dice | None = None):
    return E.apply(state, seat, parse_action(data), dice or RecordedDice([]))


def rejected(state: State, seat: int, data: dict, dice: Dice | None = None) -> RuleError:
    before = state.model_dump_json()
    try:
        copy = state.model_copy(deep=True)
        act(copy, seat, data, dice)
    except RuleError as err:
        assert state.model_dump_json() == before
        return err
    raise AssertionError(f"{data} was accepted")


WARLORD_A = "thane_brannoc"
WARLORD_B = "vorga"
ARMY_A = [["shieldwall_recruit", "hearth_acolyte", "tunnel_scout"], ["axe_sergeant", "runecarver_adept"], [WARLORD_A]]
ARMY_B = [["horde_grunt", "bone_shaman", "sneak_knife"], ["ember_hexer", "tusked_brute"], [WARLORD_B]]
