"""KrosmasterEngine: the Engine Protocol over the rules modules (1 vs 1 and section 7).

The top of the package: it asks the modules below who must decide what (``decision``), lists
what they accept (``legal_actions``) and routes each action (``apply``). When an action starts
a resolution (a cast, a walk onto a trap, a GM K.O.) and that resolution is over, ``_proceed``
hands back to the flow it interrupted (``CastContext.then``). Module order, bottom to top:
content/content_arena/state/actions/upgrades, rules_board, the rules modules, resolution,
rules_turn, rules_setup, rules_resign, engine (``tests/krosmaster/test_layering.py`` keeps it so).
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines.core.contract import Action, GameState, Outcome, Setup
from engines.core.decision import Decision, Option
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event, name_players
from engines.core.square import Square
from engines.core.summary import Step
from engines.krosmaster import actions as A
from engines.krosmaster import (
    resolution,
    rules_autopilot,
    rules_gg,
    rules_kamas,
    rules_multiplayer,
    rules_resign,
    rules_rewards,
    rules_setup,
    rules_summary,
    rules_turn,
)
from engines.krosmaster.content import Pack, known, pack_for
from engines.krosmaster.rules_board import Board, ev, label, parse_on, sq
from engines.krosmaster.rules_casting import CastPlan, check_cast, plan_casts, spells_of
from engines.krosmaster.rules_movement import MoveOption, move, reachable
from engines.krosmaster.rules_powers_more import note_collected, refresh_conditionals
from engines.krosmaster.rules_team import validate_team as _validate_team
from engines.krosmaster.rules_victory import check_victory, last_gg_lost
from engines.krosmaster.state import State
from engines.krosmaster.upgrades import SCHEMA

__all__ = ["KrosmasterEngine", "area_for", "reachable_squares", "spell_targets", "spells_of", "validate_team"]
CHOICE_KINDS = frozenset({"give_gg", "tension_pick", "choose_side", "tension_faces", "order_effects", "order_kos",
                          "order_summons", "order_fight_start"})


def wrong_phase(kind: str, action: str) -> RuleError:
    """An action the open decision does not take, worded by keys (``km.phase.*``, ``km.action.*``)."""
    return RuleError("km.err.wrong_phase", phase=kind, phase_key=f"km.phase.{kind}", action=action,
                     action_key=f"km.action.{action}")


def validate_team(
    figurine_ids: list[str], fmt: str = "constructed", content: dict[str, Any] | None = None
) -> list[str]:
    """For the lobby (``/km team``): the figurine names, or a RuleError saying which rule fails."""
    pack: Pack = pack_for(content)
    return [fig.name for fig in _validate_team(figurine_ids, pack, fmt)]


def reachable_squares(state: State, piece_id: str | None = None) -> dict[str, MoveOption]:
    """Squares the (active) piece can walk to, with MP cost, lock checks and route."""
    pid = piece_id or state.active_piece
    if pid is None:
        return {}
    return reachable(state, state.pieces[pid])


def spell_targets(state: State, spell_id: str, piece_id: str | None = None) -> list[CastPlan]:
    """Legal (target, direction) casts of one spell, each with its area squares and pieces hit."""
    pid = piece_id or state.active_piece
    if pid is None:
        return []
    piece = state.pieces[pid]
    for spell in spells_of(state, piece):
        if spell.id == spell_id:
            return plan_casts(state, Board.of(state), piece, spell)
    return []


def area_for(state: State, spell_id: str, target: str, direction: str | None = None) -> list[str]:
    """The squares a cast would hit (main target first), for highlighting on the board."""
    for plan in spell_targets(state, spell_id):
        if label(plan.target) == target.upper() and (direction is None or plan.direction in (None, direction)):
            return [label(s) for s in plan.squares]
    return []


def _name_players(state: State, events: list[Event]) -> list[Event]:
    return name_players({p.seat: p.name for p in state.players}, events)


SETUP_PHASES = ("order_ties", "choose_side", "deploy")


class KrosmasterEngine:
    system: ClassVar[str] = "krosmaster"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2  # a plain table is a duel; ``mode:ffa|teams`` opens 4 seats (section 7)
    most_players: ClassVar[int] = 4  # 701.1, with one of the table options below
    more_seats_options: ClassVar[str] = "mode:ffa, mode:teams"
    supports_resign: ClassVar[bool] = True  # ``{"kind": "resign"}`` from any seat (rules_resign)
    supports_manual_dice: ClassVar[bool] = True  # every roll goes through ``Dice.roll_many`` with its roller

    # -- lobby -------------------------------------------------------------------------
    def max_players_for(self, options: dict[str, Any]) -> int:
        """Lobby hook: seats a table offers; 4 for free-for-all and 2-vs-2 (701.1)."""
        return self.most_players if self._four(options) else self.max_players

    def min_players_for(self, options: dict[str, Any]) -> int:
        """Lobby hook: free-for-all starts with three or four (702), 2-vs-2 needs four (703)."""
        mode = str(options.get("mode", "duel")).lower()
        return {"ffa": 3, "teams": self.most_players}.get(mode, self.min_players)

    @staticmethod
    def _four(options: dict[str, Any]) -> bool:
        return str(options.get("mode", "duel")).lower() in ("ffa", "teams")

    def known_options(self, options: dict[str, Any]) -> tuple[str, ...]:
        return rules_setup.OPTIONS

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        return rules_setup.validate_options(options, content)

    def validate_seat_config(self, config: dict[str, Any], options: dict[str, Any],
                             content: dict[str, Any] | None = None) -> dict[str, Any]:
        """Lobby hook: a seat's team is checked against 101 before it is stored."""
        team = config.get("team")
        if not isinstance(team, list) or not all(isinstance(x, str) for x in team):
            raise RuleError("km.err.team_not_list", rule="101")
        if options.get("mode") in ("ffa", "teams"):  # 701.2: 2 Krosmasters each
            rules_multiplayer.validate_multi_team(team, pack_for(content))
            return {"team": team}
        self.validate_team(team, str(options.get("format", "constructed")), content)
        return {"team": team}

    def validate_team(self, figurine_ids: list[str], fmt: str = "constructed",
                      content: dict[str, Any] | None = None) -> list[str]:
        return validate_team(figurine_ids, fmt, content)

    def new_game(self, setup: Setup, dice: Dice) -> State:
        state, _events = rules_setup.new_game(setup, dice)
        return state

    def new_game_with_events(self, setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
        state, events = rules_setup.new_game(setup, dice)
        return state, _name_players(state, events)

    # -- reading -----------------------------------------------------------------------
    def load_state(self, data: str) -> State:
        """Any saved version, upgraded (engines/krosmaster/upgrades.py); StateUnreadable otherwise."""
        return SCHEMA.load(data)

    def parse_action(self, data: dict[str, Any]) -> Action:
        return A.parse_action(data)

    def view(self, state: GameState, seat: int | None) -> GameState:
        assert isinstance(state, State)
        return rules_rewards.hide(state, seat)  # 306.6b: face-down demonic rewards

    def outcome(self, state: GameState) -> Outcome | None:
        assert isinstance(state, State)
        if state.phase != "over" or state.winners is None:
            return None
        return Outcome(winners=state.winners, reason_key=f"km.end.{state.end_reason}")

    def decision(self, state: GameState) -> Decision | None:
        assert isinstance(state, State)
        phase = state.phase
        if phase == "over":
            return None
        pending = rules_multiplayer.pending_decision(state)  # 702.5/702.6 choices come first
        if pending is not None:
            return pending
        if phase == "order_effects":  # 107.1: K.O.s and pending effects, 315.3a summons, 103.10b powers
            order = (resolution.decision(state) or rules_turn.summons_decision(state)
                     or rules_setup.fight_decision(state))
            if order is not None:
                return order
        if phase == "order_ties":
            return Decision(seats=[p.seat for p in state.players if p.ties_pending], kind="order_ties",
                            prompt_key="km.ask.order_ties")
        if phase == "choose_side":
            seat = rules_multiplayer.side_chooser(state)  # 103.2, 702.2
            return Decision(seats=[seat], kind="choose_side", prompt_key="km.ask.choose_side",
                            options=[Option(value=s, label_key=f"km.side.{s}")
                                     for s in rules_setup.side_options(state)])
        if phase == "deploy":
            seat = rules_setup.deploying_seat(state)
            return Decision(seats=[seat] if seat is not None else [], kind="deploy", prompt_key="km.ask.deploy")
        if phase == "tension_faces":
            return Decision(seats=[state.active_seat], kind="tension_faces", prompt_key="km.ask.tension_faces",
                            options=[Option(value=",".join(o), label_key="km.option.faces",
                                            params={"first": o[0], "second": o[1]})
                                     for o in state.tension_options])
        if phase == "inspiration":
            return Decision(seats=[state.active_seat], kind="inspiration", prompt_key="km.ask.inspiration",
                            params={"faces": state.inspiration_dice})
        if phase == "assign_reward":  # 306.6: one option per Krosmaster that can hold the token (306.7)
            return Decision(seats=[state.active_seat], kind="assign_reward", prompt_key="km.ask.assign_reward",
                            params={"reward": state.rewards.pending.id if state.rewards.pending else ""},
                            options=[Option(value=p.id, label_key="km.option.holder",
                                            params={"name": p.short, "figurine": p.figurine.name,
                                                    "figurine_it": p.figurine.name_it,
                                                    "held": len(p.rewards), "level": p.level})
                                     for p in rules_rewards.holders(state, state.active_seat)])
        active = state.pieces.get(state.active_piece or "")
        return Decision(seats=[state.active_seat], kind="turn", prompt_key="km.ask.turn",
                        params={"piece": active.short if active else ""})

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

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """Exactly the actions ``apply`` accepts from ``seat`` now (GM overrides excluded)."""
        assert isinstance(state, State)
        decision = self.decision(state)
        if decision is None or seat not in decision.seats:
            return []
        phase = state.phase
        if decision.kind in CHOICE_KINDS:
            return [A.Choose(value=o.value) for o in decision.options]
        if phase == "order_ties":
            return [A.OrderTies(piece=p) for p in state.player(seat).ties_pending[0]]
        if phase == "deploy":
            squares = rules_setup.free_starting_squares(state, seat)
            return [A.Deploy(piece=p.id, square=s) for p in state.pieces_of(seat) if p.pos is None
                    for s in squares]
        if phase == "inspiration":
            return self._inspire_actions(state, seat)
        if phase == "assign_reward":
            return rules_rewards.assign_actions(state, seat)
        return self._turn_actions(state)

    def _inspire_actions(self, state: State, seat: int) -> list[Action]:
        pieces = [p.id for p in state.pieces_of(seat) if p.in_play and p.summon is None]  # 403.1: Krosmasters
        faces = state.inspiration_dice
        seen: set[tuple[tuple[str, str], ...]] = set()
        result: list[Action] = []
        combos: list[list[tuple[int, str]]] = [[]]
        combos += [[(d, p)] for d in range(len(faces)) for p in pieces]
        if len(faces) == 2:
            combos += [[(0, p), (1, q)] for p in pieces for q in pieces]
        for combo in combos:
            key = tuple(sorted((faces[d], p) for d, p in combo))
            if key in seen:
                continue
            seen.add(key)
            result.append(A.Inspire(placements=[A.Placement(die=d, piece=p) for d, p in combo]))
        return result

    def _turn_actions(self, state: State) -> list[Action]:
        piece = state.pieces[state.active_piece]  # type: ignore[index]
        board = Board.of(state)
        result: list[Action] = [A.EndTurn()]
        for option in reachable(state, piece, board).values():
            result.append(A.Move(to=option.square))
        for spell in spells_of(state, piece):
            plans = plan_casts(state, board, piece, spell)
            per_target: dict[Square, int] = {}
            for plan in plans:
                per_target[plan.target] = per_target.get(plan.target, 0) + 1
            for plan in plans:
                direction = plan.direction if per_target[plan.target] > 1 else None
                result.append(A.Cast(spell=spell.id, target=label(plan.target), direction=direction))  # type: ignore[arg-type]
        if piece.summon is not None:  # 315.3b: summons only move and cast
            return result
        if piece.ap >= 1 and state.board.kamas.get(piece.pos or "", 0) > 0:
            result.append(A.Collect())
        result += rules_kamas.turn_actions(state, piece)  # 305.3
        result += rules_rewards.turn_actions(state, piece)  # 306.4, 306.8
        return result

    # -- acting ------------------------------------------------------------------------
    def apply(self, state: GameState, seat: int, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        refresh_conditionals(state)  # 307.25/307.26 before and after each action
        events = self._apply(state, seat, action, dice)
        refresh_conditionals(state)
        return _name_players(state, events)

    def _apply(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        action = A.parse_action(action)
        if action.kind in A.GM_KINDS:
            then = "turn" if state.phase == "turn" else "gm"
            events = self._apply_gm(state, action)
            return events + self._settle(state, dice, then)  # a bomb the GM K.O.s still explodes (315.4)
        if isinstance(action, A.Resign):  # out of turn: a player may leave at any moment
            return rules_resign.resign(state, seat, dice)
        decision = self.decision(state)
        if decision is None:
            raise RuleError("km.err.game_over")
        if seat not in decision.seats:
            raise RuleError("km.err.not_your_turn", seat=seat)
        if decision.kind in CHOICE_KINDS and not isinstance(action, A.Choose):
            raise wrong_phase(decision.kind, action.kind)
        if isinstance(action, A.Choose) and decision.kind in CHOICE_KINDS:
            return self._answer(state, decision, action.value, dice)
        phase = state.phase
        if isinstance(action, A.OrderTies) and phase == "order_ties":
            events = rules_setup.order_tie(state, seat, action.piece)
            return events + rules_setup.advance_setup(state, dice)
        if isinstance(action, A.Deploy) and phase == "deploy":
            return rules_setup.deploy(state, seat, action.piece, action.square, dice)
        if isinstance(action, A.Inspire) and phase == "inspiration":
            return rules_turn.inspire(state, seat, [(p.die, p.piece) for p in action.placements], dice)
        if isinstance(action, A.AssignReward) and phase == "assign_reward":
            return rules_rewards.assign(state, seat, action.reward, action.piece)
        if isinstance(action, A.Choose) and phase == "assign_reward":  # the select offers the holders
            pending = state.rewards.pending
            return rules_rewards.assign(state, seat, pending.id if pending else "", action.value)
        if phase == "turn":
            return self._apply_turn(state, action, dice)
        raise wrong_phase(decision.kind, action.kind)

    def _answer(self, state: State, decision: Decision, value: str, dice: Dice) -> list[Event]:
        """A ``choose`` answering the open closed question."""
        kind = decision.kind
        if kind in ("give_gg", "tension_pick"):  # 702.5, 702.6
            multi = state.multi
            assert multi is not None
            chosen = rules_multiplayer.check_choice(decision, value)
            events = (rules_gg.give_gg(state, multi.gifts.pop(0), chosen) if kind == "give_gg"
                      else rules_multiplayer.pick_tension_loser(state, chosen))
            events += check_victory(state)
            if state.cast is not None and not multi.gifts and state.phase != "over":  # a K.O. waited for it
                then = state.cast.then
                events += resolution.run(state, dice)
                events += self._proceed(state, then, dice)
            return events
        if kind == "choose_side":
            return rules_setup.choose_side(state, value, dice)
        if kind == "tension_faces":
            faces = value.split(",")
            if faces not in state.tension_options:
                raise RuleError("km.err.bad_choice", rule="106.2", value=value,
                                known="; ".join(",".join(o) for o in state.tension_options))
            return rules_turn.settle_tension(state, faces, dice)
        if kind in ("order_kos", "order_effects"):  # 107.1, 602.9a
            assert state.cast is not None
            then = state.cast.then
            events = resolution.choose(state, value, dice)
            return events + self._proceed(state, then, dice)
        if kind == "order_summons":  # 315.3a
            return rules_turn.order_summon(state, value, dice)
        return rules_setup.order_fight_power(state, value, dice)  # 103.10b

    def _settle(self, state: State, dice: Dice, then: str) -> list[Event]:
        """Resolve what an action left waiting (K.O.s, a sprung trap), then carry on."""
        events = resolution.settle(state, dice, then)
        return events + self._proceed(state, then, dice)

    def _proceed(self, state: State, then: str, dice: Dice) -> list[Event]:
        """Once nothing is left to resolve, return to the flow that started the resolution."""
        if state.cast is not None or state.phase == "over":
            return []  # still waiting for a choice, or the game is over
        if then == "fight":
            return rules_setup.begin_fight(state, dice)  # 103.10 done: the first turn
        if then == "gm":  # an override during set-up may finish it (the GM deployed the last piece)
            return rules_setup.advance_setup(state, dice) if state.phase in SETUP_PHASES else []
        return rules_turn.continue_after(state, then, dice)

    def _apply_turn(self, state: State, action: Action, dice: Dice) -> list[Event]:
        piece = state.pieces[state.active_piece]  # type: ignore[index]
        if isinstance(action, A.EndTurn):
            return rules_turn.end_activation(state, dice)
        # 315.3b, 304.2: only Krosmasters pick up kamas and buy; summons move and cast.
        if piece.summon is not None and not isinstance(action, A.Move | A.Cast):
            raise RuleError("km.err.summon_action", rule="315.3b", action=action.kind,
                            action_key=f"km.action.{action.kind}")
        if isinstance(action, A.Move):
            events = move(state, piece, action.to, action.path, dice)
            return events + self._settle(state, dice, "turn")  # a trap may K.O. the walker (315.6)
        if isinstance(action, A.Cast):
            plan = check_cast(state, piece, action.spell, action.target, action.direction)
            events = resolution.cast(state, piece, plan, dice)
            return events + self._proceed(state, "turn", dice)
        if isinstance(action, A.Collect):  # 503.4; kamas are not pieces on a square (304.2)
            here = piece.pos or ""
            if state.board.kamas.get(here, 0) <= 0:
                raise RuleError("km.err.no_kama", rule="503.4", square=here)
            if piece.ap < 1:
                raise RuleError("km.err.not_enough_ap", rule="503.4", spell="kama", need=1, have=piece.ap)
            piece.ap -= 1
            state.board.kamas[here] -= 1
            if state.board.kamas[here] == 0:
                del state.board.kamas[here]
            player = state.player(piece.owner)
            player.kamas += 1
            note_collected(piece)  # 307.34
            return [ev("collected", piece=piece.id, name=piece.short, square=here, total=player.kamas)]
        if isinstance(action, A.BuyGG):
            return rules_kamas.buy_gg(state, piece)
        if isinstance(action, A.BuyReward):
            return rules_rewards.buy(state, piece, action.pile, action.blind, dice)
        if isinstance(action, A.RevealReward):
            return rules_rewards.reveal(state, piece, action.reward)
        raise wrong_phase("turn", action.kind)

    def _apply_gm(self, state: State, action: Action) -> list[Event]:
        """GM overrides bypass the rules but keep the state's invariants; they are logged."""
        if isinstance(action, A.GmGG):
            if action.seat is None:
                state.wild_gg = min(3 if state.multi is not None else 1, action.gg)  # 103.6, 702.3
            else:
                seats = [p.seat for p in state.players]
                if action.seat not in seats:
                    raise RuleError("km.err.unknown_seat", seat=action.seat + 1,
                                    seats=", ".join(str(s + 1) for s in seats))
                before, state.player(action.seat).gg = state.player(action.seat).gg, action.gg
            events = [ev("gm_gg", seat=action.seat, gg=action.gg) if action.seat is not None
                      else ev("gm_wild_gg", gg=state.wild_gg)]
            if action.seat is not None and before > 0 and action.gg == 0:  # the checks play would make
                events += last_gg_lost(state, [action.seat], "last_gg")
            return events + check_victory(state)
        piece = state.pieces.get(getattr(action, "piece", ""))
        if piece is None:
            raise RuleError("km.err.unknown_piece", piece=getattr(action, "piece", ""),
                            known=known(p.short for p in state.pieces.values()))
        if isinstance(action, A.GmPlace):
            if action.square is None:
                piece.pos = None
                return [ev("gm_place", piece=piece.id, name=piece.short, square=None)]
            target = parse_on(state, action.square)
            board = Board.of(state)
            if target != (sq(piece.pos) if piece.pos else None) and not board.is_free(target):
                raise RuleError("km.err.square_not_free", rule="313.3", square=action.square)
            piece.pos = label(target)
            piece.ko = False
            return [ev("gm_place", piece=piece.id, name=piece.short, square=piece.pos)]
        if isinstance(action, A.GmWounds):
            piece.wounds = min(action.wounds, piece.hp)  # 308.1: wounds never exceed HP
            piece.ko_by = None  # no piece caused it: the K.O. credit falls back on the active piece
            return [ev("gm_wounds", piece=piece.id, name=piece.short, wounds=piece.wounds)
                    if piece.wounds == action.wounds else
                    ev("gm_wounds_capped", piece=piece.id, name=piece.short, wounds=piece.wounds,
                       asked=action.wounds, hp=piece.hp)]
        if isinstance(action, A.GmApMp):
            for field in ("ap", "mp", "ap_tokens", "mp_tokens"):
                value = getattr(action, field)
                if value is not None:
                    setattr(piece, field, value)
            return [ev("gm_apmp", piece=piece.id, name=piece.short, ap=piece.ap, mp=piece.mp,
                       ap_tokens=piece.ap_tokens, mp_tokens=piece.mp_tokens)]
        raise wrong_phase(state.phase, action.kind)
