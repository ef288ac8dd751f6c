"""WowMinisEngine: the Engine Protocol over the WoW Miniatures rules (system ``wowminis``).

The top of the package: ``decision`` says who must answer what (read from the state, which the
resolver always leaves at a decision point), ``legal_actions`` lists what ``apply`` accepts,
``apply`` routes an action to its rules module and then lets ``rules_resolve.settle`` run the
stack and the clocks until the next decision, and ``view`` hides other seats' secrets.

Decision kinds: ``choose_bar`` (simultaneous and secret: both seats, 101.2a), ``first_character``
(101.4), ``next_character`` (500.3c), ``spawn_point`` / ``spawn_placement`` (403.1a), ``turn``,
``react_window`` (701; asked from public data only), ``reroll`` (105.3), ``protector`` (600.3),
``order_triggers`` (704.2c), ``pet_placement`` (304.1), ``forced_path`` (404.3),
``exhaust_card`` (602.2), ``new_attack_target`` (602.5), ``forced_reroll`` (105.3, A31).

Mind control (400.3, ``rules_control``): a ``control`` step hands an enemy character to the caster's seat for a
turn nested in the caster's; ``decision`` then asks that seat for the controlled character's ``turn``, and the
interrupted turn resumes when it ends. ``State.controls`` holds what is in force.

Players (issue 29.1, ``rules_parties``): 2, 3 or 4 seats, a free-for-all past two; option ``teams`` (yes/no) makes
four seats two teams (1st+3rd against 2nd+4th). Allies and enemies all go through ``rules_board.relation``.
Set-up: options ``map`` (id or name), ``first`` (``random`` | ``1``-``4``), ``goal`` (an Honor override),
``scenario`` (100.1: an id or name of the pack's ``scenarios``; built-in ``standard``, ``short`` (the small map and
5 VP, issue 27.3), ``last_stand`` (403.1 permanent death, parties of two) and ``crossroads`` (406.3b neutral
spawn points change side; mixed factions); the scenario sets party size, faction rule, pool and bar sizes);
per seat ``config["party"]`` (the scenario's number of names, a list or ``"a, b, c"``), ``config["faction"]``
(the built-in party of that faction when no party is given) and ``config["pool"]`` (the party's pool by card
name instead of each character's own cards, A1).
``choose_bar`` answers are hidden from the other seat (``view``) and announced publicly only as "seat N has
chosen" (``bar_chosen``); the chooser gets ``bar_chosen_private`` (``private_to``). Helpers the table layer
uses for autocomplete: ``rules_moves.natural_moves`` (space → MP cost and route), ``rules_play.playables`` /
``cost_of`` / ``why_not``, ``rules_targeting.target_sets`` / ``aoe_choices``, ``rules_board.los_report`` and
``rules_clock.clock_summary``. """

from __future__ import annotations

from typing import Any, ClassVar

from engines.core import react_windows as RW
from engines.core.contract import Action, GameState, Outcome, Setup
from engines.core.decision import Decision, Option
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event, name_players
from engines.core.summary import Step
from engines.wowminis import actions as A
from engines.wowminis import (
    limited_draft,
    rules_clock,
    rules_destroy,
    rules_legal,
    rules_play,
    rules_react,
    rules_replace,
    rules_resign,
    rules_resolve,
    rules_setup,
    rules_summary,
    rules_view,
)
from engines.wowminis.rules_board import ev, parse_space
from engines.wowminis.rules_moves import start_natural
from engines.wowminis.rules_targeting import resolve_piece
from engines.wowminis.state import PlayFrame, State, StepsFrame, WaveFrame, WindowFrame, shown
from engines.wowminis.upgrades import SCHEMA

__all__ = ["WowMinisEngine"]

# the rule that says who answers, cited by "not your turn"
WHOSE_RULE = {"react_window": "701.2", "choose_bar": "101.2a", "first_character": "101.4",
              "next_character": "500.3c", "turn": "501.2", "protector": "600.3", "reroll": "105.3",
              "order_triggers": "704.2c", "forced_reroll": "105.3",
              "replacement": "709.2a"}


def _named(state: State, events: list[Event]) -> list[Event]:
    return name_players({p.seat: p.name for p in state.players}, events)


def _answer_first(kind: str, action: str) -> RuleError:
    """The open question comes first; both names are worded from keys (``*_key``)."""
    return RuleError("wowm.err.answer_first", prompt=kind, prompt_key=f"wowm.ask_short.{kind}", action=action,
                     action_key=f"wowm.action.{action}")


