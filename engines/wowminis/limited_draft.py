"""The limited formats as the engine plays them (100.3): the lobby option, the secret picks, the build.

Flow. ``format:sealed`` or ``format:draft`` in the lobby: the game is set up as a constructed one would be
(seats, sides, teams, spawn points and the first player come from ``rules_setup.new_game``, so a limited
table seats 2-4 exactly as a constructed one does), then its parties are taken away and ``State.limited``
deals the boosters (``limited.deal``, by recorded picks). A draft asks every seat at once for one pick,
the platform's simultaneous secret Decision (``draft_pick``): nobody learns another's pick, and boosters
pass only when all are in. Then every seat builds in secret (``build_party``); when the last build is in,
the parties are revealed (101.2) and the bars enter face down and ready (101.2b), exactly where a
constructed game is once its bars are chosen. ``State.limited`` goes back to ``None``.

Replay: the boosters hang on ``Dice.pick`` only and the passing on the picks in the action log, so the
same recorded picks and actions give the same pools, seat for seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core.contract import Action, SeatSetup, Setup
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis import limited as L
from engines.wowminis.content import pack_for
from engines.wowminis.limited_state import LIMITED_KINDS, BuildParty, DraftPick, LimitedState
from engines.wowminis.rules_board import ev
from engines.wowminis.rules_setup import short_label
from engines.wowminis.state import CardInstance, CharState, State

FORMATS = ("constructed", "sealed", "draft")


def format_of(options: dict[str, Any]) -> str:
    """The lobby's ``format`` option, checked: constructed (100.2) unless sealed or draft (100.3)."""
    value = str(options.get("format") or "constructed").strip().lower()
    if value not in FORMATS:
        raise RuleError("wowm.err.option", option="format", value=value[:20], allowed=", ".join(FORMATS))
    return value


def validate_options(out: dict[str, Any], options: dict[str, Any], content: dict[str, Any] | None) -> dict[str, Any]:
    """Adds ``format`` to options the constructed rules already checked; a limited format needs a scenario
    whose party the draft can fill and a pack whose boosters go round."""
    fmt = format_of(options)
    if fmt == "constructed":
        return out
    pack = pack_for(content)
    scenario = pack.scenario(str(out.get("scenario") or "standard"))
    if scenario.party_size > L.DRAFT_PICKS["characters"]:
        raise RuleError("wowm.err.limited_party", rule="100.3", size=scenario.party_size,
                        most=L.DRAFT_PICKS["characters"])
    if L.max_seats(pack) < L.MIN_SEATS:
        raise RuleError("wowm.err.limited_supply", rule="100.3", seats=L.MIN_SEATS, most=0)
    return {**out, "format": fmt}


def new_game(setup: Setup, dice: Dice, constructed: Callable[[Setup, Dice], tuple[State, list[Event]]]
             ) -> tuple[State, list[Event]]:
    """100.3: seat the table as ``constructed`` does (its parties are placeholders: every seat gets its
    faction's built-in one, whatever it asked for), then deal the boosters and drop the placeholders."""
    fmt = format_of(setup.options)
    options = {k: v for k, v in setup.options.items() if k != "format" and not str(k).startswith("party")}
    seats = [SeatSetup(seat=s.seat, user_id=s.user_id, name=s.name, team=s.team) for s in setup.seats]
    state, events = constructed(Setup(seats=seats, options=options, content=setup.content), dice)
    goal = options.get("goal")
    state.chars, state.pool, state.bar_choices = {}, {}, {}
    state.scenario.same_faction = False  # 100.3: mixed factions
    state.scenario.bar_per_char = L.SEALED_BAR
    for p in state.players:
        p.pool_public = False  # a limited pool is nobody's printed pool: every face-down card may react
        p.honor_total = 0
        p.goal = int(goal) if goal not in (None, "") else 0
    order = [s.seat for s in setup.seats]
    state.limited = L.open_limited(pack_for(setup.content), fmt, order, dice)  # type: ignore[arg-type]
    kept = [e for e in events if e.key != "wowm.ev.parties"]
    return state, [*kept, ev("limited_opened", format=fmt, seats=len(order),
                              picks=sum(state.limited.picks) if fmt == "draft" else 0)]


def parse(data: dict[str, Any] | Action) -> Action | None:
    """A draft pick or a build, or ``None`` for every other kind (the game's own parser reads those)."""
    raw = data.model_dump() if isinstance(data, Action) else data
    model = LIMITED_KINDS.get(str(raw.get("kind"))) if isinstance(raw, dict) else None
    if model is None:
        return None
    from pydantic import ValidationError

    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        field = ".".join(str(p) for p in exc.errors()[0]["loc"]) or "?"
        value = str(exc.errors()[0].get("input", ""))[:40]
        raise RuleError("wowm.err.bad_action", action=str(raw.get("kind")), value=value, field=field) from None


def decision(state: State) -> Decision:
    lim = state.limited
    assert lim is not None
    if lim.stage == "draft":  # 100.3: everyone picks at once, in secret
        waiting = [s for s in lim.order if s not in lim.answers]
        return Decision(seats=waiting, kind="draft_pick", prompt_key="wowm.ask.draft_pick",
                        params={"round": lim.round + 1, "rounds": len(lim.rounds), "pick": lim.pick + 1,
                                "picks": lim.picks[lim.round], "what": lim.rounds[lim.round],
                                "what_key": f"wowm.limited.{lim.rounds[lim.round]}"},
                        simultaneous=True, secret=True)
    waiting = [s for s in lim.order if s not in lim.built]
    return Decision(seats=waiting, kind="build_party", prompt_key=f"wowm.ask.build_{lim.format}",
                    params={"size": state.scenario.party_size, "bar": L.SEALED_BAR},
                    simultaneous=True, secret=True)


