"""Set-up (setup, factions, fewer-players): seats to factions and characters, the class draft.

setup.1: 2 seats run two characters each (one faction per seat); 3 seats run four characters (one seat two,
the other two one each: 1+1 against 2); 4 seats one each; 5 seats six characters (one seat two); 6 seats
one each. Which seat runs two is drawn by the dice. Option ``duel`` gives one character per faction to two
seats (not an official mode: short games for tests and quick matches).

setup.3 (v2 states, ``factions_open``): the classes are drafted first and the factions dealt after, as the
rulebook does it: a faction-locked class (the full edition's Templar and Stormcaller) takes its seat to its
faction, and the other seats are dealt so that each faction fields half the characters; a pick that would
make that impossible is refused at once. Two-seat tables of the starter set (two or four seats) keep the P1 deal:
the factions are fixed before the draft (two seats: one each; four: two and two by the dice), exactly as
before, so their old games and scripts replay.

The draft goes round the seats in an order drawn at random, and once more for each seat that runs two
characters (setup.2); a picked class leaves the draft. A new character starts at its faction's start
region with level-1 health and energy (ancestry included) and 5 gold (setup.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.core.contract import Setup
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import (
    BUILTIN_FULL_KEY,
    BUILTIN_KEY,
    FACTIONS,
    Faction,
    Pack,
    builtin,
    builtin_full,
    register_pack,
)
from engines.wowboard.content_cards import Overlord
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_overlord import RANDOM, parse_overlord
from engines.wowboard.rules_setup_content import setup_content
from engines.wowboard.rules_sheet import capacity_of, start_character
from engines.wowboard.rules_teams import deal, deal_after_draft, faction_of_team, splits
from engines.wowboard.rules_turn import start_faction_turn
from engines.wowboard.rules_variants import parse_variants
from engines.wowboard.state import START_GOLD, Character, SeatInfo, State

IMAGE_POLICIES = ("every", "turn_end", "off")
EDITIONS = ("auto", "starter", "full")
"""``edition``: the starter set (P1's four classes, two ancestries) or the full base game (seven classes,
two of them faction-locked, eight ancestries). ``auto``: the starter set for two seats, the full game from
three seats on (five or six seats need six classes)."""
FACTION_DECISIONS = ("any", "leader")
"""factions.2: ``any`` seat of the faction answers a faction-wide question, or every seat answers and the
``leader`` (the seat of the character with the most XP) decides when they disagree."""


OPTIONS = ("autopilot_hours", "duel", "images", "edition", "faction_decisions", "overlord", "variant")
"""The lobby options of a WoW board game table (the table layer refuses any other by name)."""
SEAT_COUNTS = (2, 3, 4, 5, 6)
"""setup.1: two to six seats."""
CHARACTERS = {2: 4, 3: 4, 4: 4, 5: 6, 6: 6}
"""setup.1: characters in play by seat count (a seat runs two when seats are fewer than characters)."""


def seat_counts(options: dict[str, Any]) -> tuple[int, ...]:
    """The seat counts a table with these options accepts: two for a duel, two to six otherwise."""
    return (2,) if _on(options.get("duel")) else SEAT_COUNTS


ON_WORDS = ("yes", "on", "true", "1", "sì", "si")
OFF_WORDS = ("no", "off", "false", "0")
"""The words a yes/no lobby option (``duel``) takes, in either language."""


def _on(value: object) -> bool:
    return value is True or str(value or "").strip().lower() in ON_WORDS


def _check_switch(name: str, value: object) -> None:
    """setup.1: a yes/no option must say yes or no; anything else would silently read as "no"."""
    if value is None or isinstance(value, bool):
        return
    word = str(value).strip().lower()
    if word and word not in ON_WORDS + OFF_WORDS:
        raise RuleError("wowboard.err.bad_switch", rule="setup.1", option=name, value=str(value)[:20])


def validate_options(options: dict[str, Any], overlords: Sequence[Overlord] | None = None) -> dict[str, Any]:
    """The lobby's options, checked and in their stored words. ``overlords``: the Overlords the table's pack
    offers (default: the full game's), against which ``overlord:`` is read (setup.5)."""
    for key in options:
        if key not in OPTIONS:
            raise RuleError("wowboard.err.unknown_option", option=key, known=", ".join(OPTIONS))
    _check_switch("duel", options.get("duel"))
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
    edition = str(options.get("edition", "auto")).lower()
    if edition not in EDITIONS:
        raise RuleError("wowboard.err.bad_edition", value=edition[:20], known=", ".join(EDITIONS))
    decide = str(options.get("faction_decisions", "any")).lower()
    if decide not in FACTION_DECISIONS:
        raise RuleError("wowboard.err.bad_faction_decisions", rule="factions.2", value=decide[:20],
                        known=", ".join(FACTION_DECISIONS))
    out = {"duel": _on(options.get("duel")), "images": images, "autopilot_hours": hours, "edition": edition,
           "faction_decisions": decide}
    if options.get("overlord") not in (None, ""):  # setup.5: chosen by the table, or ``random``
        lord = parse_overlord(options["overlord"], builtin_full().overlords if overlords is None else overlords)
        if edition == "starter" and lord not in (RANDOM, *(o.id for o in builtin().overlords)):
            raise RuleError("wowboard.err.overlord_starter", rule="setup.5", name=lord)
        out["overlord"] = lord
    if options.get("variant") not in (None, ""):  # variants.1–2
        out["variant"] = parse_variants(options["variant"])
    return out


def characters_per_seat(n: int, duel: bool, dice: Dice) -> list[int]:
    """setup.1: how many characters each seat (in seat order) runs; with 3 or 5 seats the die names the
    seat that runs two."""
    if duel:
        return [1, 1]
    if CHARACTERS[n] == n:
        return [1] * n
    if n == 2:
        return [2, 2]
    double = dice.pick(n)
    return [2 if i == double else 1 for i in range(n)]


def new_game(setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
    seats = sorted(setup.seats, key=lambda s: s.seat)
    options = validate_options(setup.options)
    counts = seat_counts(options)
    if len(seats) not in counts:  # setup.1: two to six seats (a duel: two)
        if options["duel"] and len(seats) in SEAT_COUNTS:
            raise RuleError("wowboard.err.duel_two_seats", rule="setup.1")
        raise RuleError("wowboard.err.seats", rule="setup.1", n=len(seats), known=", ".join(map(str, counts)))
    edition = options["edition"] if options["edition"] != "auto" else ("starter" if len(seats) in (2, 4) else "full")
    starter_lords = (None, RANDOM, *(o.id for o in builtin().overlords))
    if options["edition"] == "auto" and options.get("overlord") not in starter_lords:
        edition = "full"  # setup.5: the Overlord the table chose is the full game's (the starter set has one)
    options["edition"] = edition
    pack = register_pack(setup.content) if setup.content else (BUILTIN_FULL_KEY if edition == "full"
                                                                 else BUILTIN_KEY)
    sizes = characters_per_seat(len(seats), options["duel"], dice)
    state = State(seats=[], options=options, pack=pack)
    classes = pack_of(state).classes
    if sum(sizes) > len(classes):  # classes are unique per game (setup.2)
        raise RuleError("wowboard.err.too_few_classes", rule="setup.2", n=sum(sizes), have=len(classes))
    said: list[Event] = []
    legacy = len(seats) in (2, 4) and not any(c.faction for c in classes)
    if legacy and any(faction_of_team(s.team) for s in seats):  # P1, issue 27.5: lobby wishes, kept where they fit
        factions, said = deal(seats, len(seats) // 2, dice)
    elif legacy and len(seats) == 4:  # P1: no faction-locked class, so the factions are dealt first, two and two
        horde = {seats[i].seat for i in _two_of_four(dice)}
        factions = ["horde" if s.seat in horde else "alliance" for s in seats]
    elif legacy:  # P1: one faction per seat, fixed before the draft
        factions = list(FACTIONS)
    else:  # setup.3: dealt after the draft; until then every seat is provisionally Horde
        factions: list[Faction] = ["horde"] * len(seats)
    state.seats = [SeatInfo(seat=s.seat, user_id=s.user_id, name=s.name, faction=factions[i], draft_picks=sizes[i],
                            wants=None if legacy else faction_of_team(s.team)) for i, s in enumerate(seats)]
    state.factions_open = not legacy
    order = [s.seat for s in seats]
    if len(seats) == 2:
        if dice.pick(2) == 1:  # setup.2: a random seat order for the draft
            order.reverse()
    else:
        order = [order.pop(dice.pick(len(order))) for _ in range(len(seats))]
    state.draft_order = order + [s for s in order if state.seat(s).draft_picks == 2]  # setup.2: twice round
    return state, [*said, ev("draft_order", order=", ".join(state.seat(s).name for s in order))]


def _two_of_four(dice: Dice) -> tuple[int, int]:
    """Two distinct positions of four, drawn through the recorded dice (the Horde's seats, P1)."""
    first = dice.pick(4)
    rest = [i for i in range(4) if i != first]
    return first, rest[dice.pick(3)]


def draftable(state: State, seat: int) -> list[str]:
    """setup.2–3: the classes ``seat`` may pick now: not taken yet, and (factions dealt after the draft)
    leaving an even split of the factions possible, the seat's own locked classes included."""
    pack = pack_of(state)
    taken = {c.class_id for c in state.characters.values()}
    free = [c.id for c in pack.classes if c.id not in taken]
    if not state.factions_open:
        return free
    return [cid for cid in free if _split_left(state, pack, seat, cid)]


def _locks(state: State, pack: Pack, extra: tuple[int, str] | None = None) -> dict[int, set[Faction]]:
    lock_of = {c.id: c.faction for c in pack.classes}
    locks: dict[int, set[Faction]] = {s.seat: set() for s in state.seats}
    picked = [(c.seat, c.class_id) for c in state.characters.values()] + ([extra] if extra else [])
    for seat, cid in picked:
        if (faction := lock_of.get(cid)) is not None:
            locks[seat].add(faction)
    return locks


def _split_left(state: State, pack: Pack, seat: int, class_id: str) -> bool:
    sizes = {s.seat: s.draft_picks for s in state.seats}
    return bool(splits(sizes, _locks(state, pack, (seat, class_id))))


def pick_class(state: State, seat: int, class_id: str, dice: Dice) -> list[Event]:
    """setup.2/4: the seat's next character, of that class, ready at the faction's start region, its
    sheet and class deck laid out and its health and energy at its capacity (ancestry included); after
    the last pick the factions are dealt (setup.3, v2 states), the content is set up (setup.5–8) and the
    Horde's first turn starts."""
    pack = pack_of(state)
    taken = {c.class_id for c in state.characters.values()}
    free = [c.id for c in pack.classes if c.id not in taken]
    if class_id not in free:
        raise RuleError("wowboard.err.class_taken", rule="setup.2", name=class_id, known=", ".join(free))
    if state.factions_open and not _split_left(state, pack, seat, class_id):
        raise RuleError("wowboard.err.locked_split", rule="setup.3", name=class_id,
                        known=", ".join(draftable(state, seat)))
    info = state.seat(seat)
    cls = next(c for c in pack.classes if c.id == class_id)
    faction = cls.faction or info.faction  # provisional until the deal when the factions are still open
    char = Character(id=class_id, seat=seat, faction=faction, class_id=class_id,
                     region=pack.start_of(faction).id, health=cls.health[0], energy=cls.energy[0],
                     gold=START_GOLD)
    state.characters[char.id] = char
    start_character(state, char)
    char.health, char.energy = capacity_of(state, char)
    info.characters.append(char.id)
    state.draft_order.pop(0)
    events = [ev("class_picked_open", seat=seat, name=cls.name) if state.factions_open
              else ev("class_picked", seat=seat, name=cls.name, faction=info.faction)]
    if not state.draft_order:
        if state.factions_open:
            events += _deal_factions(state, pack, dice)
        events += setup_content(state, pack, dice)
        state.phase = "play"
        events += start_faction_turn(state)
    return events


def _deal_factions(state: State, pack: Pack, dice: Dice) -> list[Event]:
    """setup.3 after the last pick: every seat gets its faction, and its characters move to that faction's
    start region with the health and energy of that faction's sheet face (the ancestry differs by face)."""
    names = {s.seat: s.name for s in state.seats}
    sizes = {s.seat: s.draft_picks for s in state.seats}
    got, events = deal_after_draft(names, sizes, _locks(state, pack), {s.seat: s.wants for s in state.seats}, dice)
    for info in state.seats:
        info.faction, info.wants = got[info.seat], None
        for cid in info.characters:
            c = state.characters[cid]
            c.faction, c.region = info.faction, pack.start_of(info.faction).id
            c.health, c.energy = capacity_of(state, c)
    state.factions_open = False
    side = {f: ", ".join(f"{names[s.seat]} ({'/'.join(s.characters)})" for s in state.seats if s.faction == f)
            for f in FACTIONS}
    return [*events, ev("factions_dealt", horde=side["horde"], alliance=side["alliance"])]
