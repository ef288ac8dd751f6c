"""WarlordEngine: the Engine Protocol over the Warlord rules implemented so far (system ``warlord``).

``decision`` reads the state only: set-up and the draw phase ask every seat at once and in secret
(``starting_army``, ``draw_discard``); in the order phase a pending reform comes first (``reform``,
ranks), then the open attack (``choose_strike_target``), then the seat whose order it is (``turn``).
``apply`` routes an action to its rules module and then ``rules_strikes.settle`` finds the next
decision point; ``view`` hides hands and decks (rules_view).
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines.core.contract import Action, GameState, Outcome, Setup
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event, name_players
from engines.warlord import actions as A
from engines.warlord import rules_orders as O
from engines.warlord import rules_ranks as R
from engines.warlord import rules_setup, rules_strikes, rules_turn, rules_use, rules_view
from engines.warlord.rules_common import army_uids, ev
from engines.warlord.rules_deck import default_army
from engines.warlord.state import State
from engines.warlord.upgrades import SCHEMA

__all__ = ["WarlordEngine"]


def _named(state: State, events: list[Event]) -> list[Event]:
    return name_players({p.seat: p.name for p in state.players}, events)


class WarlordEngine:
    system: ClassVar[str] = "warlord"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        return rules_setup.validate_options(options, content)

    def new_game(self, setup: Setup, dice: Dice) -> State:
        return self.new_game_with_events(setup, dice)[0]

    def new_game_with_events(self, setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
        state, events = rules_setup.new_game(setup, dice)
        return state, _named(state, events)

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
        assert isinstance(state, State)
        if state.phase == "over":
            return None
        if state.phase == "setup":  # starting-army: all at once, secret
            return Decision(seats=[p.seat for p in state.players if p.army_choice is None], kind="starting_army",
                            prompt_key="warlord.ask.starting_army", simultaneous=True, secret=True)
        if state.phase == "draw":  # draw-phase: discards chosen at once, secret
            return Decision(seats=[p.seat for p in state.players if p.alive and p.discard_choice is None],
                            kind="draw_discard", prompt_key="warlord.ask.draw_discard", simultaneous=True, secret=True,
                            params={"turn": state.turn})
        if state.reforming is not None:
            return Decision(seats=[state.reforming], kind="reform", prompt_key="warlord.ask.reform",
                            params={"ranks": R.illegal_ranks(state.player(state.reforming).ranks)})
        if state.attack is not None:
            a = state.attack
            return Decision(seats=[a.seat], kind="choose_strike_target", prompt_key="warlord.ask.strike",
                            params={"attacker": state.name(a.attacker), "index": a.made + 1, "of": a.total})
        assert state.order_seat is not None
        return Decision(seats=[state.order_seat], kind="turn", prompt_key="warlord.ask.turn",
                        params={"turn": state.turn, "passes": state.consecutive_passes})

    # -- what is legal -----------------------------------------------------------------
    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        assert isinstance(state, State)
        d = self.decision(state)
        if d is None or seat not in d.seats:
            return []
        if d.kind == "starting_army":
            cards = [state.defn(u) for u in state.player(seat).deck_pool]
            found = default_army(cards, state.factions)
            if found is None:
                return []
            w, l1, l2 = found
            return [A.StartingArmy(warlord=w.name, level1=[c.name for c in l1], level2=[c.name for c in l2])]
        if d.kind == "draw_discard":
            return [A.DrawDiscard(cards=[]), *(A.DrawDiscard(cards=[u]) for u in state.player(seat).hand)]
        candidates: list[Action]
        if d.kind == "reform":
            ranks = state.player(seat).ranks
            bad = set(R.illegal_ranks(ranks))
            candidates = [A.Reform(char=u, position=p) for k, row in enumerate(ranks) if k + 1 in bad for u in row
                          for p in sorted({0, len(ranks[k - 1])})]
        elif d.kind == "choose_strike_target":
            assert state.attack is not None
            candidates = [A.StopAttack(), *(A.Strike(target=u) for u in
                                            rules_strikes.melee_targets(state, state.attack.attacker))]
        else:
            player = state.player(seat)
            mine = [u for u in army_uids(state, seat) if state.chars[u].controller == seat]
            candidates = [A.Pass()]
            candidates += [A.Attack(attacker=u) for u in mine]
            candidates += [A.Recruit(card=u, position=None) for u in player.hand]
            candidates += [A.Equip(item=i, host=h) for i in player.hand if state.defn(i).type == "item" for h in mine]
            candidates += [A.Maneuver(char=u, to=t) for u in mine for t in ("forward", "back")]  # type: ignore[arg-type]
            for src in rules_use.sources(state, seat):
                for k, ability in enumerate(state.defn(src).abilities):
                    if rules_use.ranged_order(ability) is None:
                        continue
                    performer = state.items[src].host if src in state.items else src
                    candidates += [A.UseOrder(source=src, ability=k, target=t)
                                   for t in rules_strikes.ranged_targets(state, performer)]
        out: list[Action] = []
        for action in candidates:
            try:
                self._check(state, seat, action)
            except RuleError:
                continue
            out.append(action)
        return out

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
            rules_use.check_use(state, seat, action.source, action.ability, action.target)

    # -- doing it ----------------------------------------------------------------------
    def apply(self, state: GameState, seat: int, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        action = A.parse_action(action)
        d = self.decision(state)
        if d is None:
            raise RuleError("warlord.err.game_over")
        if seat not in d.seats:
            raise RuleError("warlord.err.not_your_turn", rule="order-phase")
        allowed = {"starting_army": {"starting_army"}, "draw_discard": {"draw_discard"}, "reform": {"reform"},
                   "choose_strike_target": {"strike", "stop_attack"},
                   "turn": {"attack", "recruit", "equip", "maneuver", "use_order", "pass"}}[d.kind]
        if action.kind not in allowed:
            raise RuleError("warlord.err.answer_first", rule="order-phase", prompt=d.kind,
                            prompt_key=f"warlord.ask_short.{d.kind}", action=action.kind,
                            action_key=f"warlord.action.{action.kind}")
        events: list[Event]
        if isinstance(action, A.StartingArmy):
            events = rules_setup.starting_army(state, seat, action, dice)
        elif isinstance(action, A.DrawDiscard):
            events = rules_turn.draw_discard(state, seat, action.cards, dice)
        elif isinstance(action, A.Reform):
            src, dst, st = R.do_reform(state, seat, action.char, action.position)
            events = [ev("reformed", seat=seat, name=state.name(action.char) if action.char in state.cards
                                       else action.char, frm=src, to=dst, state=st)]
        elif isinstance(action, A.Strike):
            events = rules_strikes.do_strike(state, seat, action.target, dice)
        elif isinstance(action, A.StopAttack):
            events = rules_strikes.stop_attack(state)
        elif isinstance(action, A.Attack):
            events = rules_strikes.do_attack(state, seat, action.attacker)
        elif isinstance(action, A.Pass):
            events = rules_turn.pass_order(state, seat, dice)
        else:
            if isinstance(action, A.Recruit):
                events = O.do_recruit(state, seat, action.card, action.position)
            elif isinstance(action, A.Equip):
                events = O.do_equip(state, seat, action.item, action.host)
            elif isinstance(action, A.UseOrder):
                events = rules_use.do_use(state, seat, action.source, action.ability, action.target, dice)
            else:
                assert isinstance(action, A.Maneuver)
                events = O.do_maneuver(state, seat, action.char, action.to, action.position)
            rules_turn.order_given(state, seat)
        return _named(state, events + rules_strikes.settle(state))
