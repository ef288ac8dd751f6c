"""MageKnightEngine: the Engine Protocol over the combat rules (system ``mageknight``).

The top of the package: it says who must decide what (``decision``), lists what ``apply``
accepts (``rules_legal``), routes each action to its rules module and hides what a seat may
not see (``rules_view``). Module order, bottom to top: content/state/actions/upgrades,
rules_values/rules_base, the rules modules, rules_legal/preview/rules_view, engine
(``tests/mageknight/test_layering.py`` keeps it so).

Modes: ``challenge`` and ``assist`` seat one fighter; ``duel`` seats the fighter and the
second seat that sets the Interactive Combat die (M51). ``resign`` concedes: the combat ends
(A9 for whatever still stands) with no score; in a duel the other seat wins.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines.core.contract import Action, GameState, Outcome, Setup
from engines.core.decision import Decision, Option
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event, name_players
from engines.core.summary import Step
from engines.mageknight import actions as A
from engines.mageknight import (
    rules_autopilot,
    rules_damage,
    rules_duel,
    rules_legal,
    rules_outcome,
    rules_phases,
    rules_resolve,
    rules_setup,
    rules_staging,
    rules_summary,
    rules_view,
)
from engines.mageknight.content import FACES
from engines.mageknight.rules_base import (
    add_listed_names,
    add_names,
    damage_eligible,
    ev,
    fill_italian_names,
    find_enemy,
    find_unit,
    italian_names,
    units_allowed,
    unresolved_attackers,
    with_italian_names,
    wrong_phase,
)
from engines.mageknight.rules_values import fame_of
from engines.mageknight.state import State
from engines.mageknight.upgrades import SCHEMA

__all__ = ["MageKnightEngine"]


def _named(state: State, events: list[Event]) -> list[Event]:
    return with_italian_names(state, name_players({p.seat: p.name for p in state.players}, events))


class MageKnightEngine:
    system: ClassVar[str] = "mageknight"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 2  # a duel seats two; challenge and assist one (``max_players_for``)
    most_players: ClassVar[int] = 2
    more_seats_options: ClassVar[str] = "mode:duel"  # what the lobby suggests when a solo table is full
    supports_resign: ClassVar[bool] = True  # ``{"kind": "resign"}``: concede the combat
    # No ``supports_manual_dice``: the Source is rolled at set-up, before any player could type it in,
    # so the table refuses ``dice:manual`` rather than accept it and roll anyway; the refusal points to
    # assist mode, where the players type the Source they rolled (``source:``).
    manual_dice_refusal: ClassVar[str] = "mk.err.manual_dice"

    # -- lobby -------------------------------------------------------------------------
    def min_players_for(self, options: dict[str, Any]) -> int:
        return 2 if str(options.get("mode", "challenge")).strip().lower() == "duel" else 1

    def max_players_for(self, options: dict[str, Any]) -> int:
        return self.min_players_for(options)

    def known_options(self, options: dict[str, Any]) -> frozenset[str]:
        """Each mode takes its own options (``tier`` for a challenge, ``enemies`` for an assist…)."""
        return rules_setup.known_options(options)

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        return rules_setup.validate_options(options, content)

    def new_game(self, setup: Setup, dice: Dice) -> State:
        state, _events = rules_setup.new_game(setup, dice)
        return state

    def new_game_with_events(self, setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
        state, events = rules_setup.new_game(setup, dice)
        return state, _named(state, events)

    # -- reading -----------------------------------------------------------------------
    def load_state(self, data: str) -> State:
        """Any saved version, upgraded (engines/mageknight/upgrades.py); StateUnreadable otherwise."""
        return fill_italian_names(SCHEMA.load(data))

    def parse_action(self, data: dict[str, Any]) -> Action:
        return A.parse_action(data)

    def view(self, state: GameState, seat: int | None) -> GameState:
        assert isinstance(state, State)
        return rules_view.hide(state, seat)

    def outcome(self, state: GameState) -> Outcome | None:
        assert isinstance(state, State)
        result = state.result
        if state.phase != "over" or result is None:
            return None
        params = {"fame": result.fame, "rep": result.reputation, "score": result.score,
                  "defeated": len(result.defeated), "survived": len(result.survived)}
        won = not result.survived and result.resigned is None
        if state.mode == "duel":
            loser = result.resigned if result.resigned is not None else (state.opponent if won else state.fighter)
            winners = [p.seat for p in state.players if p.seat != loser]
        else:
            winners = [state.fighter] if won else []
        reason = "conceded" if result.conceded else ("victory" if won else "survivors")
        return Outcome(winners=winners, reason_key=f"mk.end.{reason}", params=params)

    def decision(self, state: GameState) -> Decision | None:
        """Who decides what now; names in its prompt and options also travel in Italian (``names_it``)."""
        assert isinstance(state, State)
        decision = self._decision(state)
        table = italian_names(state)
        if decision is not None and table:
            add_names(decision.params, table)
            for option in decision.options:
                add_names(option.params, table)
        return decision

    def _decision(self, state: State) -> Decision | None:
        if state.phase == "over":
            return None
        pending = state.pending
        if pending is not None:
            return Decision(seats=[pending.seat], kind=pending.kind, prompt_key=f"mk.ask.{pending.kind}",
                            params=self._pending_params(state), options=self._pending_options(state))
        fighter = state.fighter
        if state.phase == "assign_damage":
            step = state.damage
            enemy = state.enemy(step.enemy) if step else None
            return Decision(seats=[fighter], kind="assign_damage", prompt_key="mk.ask.assign_damage",
                            params={"enemy": enemy.name if enemy else "", "remaining": step.remaining if step else 0,
                                    "enemies": [e.name for e in unresolved_attackers(state)]},
                            options=self._assign_options(state))
        params: dict[str, Any] = {"targets": [state.enemy(u).name for u in state.staged.targets]
                                  if state.staged else []}
        return Decision(seats=[fighter], kind="turn", prompt_key=f"mk.ask.{state.phase}", params=params)

    @staticmethod
    def _pending_params(state: State) -> dict[str, Any]:
        pending = state.pending
        assert pending is not None
        if pending.kind == "summon_token" and pending.enemy:
            return {"enemy": state.enemy(pending.enemy).name}
        if pending.kind == "pick_encounter":  # the Fame left would tell what was picked: it goes privately
            return {"count": state.pick_left}
        return {}  # the duel's enemy stays hidden until the die is set: its name is never a prompt parameter

    @staticmethod
    def _pending_options(state: State) -> list[Option]:
        pending = state.pending
        assert pending is not None
        if pending.kind == "interactive_die":
            return [Option(value=f, label_key=f"mk.face.{f}") for f in FACES]
        if pending.kind == "pick_encounter":  # the options go to the opponent only (the panel, autocomplete)
            return [Option(value=value, label_key="mk.option.pick_done") if token is None else
                    Option(value=value, label_key="mk.option.pick_token",
                           params={"name": token.name, "fame": token.fame, "armor": token.armor,
                                   "attack": token.attack, "colour": token.colour})
                    for value, token in rules_setup.pick_options(state)]
        if pending.kind == "improvise_discard":
            return [Option(value=a.value, label_key="mk.option.card", params={"card": state.cards[a.value].name})
                    for a in rules_legal.legal(state) if isinstance(a, A.Choose)]
        return [*(Option(value=t.id, label_key="mk.option.token",
                         params={"name": t.name, "attack": t.attack, "element": t.element})
                  for t in sorted(state.bestiary.values(), key=lambda t: t.name)),
                Option(value="none", label_key="mk.option.no_token")]

    @staticmethod
    def _assign_options(state: State) -> list[Option]:
        units = [u for u in state.units if damage_eligible(u)] if units_allowed(state) else []
        options = [Option(value=u.uid, label_key="mk.option.unit",
                          params={"name": u.name, "armor": u.card.armor, "resist": len(u.card.resistances)})
                   for u in units]
        return [*options, Option(value="hero", label_key="mk.option.hero", params={"armor": state.hero.armor})]

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
        return rules_legal.legal(state)

    # -- acting ------------------------------------------------------------------------
    def apply(self, state: GameState, seat: int, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        try:
            return _named(state, self._apply(state, seat, A.parse_action(action), dice))
        except RuleError as exc:  # a refusal names things too: in the reader's language as well
            table = italian_names(state)
            add_names(exc.params, table)
            add_listed_names(exc.params, table)
            raise

    def _apply(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        if action.kind in A.GM_KINDS:
            return self._apply_gm(state, action)
        decision = self.decision(state)
        if decision is None:
            raise RuleError("mk.err.game_over")
        if isinstance(action, A.Resign):  # from any seated seat, at any moment
            if seat not in [p.seat for p in state.players]:
                raise RuleError("mk.err.not_your_turn", seat=seat)
            events = [ev("resigned", seat=seat)]
            events += rules_outcome.finish(state, conceded=True)
            assert state.result is not None
            state.result.resigned = seat
            return events
        if seat not in decision.seats:
            raise RuleError("mk.err.not_your_turn", seat=seat)
        if state.pending is not None:
            return self._answer(state, action, dice)
        if state.phase == "assign_damage":
            return self._assign(state, action, dice)
        return self._column(state, action, dice)

    def _answer(self, state: State, action: Action, dice: Dice) -> list[Event]:
        pending = state.pending
        assert pending is not None
        if pending.kind == "improvise_discard" and isinstance(action, A.TakeBack):
            return rules_staging.take_back(state)
        if not isinstance(action, A.Choose):
            raise RuleError("mk.err.answer_first", prompt_key=f"mk.pending.{pending.kind}", prompt=pending.kind,
                            action=action.kind, action_key=f"mk.action.{action.kind}")
        if pending.kind == "improvise_discard":
            return rules_staging.pay_discard(state, action.value)
        if pending.kind == "summon_token":
            return rules_phases.answer_summon(state, action.value)
        if pending.kind == "pick_encounter":
            return rules_setup.pick_encounter(state, action.value)
        return rules_duel.set_die(state, action.value) + rules_phases.begin(state)

    def _assign(self, state: State, action: Action, dice: Dice) -> list[Event]:
        if isinstance(action, A.Choose):  # the decision's options are recipients
            action = A.Assign(to=action.value)
        if isinstance(action, A.Assign):
            events = rules_damage.assign(state, action.enemy, action.to)
            return events + rules_phases.after_damage(state)
        if isinstance(action, A.Next):
            return rules_phases.next_phase(state, dice)
        raise wrong_phase(state, action.kind)

    def _column(self, state: State, action: Action, dice: Dice) -> list[Event]:
        if isinstance(action, A.Target):
            return rules_staging.open_column(state, action.enemies)
        if isinstance(action, A.Play):
            return rules_staging.play(state, action)
        if isinstance(action, A.Sideways):
            return rules_staging.sideways(state, action)
        if isinstance(action, A.Activate):
            return rules_staging.activate(state, action)
        if isinstance(action, A.Add):
            return rules_staging.add_free(state, action)
        if isinstance(action, A.TakeBack):
            return rules_staging.take_back(state)
        if isinstance(action, A.Commit):
            events = rules_resolve.commit(state)
            return events + rules_phases.settle_block(state)  # nothing left to block: go on
        if isinstance(action, A.Next):
            return rules_phases.next_phase(state, dice)
        raise wrong_phase(state, action.kind)

    def _apply_gm(self, state: State, action: Action) -> list[Event]:
        """GM overrides bypass the rules but keep the state's invariants; they are logged."""
        if state.phase == "over":
            raise RuleError("mk.err.game_over")
        hero = state.hero
        if isinstance(action, A.GmWounds):
            if action.add >= 0:
                hero.hand += ["wound"] * action.add
                hero.combat_hand_wounds += action.add
            else:
                removable = min(-action.add, hero.hand.count("wound"))
                for _ in range(removable):
                    hero.hand.remove("wound")
                hero.combat_hand_wounds = max(0, hero.combat_hand_wounds - removable)
            return [ev("gm_wounds", add=action.add, hand=hero.hand.count("wound"))]
        if isinstance(action, A.GmUnit):
            unit = find_unit(state, action.unit)
            if action.wounds is not None:
                unit.wounds = action.wounds
            if action.ready is not None:
                unit.ready = action.ready
            if action.destroyed is not None:
                unit.destroyed = action.destroyed
            return [ev("gm_unit", unit=unit.name, wounds=unit.wounds)]
        if isinstance(action, A.GmEnemy):
            enemy = find_enemy(state, action.enemy)
            events: list[Event] = []
            if action.status == "defeated" and enemy.status != "defeated":
                events += rules_outcome.defeat(state, enemy)
            elif action.status != "defeated" and enemy.status == "defeated":
                state.fame = max(0, state.fame - fame_of(state, enemy))  # what defeat() gave (M51)
                enemy.status = action.status
            else:
                enemy.status = action.status
            if state.damage is not None and state.damage.enemy == enemy.uid and enemy.status != "alive":
                state.damage = None
            events.append(ev("gm_enemy", enemy=enemy.name, uid=enemy.uid))
            if rules_outcome.all_defeated(state):
                events += rules_outcome.finish(state)
            return events + rules_phases.after_damage(state)
        if isinstance(action, A.GmFame):
            if action.fame is not None:
                state.fame = action.fame
            if action.reputation is not None:
                state.reputation = action.reputation
            return [ev("gm_fame", fame=state.fame, rep=state.reputation)]
        raise wrong_phase(state, action.kind)

