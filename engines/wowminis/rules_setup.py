"""Parties and set-up (100-101): options, parties, pools and the secret action-bar choice.

A game starts in phase ``choose_bar``: both parties are public (101.2), every character is out
of play with its clock at 1 (101.3), and each seat secretly assigns two cards of its party's
pool to each character (101.2a, A1). That choice is the platform's simultaneous secret
Decision: answers wait in ``bar_choices`` (hidden from the other seat by ``view``) until every
seat has answered, then all bars are filled at once face down and ready (101.2b, 106.1).
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import Setup
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis.actions import ChooseBar
from engines.wowminis.content import FACTIONS, CharacterDef, Pack, ScenarioDef, fits, norm, pack_for, party_error
from engines.wowminis.rules_board import ev
from engines.wowminis.rules_parties import TEAM_SEATS, deal_spawns
from engines.wowminis.state import CardInstance, CharState, PlayerState, State

DEFAULT_MAP = "stonefang_pass"
DEFAULT_FACTIONS = ("alliance", "horde")


def _party_names(raw: Any) -> list[str]:
    if raw is None:
        return []
    if isinstance(raw, str):
        return [x.strip() for x in raw.split(",") if x.strip()]
    if isinstance(raw, (list, tuple)):
        return [str(x).strip() for x in raw if str(x).strip()]
    raise party_error("format", 3)


def default_party(pack: Pack, faction: str, size: int) -> list[CharacterDef]:
    """The built-in suggestion: the faction's legendary first, then the others in pack order."""
    members = [c for c in pack.characters if c.faction == faction]
    members.sort(key=lambda c: not c.legendary)
    return members[:size]


def check_party(scenario: ScenarioDef, party: list[CharacterDef]) -> None:
    """100.2 (and A3): the scenario's size, one faction, no duplicates, at most one legendary. 100.1: a
    scenario other than the standard one sets its own size and faction rule."""
    rule = "100.2" if scenario.id == "standard" else "100.1"
    if len(party) != scenario.party_size:
        raise party_error("size", scenario.party_size, party, rule)
    if len({c.id for c in party}) != len(party):
        raise party_error("duplicate", scenario.party_size, party, rule)
    if scenario.same_faction and len({c.faction for c in party}) != 1:
        raise party_error("faction", scenario.party_size, party, rule)
    if scenario.one_legendary and sum(c.legendary for c in party) > 1:
        raise party_error("legendary", scenario.party_size, party, rule)


OPTIONS = ("map", "first", "goal", "scenario", "teams", "party0", "party1", "party2", "party3")
"""The lobby options of a WoW Miniatures table (the table layer refuses any other by name)."""


SCENARIOS = ("standard", "short", "last_stand", "crossroads")
"""The built-in scenarios (100.1), defined as data in the content pack (``scenarios``); a server pack may add
its own. ``last_stand`` has permanent death (403.1), ``crossroads`` neutral spawn points that change side
(406.3b); both change the party rules (100.1: size, faction rule, pool and bar sizes)."""
SHORT: dict[str, Any] = {"map": "proving_ground", "goal": 5}
"""``scenario:short`` (issue 27.3): the 8×8 map with one VP location, and a goal of 5 VP (a kill of a
legendary, or a kill and a scoring location) instead of the party's Honor (102.1). Two people finish it
in about 100 commands (``tests/wowminis/playout.paced_play``). The pack's ``short`` scenario says the same."""


