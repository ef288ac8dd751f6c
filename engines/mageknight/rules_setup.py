"""Starting a combat: table options, the challenge deal, assist entries, the duel (A0).

- challenge (1 seat): the bot deals an encounter by ``site`` and ``tier`` (heroes of level 1,
  3, 5, 7), a hand from the built-in deck, units, crystals and the Source (``roll_mana_source``,
  3 dice solo). The whole deal comes from ``seed`` (given, or drawn with ``Dice.pick``), so
  the same seed deals the same puzzle; only the summon draws of play use the table's dice.
- assist (1 seat): the players enter the hero level, units, enemies (pack names or stat
  lines, ``rules_custom``), crystals, the Source faces (or the table rolls them) and declare
  effects with ``add``.
- duel (2 seats): one enemy dealt as in a challenge, or (``pick``) enemies the second seat
  picks within a Fame budget; the second seat then sets the Interactive Combat die (``rules_duel``).

Situation Reputation is applied at the start (M43): −1 for assaulting a keep, mage tower or
city, −3 for burning a monastery.
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import Setup
from engines.core.dice import Dice, SeededDice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.system_dice import roll_mana_source
from engines.mageknight import rules_phases
from engines.mageknight.content import COLOURS, FACES, WOUND, EnemyToken, Pack, UnitCard, known, pack_for
from engines.mageknight.rules_base import ev, new_uid
from engines.mageknight.rules_custom import enemy_entry, unit_entry
from engines.mageknight.rules_mana import MAX_CRYSTALS
from engines.mageknight.rules_values import level_stats
from engines.mageknight.state import (
    ASSAULT_SITES,
    FORTIFIED_SITES,
    UNDERGROUND_SITES,
    CombatEnemy,
    Hero,
    Pending,
    Player,
    SourceDie,
    State,
    UnitState,
)

MODES = ("challenge", "assist", "duel")
CHALLENGE_SITES = ("rampaging", "keep", "mage_tower", "city", "dungeon", "spawning_grounds")
ASSIST_SITES = (*CHALLENGE_SITES, "tomb", "monastery", "adventure", "none")
TIER_LEVEL = {1: 1, 2: 3, 3: 5, 4: 7}
TIER_UNITS = {1: (1, 2), 2: (2, 2), 3: (3, 3), 4: (4, 4)}  # tier -> (units, highest unit level)
TIER_CRYSTALS = {1: 1, 2: 2, 3: 2, 4: 3}
TIER_ADVANCED = {1: 0, 2: 0, 3: 2, 4: 3}
ENCOUNTERS: dict[str, dict[int, tuple[str, ...]]] = {  # site -> tier -> token colours
    "rampaging": {1: ("green",), 2: ("green", "green"), 3: ("red",), 4: ("red", "green")},
    "keep": {1: ("grey",), 2: ("grey",), 3: ("grey", "grey"), 4: ("grey", "grey")},
    "mage_tower": {1: ("violet",), 2: ("violet",), 3: ("violet", "violet"), 4: ("violet", "violet")},
    "city": {1: ("white",), 2: ("white", "grey"), 3: ("white", "violet"), 4: ("white", "white", "grey")},
    "dungeon": {t: ("brown",) for t in TIER_LEVEL},
    "spawning_grounds": {t: ("brown", "brown") for t in TIER_LEVEL},
}
CITY_BONUS = ("white", "blue", "red", "green")  # M49: the city's colour
SITE_REPUTATION = {"monastery": -3, **{s: -1 for s in ASSAULT_SITES}}  # M43
SOURCE_DICE = 3  # players + 2, solo
MAX_SEED = 999_999_999
COMMON = {"mode", "site", "open_hand", "time", "coldfire_pooled", "city"}
ALLOWED = {"challenge": COMMON | {"tier", "seed"}, "duel": COMMON | {"tier", "seed", "pick"},
           "assist": COMMON | {"level", "enemies", "units", "crystals", "source", "hand", "wounds", "rampaging"}}
_TRUE = ("1", "true", "yes", "on", "si", "sì", "y")
_FALSE = ("0", "false", "no", "off", "n")


def _flag(options: dict[str, Any], name: str) -> bool:
    value = str(options.get(name, "false")).strip().casefold()
    if value not in _TRUE + _FALSE:
        raise RuleError("mk.err.bad_option_value", option=name, value=value[:20], known="true, false")
    return value in _TRUE


def _int(options: dict[str, Any], name: str, low: int, high: int, default: int) -> int:
    raw = options.get(name, default)
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise RuleError("mk.err.bad_option_value", option=name, value=str(raw)[:20], known=f"{low}-{high}") from None
    if not low <= value <= high:
        raise RuleError("mk.err.bad_option_value", option=name, value=str(value), known=f"{low}-{high}")
    return value


def _choice(options: dict[str, Any], name: str, allowed: tuple[str, ...], default: str) -> str:
    value = str(options.get(name, default)).strip().casefold().replace(" ", "_").replace("-", "_")
    if value not in allowed:
        raise RuleError("mk.err.bad_option_value", option=name, value=value[:30], known=", ".join(allowed))
    return value


def _items(raw: Any) -> list[Any]:
    if raw is None:
        return []
    if isinstance(raw, list | tuple):
        return list(raw)
    text = str(raw)
    parts = text.split(";") if ";" in text else text.split(",")
    return [p.strip() for p in parts if p.strip()]


def _crystals(raw: Any) -> dict[str, int]:
    """``{"red": 1}`` or ``red:1, blue:2`` or ``red, red, blue``; at most 3 per colour (M46)."""
    found: dict[str, int] = {}
    items = raw.items() if isinstance(raw, dict) else [(*p.split(":"), "")[:2] for p in _items(raw)]
    for colour, count in items:
        colour = str(colour).strip().casefold()
        colour = {"rosso": "red", "blu": "blue", "verde": "green", "bianco": "white"}.get(colour, colour)
        if colour not in COLOURS:
            raise RuleError("mk.err.bad_option_value", option="crystals", value=colour[:20], known=", ".join(COLOURS))
        n = int(count) if str(count).strip() else 1
        found[colour] = found.get(colour, 0) + n
        if not 0 <= found[colour] <= MAX_CRYSTALS:
            raise RuleError("mk.err.too_many_crystals", rule="mana-source", colour=colour, most=MAX_CRYSTALS,
                            colour_key=f"mk.face.{colour}")
    return found


def known_options(options: dict[str, Any]) -> frozenset[str]:
    """The options of the mode asked for; an unknown mode is left to ``validate_options`` to word."""
    mode = str(options.get("mode", "challenge")).strip().casefold()
    return ALLOWED.get(mode, ALLOWED["challenge"])


def validate_options(options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
    """Normalize lobby options; unknown keys are refused so typos do not pass silently."""
    mode = _choice(options, "mode", MODES, "challenge")
    unknown = sorted(set(options) - ALLOWED[mode])
    if unknown:  # typos, and options of another mode, are refused rather than ignored
        raise RuleError("mk.err.unknown_option", option=unknown[0], known=known(ALLOWED[mode]))
    result: dict[str, Any] = {"mode": mode, "open_hand": _flag(options, "open_hand"),
                              "coldfire_pooled": _flag(options, "coldfire_pooled")}
    if mode == "assist":
        pack = pack_for(content)
        site = _choice(options, "site", ASSIST_SITES, "none")
        result["level"] = _int(options, "level", 1, 10, 1)
        enemies = _items(options.get("enemies"))
        if not 1 <= len(enemies) <= 8:
            raise RuleError("mk.err.assist_enemies", count=len(enemies), most=8)
        result["enemies"] = [enemy_entry(pack, e, i + 1) for i, e in enumerate(enemies)]
        result["units"] = [unit_entry(pack, u, i + 1) for i, u in enumerate(_items(options.get("units")))]
        commands = level_stats(result["level"])[2]
        if len(result["units"]) > commands:  # one command token per unit (M47)
            raise RuleError("mk.err.too_many_units", rule="units", count=len(result["units"]), most=commands,
                            level=result["level"])
        result["crystals"] = _crystals(options.get("crystals"))
        faces = [str(f).strip().casefold() for f in _items(options.get("source"))]
        if any(f not in FACES for f in faces):
            raise RuleError("mk.err.bad_option_value", option="source", value=",".join(faces)[:30],
                            known=", ".join(FACES))
        if faces:
            result["source"] = faces
        result["hand"] = _int(options, "hand", 0, 12, level_stats(result["level"])[1])
        result["wounds"] = _int(options, "wounds", 0, 12, 0)
        result["rampaging"] = _flag({"rampaging": options.get("rampaging", site == "rampaging")}, "rampaging")
    else:
        site = _choice(options, "site", CHALLENGE_SITES, "rampaging")
        result["tier"] = _int(options, "tier", 1, 4, 1)
        if options.get("seed") not in (None, ""):
            result["seed"] = _int(options, "seed", 0, MAX_SEED, 0)
        if mode == "duel":
            result["pick"] = _flag(options, "pick")
    result["site"] = site
    default_time = "night" if site in UNDERGROUND_SITES else "day"
    time = _choice(options, "time", ("day", "night", "giorno", "notte"), default_time)
    result["time"] = "night" if site in UNDERGROUND_SITES or time in ("night", "notte") else "day"
    if options.get("city") not in (None, ""):
        if site != "city":
            raise RuleError("mk.err.city_only", rule="combat-overview")
        result["city"] = _choice(options, "city", CITY_BONUS, "white")
    return result


# ------------------------------------------------------------------ building the combat


def _enemy(state: State, token: EnemyToken, *, site: str, rampaging: bool, city: str | None) -> CombatEnemy:
    """A0: an enemy revealed at its site; a rampager never shares the site's fortification."""
    enemy = CombatEnemy(uid=new_uid(state, "e"), token=token, rampaging=rampaging,
                        site_fortified=site in FORTIFIED_SITES and not rampaging)
    if city is not None and not rampaging:  # M49: the city's garrison bonus
        physical = token.element == "physical"
        if city == "white":
            enemy.armor_bonus = 1
        elif city == "blue" and not physical:
            enemy.attack_bonus = 1 if token.element == "cold_fire" else 2
        elif city in ("red", "green") and physical and not token.has("summon"):
            enemy.extra_abilities = ["brutal" if city == "red" else "poison"]
    state.enemies.append(enemy)
    return enemy


