"""Orders from cards: Order action cards from hand (actions) and orders printed on your characters,
their items, or granted by feats (card-orders, feats).

Both check the same things before anything changes: the performer (your army, not stunned, class,
level, ready for a ``Spend`` order), once-per-turn limits, and the chosen target against the card's
selector (own/enemy side, within N ranks, this rank, trait, "spent, not stunned") or, for a strike,
against the strike's reach. The card then resolves as an ``ActionFrame``: its targets are announced
first (a "targeted" window: Defend, Magic Resistance), then its effects run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.warlord import rules_ranks as R
from engines.warlord.content import Ability, CardDef
from engines.warlord.rules_actions import check_performer, is_spell
from engines.warlord.rules_checks import feat_bonus, feat_check, succeeded
from engines.warlord.rules_common import army_uids, ev, find_in
from engines.warlord.rules_stealth import armies_to_enter, enter
from engines.warlord.rules_strikes import RANGED_REACH, melee_targets, ranged_targets
from engines.warlord.state import ActionFrame, State

FEAT_ORDERS = ("medicine", "riding", "scribe", "stealth")
# feats: what a feat order does when its check succeeds (Medicine removes a wound, Riding readies a
# steed, Scribe attaches a spell from hand to cast later, Stealth enters another army's front rank)
FEAT_ORDER_ABILITY = {
    "medicine": Ability(kind="order", targets=[{"choose": {"side": "own", "same_rank": True, "wounded": True}}],
                        effects=[{"heal": {"amount": 1}}]),
    "riding": Ability(kind="order", targets=[{"steed": "carried"}], effects=[]),
    "scribe": Ability(kind="order", targets=[{"spell_in_hand": True}], effects=[]),
    "stealth": Ability(kind="order", spend=True, targets=[{"army": True}], effects=[]),
}


@dataclass
class Plan:
    """A checked order: who performs what, at whom, and what it costs."""

    seat: int
    source: str
    ability_index: int
    ability: Ability
    performer: str
    choice: str | None
    spell: bool
    spend_item: str | None = None
    feat: str | None = None
    marksmanship: str | None = None


def _own_chars(state: State, seat: int) -> list[str]:
    return [u for u in army_uids(state, seat) if state.chars[u].controller == seat]


def _strike_spec(ability: Ability) -> dict[str, Any] | None:
    for effect in ability.effects:
        if "strike" in effect:
            return effect["strike"]
    return None


def _reach_error(state: State, performer: str, target: str, ranged: bool, extra_reach: int) -> RuleError:
    """The rule a strike's target breaks, in its own words (issue 27.3): a ranged strike reaches exactly two
    ranks (ranged-strikes: one rank away is too close, not "no enemy near"); a melee strike one (attack)."""
    n = R.distance(state, performer, target)
    names = {"name": state.name(performer), "target": state.name(target), "n": n}
    if not ranged:
        return RuleError("warlord.err.melee_too_far", rule="attack", **names)
    if n < RANGED_REACH:
        return RuleError("warlord.err.ranged_too_close", rule="ranged-strikes", need=RANGED_REACH, **names)
    return RuleError("warlord.err.ranged_too_far", rule="ranged-strikes", most=RANGED_REACH + extra_reach, **names)


def check_target(state: State, seat: int, performer: str, ability: Ability, ref: str | None,
                 extra_reach: int = 0) -> str | None:
    """The chosen target of an order, checked against its selector or its strike's reach."""
    strike = _strike_spec(ability)
    if strike is not None and strike.get("at") is None:
        if ref is None:
            raise RuleError("warlord.err.target_needed", rule="card-orders", name=state.name(performer))
        reach = (ranged_targets(state, performer, extra_reach) if strike.get("kind") == "ranged"
                 else melee_targets(state, performer))
        enemies = [u for u, c in state.chars.items() if c.controller != seat]
        uid = find_in(state, enemies, ref, "attack")
        if uid not in reach:
            raise _reach_error(state, performer, uid, strike.get("kind") == "ranged", extra_reach)
        return uid
    if any(e.get("retrieve", {}).get("from") == "deck" for e in ability.effects):
        if not ref:  # searching: the player names the card; finding nothing still shuffles
            raise RuleError("warlord.err.target_needed", rule="deck-building", name=state.name(performer))
        return ref
    if any("retrieve" in e for e in ability.effects):
        if ref is None:
            raise RuleError("warlord.err.target_needed", rule="deck-building", name=state.name(performer))
        discard = [u for u in state.player(seat).discard if state.defn(u).type == "character"]
        return find_in(state, discard, ref, "deck-building")
    if any("move" in e for e in ability.effects):
        if ref not in ("forward", "back"):
            raise RuleError("warlord.err.direction_needed", rule="card-orders", name=state.name(performer))
        return ref
    for selector in ability.targets:
        if "spell_in_hand" in selector:  # Scribe: a spell this character could cast if it were ready
            spells = [u for u in state.player(seat).hand if is_spell(state.defn(u))
                      and _could_cast(state, seat, performer, state.defn(u))]
            return find_in(state, spells, ref or "", "feats")
        if "army" in selector:
            if ref not in armies_to_enter(state, performer):
                raise RuleError("warlord.err.stealth_army", rule="enemy-formation", name=state.name(performer))
            return ref
        if "steed" in selector:
            steeds = [i for i in state.chars[performer].items if state.defn(i).has("Steed")
                      and state.items[i].state != "ready"]
            return find_in(state, steeds, ref or "", "feats")
        spec = selector.get("choose")
        if spec is None:
            continue
        if ref is None:
            raise RuleError("warlord.err.target_needed", rule="card-orders", name=state.name(performer))
        uid = find_in(state, list(state.chars), ref, "card-orders")
        if not selector_ok(state, seat, performer, uid, spec):
            raise RuleError("warlord.err.bad_target", rule="card-orders", name=state.name(uid))
        return uid
    return None