def legal(state: State, seat: int) -> list[Action]:
    """Every pick of the seat's booster; for the build, one legal build (there are too many to list)."""
    lim = state.limited
    assert lim is not None
    if seat not in decision(state).seats:
        return []
    if lim.stage == "draft":
        found: list[Action] = []
        for item in lim.hands.get(seat, []):
            try:
                L.check_pick(lim, state.scenario, seat, item)
            except RuleError:
                continue
            found.append(DraftPick(item=item))
        return found
    build = L.a_build(lim, state.scenario, seat)
    return [] if build is None else [BuildParty(party=build.party, bars=build.bars)]


def apply(state: State, seat: int, action: Action) -> list[Event]:
    lim = state.limited
    assert lim is not None
    if lim.stage == "draft":
        if not isinstance(action, DraftPick):
            raise RuleError("wowm.err.answer_first", prompt="draft_pick", prompt_key="wowm.ask_short.draft_pick",
                            action=action.kind, action_key=f"wowm.action.{action.kind}")
        return _pick(state, lim, seat, action)
    if not isinstance(action, BuildParty):
        raise RuleError("wowm.err.answer_first", prompt="build_party", prompt_key="wowm.ask_short.build_party",
                        action=action.kind, action_key=f"wowm.action.{action.kind}")
    lim.built[seat] = L.read_build(lim, state.scenario, seat, action.party, action.bars)
    build = lim.built[seat]
    events = [ev("party_built", seat=seat),
              ev("party_built_private", private_to=[seat], seat=seat,
                 bars={lim.characters[m].name: [lim.cards[k].name for k in build.bars.get(m, [])]
                       for m in build.party})]
    if all(s in lim.built for s in lim.order):
        events += _complete(state, lim)
    return events


def _pick(state: State, lim: LimitedState, seat: int, action: DraftPick) -> list[Event]:
    """One seat's secret pick; when all are in, every pick is taken and the boosters pass (100.3)."""
    item = L.find_item(lim, lim.hands.get(seat, []), action.item)
    L.check_pick(lim, state.scenario, seat, item)
    lim.answers[seat] = item
    events = [ev("draft_picked", seat=seat),
              ev("draft_picked_private", private_to=[seat], seat=seat, item=L.item_name(lim, item))]
    if len(lim.answers) < len(lim.order):
        return events
    round_before = lim.round
    _made, done = L.resolve_picks(lim)
    if done:
        events.append(ev("draft_over"))
    elif lim.round == round_before:
        direction = "left" if L.pass_direction(round_before) > 0 else "right"
        events.append(ev("draft_passed", direction=direction, direction_key=f"wowm.limited.{direction}"))
    else:
        events.append(ev("draft_round", round=lim.round + 1, rounds=len(lim.rounds)))
    return events


def _complete(state: State, lim: LimitedState) -> list[Event]:
    """101.2/101.2b: every party is revealed at once and its bars enter face down and ready; the game goes
    on exactly as a constructed one does once its bars are chosen."""
    used: set[str] = set()
    parties: dict[int, list[str]] = {}
    for seat in lim.order:
        build = lim.built[seat]
        player = state.player(seat)
        members = [lim.characters[m] for m in build.party]
        player.faction = members[0].faction
        player.honor_total = sum(c.honor for c in members)  # 102.1
        player.goal = player.goal or player.honor_total
        parties[seat] = [c.name for c in members]
        for defn in members:
            cid = f"{defn.id}-{seat + 1}"
            char = CharState(id=cid, owner=seat, controller=seat, defn=defn.model_copy(deep=True),
                             short=short_label(defn, used), health=defn.health, clock=1)  # 101.3
            for kid in build.bars.get(defn.id, []):
                char.bar.append(CardInstance(id=f"k{state.new_id()}", defn=lim.cards[kid].model_copy(deep=True),
                                             face_up=False, ready=True))
            state.chars[cid] = char
        state.pool[seat] = []
        player.bar_done = True
    state.limited = None
    state.phase = "play"
    state.stage = "tick_start"
    return [ev("parties", parties=parties, goals={p.seat: p.goal for p in state.players}), ev("bars_ready")]


def hide(view: State, seat: int | None) -> State:
    """A seat sees its own booster, pool, pick and build, and of the others only that they answered; the
    boosters still to open are nobody's to see. Definitions are kept for what the seat may see only."""
    lim = view.limited
    if lim is None:
        return view
    lim.hands = {s: items for s, items in lim.hands.items() if s == seat}
    lim.picked = {s: items for s, items in lim.picked.items() if s == seat}
    lim.answers = {s: item for s, item in lim.answers.items() if s == seat}
    lim.built = {s: build for s, build in lim.built.items() if s == seat}
    lim.unopened = {}
    visible = {i for items in (*lim.hands.values(), *lim.picked.values()) for i in items}
    lim.characters = {k: v for k, v in lim.characters.items() if L.char_item(k) in visible}
    lim.cards = {k: v for k, v in lim.cards.items() if L.card_item(k) in visible}
    return view
