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


def act(state: State, seat: int, data: dict, dice: Dice | None = None, *, windows: bool = False):
    """Apply an action; unless ``windows``, every reaction window it opens is passed with the same dice
    (so a strike's roll, which comes after its windows, uses the dice given here)."""
    dice = dice or RecordedDice([])
    events = E.apply(state, seat, parse_action(data), dice)
    if not windows:
        events += pass_windows(state, dice)
    return events


def pass_windows(state: State, dice: Dice | None = None) -> list:
    """Every seat asked by a reaction window passes, until something other than a react is asked."""
    dice = dice or RecordedDice([])
    events: list = []
    while (d := E.decision(state)) is not None and d.kind == "react":
        events += E.apply(state, d.seats[0], parse_action({"kind": "pass_react"}), dice)
    return events


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


# -- table-image scenes (tests/warlord/test_render.py, bench/render_warlord.py) ------------------

def _scene_cards(state: State, seat: int, hand_cards: list[str], discard: list[str], removed: list[str]) -> None:
    """Fill a seat's hand, discard pile (newest last) and removed cards from its deck."""
    p = state.player(seat)
    for card in hand_cards:
        hand(state, seat, card)
    p.discard += [take(state, seat, c) for c in discard]
    p.removed += [take(state, seat, c) for c in removed]


def scene_start() -> State:
    """Turn 1 of a 2-player game: both starting armies ready, initiative rolled, five cards in each hand."""
    state, _a, _b = battle(ARMY_A, ARMY_B)
    state.initiative_rolls = [{"0": 14, "1": 9}]
    _scene_cards(state, 0, ["shield_bash", "riveted_mail", "axe_sergeant", "stone_blessing", "counterblow"], [], [])
    _scene_cards(state, 1, ["rend", "hide_armor", "ash_reaver", "searing_bolt", "vanish"], [], [])
    return state


def scene_attack() -> State:
    """Turn 3, mid-attack: a Sergeant with an axe and a +1 ATK bonus makes its second strike at a
    wounded Ash Reaver; spent and stunned characters, items (one spent), wounds, a Mercenary and an
    Ethereal character, discards and a removed card on both sides."""
    from engines.warlord.state import AttackState, Modifier, StrikeFrame
    a = [["axe_sergeant", "shieldwall_recruit", "hearth_acolyte", "tunnel_scout"],
         ["oathkeeper_veteran", "hired_crossbowman"], [WARLORD_A]]
    b = [["horde_grunt", "ash_reaver", "sneak_knife", "hookblade_sellsword"], ["ember_hexer", "smoke_phantom"],
         [WARLORD_B]]
    state, ua, ub = battle(a, b)
    state.turn = 3
    state.initiative = [1, 0]
    state.initiative_rolls = [{"0": 12, "1": 12}, {"0": 7, "1": 15}]
    state.order_seat = 0
    sergeant, scout, acolyte = ua[0][0], ua[0][3], ua[0][2]
    state.chars[sergeant].state = "spent"
    state.chars[sergeant].mods.append(Modifier(id="m1", source="rally", stat="atk", amount=1, seq=1))
    carry(state, sergeant, "balanced_war_axe")
    state.chars[scout].state = "spent"
    state.chars[acolyte].state = "stunned"
    state.chars[ua[2][0]].wounds = 1
    carry(state, ua[2][0], "riveted_mail")
    shield = carry(state, ua[1][0], "tower_shield")
    state.items[shield].state = "spent"
    reaver = ub[0][1]
    state.chars[reaver].wounds = 1
    carry(state, reaver, "hide_armor")
    state.chars[ub[1][1]].state = "stunned"
    state.chars[ub[2][0]].state = "spent"
    state.attack = AttackState(attacker=sergeant, seat=0, made=1, total=2, last_target=ub[0][0])
    state.stack = [StrikeFrame(striker=sergeant, seat=0, target=reaver, index=2, of=2, step="before_roll")]
    _scene_cards(state, 0, ["shield_bash", "stone_blessing", "counterblow"], ["brace_for_impact", "mend_flesh"],
                 ["two_paths"])
    _scene_cards(state, 1, ["rend", "searing_bolt", "vanish", "ill_omen"], ["dirty_trick", "horde_grunt", "rend"], [])
    return state


def scene_reform() -> State:
    """Seat 1 lost two front-rank characters: rank 2 now outnumbers rank 1 and must fall forward."""
    state, _a, b = battle(ARMY_A, ARMY_B)
    p = state.player(1)
    for uid in (b[0][0], b[0][1]):
        p.ranks[0].remove(uid)
        del state.chars[uid]
        p.discard.append(uid)
    state.reforming = 1
    state.initiative_rolls = [{"0": 11, "1": 6}]
    return state


def scene_window() -> State:
    """A ranged strike by a Crossbowman from rank 2 has hit; the "before wounds" react window is open."""
    from engines.warlord.state import StrikeFrame, WindowFrame
    a = [["shieldwall_recruit", "hearth_acolyte", "tunnel_scout"], ["hired_crossbowman", "runecarver_adept"],
         [WARLORD_A]]
    state, ua, ub = battle(a, ARMY_B)
    state.turn = 2
    state.initiative_rolls = [{"0": 17, "1": 4}]
    bow = ua[1][0]
    state.chars[bow].state = "spent"
    carry(state, bow, "dwarf_crossbow")
    target = ub[1][0]
    state.stack = [StrikeFrame(striker=bow, seat=0, target=target, ranged=True, step="before_wounds", natural=15,
                               total=17, ac=11, hit=True),
                   WindowFrame(trigger="before_wounds", source=bow, target=target, by="ranged", poll=[1, 0], asked=[1])]
    return state


def scene_four() -> State:
    """Four armies in the order phase of turn 2; seat 2 holds the order."""
    state = fresh(4)
    deploy(state, 0, ARMY_A)
    deploy(state, 1, ARMY_B, {"bone_shaman": "spent"})
    deploy(state, 2, [["shieldwall_recruit", "tunnel_scout"], ["axe_sergeant"], [WARLORD_A]], {WARLORD_A: "spent"})
    deploy(state, 3, [["horde_grunt", "sneak_knife", "cinder_hound"], ["tusked_brute", "ember_hexer"], [WARLORD_B]],
           {"sneak_knife": "stunned"})
    state.phase = "orders"
    state.turn = 2
    state.initiative = [2, 3, 0, 1]
    state.initiative_rolls = [{"0": 8, "1": 5, "2": 18, "3": 11}]
    state.order_seat = 2
    state.consecutive_passes = 1
    return state


def scene_over() -> State:
    """Seat 1's Warlord fell in turn 5: seat 0 wins."""
    state = scene_attack()
    state.stack, state.attack = [], None
    state.turn = 5
    p = state.player(1)
    wl = p.warlord
    assert wl is not None
    p.ranks = [[u for u in r if u != wl] for r in p.ranks]
    p.ranks = [r for r in p.ranks if r]
    del state.chars[wl]
    p.discard.append(wl)
    state.phase = "over"
    state.order_seat = None
    state.winners = [0]
    state.end_reason = "warlord_killed"
    return state
