"""Several replacement effects on one damage event (709.1-709.4, with 709.2, 709.2a and 709.2b).

Why it is built this way:

- 709.2 applies competing replacements **one at a time**: after each, the others that still want
  to replace the *modified* event compete again. Each applies at most once per event (709.4).
  Once the damage has become 0 there is no damage left to replace, so the rest stop there.
- 709.2a says who picks for damage: first the player dealing it picks among the replacements he
  controls, one at a time, until none of his are left; then the player taking it picks among the ones
  *he* controls. A replacement's controller is the player who cast the buff carrying it (``Effect.seat``).
  Reading for what 709.2a leaves open (the spec's summary is silent; it matters with 3-4 players, where
  a third player's buff or debuff may sit on the event, a teammate's ward in 2 vs 2 included): the
  replacements controlled by neither of the two are applied last, and the player taking the damage
  orders them, since 709.2b makes the affected player the one who picks whenever nobody else is named.
  The third player is never asked (he neither deals nor takes that damage). Damage nobody deals (a
  buff's damage belongs to nobody, 301.2a) skips the dealer's turn: the receiver's own, then the rest.
- The platform asks only when the order matters: every order the chooser could pick is played out
  (the later pickers' orders included) and a question is asked only if the picks lead to different
  outcomes (final damage and what each prevention shield has left). Otherwise the replacements
  apply in a fixed order: the order their buffs were put on (oldest first, ``state.effects``).
- Resolution may not stop in the middle of a damage: the callers (attack step H, effect steps,
  trigger waves) first call ``ask`` for the whole batch of damage they are about to deal. ``ask``
  walks the batch exactly as ``apply`` will, replaying the answers given so far
  (``state.replace_picks``, one per question, in order); if a question is still open it sets
  ``state.pending`` (kind ``replacement``) and the caller waits. ``apply`` runs the same walk for
  real; a caller that never asked gets the fixed order.
- 709.2b for events other than damage: the only other replacement in the vocabulary is 709.5's
  natural move (``rules_moves.teleport_move``). Whichever applies first turns the move into a
  teleport, which the others no longer replace; the mover's player picks by naming the destination.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations

from engines.core.events import Event
from engines.wowminis.rules_board import ev, name_of
from engines.wowminis.state import CharState, Pending, PendingOption, State

# the words of each pick, by what it does (the ops of ``content.ReplaceOp`` and the prevention shield)
OPTION_KEYS = {"prevent": "wowm.option.replacement.prevent", "add": "wowm.option.replacement.add",
               "reduce": "wowm.option.replacement.reduce", "halve": "wowm.option.replacement.halve"}
MAX_ORDERED = 6  # more competing replacements than this are always asked about (too many orders to try)


@dataclass(frozen=True)
class Rep:
    """One replacement instance able to change a damage event. ``key`` is the buff's effect id for its
    prevention shield, ``<effect id>.<n>`` for its n-th ``replace`` entry."""

    key: str
    effect: str
    seat: int
    op: str  # prevent | add | reduce | halve
    amount: int
    name: str


@dataclass(frozen=True)
class Hit:
    """A damage event about to happen: who takes it, how much, and who deals it (``None``: nobody)."""

    target: str
    amount: int
    dealer: str | None = None
    seat: int | None = None


@dataclass
class Plan:
    """What the walk decided for one damage event: the replacements applied, in order, and the result."""

    applied: list[tuple[Rep, int, int]] = field(default_factory=list)  # (replacement, before, after)
    amount: int = 0


@dataclass
class _Question:
    seat: int
    hit: Hit
    amount: int
    options: list[Rep]


def candidates(state: State, hit: Hit, left: dict[str, int]) -> list[Rep]:
    """709.3: the replacements that exist now and want to replace this event, oldest buff first."""
    found: list[Rep] = []
    for e in state.effects:
        if e.target == hit.target and left.get(e.id, e.prevent_left) > 0:
            found.append(Rep(e.id, e.id, e.seat, "prevent", left.get(e.id, e.prevent_left), e.name))
        for n, r in enumerate(e.buff.replace):
            on_target = r.on == "damage_taken" and e.target == hit.target
            on_dealer = r.on == "damage_dealt" and hit.dealer is not None and e.target == hit.dealer
            if on_target or on_dealer:
                found.append(Rep(f"{e.id}.{n}", e.id, e.seat, r.op, r.amount, e.name))
    return found


def _one(rep: Rep, amount: int, left: dict[str, int]) -> int:
    """709.1: the modified event replacing ``amount`` damage; a shield spends what it stops."""
    if rep.op == "prevent":
        stop = min(left.get(rep.effect, rep.amount), amount)
        left[rep.effect] = left.get(rep.effect, rep.amount) - stop
        return amount - stop
    if rep.op == "add":
        return amount + rep.amount
    if rep.op == "reduce":
        return max(0, amount - rep.amount)
    return (amount + 1) // 2  # halve, rounded up


def _phases(hit: Hit, receiver: int, reps: list[Rep]) -> list[tuple[int, list[Rep]]]:
    """709.2a: (who picks, among which) in order: the dealer among his own, the receiver among his own,
    then the receiver (709.2b, the affected player) among the ones a third player controls."""
    dealer = hit.seat
    phases: list[tuple[int, list[Rep]]] = []
    if dealer is not None and dealer != receiver:
        phases.append((dealer, [r for r in reps if r.seat == dealer]))
    phases.append((receiver, [r for r in reps if r.seat == receiver]))
    phases.append((receiver, [r for r in reps if r.seat not in (dealer, receiver)]))
    return [(seat, group) for seat, group in phases if group]


def _outcome(order: list[Rep], amount: int, left: dict[str, int]) -> tuple[int, tuple[tuple[str, int], ...]]:
    spent = dict(left)
    for rep in order:
        if amount <= 0:
            break
        amount = _one(rep, amount, spent)
    return amount, tuple(sorted(spent.items()))


def _outcomes(first: Rep, rest: list[Rep], later: list[list[Rep]], amount: int,
              left: dict[str, int]) -> frozenset[tuple[int, tuple[tuple[str, int], ...]]]:
    """Every outcome reachable when ``first`` is picked now, whatever the later picks are."""
    tails: list[list[Rep]] = [[]]
    for group in [rest, *later]:
        tails = [t + list(p) for t in tails for p in permutations(group)]
    return frozenset(_outcome([first, *tail], amount, left) for tail in tails)


def _pick(phase: list[Rep], later: list[list[Rep]], amount: int, left: dict[str, int]) -> list[Rep]:
    """The picks to offer now: every one of the chooser's replacements if picking differently can change
    the result (the sets of reachable outcomes differ), else only the first in the fixed order."""
    if len(phase) == 1:
        return phase
    if len(phase) + sum(len(g) for g in later) > MAX_ORDERED:
        return phase
    reachable = {_outcomes(rep, phase[:i] + phase[i + 1:], later, amount, left) for i, rep in enumerate(phase)}
    return phase if len(reachable) > 1 else phase[:1]


def _walk(state: State, hit: Hit, left: dict[str, int], picks: list[str], *, asking: bool = True) -> Plan | _Question:
    """709.2/709.2a for one event; ``picks`` are the answers still to replay (consumed from the front).
    Without ``asking``, an open question takes the fixed order's pick instead of stopping."""
    target = state.chars.get(hit.target)
    plan = Plan(amount=hit.amount)
    if target is None or target.pos is None or hit.amount <= 0:
        return plan
    reps = candidates(state, hit, left)
    phases = _phases(hit, target.controller, reps)
    for n, (seat, phase) in enumerate(phases):
        todo = list(phase)
        while todo and plan.amount > 0:  # 709.2: no damage left, nothing left to replace
            later = [list(p) for _, p in phases[n + 1:]]
            options = _pick(todo, later, plan.amount, left)
            chosen = options[0]
            if len(options) > 1 and picks:
                answer = picks.pop(0)
                chosen = next((r for r in options if r.key == answer), options[0])
            elif len(options) > 1 and asking:
                return _Question(seat, hit, plan.amount, options)
            before = plan.amount
            plan.amount = _one(chosen, plan.amount, left)
            plan.applied.append((chosen, before, plan.amount))
            todo.remove(chosen)  # 709.4: once per event
    return plan