def _label_duplicates(state: State) -> None:
    """Two tokens of one kind get numbered labels so players can tell them apart."""
    for group in (state.enemies, state.units):
        names = [x.token.name if isinstance(x, CombatEnemy) else x.card.name for x in group]
        seen: dict[str, int] = {}
        for item, name in zip(group, names, strict=True):
            if names.count(name) > 1:
                seen[name] = seen.get(name, 0) + 1
                if isinstance(item, CombatEnemy):
                    item.token = item.token.model_copy(update={"name": f"{name} {seen[name]}"})
                else:
                    item.card = item.card.model_copy(update={"name": f"{name} {seen[name]}"})


def _hero(level: int) -> Hero:
    armor, limit, commands = level_stats(level)
    return Hero(level=level, armor=armor, hand_limit=limit, commands=commands)


def _players(setup: Setup, mode: str) -> list[Player]:
    seats = sorted(setup.seats, key=lambda s: s.seat)
    want = 2 if mode == "duel" else 1
    if len(seats) != want:
        raise RuleError("mk.err.seats", mode=mode, mode_key=f"mk.mode.{mode}", count=len(seats), need=want)
    return [Player(seat=s.seat, user_id=s.user_id, name=s.name, role="fighter" if i == 0 else "opponent")
            for i, s in enumerate(seats)]