def selector_ok(state: State, seat: int, performer: str, uid: str, spec: dict[str, Any]) -> bool:
    c = state.chars[uid]
    side = spec.get("side", "any")
    if (side == "own" and c.controller != seat) or (side == "enemy" and c.controller == seat):
        return False
    if spec.get("within") is not None and R.distance(state, performer, uid) > int(spec["within"]):
        return False
    if spec.get("same_rank") and not (c.army_of == state.chars[performer].army_of
                                      and R.rank_of(state, uid) == R.rank_of(state, performer)):
        return False
    if spec.get("trait") and not state.defn(uid).has(str(spec["trait"])):
        return False
    if spec.get("state") == "spent_only" and c.state != "spent":  # "spent (not stunned)"
        return False
    if spec.get("alignment") == "opposite":  # characters: opposite to the performer, not to its Warlord
        mine, theirs = state.defn(performer).alignment, state.defn(uid).alignment
        if "neutral" in (mine, theirs) or mine == theirs:
            return False
    return not (spec.get("wounded") and c.wounds == 0)


def _could_cast(state: State, seat: int, performer: str, card: CardDef) -> bool:
    try:
        check_performer(state, seat, performer, card, False)
    except RuleError:
        return False
    return True


def plan_play(state: State, seat: int, card_ref: str, k: int, performer_ref: str, target: str | None) -> Plan:
    """actions: an Order action card from hand, or a spell a Scribe attached (cast as if from hand,
    by the character that holds it)."""
    player = state.player(seat)
    scribed = {u: holder for holder in _own_chars(state, seat) for u in state.chars[holder].scribed}
    cards = [u for u in player.hand if state.defn(u).type == "action"] + list(scribed)
    uid = find_in(state, cards, card_ref, "actions")
    d = state.defn(uid)
    ability = _ability(state, uid, d, k, "order")
    performer = find_in(state, _own_chars(state, seat), performer_ref, "actions")
    if uid in scribed and performer != scribed[uid]:
        raise RuleError("warlord.err.scribed_holder", rule="feats", name=d.name, holder=state.name(scribed[uid]))
    check_performer(state, seat, performer, d, ability.spend)
    choice = check_target(state, seat, performer, ability, target)
    return Plan(seat=seat, source=uid, ability_index=k, ability=ability, performer=performer, choice=choice,
                spell=is_spell(d))


