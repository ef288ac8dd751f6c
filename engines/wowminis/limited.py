"""Limited formats (100.3): dealing boosters, picking and passing, and checking a built party.

The product. Every limited table opens the same boosters: one *character booster* (4 characters: 3 slots
for non-legendary ones and 1 for any, so a booster never holds two legendaries) and two *card boosters*
(5 cards: 3 slots for generic cards, which fit anyone (300.2), and 2 for any). Sealed keeps its three
boosters; booster draft picks from them as they pass round the table (left, then right, then left), 3
characters and 4 + 4 cards, the last item of each booster burned.

Supply (the count the built-in pack is sized for; ``tests/wowminis/test_limited.py`` checks it). A table's
boosters are dealt without replacement, so four seats need:
- characters: 4 seats × 4 = 16, of which 4 × 3 = 12 non-legendary (built-in: 16, 13 non-legendary);
- cards: 4 seats × 2 boosters × 5 = 40, of which 4 × 2 × 3 = 24 generic (built-in: 58, 27 generic).
With that, every seat can always build a legal party: 3 characters with at most one legendary (a draft
refuses a second legendary, and every booster still offers a non-legendary), and in sealed 6 generic
cards, distinct by name, give each of 3 characters its 2 cards.

Chance comes from ``Dice.pick`` only (the table records it, and a bot makes it even with manual dice), over
candidates sorted by id: the same recorded picks always deal the same boosters.
"""

from __future__ import annotations

from collections import Counter

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.wowminis.content import ActionCardDef, CharacterDef, Pack, ScenarioDef, fits, norm, party_error
from engines.wowminis.limited_state import Build, Format, LimitedState, RoundKind

CHAR_BOOSTER = 4
CHAR_SLOTS_COMMON = 3  # non-legendary slots of a character booster (A3: one legendary a party)
CARD_BOOSTER = 5
CARD_SLOTS_GENERIC = 3  # generic-card slots of a card booster
ROUNDS: tuple[RoundKind, ...] = ("characters", "cards", "cards")
DRAFT_PICKS: dict[RoundKind, int] = {"characters": 3, "cards": 4}  # per round; the rest is burned
SEALED_BAR = 2  # 100.3: in sealed each character has two action cards
MIN_SEATS, MAX_SEATS = 2, 4


def char_item(cid: str) -> str:
    return f"c:{cid}"


def card_item(kid: str) -> str:
    return f"k:{kid}"


def supply_needed(seats: int) -> dict[str, int]:
    """What ``seats`` players' boosters take from the pack (see the module docstring)."""
    card_boosters = seats * ROUNDS.count("cards")
    return {"characters": seats * CHAR_BOOSTER, "common_characters": seats * CHAR_SLOTS_COMMON,
            "cards": card_boosters * CARD_BOOSTER, "generic_cards": card_boosters * CARD_SLOTS_GENERIC}


def supply_of(pack: Pack) -> dict[str, int]:
    """What a pack offers, counted as ``supply_needed`` counts."""
    return {"characters": len(pack.characters), "common_characters": sum(not c.legendary for c in pack.characters),
            "cards": len(pack.cards), "generic_cards": sum(c.restriction.generic for c in pack.cards)}


def max_seats(pack: Pack) -> int:
    """The most seats the pack can deal limited boosters to (0: not even two)."""
    have = supply_of(pack)
    fitting = [n for n in range(MIN_SEATS, MAX_SEATS + 1)
               if all(have[k] >= v for k, v in supply_needed(n).items())]
    return max(fitting, default=0)


def _draw(dice: Dice, candidates: list[str], count: int) -> list[str]:
    """``count`` distinct ids out of ``candidates`` (removed from it), each by one recorded pick."""
    drawn = []
    for _ in range(count):
        drawn.append(candidates.pop(dice.pick(len(candidates))))
    return drawn


def deal(pack: Pack, seats: list[int], dice: Dice) -> dict[int, list[list[str]]]:
    """Every seat's boosters, round by round (``ROUNDS``), seat after seat in table order. The narrow slots
    (non-legendary characters, generic cards) of every booster are filled first, then the open slots from
    what is left, so the open slots never eat the supply the narrow ones are counted on."""
    if len(seats) > max_seats(pack):
        raise RuleError("wowm.err.limited_supply", rule="100.3", seats=len(seats), most=max_seats(pack))
    narrow = {"characters": sorted(c.id for c in pack.characters if not c.legendary),
              "cards": sorted(c.id for c in pack.cards if c.restriction.generic)}
    every = {"characters": sorted(c.id for c in pack.characters), "cards": sorted(c.id for c in pack.cards)}
    slots = {"characters": (CHAR_SLOTS_COMMON, CHAR_BOOSTER), "cards": (CARD_SLOTS_GENERIC, CARD_BOOSTER)}
    plan = [(kind, seat) for kind in ROUNDS for seat in seats]
    filled: list[list[str]] = []
    for kind, _seat in plan:
        drawn = _draw(dice, narrow[kind], slots[kind][0])
        every[kind] = [x for x in every[kind] if x not in drawn]
        filled.append(drawn)
    for (kind, _seat), drawn in zip(plan, filled, strict=True):
        extra = _draw(dice, every[kind], slots[kind][1] - slots[kind][0])
        drawn += extra
    boosters: dict[int, list[list[str]]] = {seat: [] for seat in seats}
    for (kind, seat), drawn in zip(plan, filled, strict=True):
        make = char_item if kind == "characters" else card_item
        boosters[seat].append([make(x) for x in sorted(drawn)])
    return boosters