def _left(state: State) -> dict[str, int]:
    return {e.id: e.prevent_left for e in state.effects}


def ask(state: State, hits: list[Hit]) -> bool:
    """Before a batch of damage: set the first open "replacement" question, if any (True = wait)."""
    left = _left(state)
    picks = list(state.replace_picks)
    for hit in hits:
        found = _walk(state, hit, left, picks)
        if isinstance(found, _Question):
            state.pending = _pending(state, found)
            return True
    return False


def answer(state: State, value: str) -> list[Event]:
    """The chooser's pick (709.2): kept for the walk to replay; resolution resumes."""
    state.replace_picks.append(value)
    return []


def done(state: State) -> None:
    """The batch was applied: its answers are spent."""
    state.replace_picks.clear()


def apply(state: State, c: CharState, amount: int, dealer: str | None,
          seat: int | None) -> tuple[int, list[Event], list[str]]:
    """709.1: replace the damage event about to hit ``c``. Returns the damage left, what was replaced, and
    the shields now empty (the caller removes them: 709.4 has each used once per event, then spent)."""
    # the answers are replayed in place, so the next event of the batch starts at its own; a caller
    # that did not ask first gets the fixed order
    found = _walk(state, Hit(c.id, amount, dealer, seat), _left(state), state.replace_picks, asking=False)
    assert isinstance(found, Plan)
    events: list[Event] = []
    spent: list[str] = []
    by_id = {e.id: e for e in state.effects}
    for rep, before, after in found.applied:
        effect = by_id[rep.effect]
        if rep.op == "prevent":
            effect.prevent_left -= before - after
            events.append(ev("prevented", char=c.id, name=c.defn.name, amount=before - after, buff=effect.name))
            if effect.prevent_left <= 0:
                spent.append(effect.id)
        else:
            events.append(ev("replaced", char=c.id, name=c.defn.name, buff=effect.name, before=before, after=after))
    return found.amount, events, spent


def _pending(state: State, q: _Question) -> Pending:
    """The Decision (kind ``replacement``) to the player who picks next, one option per distinct pick."""
    target = state.chars[q.hit.target]
    return Pending(kind="replacement", seat=q.seat,
                   params={"char": target.defn.name, "amount": q.amount,
                           "by": name_of(state, q.hit.dealer) if q.hit.dealer else ""},
                   options=[PendingOption(value=r.key, label_key=OPTION_KEYS[r.op],
                                          params={"name": r.name, "amount": r.amount, "op": r.op})
                            for r in q.options])