def _ability(state: State, uid: str, d: CardDef, k: int, kind: str) -> Ability:
    if not 0 <= k < len(d.abilities) or d.abilities[k].kind != kind:
        raise RuleError("warlord.err.no_such_ability", rule="card-orders", name=d.name, n=k)
    ability = d.abilities[k]
    if ability.unmodeled:
        raise RuleError("warlord.err.unmodeled", rule="golden-rule", name=d.name)
    return ability


def use_sources(state: State, seat: int) -> list[str]:
    """Your characters and the items they carry: where printed orders are."""
    mine = _own_chars(state, seat)
    return mine + [i for u in mine for i in state.chars[u].items]


def plan_use(state: State, seat: int, source: str, k: int, performer_ref: str | None, target: str | None,
             marksmanship: str | None) -> Plan:
    """card-orders: a printed order of a character or its item, or a feat order (``feat:medicine``)."""
    if source.startswith("feat:"):
        feat = source[5:]
        if feat not in FEAT_ORDERS:
            raise RuleError("warlord.err.unmodeled", rule="feats", name=feat)
        anywhere = [u for u, c in state.chars.items() if c.controller == seat]  # infiltrators have feats too
        performer = find_in(state, anywhere, performer_ref or "", "feats")
        _not_stunned(state, performer)
        if feat_bonus(state, performer, feat) is None:
            raise RuleError("warlord.err.no_feat", rule="feats", name=state.name(performer), feat=feat)
        if f"feat:{feat}" in state.chars[performer].used:  # feats: once per turn per character (not Stealth)
            raise RuleError("warlord.err.feat_used", rule="feats", name=state.name(performer), feat=feat)
        ability = FEAT_ORDER_ABILITY[feat]
        if ability.spend and state.chars[performer].state != "ready":
            raise RuleError("warlord.err.not_ready", rule="feats", name=state.name(performer))
        choice = check_target(state, seat, performer, ability, target)
        return Plan(seat=seat, source=source, ability_index=0, ability=ability, performer=performer, choice=choice,
                    spell=False, feat=feat)
    uid = find_in(state, use_sources(state, seat), source, "card-orders")
    d = state.defn(uid)
    ability = _ability(state, uid, d, k, "order")
    performer = state.items[uid].host if uid in state.items else uid
    _not_stunned(state, performer)  # a stunned character cannot use its items' orders either
    if ability.spend and state.chars[performer].state != "ready":
        raise RuleError("warlord.err.not_ready", rule="card-orders", name=state.name(performer))
    spend_item = uid if ability.label == "spend_item" else None
    if spend_item is not None and state.items[uid].state != "ready":
        raise RuleError("warlord.err.not_ready", rule="card-orders", name=d.name)
    if ability.once_per_turn and f"ability:{uid}#{k}" in state.chars[performer].used:
        raise RuleError("warlord.err.once_per_turn", rule="card-orders", name=d.name)
    extra = 0
    if marksmanship is not None:
        strike = _strike_spec(ability)
        if strike is None or strike.get("kind") != "ranged":
            raise RuleError("warlord.err.marksmanship_ranged", rule="feats", name=state.name(performer))
        if feat_bonus(state, performer, "marksmanship") is None:
            raise RuleError("warlord.err.no_feat", rule="feats", name=state.name(performer), feat="marksmanship")
        if "feat:marksmanship" in state.chars[performer].used:
            raise RuleError("warlord.err.feat_used", rule="feats", name=state.name(performer), feat="marksmanship")
        extra = 1 if marksmanship == "range" else 0
    choice = check_target(state, seat, performer, ability, target, extra_reach=extra)
    return Plan(seat=seat, source=uid, ability_index=k, ability=ability, performer=performer, choice=choice,
                spell=False, spend_item=spend_item, marksmanship=marksmanship)


def _not_stunned(state: State, uid: str) -> None:
    if state.chars[uid].state == "stunned":
        raise RuleError("warlord.err.performer_stunned", rule="ready-spent-stunned", name=state.name(uid))