class WowMinisEngine:
    system: ClassVar[str] = "wowminis"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4  # 101.1 is written for two; a free-for-all of 3-4 or 2 vs 2 (rules_parties)
    supports_resign: ClassVar[bool] = True
    supports_manual_dice: ClassVar[bool] = True  # attack and defense d10s ask their roller
    # Actions a seated seat may send whoever the open decision waits for (the table lets them through and
    # ``_apply`` handles them before it asks whose turn it is): comfort preferences are one's own at any
    # time (701 note), a face-down card may be revealed at any time (300.1, A35), and resigning.
    any_time_kinds: ClassVar[frozenset[str]] = A.ANY_TIME
    # Questions whose answers depend on public facts only (clocks, the map, spawn points): when one of
    # them has a single legal answer the table gives it and says so (gm/table/forced.py, issue 26.6).
    # 500.3c/A8: at a tie the chooser may pick any tied character, an enemy one included, so a tie of
    # two or more always leaves a choice; one tied character acts without a question (500.3b).
    auto_answer_kinds: ClassVar[frozenset[str]] = frozenset({
        "first_character", "next_character", "spawn_point", "spawn_placement", "protector", "pet_placement",
        "forced_path"})

    # -- lobby and loading -------------------------------------------------------------
    def known_options(self, options: dict[str, Any]) -> tuple[str, ...]:
        return (*rules_setup.OPTIONS, "format")  # format: 100.3's limited formats (limited_draft)

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        """Lobby hook: 2, 3 or 4 seats; ``teams:yes`` needs exactly 4 (rules_setup.player_counts)."""
        return rules_setup.player_counts(options)

    def min_players_for(self, options: dict[str, Any]) -> int:
        return min(rules_setup.player_counts(options))

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        return limited_draft.validate_options(rules_setup.validate_options(options, content), options, content)

    def new_game(self, setup: Setup, dice: Dice) -> State:
        return self.new_game_with_events(setup, dice)[0]

    def new_game_with_events(self, setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
        if limited_draft.format_of(setup.options) != "constructed":  # 100.3: sealed or draft first
            state, events = limited_draft.new_game(setup, dice, rules_setup.new_game)
        else:
            state, events = rules_setup.new_game(setup, dice)
        return state, _named(state, events)

    def load_state(self, data: str) -> State:
        """Any saved version, upgraded (engines/wowminis/upgrades.py); StateUnreadable otherwise."""
        return SCHEMA.load(data)

    def parse_action(self, data: dict[str, Any]) -> Action:
        return limited_draft.parse(data) or A.parse_action(data)

    def view(self, state: GameState, seat: int | None) -> GameState:
        assert isinstance(state, State)
        return limited_draft.hide(rules_view.hide(state, seat), seat)

    def outcome(self, state: GameState) -> Outcome | None:
        assert isinstance(state, State)
        if state.phase != "over" or state.winners is None:
            return None
        return Outcome(winners=list(state.winners), reason_key=f"wowm.end.{state.end_reason or 'honor'}",
                       params={"vp": {p.seat: p.vp for p in state.players},
                               "goal": {p.seat: p.goal for p in state.players}, "round": state.round})

    # -- who decides -------------------------------------------------------------------
    def decision(self, state: GameState) -> Decision | None:
        assert isinstance(state, State)
        if state.phase == "over":
            return None
        if state.limited is not None:  # 100.3: the draft's picks, then the builds
            return limited_draft.decision(state)
        if state.phase == "choose_bar":  # 101.2a: both seats at once, nobody sees the other's answer
            waiting = [p.seat for p in state.players if not p.bar_done]
            return Decision(seats=waiting, kind="choose_bar", prompt_key="wowm.ask.choose_bar",
                            params={"size": state.scenario.bar_per_char}, simultaneous=True, secret=True)
        pending = state.pending
        if pending is not None:
            return Decision(seats=[pending.seat], kind=pending.kind, prompt_key=f"wowm.ask.{pending.kind}",
                            params=dict(pending.params),
                            options=[Option(value=o.value, label_key=o.label_key, params=dict(o.params))
                                     for o in pending.options])
        w = rules_react.current(state)
        if w is not None:  # 701.2: every asked seat answers at once, in secret; who is asked is public
            return Decision(seats=RW.waiting(w, rules_react.asked_seats(state, w)), kind="react_window",
                            prompt_key="wowm.ask.react_window", params=self._window_params(state, w),
                            simultaneous=True, secret=True)
        turn = state.turn
        if turn is None or turn.char not in state.chars:
            return None  # never reached: the resolver always stops at a decision
        c = state.chars[turn.char]
        return Decision(seats=[c.controller], kind="turn", prompt_key="wowm.ask.turn",
                        params={"char": c.defn.name, "tick": state.tick, "round": state.round,
                                "clock": shown(c.clock), "moved": turn.moved, "action_used": turn.action_used,
                                "must_move": turn.must_move})

    @staticmethod
    def _window_params(state: State, w: WindowFrame) -> dict[str, Any]:
        """Only public data: the event that opened the window, never who could react (701 note)."""
        caster = state.chars.get(w.caster or "")
        subject = state.chars.get(w.char or "")
        return {"window": w.window, "window_key": f"wowm.window.{w.window}", "ability": w.ability,
                "caster": caster.defn.name if caster else "", "char": subject.defn.name if subject else "",
                "targets": [state.chars[t].defn.name for t in w.targets if t in state.chars]}

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        assert isinstance(state, State)
        if state.limited is not None:
            return limited_draft.legal(state, seat)
        return rules_legal.legal(state, seat)

    # -- acting ------------------------------------------------------------------------
    def apply(self, state: GameState, seat: int, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        parsed = self.parse_action(action.model_dump() if not isinstance(action, dict) else action)
        events = self._apply(state, seat, parsed, dice)
        if state.phase == "play":
            events += rules_resolve.settle(state, dice)
        return _named(state, events)

    def _apply(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        if action.kind in A.GM_KINDS:
            return self._apply_gm(state, action)
        if state.phase == "over":
            raise RuleError("wowm.err.game_over")
        if seat not in [p.seat for p in state.players]:
            raise RuleError("wowm.err.not_your_turn", seat=seat)
        if isinstance(action, A.Resign):
            if state.player(seat).resigned:
                raise RuleError("wowm.err.already_resigned")
            return rules_resign.resign(state, seat)  # the last party left wins; else play goes on
        if isinstance(action, A.Prefs):
            p = state.player(seat)
            if action.auto_pass is not None:
                p.auto_pass = action.auto_pass
            if action.auto_reroll is not None:
                p.auto_reroll = action.auto_reroll
            return [ev("prefs", seat=seat, auto_pass=p.auto_pass, auto_reroll=p.auto_reroll, private_to=[seat]),
                    *rules_react.settings_changed(state, seat)]
        if state.limited is not None:
            if seat not in limited_draft.decision(state).seats:
                raise RuleError("wowm.err.not_your_turn", rule="100.3", seat=seat)
            return limited_draft.apply(state, seat, action)  # 100.3
        if isinstance(action, A.Reveal):
            if state.phase != "play":
                raise RuleError("wowm.err.wrong_time", rule="300.1", action="reveal", action_key="wowm.action.reveal")
            return rules_play.reveal(state, seat, action.card)  # 300.1/A35: any time, passes nothing
        decision = self.decision(state)
        if decision is None or seat not in decision.seats:
            rule = WHOSE_RULE.get(decision.kind, "501.2") if decision is not None else None
            raise RuleError("wowm.err.not_your_turn", rule=rule, seat=seat)
        if state.phase == "choose_bar":
            if not isinstance(action, A.ChooseBar):
                raise _answer_first("choose_bar", action.kind)
            return rules_setup.choose_bar(state, seat, action)
        if state.pending is not None:
            return self._answer(state, action)
        if decision.kind == "react_window":
            if isinstance(action, A.React):
                return rules_react.answer_react(state, seat, action)
            if isinstance(action, A.Pass):
                return rules_react.pass_window(state, seat)
            raise _answer_first("react_window", action.kind)
        return self._turn(state, action)

    def _answer(self, state: State, action: Action) -> list[Event]:
        pending = state.pending
        assert pending is not None
        if pending.kind == "reroll":
            if not isinstance(action, A.Reroll):
                raise _answer_first("reroll", action.kind)
            if not rules_legal.reroll_ok(state, action.dice):
                raise RuleError("wowm.err.bad_reroll", rule="105.3", max=pending.params.get("max", 1))
            top = state.stack[-1]
            assert isinstance(top, PlayFrame)
            top.answer = ",".join(str(i) for i in sorted(set(action.dice)))
            state.pending = None
            return [ev("reroll_chosen", seat=pending.seat, dice=[i + 1 for i in sorted(set(action.dice))])]
        if not isinstance(action, A.Choose):
            raise _answer_first(pending.kind, action.kind)
        value = self._option_value(state, action.value)
        if value is None:
            raise RuleError("wowm.err.bad_choice", value=action.value[:40],
                            known=rules_clock.option_names(pending.options))
        if pending.kind in ("first_character", "next_character"):
            return rules_clock.answer_next(state, value)
        state.pending = None
        if pending.kind == "spawn_point":
            return rules_clock.spawn(state, state.chars[state.turn.char], value)  # type: ignore[union-attr]
        if pending.kind == "spawn_placement":
            return rules_clock.place(state, state.chars[state.turn.char], value)  # type: ignore[union-attr]
        if pending.kind == "replacement":  # 709.2: replayed by rules_replace when the damage resumes
            return rules_replace.answer(state, value)
        top = state.stack[-1]
        assert isinstance(top, (PlayFrame, StepsFrame, WaveFrame))
        top.answer = value
        return []

    @staticmethod
    def _option_value(state: State, raw: str) -> str | None:
        """An option by value, or by the name/label people type (TABLE_UX: names, not ids)."""
        pending = state.pending
        assert pending is not None
        text = raw.strip().lower()
        for o in pending.options:
            if o.value.lower() == text:
                return o.value
        for o in pending.options:
            if any(str(v).lower() == text for v in o.params.values()):
                return o.value
        return None

    def _turn(self, state: State, action: Action) -> list[Event]:
        turn = state.turn
        assert turn is not None
        c = state.chars[turn.char]
        if turn.must_move and not isinstance(action, A.Move):
            raise RuleError("wowm.err.must_move", rule="403.1a", name=c.defn.name)
        if isinstance(action, A.Move):
            spawning = c.pos is None
            events = start_natural(state, c, action.to, action.path)
            if spawning:
                events += rules_clock.after_spawn_move(state, c)
            return events
        if isinstance(action, A.Play):
            return rules_play.begin_play(state, c, action)
        if isinstance(action, A.LeaveForm):
            return rules_play.leave_form(state, c)
        if isinstance(action, A.EndTurn):
            return rules_clock.end_turn(state)
        # pass, react, reroll, choose: they answer a window or a question, and none is open
        raise RuleError("wowm.err.nothing_to_answer", rule="501.2", action=action.kind,
                        action_key=f"wowm.action.{action.kind}")

    def _apply_gm(self, state: State, action: Action) -> list[Event]:
        """GM overrides bypass the rules but keep the invariants (408.2a, 406.1); they are logged."""
        if isinstance(action, A.GmVp):
            p = state.player(action.seat)
            p.vp = action.vp
            return [ev("gm_vp", seat=action.seat, vp=action.vp), *rules_destroy.check_victory(state)]
        cid = resolve_piece(state, action.char)  # type: ignore[attr-defined]
        c = state.chars.get(cid)
        if c is None:
            raise RuleError("wowm.err.unknown_piece", name=action.char, known="")  # type: ignore[attr-defined]
        if isinstance(action, A.GmHealth):
            from engines.wowminis.rules_stats import max_health

            c.health = min(action.health, max_health(state, c))
            return [ev("gm_health", name=c.defn.name, health=c.health), *rules_destroy.check(state)]
        if isinstance(action, A.GmClock):
            c.clock = state.master + action.ahead
            return [ev("gm_clock", name=c.defn.name, tick=shown(c.clock))]
        if isinstance(action, A.GmPlace):
            if action.space is None:
                c.pos = None
            else:
                from engines.wowminis.rules_board import can_stop

                space = parse_space(state, action.space)
                if not can_stop(state, c, space):
                    raise RuleError("wowm.err.occupied", rule="406.1", space=space)
                c.pos = space
            return [ev("gm_place", name=c.defn.name, space=action.space or "")]
        raise RuleError("wowm.err.unknown_action", action=action.kind, known="")

    def summary_step(self, before: GameState, after: GameState, seat: int, events: list[Event]) -> Step | None:
        """Optional hook (``gm.table.summary``, issue 32): what one action changed in the game's measure."""
        assert isinstance(before, State) and isinstance(after, State)
        return rules_summary.step(before, after, seat, events)

    def turns_played(self, state: GameState) -> int:
        """Optional hook (``gm.table.summary``): the turns a game has played, for its end-of-game summary."""
        assert isinstance(state, State)
        return rules_summary.turns(state)

    def autopilot(self, state: GameState, seat: int) -> Action | None:
        """Optional hook (``gm.table.absent``, issue 32.2): the move of an absent seat, or None."""
        from engines.wowminis import rules_autopilot  # imported here: the one line this hook adds

        return rules_autopilot.autopilot(state, seat)
