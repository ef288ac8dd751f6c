"""WowBoardEngine: the Engine Protocol over the rules built so far (system ``wowboard``, not registered).

``decision`` reads the state only: the draft asks the seat whose pick it is; a faction turn asks every
seat of the active faction whose characters have actions left, in parallel (faction-turn.2); the
management step asks the active seats not done yet. Nothing is hidden yet (spec §3.6: characters'
belongings are public; deck orders are never stored).
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines.core.contract import Action, GameState, Outcome, Setup
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event, name_players
from engines.wowboard import actions as A
from engines.wowboard import rules_setup, rules_turn
from engines.wowboard.rules_challenge import forced
from engines.wowboard.rules_setup import pack_of
from engines.wowboard.rules_travel import destinations
from engines.wowboard.state import State
from engines.wowboard.upgrades import SCHEMA


class WowBoardEngine:
    system: ClassVar[str] = "wowboard"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        return rules_setup.validate_options(options)

    def new_game(self, setup: Setup, dice: Dice) -> State:
        return rules_setup.new_game(setup, dice)[0]

    def load_state(self, data: str) -> State:
        return SCHEMA.load(data)

    def parse_action(self, data: dict[str, Any]) -> Action:
        return A.parse_action(data)

    def view(self, state: GameState, seat: int | None) -> GameState:
        assert isinstance(state, State)
        return state.model_copy(deep=True)

    def outcome(self, state: GameState) -> Outcome | None:
        assert isinstance(state, State)
        if state.phase != "over" or state.winners is None:
            return None
        return Outcome(winners=list(state.winners), reason_key=f"wowboard.end.{state.end_reason}")

    def decision(self, state: GameState) -> Decision | None:
        assert isinstance(state, State)
        if state.phase == "over":
            return None
        if state.phase == "draft":
            return Decision(seats=[state.draft_order[0]], kind="draft_class", prompt_key="wowboard.ask.draft")
        active = [s.seat for s in state.seats if s.faction == state.active]
        if state.phase == "management":
            return Decision(seats=[s for s in active if s not in state.management_done], kind="management",
                            prompt_key="wowboard.ask.management", params={"faction": state.active})
        seats = sorted({c.seat for c in state.of_faction(state.active) if c.actions_left})
        return Decision(seats=seats, kind="faction_turn", prompt_key="wowboard.ask.faction_turn",
                        params={"faction": state.active, "turn": state.turn})

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        assert isinstance(state, State)
        d = self.decision(state)
        if d is None or seat not in d.seats:
            return []
        if d.kind == "draft_class":
            taken = {c.class_id for c in state.characters.values()}
            return [A.PickClass(class_id=c.id) for c in pack_of(state).classes if c.id not in taken]
        if d.kind == "management":
            return [A.ManagementDone()]
        out: list[Action] = []
        for c in state.of_faction(state.active):
            if c.seat != seat or not c.actions_left or forced(state, c):  # faction-turn.4: challenge only
                continue
            out.append(A.Pass(character=c.id))
            out += [A.Travel(character=c.id, to=r) for r in destinations(pack_of(state), c.faction, c.region,
                                                                        rules_turn.independent_regions(state))]
            max_h, max_e = rules_turn.capacity(state, c)
            room_h, room_e = max_h - c.health, max_e - c.energy
            town = pack_of(state).region(c.region).town == c.faction
            total = (rules_turn.TOWN_REST_PER_LEVEL if town else rules_turn.REST_PER_LEVEL) * c.level
            h = min(room_h, total)
            if h or room_e:
                out.append(A.Rest(character=c.id, health=h, energy=min(room_e, total - h)))
        return out

    def apply(self, state: GameState, seat: int, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        action = A.parse_action(action)
        d = self.decision(state)
        if d is None:
            raise RuleError("wowboard.err.game_over")
        if seat not in d.seats:
            raise RuleError("wowboard.err.not_your_turn", rule="faction-turn.1")
        if isinstance(action, A.PickClass) and d.kind == "draft_class":
            events = rules_setup.pick_class(state, seat, action.class_id)
        elif isinstance(action, A.ManagementDone) and d.kind == "management":
            events = rules_turn.management_done(state, seat)
        elif isinstance(action, A.Travel) and d.kind == "faction_turn":
            events = rules_turn.travel(state, seat, action.character, action.to)
        elif isinstance(action, A.Rest) and d.kind == "faction_turn":
            events = rules_turn.rest(state, seat, action.character, action.health, action.energy)
        elif isinstance(action, A.Pass) and d.kind == "faction_turn":
            events = rules_turn.rest(state, seat, action.character, 0, 0)
        else:
            raise RuleError("wowboard.err.answer_first", prompt_key=f"wowboard.ask.{d.kind}", action=action.kind)
        return name_players({s.seat: s.name for s in state.seats}, events)