def start(state: State, plan: Plan, dice: Dice) -> list[Event]:
    """Pay the costs, announce the order and push its frame; the stack driver resolves it."""
    seat, performer = plan.seat, plan.performer
    if plan.ability.spend:
        state.chars[performer].state = "spent"
    if plan.spend_item is not None:
        state.items[plan.spend_item].state = "spent"
    if plan.ability.once_per_turn:
        state.chars[performer].used.append(f"ability:{plan.source}#{plan.ability_index}")
    player = state.player(seat)
    name = plan.feat or state.name(plan.source)
    events = [ev("order_used", seat=seat, name=state.name(performer), source=name)]
    if plan.feat != "stealth":  # Stealth's react asks for a turn with no other action
        state.chars[performer].non_stealth_action = True
    if plan.source in player.hand:  # actions: the card resolves, then lies in its owner's discard pile
        player.hand.remove(plan.source)
        player.discard.append(plan.source)
    elif plan.source in state.chars[performer].scribed:  # Scribe: discarded to cast it as if from hand
        state.chars[performer].scribed.remove(plan.source)
        state.chars[performer].attached.remove(plan.source)
        player.discard.append(plan.source)
    frame = ActionFrame(seat=seat, performer=performer, card=plan.source, ability=plan.ability_index,
                        targets=[plan.choice] if plan.choice in state.chars else [], spell=plan.spell,
                        choice=plan.choice,
                        from_hand=plan.source in state.cards and state.defn(plan.source).type == "action")
    if plan.feat is not None:
        if plan.feat != "stealth":  # feats: every feat but Stealth is once per turn
            state.chars[performer].used.append(f"feat:{plan.feat}")
        roll = feat_check(state, performer, plan.feat, dice)
        ok = succeeded(roll)
        events.append(ev("feat_check", rolls=dice.take_drawn(), seat=seat, name=state.name(performer),
                         feat=plan.feat, natural=roll.natural, total=roll.total, dc=20, ok=ok))
        if not ok and plan.feat != "scribe":
            return events
        if plan.feat == "riding" and plan.choice in state.items:
            state.items[plan.choice].state = "ready"
            return [*events, ev("state_set", name=state.name(plan.choice), state="ready")]
        if plan.feat == "stealth" and plan.choice is not None:
            return events + enter(state, performer, plan.choice)
    if plan.feat == "scribe" and plan.choice is not None:
        return events + _scribe(state, seat, performer, plan.choice, ok)
    if plan.marksmanship is not None:
        events += _marksmanship(state, plan, frame, dice)
    state.stack.append(frame)
    return events


def _scribe(state: State, seat: int, performer: str, spell: str, ok: bool) -> list[Event]:
    """feats (Scribe): the revealed spell is attached on a success and discarded on a failure."""
    player = state.player(seat)
    player.hand.remove(spell)
    if ok:
        state.chars[performer].attached.append(spell)
        state.chars[performer].scribed.append(spell)
        return [ev("scribed", name=state.name(performer), card=state.name(spell))]
    player.discard.append(spell)
    return [ev("scribe_failed", name=state.name(performer), card=state.name(spell))]


def _marksmanship(state: State, plan: Plan, frame: ActionFrame, dice: Dice) -> list[Event]:
    """feats: before a non-spell ranged strike picks its target: +1 rank of reach, +5 or +1 wound.
    Reading: the check is rolled before the strike; if a "reach" check fails and the target is three
    ranks away, the strike is lost (the order and its costs are spent)."""
    performer = plan.performer
    state.chars[performer].used.append("feat:marksmanship")
    roll = feat_check(state, performer, "marksmanship", dice)
    ok = succeeded(roll)
    events = [ev("feat_check", rolls=dice.take_drawn(), seat=plan.seat, name=state.name(performer),
                 feat="marksmanship", natural=roll.natural, total=roll.total, dc=20, ok=ok)]
    if ok and plan.marksmanship == "roll":
        frame.extra_bonus = 5
    elif ok and plan.marksmanship == "wound":
        frame.extra_wounds = 1
    elif not ok and plan.marksmanship == "range" and plan.choice not in ranged_targets(state, performer):
        frame.cancelled = True
    return events