def open_limited(pack: Pack, fmt: Format, seats: list[int], dice: Dice) -> LimitedState:
    """100.3: deal the table's boosters. Sealed opens them all into each seat's pool and goes to the build;
    a draft opens each seat's first booster into its hand."""
    boosters = deal(pack, seats, dice)
    used = {item for seat in seats for booster in boosters[seat] for item in booster}
    state = LimitedState(format=fmt, order=list(seats), rounds=list(ROUNDS),
                         picks=[DRAFT_PICKS[k] for k in ROUNDS],
                         characters={c.id: c.model_copy(deep=True) for c in pack.characters
                                     if char_item(c.id) in used},
                         cards={k.id: k.model_copy(deep=True) for k in pack.cards if card_item(k.id) in used},
                         picked={seat: [] for seat in seats})
    if fmt == "sealed":
        state.stage = "build"
        state.picked = {seat: [item for booster in boosters[seat] for item in booster] for seat in seats}
        return state
    state.hands = {seat: boosters[seat][0] for seat in seats}
    state.unopened = {seat: boosters[seat][1:] for seat in seats}
    return state


# --- booster draft -------------------------------------------------------------------------------


def item_name(lim: LimitedState, item: str) -> str:
    """The English name of a booster item (events carry English names; the presenter translates)."""
    kind, _, key = item.partition(":")
    defn = lim.characters.get(key) if kind == "c" else lim.cards.get(key)
    return defn.name if defn is not None else item


def find_item(lim: LimitedState, items: list[str], typed: str) -> str:
    """An item of ``items`` by id or by name in either language, or the one whose name starts so."""
    wanted = norm(typed)

    def spellings(item: str) -> list[str]:
        kind, _, key = item.partition(":")
        defn = lim.characters.get(key) if kind == "c" else lim.cards.get(key)
        names = [item, key] + ([defn.name, defn.name_it] if defn is not None else [])
        return [norm(n) for n in names if n]

    if typed.strip().isdigit() and 1 <= int(typed) <= len(items):  # the number the seat's panel shows
        return items[int(typed) - 1]
    for item in items:
        if wanted and wanted in spellings(item):
            return item
    hits = [i for i in items if wanted and any(s.startswith(wanted) for s in spellings(i))]
    if len(hits) == 1:
        return hits[0]
    raise RuleError("wowm.err.not_in_booster", rule="100.3", item=typed[:40],
                    known=", ".join(item_name(lim, i) for i in items))


def check_pick(lim: LimitedState, scenario: ScenarioDef, seat: int, item: str) -> None:
    """A draft pick that would leave the seat no legal party is refused (A3: a party has at most one
    legendary, and the character round gives exactly the picks a party needs)."""
    kind, _, key = item.partition(":")
    if kind != "c" or not scenario.one_legendary or not lim.characters[key].legendary:
        return
    held = [lim.characters[i[2:]] for i in lim.picked[seat] if i.startswith("c:")]
    if any(c.legendary for c in held):
        raise RuleError("wowm.err.draft_second_legendary", rule="100.3", name=lim.characters[key].name)


def pass_direction(round_index: int) -> int:
    """Boosters go left (to the next seat clockwise) in the 1st and 3rd rounds, right in the 2nd."""
    return 1 if round_index % 2 == 0 else -1


def resolve_picks(lim: LimitedState) -> tuple[dict[int, str], bool]:
    """Every seat has answered: each takes its pick at once, then the boosters pass; at the round's last
    pick the rest of each booster is burned and the next boosters are opened. Returns the picks made and
    whether the draft is over (the build comes next)."""
    made = dict(lim.answers)
    for seat, item in made.items():
        lim.hands[seat].remove(item)
        lim.picked[seat].append(item)
    lim.answers = {}
    lim.pick += 1
    if lim.pick < lim.picks[lim.round]:
        step = pass_direction(lim.round)
        order = lim.order
        lim.hands = {order[(i + step) % len(order)]: lim.hands[seat] for i, seat in enumerate(order)}
        return made, False
    lim.burned += sum(len(hand) for hand in lim.hands.values())
    lim.round += 1
    lim.pick = 0
    if lim.round >= len(lim.rounds):
        lim.hands, lim.unopened, lim.stage = {}, {}, "build"
        return made, True
    lim.hands = {seat: lim.unopened[seat].pop(0) for seat in lim.order}
    return made, False


# --- building ------------------------------------------------------------------------------------