def _pick(dice: Dice, items: list[Any]) -> Any:
    return items.pop(dice.pick(len(items)))


def _deal(state: State, pack: Pack, options: dict[str, Any], deal: Dice) -> list[Event]:
    """Challenge/duel: encounter, units, crystals, deck and hand, all from the seeded dice."""
    tier, site = options["tier"], options["site"]
    piles: dict[str, list[str]] = {}
    for token in pack.enemies:
        piles.setdefault(token.colour, []).append(token.id)
        state.bestiary[token.id] = token
    colours = ENCOUNTERS[site][tier][:1] if state.mode == "duel" else ENCOUNTERS[site][tier]
    if options.get("pick"):  # the opponent picks the encounter instead (rules_duel.start_pick)
        colours = ()
    rampaging = site == "rampaging"
    for colour in colours:
        pile = [t for t in piles.get(colour, []) if not (colour == "brown" and pack.enemy(t).has("summon"))]
        if not pile:
            raise RuleError("mk.err.empty_pile", colour=colour, colour_key=f"mk.colour.{colour}")
        token_id = _pick(deal, pile)
        piles[colour].remove(token_id)
        _enemy(state, pack.enemy(token_id), site=site, rampaging=rampaging, city=options.get("city"))
    state.pools = {"brown": [t for t in piles.get("brown", []) if not pack.enemy(t).has("summon")]}
    count, top = TIER_UNITS[tier]
    offer = [u for u in pack.units if u.level <= top] if site not in UNDERGROUND_SITES else []
    for _ in range(min(count, len(offer))):
        _add_unit(state, _pick(deal, offer))
    hero = state.hero
    for _ in range(TIER_CRYSTALS[tier]):
        colours_left = [c for c in COLOURS if hero.crystals.get(c, 0) < MAX_CRYSTALS]
        colour = colours_left[deal.pick(len(colours_left))]
        hero.crystals[colour] = hero.crystals.get(colour, 0) + 1
    deck = [c.id for c in pack.cards if not c.advanced for _ in range(c.copies)]
    advanced = [c.id for c in pack.cards if c.advanced]
    deck += [_pick(deal, advanced) for _ in range(min(TIER_ADVANCED[tier], len(advanced)))]
    for card_id in sorted(set(deck)):  # sorted: a set's order follows PYTHONHASHSEED, the stored state must not
        state.cards[card_id] = pack.card(card_id)
    hero.hand = [_pick(deal, deck) for _ in range(min(hero.hand_limit, len(deck)))]
    hero.deck = deck
    state.source = [SourceDie(face=c.value) for c in roll_mana_source(deal, SOURCE_DICE).colours]
    names = [state.cards[c].name for c in hero.hand]
    return [ev("hand_dealt", private_to=[] if state.open_hand else [state.fighter], cards=names)]