def validate_options(options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
    """Normalize lobby options: ``scenario`` (100.1: an id of the pack's scenarios), ``map``, ``first``
    (random | 1 | 2), ``goal`` (an Honor override). A scenario's map and goal are defaults that the
    named options still override."""
    pack = pack_for(content)
    out: dict[str, Any] = {}
    scenario = pack.scenario(str(options.get("scenario") or "standard").strip())
    if scenario.id != "standard":
        out["scenario"] = scenario.id
        preset = {"map": scenario.map, "goal": scenario.honor_goal}
        options = {**{k: v for k, v in preset.items() if v is not None},
                   **{k: v for k, v in options.items() if v not in (None, "")}}
    out["map"] = pack.map(str(options.get("map") or DEFAULT_MAP)).id
    first = str(options.get("first", "random")).strip().lower()
    if first not in ("random", "0", "1", "2", "3", "4"):
        raise RuleError("wowm.err.option", option="first", value=first[:20], allowed="random, 1, 2, 3, 4")
    out["first"] = first
    if options.get("teams") not in (None, ""):
        out["teams"] = teams_option(options["teams"])
    if options.get("goal") not in (None, ""):
        try:
            goal = int(options["goal"])
        except (TypeError, ValueError):
            raise RuleError("wowm.err.option", option="goal", value=str(options["goal"])[:20],
                            allowed="1-200") from None
        if not 1 <= goal <= 200:
            raise RuleError("wowm.err.option", option="goal", value=str(goal), allowed="1-200")
        out["goal"] = goal
    for key in ("party0", "party1", "party2", "party3"):
        if options.get(key):
            out[key] = ",".join(_party_names(options[key]))
    return out


def _seat_party(pack: Pack, scenario: ScenarioDef, setup: Setup, index: int, other: list[str]) -> list[CharacterDef]:
    seat = setup.seats[index]
    names = _party_names(seat.config.get("party") or setup.options.get(f"party{index}"))
    if names:
        party = [pack.character(n) for n in names]
    else:
        wanted = str(seat.config.get("faction") or "").lower()
        faction = wanted if wanted in FACTIONS else next(
            (f for f in (*DEFAULT_FACTIONS, *FACTIONS) if f not in other), FACTIONS[index % 3])
        party = default_party(pack, faction, scenario.party_size)
    check_party(scenario, party)
    return party


def _pool_names(setup: Setup, index: int) -> list[str]:
    """A custom pool (``/wowm pool``, A1): the party's cards by name; empty = each character's own three."""
    raw = setup.seats[index].config.get("pool") or setup.options.get(f"pool{index}")
    return _party_names(raw) if raw else []


def short_label(defn: CharacterDef, used: set[str]) -> str:
    """A 3-letter board label, unique in the game (renderer tokens, typed names)."""
    base = "".join(ch for ch in defn.name.upper() if ch.isalpha())[:3] or "CHR"
    label, n = base, 2
    while label in used:
        label = f"{base[:2]}{n}"
        n += 1
    used.add(label)
    return label


def teams_option(raw: Any) -> bool:
    """``teams``: yes/no (2 vs 2 needs four seats, rules_parties.TEAM_SEATS)."""
    word = str(raw).strip().lower()
    if word in ("yes", "on", "true", "1", "2v2", "si", "sì"):
        return True
    if word in ("no", "off", "false", "0"):
        return False
    raise RuleError("wowm.err.option", option="teams", value=word[:20], allowed="yes, no")


def player_counts(options: dict[str, Any]) -> tuple[int, ...]:
    """101.1 and the table: 2, 3 or 4 seats (a free-for-all past two); a team game exactly 4."""
    teams = options.get("teams") not in (None, "") and teams_option(options["teams"])
    return (4,) if teams else (2, 3, 4)


def new_game(setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
    """101: the parties, their pools, clocks at 1, nobody on the map; the first player is set."""
    options = validate_options(setup.options, setup.content)
    count = len(setup.seats)
    if count not in player_counts(options):
        raise RuleError("wowm.err.players", rule="101.1", count=count)
    pack = pack_for(setup.content)
    scenario = pack.scenario(options.get("scenario", "standard")).model_copy(deep=True)  # 100.1
    board = pack.map(options["map"])
    spawns = deal_spawns(board, count) if count > 2 and not options.get("teams") else []
    if count > 2 and not options.get("teams") and not spawns:
        raise RuleError("wowm.err.map_seats", rule="403.1", map=board.name, count=count)
    parties: list[list[CharacterDef]] = []
    for i in range(count):
        parties.append(_seat_party(pack, scenario, setup, i, [p[0].faction for p in parties]))
    players = []
    state = State(board=board.model_copy(deep=True), scenario=scenario, players=[])
    used: set[str] = set()
    for i, (seat, party) in enumerate(zip(setup.seats, parties, strict=True)):
        honor = sum(c.honor for c in party)  # 102.1: pets add nothing, legendary changes nothing
        chosen_pool = _pool_names(setup, i)
        team = next(t for t, seats in enumerate(TEAM_SEATS) if i in seats) if options.get("teams") else None
        players.append(PlayerState(seat=seat.seat, name=seat.name, faction=party[0].faction,
                                   side="AB"[team if team is not None else i % 2], team=team,
                                   spawns=spawns[i] if spawns else [], honor_total=honor,
                                   goal=options.get("goal", honor), pool_public=not chosen_pool))
        pool: list[CardInstance] = []
        for defn in party:
            cid = f"{defn.id}-{seat.seat + 1}"
            state.chars[cid] = CharState(id=cid, owner=seat.seat, controller=seat.seat,  # 101.3: clock 1
                                         defn=defn.model_copy(deep=True), short=short_label(defn, used),
                                         health=defn.health, clock=1)
            if not chosen_pool:
                for card_id in defn.pool[:scenario.pool_per_char]:
                    pool.append(CardInstance(id=f"k{state.new_id()}", defn=pack.card(card_id).model_copy(deep=True)))
        for name in chosen_pool:
            pool.append(CardInstance(id=f"k{state.new_id()}", defn=pack.card(name).model_copy(deep=True)))
        state.pool[seat.seat] = pool
    state.players = players
    for i, p in enumerate(players):
        size = scenario.pool_per_char * scenario.party_size
        if len(state.pool[p.seat]) != size or not bar_options(state, p.seat, limit=1):
            raise RuleError("wowm.err.pool", rule="101.2a", name=p.name, size=size, per=scenario.bar_per_char,
                            count=len(state.pool[p.seat]), seat=i + 1)
    first = options["first"]
    events: list[Event] = []
    if first == "random":
        state.first_seat = players[dice.pick(count)].seat  # 101.4: chance, recorded, never asked of players
        events.append(ev("first_player", seat=state.first_seat, how="random"))
    else:
        state.first_seat = players[min(count, max(1, int(first))) - 1].seat
        events.append(ev("first_player", seat=state.first_seat, how="option"))
    state.active_seat = state.first_seat  # A2: the first player is "active" until a turn begins
    events.append(ev("parties", parties={p.seat: [c.name for c in party] for p, party in zip(players, parties,
                                                                                          strict=True)},
                     goals={p.seat: p.goal for p in players}))
    return state, events


# --- 101.2a: the secret, simultaneous bar choice ------------------------------------------


def seat_chars(state: State, seat: int) -> list[CharState]:
    return [c for c in state.chars.values() if c.owner == seat and c.kind == "hero"]


def _pool_card(state: State, seat: int, key: str, taken: set[str]) -> CardInstance:
    wanted = norm(key)
    pool = state.pool.get(seat, [])
    for card in pool:
        if card.id not in taken and (card.id.lower() == key.strip().lower()):
            return card
    for card in pool:
        if card.id not in taken and card.defn is not None and norm(card.defn.name) == wanted:
            return card
    raise RuleError("wowm.err.not_in_pool", rule="101.2a", card=key[:40],
                    known=", ".join(sorted({c.defn.name for c in pool if c.defn})))


def _char_of(state: State, seat: int, key: str) -> CharState:
    wanted = norm(key)
    for c in seat_chars(state, seat):
        if wanted in (norm(c.id), norm(c.short), norm(c.defn.name), norm(c.defn.id)):
            return c
    raise RuleError("wowm.err.unknown_character", name=key[:40],
                    known=", ".join(c.defn.name for c in seat_chars(state, seat)))


def choose_bar(state: State, seat: int, action: ChooseBar) -> list[Event]:
    """101.2a/300.2: validate one seat's secret answer; when both are in, fill the bars (101.2b)."""
    player = state.player(seat)
    if player.bar_done:
        raise RuleError("wowm.err.bar_done", rule="101.2a")
    size = state.scenario.bar_per_char
    chars = seat_chars(state, seat)
    chosen: dict[str, list[str]] = {}
    taken: set[str] = set()
    for key, cards in action.bars.items():
        c = _char_of(state, seat, key)
        if c.id in chosen:
            raise RuleError("wowm.err.bar", rule="101.2a", name=c.defn.name, size=size)
        picked = [_pool_card(state, seat, k, taken) for k in cards]
        for card in picked:
            taken.add(card.id)
        if len(picked) != size:
            raise RuleError("wowm.err.bar", rule="101.2a", name=c.defn.name, size=size)
        names = [card.defn.name for card in picked if card.defn]
        if len(set(names)) != len(names):
            raise RuleError("wowm.err.bar_duplicate", rule="300.2", name=c.defn.name)
        for card in picked:
            if card.defn is not None and not fits(card.defn, c.defn):
                raise RuleError("wowm.err.bar_restriction", rule="300.2", name=c.defn.name, card=card.defn.name)
        chosen[c.id] = [card.id for card in picked]
    if set(chosen) != {c.id for c in chars}:
        missing = [c.defn.name for c in chars if c.id not in chosen]
        raise RuleError("wowm.err.bar", rule="101.2a", name=", ".join(missing), size=size)
    state.bar_choices[seat] = chosen
    player.bar_done = True
    events = [ev("bar_chosen", seat=seat),
              ev("bar_chosen_private", private_to=[seat], seat=seat,
                 bars={state.chars[cid].defn.name: [_card_name(state, seat, k) for k in ids]
                       for cid, ids in chosen.items()})]
    if all(p.bar_done for p in state.players):
        events += fill_bars(state)
    return events


def _card_name(state: State, seat: int, card_id: str) -> str:
    card = next(c for c in state.pool[seat] if c.id == card_id)
    return card.defn.name if card.defn else card_id


def fill_bars(state: State) -> list[Event]:
    """101.2b/106.1: every chosen card enters its bar face down and ready, all at once."""
    for seat, bars in state.bar_choices.items():
        pool = state.pool[seat]
        for cid, ids in bars.items():
            c = state.chars[cid]
            for card_id in ids:
                card = next(x for x in pool if x.id == card_id)
                pool.remove(card)
                c.bar.append(CardInstance(id=card.id, defn=card.defn, face_up=False, ready=True))
    state.bar_choices = {}
    state.phase = "play"
    state.stage = "tick_start"
    return [ev("bars_ready")]


def bar_options(state: State, seat: int, limit: int = 60) -> list[dict[str, list[str]]]:
    """Some complete legal answers to ``choose_bar`` (for autocomplete and random playouts)."""
    from itertools import combinations

    size = state.scenario.bar_per_char
    chars = seat_chars(state, seat)
    pool = state.pool.get(seat, [])
    per_char = []
    for c in chars:
        fitting = [card for card in pool if card.defn is not None and fits(card.defn, c.defn)]
        combos = [list(x) for x in combinations(fitting, size)
                  if len({card.defn.name for card in x if card.defn}) == size]
        per_char.append((c, combos))
    result: list[dict[str, list[str]]] = []

    def build(i: int, used: set[str], acc: dict[str, list[str]]) -> None:
        if len(result) >= limit:
            return
        if i == len(per_char):
            result.append(dict(acc))
            return
        c, combos = per_char[i]
        for combo in combos:
            ids = [card.id for card in combo]
            if used.isdisjoint(ids):
                acc[c.id] = ids
                build(i + 1, used | set(ids), acc)
                acc.pop(c.id, None)

    build(0, set(), {})
    return result
