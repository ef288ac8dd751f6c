"""WarlordEngine: the Engine Protocol over the Warlord rules implemented so far (system ``warlord``).

``decision`` reads the state only: set-up and the draw phase ask every seat at once and in secret
(``starting_army``, ``draw_discard``: only the hands that hold a card are asked); in the
order phase a pending reform comes first (``reform``, ranks), then the open attack (``choose_strike_target``),
then the seat whose order it is (``turn``).
``apply`` routes an action to its rules module and then ``rules_strikes.settle`` finds the next
decision point; ``view`` hides hands and decks (rules_view).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from engines.core import react_windows as RW
from engines.core.contract import Action, GameState, Outcome, Setup
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event, name_players
from engines.core.summary import Step
from engines.warlord import actions as A
from engines.warlord import rules_autopilot, rules_setup, rules_strikes, rules_summary, rules_turn, rules_view
from engines.warlord import rules_orders as O
from engines.warlord import rules_play as P
from engines.warlord import rules_ranks as R
from engines.warlord import rules_windows as W
from engines.warlord.rules_candidates import order_candidates
from engines.warlord.rules_common import add_italian_names, ev, italian_names
from engines.warlord.rules_deck import default_army
from engines.warlord.rules_gm import apply_gm, resign
from engines.warlord.rules_reacts import check_react, legal_reacts, probe
from engines.warlord.rules_stack import drive
from engines.warlord.state import State, WindowFrame
from engines.warlord.upgrades import SCHEMA

__all__ = ["WarlordEngine"]


def _named(state: State, events: list[Event], extra: dict[str, str] | None = None) -> list[Event]:
    """Seats named by their players, and the cards each event names also in Italian (``names_it``)."""
    events = name_players({p.seat: p.name for p in state.players}, events)
    table = italian_names(state, extra)
    if table:
        for event in events:
            add_italian_names(event.params, table)
    return events


class WarlordEngine:
    system: ClassVar[str] = "warlord"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    supports_resign: ClassVar[bool] = True
    supports_manual_dice: ClassVar[bool] = True  # the d20s ask their roller through ``Dice.roll_many``
    any_time_kinds: ClassVar[frozenset[str]] = A.ANY_TIME
    # draw-phase: the discard question is public when every seat it waits for holds no card (turn 1: no
    # opening hand, setup-army); the table then answers "discard nothing" itself (gm.table.forced)
    auto_answer_kinds: ClassVar[frozenset[str]] = frozenset({"draw_discard"})

    def known_options(self, options: dict[str, Any]) -> tuple[str, ...]:
        return tuple(rules_setup.OPTIONS)

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        return rules_setup.validate_options(options, content)

    def new_game(self, setup: Setup, dice: Dice) -> State:
        return self.new_game_with_events(setup, dice)[0]

    def new_game_with_events(self, setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
        state, events = rules_setup.new_game(setup, dice)
        pack = rules_setup.pack_for(setup.content)  # the decks' own names, for "plays the deck …"
        return state, _named(state, events, {d.name: d.name_it for d in pack.decks if d.name_it})

    def load_state(self, data: str) -> State:
        return SCHEMA.load(data)

    def parse_action(self, data: dict[str, Any]) -> Action:
        return A.parse_action(data)

    def view(self, state: GameState, seat: int | None) -> GameState:
        assert isinstance(state, State)
        return rules_view.hide(state, seat)

    def outcome(self, state: GameState) -> Outcome | None:
        assert isinstance(state, State)
        if state.phase != "over" or state.winners is None:
            return None
        return Outcome(winners=list(state.winners), reason_key=f"warlord.end.{state.end_reason or 'warlord_killed'}",
                       params={"turn": state.turn})

    # -- who decides -------------------------------------------------------------------
    def decision(self, state: GameState) -> Decision | None:
        """Who decides what now; the cards its prompt names travel in Italian too (``names_it``)."""
        assert isinstance(state, State)
        decision = self._decision(state)
        if decision is not None and decision.params:
            add_italian_names(decision.params, italian_names(state))
        return decision

    def _decision(self, state: State) -> Decision | None:
        if state.phase == "over":
            return None
        if state.phase == "setup":  # starting-army: all at once, secret
            return Decision(seats=[p.seat for p in state.players if p.alive and p.army_choice is None],
                            kind="starting_army",
                            prompt_key="warlord.ask.starting_army", simultaneous=True, secret=True)
        if state.phase == "draw":  # draw-phase: discards chosen at once, secret, by the hands that hold cards
            seats = rules_turn.choosing_discards(state)
            hidden = any(rules_turn.holds_cards(state, s) for s in seats)  # empty hands alone hide nothing
            if not seats:  # saved before empty hands were left out, it waits for one: asked in public, so the
                seats = [p.seat for p in state.players if p.alive and p.discard_choice is None]  # table answers
            return Decision(seats=seats, kind="draw_discard", prompt_key="warlord.ask.draw_discard",
                            simultaneous=True, secret=hidden, params={"turn": state.turn})
        top = state.stack[-1] if state.stack else None
        if isinstance(top, WindowFrame) and (state.reforming is None or top.trigger == "reforming"):
            # reacts: every asked seat answers at once, in secret; who is asked is public (rules_windows)
            asked = W.asked_seats(state, top, probe)
            return Decision(seats=RW.waiting(top, asked), kind="react", prompt_key="warlord.ask.react",
                            simultaneous=True, secret=True,
                            params={"trigger": top.trigger, "trigger_key": f"warlord.trigger.{top.trigger}",
                                    "source": state.name(top.source) if top.source else "",
                                    "target": state.name(top.target) if top.target else ""})
        if state.reforming is not None:
            return Decision(seats=[state.reforming], kind="reform", prompt_key="warlord.ask.reform",
                            params={"ranks": R.illegal_ranks(R.own_ranks(state, state.reforming))})
        if state.attack is not None:
            a = state.attack
            return Decision(seats=[a.seat], kind="choose_strike_target", prompt_key="warlord.ask.strike",
                            params={"attacker": state.name(a.attacker), "index": a.made + 1, "of": a.total})
        assert state.order_seat is not None
        return Decision(seats=[state.order_seat], kind="turn", prompt_key="warlord.ask.turn",
                        params={"turn": state.turn, "passes": state.consecutive_passes})

    # -- what is legal -----------------------------------------------------------------
    def summary_step(self, before: GameState, after: GameState, seat: int, events: list[Event]) -> Step | None:
        """Optional hook (``gm.table.summary``, issue 32): what one action changed in the game's measure."""
        assert isinstance(before, State) and isinstance(after, State)
        return rules_summary.step(before, after, seat, events)

    def turns_played(self, state: GameState) -> int:
        """Optional hook (``gm.table.summary``): the turns a game has played, for its end-of-game summary."""
        assert isinstance(state, State)
        return rules_summary.turns(state)

    def autopilot(self, state: GameState, seat: int) -> Action | None:
        """Optional hook (``gm.table.absent``, issue 32.2): the move of a seat the table plays while its
        player is absent, or None when the game does not wait for that seat."""
        decision = self.decision(state)
        if decision is None or seat not in decision.seats:
            return None
        return rules_autopilot.autopilot(self.legal_actions(state, seat), decision.kind)

    def skip_action(self, state: GameState, seat: int) -> Action | None:
        """Optional hook (``gm.table.autopilot``): what ``absent:skip`` plays, or None to keep waiting."""
        return rules_autopilot.skip(self.autopilot(state, seat))

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        return list(self._legal(state, seat))

    def any_legal(self, state: GameState, seat: int, kind: type[Action]) -> bool:
        """Whether one of ``seat``'s legal actions is a ``kind``, the same answer as looking through
        ``legal_actions``: only that kind's candidates are checked, up to the first that passes.

        Why (issue 28): the board's buttons ask whether an attack is possible after every order, and the
        whole list checked every recruit, manoeuvre and order besides, on the event loop (~0.25 ms an act)."""
        return next(self._legal(state, seat, kind), None) is not None

    def _legal(self, state: GameState, seat: int, kind: type[Action] | None = None) -> Iterator[Action]:
        """``seat``'s legal actions in ``legal_actions``'s order, only those of ``kind`` when one is given."""
        assert isinstance(state, State)
        d = self.decision(state)
        if d is None or seat not in d.seats:
            return
        if d.kind in ("starting_army", "draw_discard", "react"):
            yield from (a for a in self._answers(state, seat, d.kind) if kind is None or isinstance(a, kind))
            return
        candidates: list[Action]
        if d.kind == "reform":
            ranks = state.player(seat).ranks
            bad = set(R.illegal_ranks(R.own_ranks(state, seat)))
            candidates = [A.Reform(char=u, position=p) for k, row in enumerate(ranks) if k + 1 in bad for u in row
                          if state.chars[u].controller == seat for p in sorted({0, len(ranks[k - 1])})]
        elif d.kind == "choose_strike_target":
            assert state.attack is not None
            candidates = [A.StopAttack(), *(A.Strike(target=u) for u in
                                            rules_strikes.melee_targets(state, state.attack.attacker))]
        else:
            candidates = order_candidates(state, seat)
        for action in candidates:
            if kind is not None and not isinstance(action, kind):
                continue
            try:
                self._check(state, seat, action)
            except RuleError:
                continue
            yield action

    def _answers(self, state: State, seat: int, asked: str) -> list[Action]:
        """The legal answers to a question that lists its own answers (an army, a discard, a reaction), which
        ``_check`` has nothing to add to."""
        if asked == "starting_army":
            cards = [state.defn(u) for u in state.player(seat).deck_pool]
            found = default_army(cards, state.factions)
            if found is None:
                return []
            w, l1, l2 = found
            return [A.StartingArmy(warlord=w.name, level1=[c.name for c in l1], level2=[c.name for c in l2])]
        if asked == "draw_discard":
            return [A.DrawDiscard(cards=[]), *(A.DrawDiscard(cards=[u]) for u in state.player(seat).hand)]
        top = state.stack[-1]
        assert isinstance(top, WindowFrame)
        return [*legal_reacts(state, seat, top),
                *(A.PassReact(yield_for=y) for y in ("none", "window", "attack", "turn"))]  # type: ignore[arg-type]

    def _check(self, state: State, seat: int, action: Action) -> None:
        """The validation half of ``apply``, without changing anything."""
        if isinstance(action, A.Reform):
            R.check_reform(state, seat, action.char, action.position)
        elif isinstance(action, A.Strike):
            rules_strikes.check_strike(state, seat, action.target)
        elif isinstance(action, A.Attack):
            rules_strikes.check_attack(state, seat, action.attacker)
        elif isinstance(action, A.Recruit):
            O.check_recruit(state, seat, action.card, action.position)
        elif isinstance(action, A.Equip):
            O.check_equip(state, seat, action.item, action.host)
        elif isinstance(action, A.Maneuver):
            O.check_maneuver(state, seat, action.char, action.to, action.position)
        elif isinstance(action, A.UseOrder):
            P.plan_use(state, seat, action.source, action.ability, action.performer, action.target,
                       action.marksmanship)
        elif isinstance(action, A.PlayOrder):
            P.plan_play(state, seat, action.card, action.ability, action.performer, action.target)

    # -- doing it ----------------------------------------------------------------------
    def apply(self, state: GameState, seat: int, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        try:
            return self._apply(state, seat, A.parse_action(action), dice)
        except RuleError as exc:  # a refusal names cards too: in the reader's language as well
            add_italian_names(exc.params, italian_names(state))
            raise

    def _apply(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        if action.kind in A.GM_KINDS:  # golden-rule: text resolved by hand, logged
            return _named(state, apply_gm(state, action, dice) + drive(state, dice))
        d = self.decision(state)
        if d is None:
            raise RuleError("warlord.err.game_over")
        if seat not in state.living():
            raise RuleError("warlord.err.not_in_game", rule="victory")
        if isinstance(action, A.SetStops):  # reacts: a private preference, any time
            return set_stops(state, seat, action.stops)
        if isinstance(action, A.SetPreset):
            return set_preset(state, seat, action.preset)
        if isinstance(action, A.Resign):
            events = resign(state, seat)
            if state.phase == "setup":
                events += rules_setup.complete_setup(state, dice)
            elif state.phase == "draw" and not rules_turn.choosing_discards(state):
                events += rules_turn.finish_draw(state, dice)
            return _named(state, events + drive(state, dice))
        rule = _DECISION_RULES.get(d.kind, "order-phase")  # the rule of the moment, not always the order phase
        if seat not in d.seats:
            raise RuleError("warlord.err.not_your_turn", rule=rule)
        allowed = {"starting_army": {"starting_army"}, "draw_discard": {"draw_discard"}, "reform": {"reform"},
                   "choose_strike_target": {"strike", "stop_attack"}, "react": {"react", "pass_react"},
                   "turn": {"attack", "recruit", "equip", "maneuver", "use_order", "play_order", "pass"}}[d.kind]
        if action.kind not in allowed:
            raise RuleError("warlord.err.answer_first", rule=rule, prompt=d.kind,
                            prompt_key=f"warlord.ask_short.{d.kind}", action=action.kind,
                            action_key=f"warlord.action.{action.kind}")
        return _named(state, self._do(state, seat, action, dice) + drive(state, dice))

    def _do(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        if isinstance(action, A.StartingArmy):
            return rules_setup.starting_army(state, seat, action, dice)
        if isinstance(action, A.DrawDiscard):
            return rules_turn.draw_discard(state, seat, action.cards, dice)
        if isinstance(action, A.Reform):
            src, dst, st = R.do_reform(state, seat, action.char, action.position)
            return [ev("reformed", seat=seat, name=state.name(action.char), frm=src, to=dst, state=st)]
        if isinstance(action, A.Strike):
            return rules_strikes.do_strike(state, seat, action.target)
        if isinstance(action, A.StopAttack):
            return rules_strikes.stop_attack(state)
        if isinstance(action, A.Attack):
            return rules_strikes.do_attack(state, seat, action.attacker)
        if isinstance(action, A.Pass):
            return rules_turn.pass_order(state, seat, dice)
        if isinstance(action, (A.React, A.PassReact)):
            return _answer_window(state, seat, action)
        if isinstance(action, A.Recruit):
            events = O.do_recruit(state, seat, action.card, action.position)
        elif isinstance(action, A.Equip):
            events = O.do_equip(state, seat, action.item, action.host)
        elif isinstance(action, A.UseOrder):
            plan = P.plan_use(state, seat, action.source, action.ability, action.performer, action.target,
                              action.marksmanship)
            events = P.start(state, plan, dice)
        elif isinstance(action, A.PlayOrder):
            plan = P.plan_play(state, seat, action.card, action.ability, action.performer, action.target)
            events = P.start(state, plan, dice)
        else:
            assert isinstance(action, A.Maneuver)
            events = O.do_maneuver(state, seat, action.char, action.to, action.position)
        rules_turn.order_given(state, seat)
        return events


_DECISION_RULES = {"starting_army": "starting-army", "draw_discard": "draw-phase", "reform": "ranks",
                   "choose_strike_target": "attack", "react": "reacts", "turn": "order-phase"}


def _answer_window(state: State, seat: int, action: A.React | A.PassReact) -> list[Event]:
    """reacts: an answer to the open window, kept secret until it takes effect (``drive`` plays it in
    initiative order). The table sees only that the seat answered; the seat hears what it chose, and at its
    first pass the pre-set passes it may keep."""
    top = state.stack[-1]
    assert isinstance(top, WindowFrame)
    player = state.player(seat)
    if isinstance(action, A.React):
        option = check_react(state, seat, action)
        RW.answer(top, seat, option.model_dump())
        # reacts (spec 2.12): a react resolves at once when every seat before it in initiative order has
        # answered; the seat's private line then says it took effect (``at_once``), not that it waits
        step, first_react, _ = RW.next_step(top, W.asked_seats(state, top, probe))
        return [ev("react_answered", seat=seat),
                ev("react_chosen", seat=seat, private_to=[seat], name=state.name(option.source)
                   if not option.source.startswith("feat:") else option.source[5:],
                   performer=state.name(option.performer or ""), at_once=step == "react" and first_react == seat)]
    W.passed(top, seat, action.yield_for, player)
    first = not player.passed_once
    player.passed_once = True
    events = [ev("react_answered", seat=seat)]
    if action.yield_for != "none":
        events.append(ev("react_passed", seat=seat, yield_for=action.yield_for))
    return [*events, ev("react_pass_ack", seat=seat, private_to=[seat], first=first)]


def set_preset(state: State, seat: int, preset: str) -> list[Event]:
    """reacts: a pre-set pass the seat keeps (private)."""
    if preset not in (*W.PRESETS, "turn"):
        raise RuleError("warlord.err.bad_preset", rule="reacts", preset=preset, known=", ".join((*W.PRESETS, "turn")))
    if preset == "turn":  # the yield a pass may carry, kept without a window open
        state.player(seat).yield_until = "turn"
    else:
        state.player(seat).react_preset = preset  # type: ignore[assignment]
    return [ev("preset_set", private_to=[seat], seat=seat, preset=preset)]


def set_stops(state: State, seat: int, stops: list[str]) -> list[Event]:
    """reacts: the seat's private stop list (only its own ephemeral line words it)."""
    bad = [s for s in stops if s not in W.STOP_KINDS]
    if bad:
        raise RuleError("warlord.err.bad_stop", rule="reacts", stop=bad[0], known=", ".join(W.STOP_KINDS))
    state.player(seat).react_stops = list(dict.fromkeys(stops))
    return [ev("stops_set", private_to=[seat], seat=seat, stops=", ".join(stops) or "-")]