def _add_unit(state: State, card: UnitCard) -> None:
    state.units.append(UnitState(uid=new_uid(state, "u"), card=card))


def _assist(state: State, pack: Pack, options: dict[str, Any], dice: Dice) -> list[Event]:
    for entry in options["enemies"]:
        token = EnemyToken.model_validate(entry["token"])
        _enemy(state, token, site=state.site, rampaging=entry["rampaging"] or options["rampaging"],
               city=options.get("city"))
    for data in options["units"]:
        _add_unit(state, UnitCard.model_validate(data))
    state.bestiary = {t.id: t for t in pack.enemies if t.colour == "brown" and not t.has("summon")}
    hero = state.hero
    hero.crystals = dict(options["crystals"])
    hero.hand = ["hidden"] * options["hand"] + [WOUND] * options["wounds"]
    events: list[Event] = []
    if "source" in options:
        state.source = [SourceDie(face=f) for f in options["source"]]
    else:  # real dice: a manual-dice table rolls them itself
        roll = roll_mana_source(dice, SOURCE_DICE)
        state.source = [SourceDie(face=c.value) for c in roll.colours]
        events.append(ev("source_rolled", faces=[d.face for d in state.source]))
        events[-1].rolls = dice.take_drawn()
    return events


def new_game(setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
    options = validate_options(setup.options, setup.content)
    pack = pack_for(setup.content)
    mode = options["mode"]
    state = State(mode=mode, players=_players(setup, mode), site=options["site"], day=options["time"] == "day",
                  open_hand=options["open_hand"], coldfire_pooled=options["coldfire_pooled"], options=options)
    events: list[Event] = []
    if mode == "assist":
        state.hero = _hero(options["level"])
        events += _assist(state, pack, options, dice)
    else:
        state.tier = options["tier"]
        state.seed = options["seed"] if "seed" in options else dice.pick(MAX_SEED + 1)
        state.hero = _hero(TIER_LEVEL[state.tier])
        events += _deal(state, pack, options, SeededDice(state.seed))
    _label_duplicates(state)
    hero = state.hero
    hero.start_wounds = hero.hand.count(WOUND)
    key = "combat_started_duel" if mode == "duel" else "combat_started"  # a duel's enemy shows at A0
    shown = [] if mode == "duel" else [e.name for e in state.enemies]
    events.insert(0, ev(key, enemies=shown, level=hero.level, armor=hero.armor, limit=hero.hand_limit,
                        units=[u.name for u in state.units] or "—", faces=[d.face for d in state.source]))
    if state.seed is not None:  # the same seed deals the same puzzle
        events.insert(1, ev("seed", seed=state.seed, tier=state.tier, mode=state.mode))
    rep = SITE_REPUTATION.get(state.site, 0)
    if rep:  # M43: the assault (or the burning) costs Reputation whatever the result
        state.reputation += rep
        events.append(ev("reputation_site", rep=rep))
    if mode == "duel":
        state.phase = "setup"
        if options.get("pick"):
            return state, events + start_pick(state)
        state.pending = Pending(kind="interactive_die", seat=state.opponent or 0)
        return state, events
    return state, events + rules_phases.begin(state)


# ------------------------------------------------------------------ duel: the opponent picks the encounter
# M51 with the spec's §3 duel: "may also pick the encounter from a Fame budget". Reading (the
# spec gives no number): the opponent picks as many tokens as a challenge at this site and tier
# deals, from the same colours, and may spend at most the Fame those tokens could be worth at
# their strongest (the highest-Fame token of each colour, summed). Picking stops early with
# "done" once one enemy is picked; the first enemy picked carries the Interactive Combat die.


def _pick_colours(state: State) -> tuple[str, ...]:
    return ENCOUNTERS[state.site][state.tier or 1]


def _pickable(state: State) -> list[EnemyToken]:
    colours = set(_pick_colours(state))
    taken = {e.token.id for e in state.enemies}
    return sorted((t for t in state.bestiary.values() if t.colour in colours and t.id not in taken
                   and not (t.colour == "brown" and t.has("summon")) and t.fame <= state.pick_budget),
                  key=lambda t: (t.colour, -t.fame, t.name))


def pick_options(state: State) -> list[tuple[str, EnemyToken | None]]:
    """The tokens the opponent may pick now, then "done" once an enemy stands."""
    options: list[tuple[str, EnemyToken | None]] = [(t.id, t) for t in _pickable(state)]
    if state.enemies:
        options.append(("done", None))
    return options


def start_pick(state: State) -> list[Event]:
    colours = _pick_colours(state)
    strongest = {c: max((t.fame for t in state.bestiary.values() if t.colour == c), default=0) for c in colours}
    state.pick_budget = sum(strongest[c] for c in colours)
    state.pick_left = len(colours)
    state.pending = Pending(kind="pick_encounter", seat=state.opponent or 0)
    return [ev("pick_started", budget=state.pick_budget, count=state.pick_left)]


def pick_encounter(state: State, value: str) -> list[Event]:
    """One answer of the opponent: a token (by id or name) or "done"; the die comes next."""
    choice = value.strip().casefold()
    events: list[Event] = []
    if choice not in ("done", "fatto", "basta"):
        options = {t.id: t for _, t in pick_options(state) if t is not None}
        found = [t for t in options.values() if choice in (t.id.casefold(), t.name.casefold(), t.name_it.casefold())] \
            or [t for t in options.values() if any(n and n.casefold().startswith(choice) for n in (t.name, t.name_it))]
        if len(found) != 1:
            raise RuleError("mk.err.pick_token", value=value[:30], budget=state.pick_budget,
                            known=", ".join(f"{t.name} ({t.fame})" for t in options.values()) or "—")
        token = found[0]
        _enemy(state, token, site=state.site, rampaging=state.site == "rampaging", city=state.options.get("city"))
        state.pick_budget -= token.fame
        state.pick_left -= 1
        events += [ev("picked_secret", private_to=[state.opponent] if state.opponent is not None else [],
                      name=token.name, fame=token.fame, budget=state.pick_budget),
                   ev("picked", colour=token.colour, colour_key=f"mk.colour.{token.colour}")]
    elif not state.enemies:
        raise RuleError("mk.err.pick_one_first")
    if choice in ("done", "fatto", "basta") or state.pick_left <= 0 or not _pickable(state):
        _label_duplicates(state)
        state.pending = Pending(kind="interactive_die", seat=state.opponent or 0)
    return events
