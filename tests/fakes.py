"""A tiny race game used to drive the table pipeline without any real rules engine.

Seats take turns adding 1–3 to a shared total; whoever brings it to ``target`` wins.
``roll`` adds a d6 (randomness, so it cannot be undone by players); ``gm_set`` is a
GM override that sets the total outright. With ``bids:true`` the race opens with a secret
simultaneous choice: every seat bids 1–3 at once, nobody sees another's bid before all are
in, then the bids are revealed and added (the platform's simultaneous secret decision).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from engines.core.contract import GameState, Outcome, Setup
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.state_versions import StateSchema
from gm.reply import Button


class RaceState(GameState):
    players: int
    total: int = 0
    target: int = 10
    turn: int = 0
    history: list[int] = Field(default_factory=list)
    winner: int | None = None
    bidding: bool = False
    bids: dict[str, int] = Field(default_factory=dict)


RACE_SCHEMA: StateSchema[RaceState] = StateSchema(model=RaceState, version=1)


class Add(BaseModel):
    kind: Literal["add"] = "add"
    amount: int


class Roll(BaseModel):
    kind: Literal["roll"] = "roll"


class Bid(BaseModel):
    kind: Literal["bid"] = "bid"
    amount: int = Field(ge=1, le=3)


class GmSet(BaseModel):
    kind: Literal["gm_set"] = "gm_set"
    total: int


RaceAction = Annotated[Add | Roll | Bid | GmSet, Field(discriminator="kind")]
_ACTIONS: TypeAdapter[Any] = TypeAdapter(RaceAction)


class RaceEngine:
    system: ClassVar[str] = "race"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    supports_manual_dice: ClassVar[bool] = True  # its one die goes through ``Dice.roll``

    def known_options(self, options: dict[str, Any]) -> tuple[str, ...]:
        return ("target", "bids")

    def validate_options(self, options: dict[str, Any], content: dict[str, Any] | None = None) -> dict[str, Any]:
        unknown = set(options) - {"target", "bids"}
        if unknown:
            raise RuleError("race.unknown_option", option=sorted(unknown)[0])
        target = int(options.get("target", 10))
        if not 1 <= target <= 1000:
            raise RuleError("race.bad_target", rule="1.1")
        return {"target": target, **({"bids": True} if str(options.get("bids", "")).lower() == "true" else {})}

    def new_game(self, setup: Setup, dice: Dice) -> RaceState:
        return RaceState(players=len(setup.seats), target=int(setup.options.get("target", 10)),
                         bidding=bool(setup.options.get("bids")))

    def decision(self, state: RaceState) -> Decision | None:  # type: ignore[override]
        if state.winner is not None:
            return None
        if state.bidding:
            return Decision(seats=[s for s in range(state.players) if str(s) not in state.bids], kind="bid",
                            prompt_key="race.bid_prompt", simultaneous=True, secret=True)
        return Decision(seats=[state.turn])

    def legal_actions(self, state: RaceState, seat: int) -> list[Any]:  # type: ignore[override]
        if state.winner is not None:
            return []
        if state.bidding:
            return [] if str(seat) in state.bids else [Bid(amount=n) for n in (1, 2, 3)]
        if seat != state.turn:
            return []
        return [Add(amount=n) for n in (1, 2, 3) if state.total + n <= state.target] + [Roll()]

    def parse_action(self, data: dict[str, Any]) -> Any:
        return _ACTIONS.validate_python(data)

    def apply(self, state: RaceState, seat: int, action: Any, dice: Dice) -> list[Event]:  # type: ignore[override]
        if state.bidding != isinstance(action, Bid) and not isinstance(action, GmSet):
            raise RuleError("race.not_now")
        if isinstance(action, Bid):
            if str(seat) in state.bids:
                raise RuleError("race.already_bid")
            state.bids[str(seat)] = action.amount
            events = [Event(key="race.bid_made", params={"amount": action.amount}, private_to=[seat]),
                      Event(key="race.bid_in", params={"count": len(state.bids), "of": state.players})]
            if len(state.bids) == state.players:
                state.bidding = False
                state.total = min(state.target - 1, sum(state.bids.values()))
                events.append(Event(key="race.bids_revealed", params={
                    "bids": ", ".join(f"{int(s) + 1}:{b}" for s, b in sorted(state.bids.items())),
                    "total": state.total}))
            return events
        if isinstance(action, GmSet):
            state.total = action.total
            return [Event(key="race.gm_set", params={"total": action.total})]
        if isinstance(action, Add):
            if not 1 <= action.amount <= 3:
                raise RuleError("race.bad_amount", rule="2.1", amount=action.amount)
            if state.total + action.amount > state.target:
                raise RuleError("race.overshoot", rule="2.2")
            amount, rolls = action.amount, []
        else:
            amount = dice.roll(6)
            rolls = dice.take_drawn()
        state.total = min(state.target, state.total + amount)
        state.history.append(amount)
        events = [Event(key="race.added", params={"amount": amount, "total": state.total}, rolls=rolls)]
        if state.total >= state.target:
            state.winner = seat
        else:
            state.turn = (state.turn + 1) % state.players
        return events

    def view(self, state: RaceState, seat: int | None) -> RaceState:  # type: ignore[override]
        if not state.bidding:
            return state
        return state.model_copy(update={"bids": {s: b for s, b in state.bids.items() if seat is not None
                                                 and s == str(seat)}})

    def outcome(self, state: RaceState) -> Outcome | None:  # type: ignore[override]
        if state.winner is None:
            return None
        return Outcome(winners=[state.winner], reason_key="race.reached", params={"target": state.target})

    def load_state(self, data: str) -> RaceState:
        return RACE_SCHEMA.load(data)


class RacePresenter:
    system = "race"
    shared_buttons = True  # the bids: any bidding seat presses its own

    def render(self, view: RaceState, *, viewer: int | None, lang: str, seat_names: list[str]) -> bytes | None:
        import io

        from PIL import Image
        image = Image.new("RGB", (40, 10), (view.total * 20 % 256, 0, 0))
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()

    def summary(self, view: RaceState, *, lang: str, seat_names: list[str]) -> str:
        return f"total {view.total}/{view.target}"

    def buttons(self, ref: str, view: RaceState, *, seat: int | None, lang: str) -> list[Button]:
        if seat is None:  # several seats wait: the secret bids
            return [Button(label=f"bid {n}", custom_id=f"tv1:race:{ref}:bid:{n}") for n in (1, 2, 3)]
        return [Button(label=f"+{n}", custom_id=f"tv1:race:{ref}:add:{n}") for n in (1, 2, 3)]

    def help_text(self, lang: str) -> str:
        return "Add 1-3 to the total; reach the target to win."

    def image_policy(self, events: list[Event]) -> str:
        """A GM correction is bookkeeping: the board already posted is updated in place."""
        return "update" if all(e.key == "race.gm_set" for e in events) else "new"
