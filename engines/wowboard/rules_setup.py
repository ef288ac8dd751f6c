"""Set-up (setup, factions, fewer-players): seats to factions and characters, the class draft.

Two seats run two characters each, one faction per seat, or four seats run one character each, dealt two
to a faction at random (setup.1, setup.3: no class of the pack is faction-locked); option ``duel`` gives
one character per faction to two seats (not an official mode: short games for tests and quick matches).
The draft goes round the seats in an order drawn at random, once per character a seat runs (setup.2,
reading: round-robin in the drawn order); a picked class leaves the draft (classes are unique). A new
character starts at its faction's start region with level-1 health and energy and 5 gold (setup.4).
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import Setup
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import BUILTIN_KEY, FACTIONS, Faction, register_pack
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_setup_content import setup_content
from engines.wowboard.rules_sheet import capacity_of, start_character
from engines.wowboard.rules_teams import deal, faction_of_team
from engines.wowboard.rules_turn import start_faction_turn
from engines.wowboard.state import START_GOLD, Character, SeatInfo, State

IMAGE_POLICIES = ("every", "turn_end", "off")


OPTIONS = ("autopilot_hours", "duel", "images")
"""The lobby options of a WoW board game table (the table layer refuses any other by name)."""
SEAT_COUNTS = (2, 4)
"""setup.1: two seats (one faction each) or four (one character each)."""


def validate_options(options: dict[str, Any]) -> dict[str, Any]:
    for key in options:
        if key not in OPTIONS:
            raise RuleError("wowboard.err.unknown_option", option=key, known=", ".join(OPTIONS))
    images = str(options.get("images", "every")).lower()
    if images not in IMAGE_POLICIES:  # spec §7: a table may ask for fewer pictures (not a rule: the table's taste)
        raise RuleError("wowboard.err.bad_images", value=images[:20], known=", ".join(IMAGE_POLICIES))
    hours = options.get("autopilot_hours", 0)
    try:
        hours = float(hours)
    except (TypeError, ValueError):
        hours = -1.0
    if not 0 <= hours <= 24 * 14:  # spec §7: hours an absent seat is waited for (0 = never), two weeks at most
        raise RuleError("wowboard.err.bad_autopilot", value=str(options.get("autopilot_hours"))[:20])
    return {"duel": str(options.get("duel", "")).lower() in ("1", "true", "yes", "on"), "images": images,
            "autopilot_hours": hours}


def new_game(setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
    seats = sorted(setup.seats, key=lambda s: s.seat)
    if len(seats) not in SEAT_COUNTS:  # setup.1: two seats (one faction each) or four (one character each)
        raise RuleError("wowboard.err.seats", rule="setup.1", n=len(seats))
    options = validate_options(setup.options)
    pack = register_pack(setup.content) if setup.content else BUILTIN_KEY  # a server pack, by key
    if len(seats) == 4 and options["duel"]:
        raise RuleError("wowboard.err.duel_two_seats", rule="setup.1")
    said: list[Event] = []
    factions: list[Faction]
    if any(faction_of_team(s.team) for s in seats):  # issue 27.5: lobby preferences, kept where they fit
        factions, said = deal(seats, len(seats) // 2, dice)
    elif len(seats) == 4:
        # setup.3: with no faction-locked class in the pack, the factions are dealt at random, two and two
        horde = {seats[i].seat for i in _two_of_four(dice)}
        factions = ["horde" if s.seat in horde else "alliance" for s in seats]
    else:
        factions = list(FACTIONS)
    picks = 1 if len(seats) == 4 or options["duel"] else 2
    state = State(seats=[SeatInfo(seat=s.seat, user_id=s.user_id, name=s.name, faction=factions[i],
                                  draft_picks=picks) for i, s in enumerate(seats)], options=options, pack=pack)
    order = [s.seat for s in seats]
    if len(seats) == 2:
        if dice.pick(2) == 1:  # setup.2: a random seat order for the draft
            order.reverse()
    else:
        order = [order.pop(dice.pick(len(order))) for _ in range(len(seats))]
    state.draft_order = order * picks
    return state, [*said, ev("draft_order", order=", ".join(state.seat(s).name for s in order))]


def _two_of_four(dice: Dice) -> tuple[int, int]:
    """Two distinct positions of four, drawn through the recorded dice (the Horde's seats)."""
    first = dice.pick(4)
    rest = [i for i in range(4) if i != first]
    return first, rest[dice.pick(3)]


def pick_class(state: State, seat: int, class_id: str, dice: Dice) -> list[Event]:
    """setup.2/4: the seat's next character, of that class, ready at the faction's start region, its
    sheet and class deck laid out and its health and energy at its capacity (ancestry included); after
    the last pick the content is set up (setup.5–8) and the Horde's first turn starts."""
    pack = pack_of(state)
    taken = {c.class_id for c in state.characters.values()}
    free = [c.id for c in pack.classes if c.id not in taken]
    if class_id not in free:
        raise RuleError("wowboard.err.class_taken", rule="setup.2", name=class_id, known=", ".join(free))
    info = state.seat(seat)
    cls = next(c for c in pack.classes if c.id == class_id)
    char = Character(id=class_id, seat=seat, faction=info.faction, class_id=class_id,
                     region=pack.start_of(info.faction).id, health=cls.health[0], energy=cls.energy[0],
                     gold=START_GOLD)
    state.characters[char.id] = char
    start_character(state, char)
    char.health, char.energy = capacity_of(state, char)
    info.characters.append(char.id)
    state.draft_order.pop(0)
    events = [ev("class_picked", seat=seat, name=cls.name, faction=info.faction)]
    if not state.draft_order:
        events += setup_content(state, pack, dice)
        state.phase = "play"
        events += start_faction_turn(state)
    return events