def _party_error(problem: str, size: int, lim: LimitedState, members: list[str]) -> RuleError:
    """100.3: the party's problem, with the characters that make it (``content.party_error``)."""
    return party_error(problem, size, [lim.characters[m] for m in members if m in lim.characters], "100.3")


def read_build(lim: LimitedState, scenario: ScenarioDef, seat: int, party: list[str],
               bars: dict[str, list[str]]) -> Build:
    """100.3: the party comes from the seat's pool, any factions mixed; the scenario's size and A3's one
    legendary; each card of the pool at most once, fitting its character (300.2), no name twice in a bar.
    Sealed: exactly two cards a character. Draft: any number each, not necessarily equal, at most the two
    a character the standard bar gives the party in all (101.2a)."""
    pool = lim.picked.get(seat, [])
    chars_in_pool = [i for i in pool if i.startswith("c:")]
    members = [find_item(lim, chars_in_pool, typed)[2:] for typed in party]
    size = scenario.party_size
    if len(members) != size:
        raise _party_error("size", size, lim, members)
    if len(set(members)) != len(members):
        raise _party_error("duplicate", size, lim, members)
    if scenario.one_legendary and sum(lim.characters[m].legendary for m in members) > 1:
        raise _party_error("legendary", size, lim, members)
    cards_left = [i for i in pool if i.startswith("k:")]
    chosen: dict[str, list[str]] = {m: [] for m in members}
    for typed_char, typed_cards in bars.items():
        member = find_item(lim, [char_item(m) for m in members], typed_char)[2:]
        defn = lim.characters[member]
        if chosen[member]:
            raise RuleError("wowm.err.bar_twice", rule="100.3", name=defn.name)
        for typed in typed_cards:
            card = find_item(lim, cards_left, typed)
            cards_left.remove(card)
            if not fits(lim.cards[card[2:]], defn):
                raise RuleError("wowm.err.bar_restriction", rule="300.2", name=defn.name,
                                card=lim.cards[card[2:]].name)
            chosen[member].append(card[2:])
        names = [lim.cards[k].name for k in chosen[member]]
        if len(set(names)) != len(names):
            raise RuleError("wowm.err.bar_duplicate", rule="300.2", name=defn.name)
    if lim.format == "sealed":
        for member, cards in chosen.items():
            if len(cards) != SEALED_BAR:
                raise RuleError("wowm.err.bar", rule="100.3", name=lim.characters[member].name, size=SEALED_BAR)
    elif sum(len(cards) for cards in chosen.values()) > SEALED_BAR * size:
        raise RuleError("wowm.err.draft_bar_total", rule="100.3", most=SEALED_BAR * size)
    return Build(party=members, bars=chosen)


def characters_of(lim: LimitedState, seat: int) -> list[CharacterDef]:
    return [lim.characters[i[2:]] for i in lim.picked.get(seat, []) if i.startswith("c:")]


def cards_of(lim: LimitedState, seat: int) -> list[ActionCardDef]:
    return [lim.cards[i[2:]] for i in lim.picked.get(seat, []) if i.startswith("k:")]


def a_build(lim: LimitedState, scenario: ScenarioDef, seat: int) -> Build | None:
    """One legal build of the seat's pool, made the simple way (random playouts, the suggestion): the
    first characters that make a party, then fitting cards, two each in sealed and in a draft while they
    last. ``None`` when the pool holds no legal party."""
    from itertools import combinations

    chars = characters_of(lim, seat)
    cards = cards_of(lim, seat)
    for party in combinations(chars, scenario.party_size):
        if scenario.one_legendary and sum(c.legendary for c in party) > 1:
            continue
        bars = assign(list(party), cards, exact=lim.format == "sealed")
        if bars is not None:
            return Build(party=[c.id for c in party], bars=bars)
    return None


def assign(party: list[CharacterDef], cards: list[ActionCardDef], exact: bool) -> dict[str, list[str]] | None:
    """Two fitting cards for each member, restricted cards first (they fit fewer); in a draft a member
    may get fewer. Depth-first over the members, so a pool that can do it is found."""
    order = sorted(cards, key=lambda k: (k.restriction.generic, k.id))

    def place(i: int, left: list[ActionCardDef]) -> dict[str, list[str]] | None:
        if i == len(party):
            return {}
        member = party[i]
        fitting = [k for k in left if fits(k, member)]
        options = _pairs(fitting) if exact or len(fitting) >= SEALED_BAR else [fitting]
        for pair in options:
            rest = [k for k in left if k not in pair]
            tail = place(i + 1, rest)
            if tail is not None:
                return {member.id: [k.id for k in pair], **tail}
        return None if exact else {member.id: [], **(place(i + 1, left) or {})}

    return place(0, order)


def _pairs(cards: list[ActionCardDef]) -> list[list[ActionCardDef]]:
    return [[a, b] for i, a in enumerate(cards) for b in cards[i + 1:] if a.name != b.name]


def pool_counts(lim: LimitedState, seat: int) -> Counter[str]:
    """How many characters and cards a seat's pool holds (the public count a table may show)."""
    return Counter("characters" if i.startswith("c:") else "cards" for i in lim.picked.get(seat, []))
