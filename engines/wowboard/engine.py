"""WowBoardEngine: the Engine Protocol over the rules built so far (system ``wowboard``, not registered).

``decision`` reads the state only, in this order: an open question (``pending``: respawn, an item to
keep, a special item, a talent, the Bag, the next quest deck) is asked first; then the fight in
progress (the attack order, the attacker's roll and reroll, the wound split); a PvP fight asks one
faction at a time (its attack order, its wound split); then the draft, the management step (the final
one before the last battle: attackers first), or the faction turn, which asks every seat of the active
faction whose characters have actions left, in parallel (faction-turn.2). Nothing is hidden that a
player may see: characters' belongings are public (spec §3.6) and deck orders are never stored.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines.core.contract import Action, GameState, Outcome, Setup
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event, name_players
from engines.core.summary import Step
from engines.wowboard import actions as A
from engines.wowboard import (
    rules_abilities,
    rules_fight,
    rules_final_battle,
    rules_guard,
    rules_leader,
    rules_pvp,
    rules_setup,
    rules_sheet,
    rules_summary,
    rules_teams,
    rules_town,
    rules_turn,
    rules_wounds,
)
from engines.wowboard.content import pack_by_key, register_pack
from engines.wowboard.rules_answers import answer, open_overflows, pending_options
from engines.wowboard.rules_auction import bid_options, place_bid
from engines.wowboard.rules_autopilot import default_action
from engines.wowboard.rules_candidates import turn_candidates
from engines.wowboard.rules_gm import apply_gm
from engines.wowboard.rules_names import name_refusal
from engines.wowboard.rules_resign import resign
from engines.wowboard.rules_trade import offer_trade, trade_candidates
from engines.wowboard.state import SecretBid, State
from engines.wowboard.upgrades import SCHEMA


class WowBoardEngine:
    system: ClassVar[str] = "wowboard"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6  # setup.1: two to six seats, four or six characters
    supports_resign: ClassVar[bool] = True  # rules_resign: a teammate takes the characters over
    supports_manual_dice: ClassVar[bool] = True  # the coloured d8s ask their roller through ``Dice.roll_many``
    # Questions whose answers hang on public facts only (classes left, every sheet is public): one legal
    # answer is given by the table (the last draft pick, a management phase with nothing to manage).
    # An attack order with one character standing is no question either (combat-round.1, pvp-combat.2).
    auto_answer_kinds: ClassVar[frozenset[str]] = frozenset({"draft_class", "management", "final_management",
                                                             "attack_order"})

    def known_options(self, options: dict[str, Any]) -> tuple[str, ...]:
        return rules_setup.OPTIONS

    def player_counts(self, options: dict[str, Any]) -> tuple[int, ...]:
        """setup.1: two to six seats; a ``duel`` takes two."""
        return rules_setup.seat_counts(options)

    def max_players_for(self, options: dict[str, Any]) -> int:
        """Optional contract hook: a duel seats two, any other table up to six (setup.1)."""
        return max(rules_setup.seat_counts(options))

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        overlords = None
        if content is not None:  # a server pack is checked whole before any game uses it
            overlords = pack_by_key(self.use_content(content)).overlords  # setup.5: its Overlords' names
        return rules_setup.validate_options(options, overlords)

    def summary_step(self, before: GameState, after: GameState, seat: int, events: list[Event]) -> Step | None:
        """Optional hook (``gm.table.summary``, issue 32): what one action changed in the game's measure."""
        assert isinstance(before, State) and isinstance(after, State)
        return rules_summary.step(before, after, seat, events)

    def history_dictionary_ready(self, state: GameState) -> bool:
        """Optional hook (``gm.table.core``): whether ``state`` may be what the game's history is compressed
        against. Not during the draft: the position before it holds no character, deck or quest (0.9 KB),
        and a row compressed against it kept 2.4 KB where one against the first position after it keeps
        0.8 KB (``bench/state_codec.py``)."""
        assert isinstance(state, State)
        return state.phase != "draft"

    def turns_played(self, state: GameState) -> int:
        """Optional hook (``gm.table.summary``): the turns a game has played, for its end-of-game summary."""
        assert isinstance(state, State)
        return rules_summary.turns(state)

    def autopilot(self, state: GameState, seat: int) -> Action | None:
        """Optional contract hook (``gm.table.autopilot``): the default move of an absent seat, or None."""
        assert isinstance(state, State)
        d = self.decision(state)
        if d is None or seat not in d.seats:
            return None
        return default_action(state, seat, self.legal_actions(state, seat), d.kind)

    def use_content(self, content: dict[str, Any]) -> str:
        """The table layer hands over the server pack of a game it loads (optional contract hook): the
        engine keeps it by key, since states name their pack instead of carrying it."""
        return register_pack(content)

    def new_game(self, setup: Setup, dice: Dice) -> State:
        return rules_setup.new_game(setup, dice)[0]

    def new_game_with_events(self, setup: Setup, dice: Dice) -> tuple[State, list[Event]]:
        """Optional contract hook: the set-up's words a table must read (a lobby ``team:`` that could not be
        kept, issue 27.5); the draft order is said by the draft's own prompt, so it stays out."""
        state, events = rules_setup.new_game(setup, dice)
        return state, [e for e in events if not e.key.endswith(".draft_order")]

    def check_team(self, team: str, options: dict[str, Any]) -> str:
        """Optional contract hook (``gm.table.lobby.join``): a ``team:`` is a faction, horde or alliance
        (orda, alleanza), stored as its id; anything else is refused with the valid words (setup.1)."""
        return rules_teams.check_team(team)

    def load_state(self, data: str) -> State:
        return SCHEMA.load(data)

    def parse_action(self, data: dict[str, Any]) -> Action:
        return A.parse_action(data)

    def view(self, state: GameState, seat: int | None) -> GameState:
        """Spec §3.6: everything a character owns is public; hidden are the decks (only their sizes show)
        and the item cards drawn for a reward and not chosen yet, seen only by the rewarded group's seats."""
        assert isinstance(state, State)
        # The view shares with the state all it shows unchanged (the map, the characters, the combat), as
        # the engine contract allows (docs/ARCHITECTURE.md §3: read-only, good until the state changes), and
        # copies only the decks and questions whose fields it replaces below (never changes in place). Issue
        # 28: a copy of the whole state by its JSON was ~0.5 ms of the event loop before each picture.
        view = state.model_copy(update={
            "item_decks": {k: d.model_copy() for k, d in state.item_decks.items()},
            "event_deck": state.event_deck.model_copy(),
            "quest_decks": {faction: {colour: d.model_copy() for colour, d in decks.items()}
                            for faction, decks in state.quest_decks.items()},
            "pending": [question.model_copy() for question in state.pending]})
        decks = [*view.item_decks.values(), view.event_deck,
                 *(d for colours in view.quest_decks.values() for d in colours.values())]
        for deck in decks:  # §3.6: what is left in a deck, and the rejects put under it, stay face down
            deck.top, deck.pool, deck.bottom = (["?"] * len(deck.top), ["?"] * len(deck.pool),
                                                ["?"] * len(deck.bottom))
        for question in view.pending:  # events.3: who has bid is public, the bid itself only its own seat's
            question.bids = {s: b if s == seat else SecretBid(character="?", gold=0) for s, b in question.bids.items()}
            if question.kind == "keep_item" and seat not in question.seats:
                question.options = ["?"] * len(question.options)
                question.default = None
        return view

    def outcome(self, state: GameState) -> Outcome | None:
        assert isinstance(state, State)
        if state.phase != "over" or state.winners is None:
            return None
        return Outcome(winners=list(state.winners), reason_key=f"wowboard.end.{state.end_reason}")

    # -- who decides -------------------------------------------------------------------
    def decision(self, state: GameState) -> Decision | None:
        assert isinstance(state, State)
        if state.phase == "over":
            return None
        if state.pending:
            top = state.pending[0]
            if top.kind == "auction_bid":  # events.3: every seat at once, each bid sealed until all are in
                return Decision(seats=[s for s in top.seats if s not in top.bids], kind="auction_bid",
                                prompt_key="wowboard.ask.auction_bid", simultaneous=True, secret=True,
                                params={"title": top.target or "", "character": "", "options": "", "faction": ""})
            voting = rules_leader.voting(state)  # factions.2: every asked seat answers, the leader settles
            return Decision(seats=[s for s in top.seats if s not in top.votes] if voting else list(top.seats),
                            kind=top.kind, prompt_key="wowboard.ask.effect_order_faction"
                            if top.kind == "effect_order" and top.target else f"wowboard.ask.{top.kind}",
                            simultaneous=voting,
                            params={"character": top.character or "", "options": ", ".join(top.options),
                                    "faction": top.faction or "",
                                    # the optional trigger asked about (``rules_spot.run``), by its card
                                    "card": (top.target or "").partition("#")[0]
                                    if top.kind == "optional_trigger" else ""})
        combat = state.combat
        if combat is not None and combat.kind != "normal" and combat.step in ("order", "wounds"):
            return rules_leader.as_vote(state, self._pvp_decision(state))  # factions.2: a vote under ``leader``
        if combat is not None:
            seats_of = sorted({state.characters[c].seat for c in combat.participants if c not in combat.fallen})
            if combat.step == "order":
                return rules_leader.as_vote(state, Decision(seats=seats_of, kind="attack_order",
                                                            prompt_key="wowboard.ask.attack_order"))
            if combat.step == "wounds":
                return rules_leader.as_vote(state, Decision(seats=seats_of, kind="assign_wounds",
                                                            prompt_key="wowboard.ask.assign_wounds",
                                                            params={"n": combat.pending_wounds}))
            attack = combat.attack
            assert attack is not None
            kind = "pool" if attack.step == "pool" else "reroll"
            return Decision(seats=[state.characters[attack.character].seat], kind=kind,
                            prompt_key=f"wowboard.ask.{kind}", params={"character": attack.character,
                                                                         "reroll": attack.reroll})
        if state.phase == "draft":
            return Decision(seats=[state.draft_order[0]], kind="draft_class", prompt_key="wowboard.ask.draft")
        active = [s.seat for s in state.seats if s.faction == state.active and not s.resigned]
        if state.phase == "final_management":  # victory.2: attackers' seats first, then the defenders'
            return Decision(seats=[s for s in active if s not in state.management_done], kind="final_management",
                            prompt_key="wowboard.ask.final_management", params={"faction": state.active})
        if state.phase == "management":
            return Decision(seats=[s for s in active if s not in state.management_done], kind="management",
                            prompt_key="wowboard.ask.management", params={"faction": state.active})
        seats = sorted({c.seat for c in state.of_faction(state.active) if c.actions_left})
        return Decision(seats=seats, kind="faction_turn", prompt_key="wowboard.ask.faction_turn",
                        params={"faction": state.active, "turn": state.turn})

    def _pvp_decision(self, state: State) -> Decision:
        """pvp-combat.2: one faction orders its attacks (attackers first); pvp-defense.2–3: the victim
        faction splits its wounds."""
        combat = state.combat
        assert combat is not None
        if combat.step == "order":
            faction = rules_pvp.ordering_faction(state) or combat.faction
            return Decision(seats=rules_pvp.seats_of(state, combat, faction), kind="attack_order",
                            prompt_key="wowboard.ask.attack_order", params={"faction": faction})
        faction = rules_pvp.victim(state) or combat.faction
        return Decision(seats=rules_pvp.seats_of(state, combat, faction), kind="assign_wounds",
                        prompt_key="wowboard.ask.assign_wounds",
                        params={"n": combat.wounds_due.get(faction, 0), "faction": faction})

    # -- what is legal -----------------------------------------------------------------
    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        assert isinstance(state, State)
        d = self.decision(state)
        if d is None or seat not in d.seats:
            return []
        if state.pending:
            if state.pending[0].kind == "auction_bid":
                return list(bid_options(state, seat))
            return [A.Choose(value=v) for v in pending_options(state)]
        if d.kind == "draft_class":
            return [A.PickClass(class_id=c) for c in rules_setup.draftable(state, seat)]
        combat = state.combat
        if d.kind == "attack_order" and combat is not None:
            return [A.SetOrder(order=o) for o in rules_fight.order_options(state, combat, d.params.get("faction"))]
        if d.kind == "pool" and combat is not None and combat.attack is not None:
            char = combat.attack.character  # power-cards.3; a friend heal names each participant it may reach
            instants = [f"{i}>{p}" if len(reach) > 1 else i
                        for i in rules_fight.affordable_instants(state, char)
                        for reach in [rules_fight.heal_targets(state, char, i)] for p in reach]
            return [A.Roll(), *(A.Roll(instants=[i]) for i in instants)]
        if d.kind == "reroll" and combat is not None and combat.attack is not None:
            mods = rules_guard.colour_threat(state, state.characters[combat.attack.character])  # round_start cards
            need = rules_abilities.colour_threats(combat, combat.attack.threat, mods)  # threat_vs: a colour's own
            misses = [i for i, die in enumerate(combat.attack.dice)
                      if die.value < need.get(die.colour, combat.attack.threat) and not die.rerolled
                      ][:combat.attack.reroll]
            return [A.Reroll(dice=[]), *([A.Reroll(dice=misses)] if misses else [])]
        if d.kind == "assign_wounds" and combat is not None:
            alive = [c for c in combat.participants if c not in combat.fallen]
            n = combat.pending_wounds
            if combat.kind != "normal":
                alive, n = rules_pvp.standing(state, combat, d.params["faction"]), d.params["n"]
            out = [A.AssignWounds(split={c: n if c == pick else 0 for c in alive}) for pick in alive]
            for pick in alive:  # power-cards.4: the companion takes what it can of the pick's wounds
                pet = rules_wounds.companion_tokens(state.characters[pick])
                if pet and n:
                    out.append(A.AssignWounds(split={c: n if c == pick else 0 for c in alive},
                                              companions={pick: min(n, pet[1])}))
            return out
        if d.kind in ("management", "final_management"):  # equipping.2–6: what can be worn now, then done
            # Unequipping is accepted too, but never listed: taking a card off for nothing is no reason to
            # hold the table, and a management step with nothing to equip then passes by itself.
            # A trade (items.7) is accepted here too, and not listed either: the step must still pass by itself.
            return [*(A.Equip(character=c, card=k, area=a) for c, k, a in rules_sheet.equip_options(state, seat)),
                    A.ManagementDone()]
        return [*(a for a in turn_candidates(state, seat) if self._ok(state, seat, a)), *trade_candidates(state, seat)]

    def _ok(self, state: State, seat: int, action: Action) -> bool:
        try:
            if isinstance(action, A.Travel):
                rules_turn.check_travel(state, seat, action.character, action.to)
            elif isinstance(action, (A.Rest, A.Pass)):
                h, e = (action.health, action.energy) if isinstance(action, A.Rest) else (0, 0)
                rules_turn.check_rest(state, seat, action.character, h, e)
            elif isinstance(action, A.Challenge):
                rules_fight.check_challenge(state, seat, action.character, action.target, action.invite)
            elif isinstance(action, A.Train):
                rules_town.check_train(state, seat, action.character, action.powers)
            elif isinstance(action, A.Town):
                rules_town.check_town(state, seat, action.character, action.sell, action.buy, action.powers,
                                      action.health, action.energy, action.discard)
        except RuleError:
            return False
        return True

    # -- doing it ----------------------------------------------------------------------
    def apply(self, state: GameState, seat: int, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        try:
            return self._apply(state, seat, action, dice)
        except RuleError as exc:  # a refusal names things as people read them, in their language
            raise name_refusal(exc, state.pack) from None

    def _apply(self, state: State, seat: int, action: Action, dice: Dice) -> list[Event]:
        action = A.parse_action(action)
        if action.kind.startswith("gm_"):  # GM overrides: the table checked the role; logged as events
            return name_players({s.seat: s.name for s in state.seats}, apply_gm(state, action))
        if isinstance(action, A.Resign):  # any seat, at any moment (contract ``supports_resign``)
            return name_players({s.seat: s.name for s in state.seats}, resign(state, seat))
        d = self.decision(state)
        if d is None:
            raise RuleError("wowboard.err.game_over")
        if seat not in d.seats:
            raise RuleError("wowboard.err.not_your_turn", rule="faction-turn.1")
        events = self._do(state, seat, d.kind, action, dice)
        events += open_overflows(state, events)
        for _ in range(20):  # spec §7: a question with a single possible answer is answered at once
            if not state.pending or len(options := pending_options(state)) != 1:
                break
            events += answer(state, state.pending[0].seats[0] if state.pending[0].seats else seat, options[0], dice)
            events += open_overflows(state, events)
        for c in state.characters.values():  # health-energy.2: what a finished gain left shrinks as it is lost
            rules_sheet.settle_kept(state, c)
        return name_players({s.seat: s.name for s in state.seats}, events)

    def _do(self, state: State, seat: int, kind: str, action: Action, dice: Dice) -> list[Event]:
        if state.pending:
            if state.pending[0].kind == "auction_bid" and isinstance(action, A.Bid):  # events.3
                return place_bid(state, seat, action.character, action.gold, dice)
            if not isinstance(action, A.Choose) or state.pending[0].kind == "auction_bid":
                asked = self.decision(state) or Decision(seats=[], kind="")
                params = {k: v for k, v in asked.params.items() if isinstance(v, str | int)}
                raise RuleError("wowboard.err.answer_first", prompt_key=asked.prompt_key or "wowboard.err.game_over",
                                action=action.kind, **params)
            if rules_leader.voting(state):
                return rules_leader.vote(state, seat, action.value, dice)
            return answer(state, seat, action.value, dice)
        if isinstance(action, A.PickClass) and kind == "draft_class":
            return rules_setup.pick_class(state, seat, action.class_id, dice)
        if kind in ("faction_turn", "management") and isinstance(action, A.Trade):  # items.7: free, no action
            return offer_trade(state, seat, action)
        if kind in ("management", "final_management"):
            if isinstance(action, A.ManagementDone):
                if kind == "final_management":
                    return rules_final_battle.management_done(state, seat, dice)
                return rules_turn.management_done(state, seat, dice)
            if isinstance(action, A.Equip):
                return rules_sheet.do_equip(state, seat, action.character, action.card, action.area)
            if isinstance(action, A.Unequip):
                return rules_sheet.do_unequip(state, seat, action.character, action.card)
        voted = (kind == "attack_order" and isinstance(action, A.SetOrder)) or (
            kind == "assign_wounds" and isinstance(action, A.AssignWounds))
        if voted and rules_leader.fight_voting(state):
            # factions.2: under ``leader`` every asked seat votes on the order or split, the leader settles
            assert isinstance(action, A.SetOrder | A.AssignWounds)
            return rules_leader.fight_vote(state, seat, action, dice)
        if kind == "attack_order" and isinstance(action, A.SetOrder):
            return rules_fight.set_order(state, action.order, dice)
        if kind == "pool" and isinstance(action, A.Roll):
            return rules_fight.roll(state, seat, action.instants, action.stun, dice)
        if kind == "reroll" and isinstance(action, A.Reroll):
            return rules_fight.reroll(state, seat, action.dice, dice)
        if kind == "assign_wounds" and isinstance(action, A.AssignWounds):
            return rules_fight.assign_wounds(state, action.split, dice, action.companions)
        if kind == "faction_turn":
            if isinstance(action, A.Travel):
                return rules_turn.travel(state, seat, action.character, action.to)
            if isinstance(action, A.Rest):
                return rules_turn.rest(state, seat, action.character, action.health, action.energy)
            if isinstance(action, A.Pass):
                return rules_turn.rest(state, seat, action.character, 0, 0)
            if isinstance(action, A.Challenge):
                return rules_fight.challenge(state, seat, action.character, action.target, action.invite, dice)
            if isinstance(action, A.Train):
                return rules_town.do_train(state, seat, action.character, action.powers)
            if isinstance(action, A.Town):
                return rules_town.do_town(state, seat, action.character, action.sell, action.buy, action.powers,
                                          action.health, action.energy, action.discard)
        decision = self.decision(state)
        params = {k: v for k, v in (decision.params if decision else {}).items() if isinstance(v, str | int)}
        # the decision's own question (the draft's kind is draft_class, its question wowboard.ask.draft)
        prompt_key = decision.prompt_key if decision and decision.prompt_key else "wowboard.err.game_over"
        raise RuleError("wowboard.err.not_now", prompt_key=prompt_key, action=action.kind, **params)
