"""Which reacts a seat may play in the open window, and playing one (reacts, feats).

Three sources: React action cards from hand (a performer like an order: your army, not stunned,
class and level; ``Spend`` needs it ready and spends it), React abilities printed on items in play
(the host acts; Runed Greataxe) and the react feats of your characters (Defend, Magic Resistance,
Powerattack, Riposte, Charisma: a DC 20 check, once per turn per character). A card answers one
event once (key ``card#ability``, reading §6.2). The window a react answers sits on top of the
stack; the strike or action it changes is the frame just below.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.warlord import actions as A
from engines.warlord import rules_ranks as R
from engines.warlord.content import Ability, CardDef
from engines.warlord.rules_actions import check_performer, is_spell
from engines.warlord.rules_checks import feat_bonus, feat_check, succeeded
from engines.warlord.rules_common import army_uids, ev
from engines.warlord.rules_effects import Ctx, run
from engines.warlord.rules_strikes import reroll_strike
from engines.warlord.rules_windows import reacted
from engines.warlord.state import ActionFrame, State, StrikeFrame, WindowFrame, WoundFrame

REACT_FEATS = ("defend", "magic_resistance", "powerattack", "riposte", "charisma", "stealth")


def below(state: State) -> StrikeFrame | ActionFrame | WoundFrame | None:
    """The frame the top window is about (pushed by it just before the window opened)."""
    if len(state.stack) < 2:
        return None
    f = state.stack[-2]
    return f if isinstance(f, (StrikeFrame, ActionFrame, WoundFrame)) else None


def _mine(state: State, seat: int) -> list[str]:
    return [u for u in army_uids(state, seat) if state.chars[u].controller == seat]


def _matches(state: State, seat: int, w: WindowFrame, trigger: dict[str, object] | None, this: str) -> bool:
    """A printed trigger against the open window: the moment, whose target/striker, melee or not."""
    if not trigger or trigger.get("kind") != w.trigger:
        return False
    if w.trigger == "reforming" and w.seat != seat:
        return False
    target, striker, by = trigger.get("target"), trigger.get("striker"), trigger.get("by")
    if target == "this" and w.target != this:
        return False
    if target == "own" and not (w.target in state.chars and state.chars[w.target].controller == seat):
        return False
    if striker in ("this", "host") and w.source != this:
        return False
    return not (by and w.by != by)


def _hand_reacts(state: State, seat: int, w: WindowFrame) -> list[A.React]:
    out: list[A.React] = []
    for uid in state.player(seat).hand:
        d = state.defn(uid)
        if d.type != "action":
            continue
        for k, ability in enumerate(d.abilities):
            if ability.kind != "react" or ability.unmodeled or f"{uid}#{k}" in w.used:
                continue
            for performer in _mine(state, seat):
                if _performer_ok(state, seat, performer, d, ability) and _matches(state, seat, w, ability.trigger,
                                                                                 performer):
                    out.append(A.React(source=uid, ability=k, performer=performer))
    return out


def _performer_ok(state: State, seat: int, performer: str, card: CardDef, ability: Ability) -> bool:
    try:
        check_performer(state, seat, performer, card, ability.spend)
    except RuleError:
        return False
    return True


def _item_reacts(state: State, seat: int, w: WindowFrame) -> list[A.React]:
    out: list[A.React] = []
    for host in _mine(state, seat):
        if state.chars[host].state == "stunned":
            continue
        for item in state.chars[host].items:
            for k, ability in enumerate(state.defn(item).abilities):
                if (ability.kind == "react" and not ability.unmodeled and f"{item}#{k}" not in w.used
                        and not (ability.spend and state.chars[host].state != "ready")
                        and _matches(state, seat, w, ability.trigger, host)):
                    out.append(A.React(source=item, ability=k, performer=host))
    return out


def _feat_applies(state: State, feat: str, uid: str, w: WindowFrame) -> bool:
    """feats: the moment each react feat answers (spec §2.13)."""
    if feat == "defend":  # after an adjacent character of yours is targeted by a melee strike or an action
        return (w.trigger == "targeted" and w.by in ("melee", "action", "spell") and w.target in state.chars
                and w.target != uid and R.adjacent(state, uid, w.target))
    if feat == "magic_resistance":  # after this character is targeted by a spell
        return w.trigger == "targeted" and w.by == "spell" and w.target == uid
    if feat == "powerattack":  # before rolling a melee strike of this character
        return w.trigger == "before_roll" and w.by == "melee" and w.source == uid
    if feat == "riposte":  # after a melee strike at this character resolved: strike back at the striker
        return (w.trigger == "strike_resolved" and w.by == "melee" and w.target == uid
                and w.source in state.chars and state.chars[w.source].controller != state.chars[uid].controller)
    if feat == "stealth":  # enemy-formation: an infiltrator that did nothing else this turn slips away
        c = state.chars[uid]
        return (w.trigger == "targeted" and w.by in ("melee", "action", "spell") and w.target == uid
                and c.army_of != c.controller and not c.non_stealth_action)
    if feat == "charisma":  # after another character of this rank rolled (reading §6.14: never a 1 or a 20)
        f = state.stack[-2] if len(state.stack) > 1 else None
        return (w.trigger == "after_roll" and w.source in state.chars and w.source != uid
                and isinstance(f, StrikeFrame) and f.natural not in (1, 20)
                and state.chars[w.source].army_of == state.chars[uid].army_of
                and R.rank_of(state, w.source) == R.rank_of(state, uid))
    return False


def _feat_reacts(state: State, seat: int, w: WindowFrame) -> list[A.React]:
    out: list[A.React] = []
    for uid in [u for u, c in state.chars.items() if c.controller == seat]:  # infiltrators too
        c = state.chars[uid]
        if c.state == "stunned":
            continue
        for feat in REACT_FEATS:
            key = f"feat:{feat}"
            if (key not in c.used and f"{uid}#{key}" not in w.used and feat_bonus(state, uid, feat) is not None
                    and _feat_applies(state, feat, uid, w)):
                out.append(A.React(source=key, performer=uid))
    return out


def legal_reacts(state: State, seat: int, w: WindowFrame) -> list[A.React]:
    return _feat_reacts(state, seat, w) + _item_reacts(state, seat, w) + _hand_reacts(state, seat, w)


def _deck_could(state: State, seat: int, w: WindowFrame) -> bool:
    """Whether a React card of the seat's deck list would fit the moment, were it in hand: public, since the
    deck list is the deck chosen in the lobby and the performers are on the board. The hand itself is
    never read, only whether it is empty (its size is public)."""
    player = state.player(seat)
    if not (player.hand or player.hand_count):
        return False
    performers = _mine(state, seat)
    for key in sorted({c.card for c in state.cards.values() if c.owner == seat}):
        d = state.cards_def.get(key)
        if d is None or d.type != "action":
            continue
        for ability in d.abilities:
            if ability.kind == "react" and not ability.unmodeled and any(
                    _performer_ok(state, seat, p, d, ability) and _matches(state, seat, w, ability.trigger, p)
                    for p in performers):
                return True
    return False


def probe(state: State, seat: int, w: WindowFrame) -> tuple[bool, bool]:
    """(a react on the board fits, a React card of the deck list could) for who is asked: public only."""
    public = bool(_feat_reacts(state, seat, w) or _item_reacts(state, seat, w))
    return public, public or _deck_could(state, seat, w)


def _resolve_ref(state: State, seat: int, action: A.React, w: WindowFrame) -> A.React:
    """The legal react the action names (uids or card names), or the rule's error."""
    for option in legal_reacts(state, seat, w):
        if _same(state, option.source, action.source) and option.ability == action.ability and (
                action.performer is None or _same(state, option.performer or "", action.performer)):
            return option
    raise RuleError("warlord.err.no_such_react", rule="reacts", name=action.source)


def _same(state: State, uid: str, ref: str) -> bool:
    return uid == ref or (uid in state.cards and (state.name(uid).casefold() == ref.strip().casefold()
                                                  or state.cards[uid].card == ref))


def check_react(state: State, seat: int, action: A.React) -> A.React:
    """The react an answer names, checked now; it is played when the seat's turn in initiative order comes."""
    w = state.stack[-1]
    assert isinstance(w, WindowFrame)
    option = _resolve_ref(state, seat, action, w)
    return option.model_copy(update={"target": action.target})


def play_react(state: State, seat: int, option: A.React, dice: Dice) -> list[Event]:
    """A react takes effect (its answer's turn came): checked again, since the window's moment may have moved."""
    w = state.stack[-1]
    assert isinstance(w, WindowFrame)
    option = _resolve_ref(state, seat, option, w).model_copy(update={"target": option.target})
    performer = option.performer
    assert performer is not None
    frame = below(state)
    if option.source.startswith("feat:"):
        reacted(w, f"{performer}#{option.source}")
        return _feat(state, seat, option.source[5:], performer, w, frame, dice)
    uid, k = option.source, option.ability
    d = state.defn(uid)
    ability = d.abilities[k]
    reacted(w, f"{uid}#{k}")
    state.chars[performer].non_stealth_action = True
    if ability.spend:
        state.chars[performer].state = "spent"
    events = [ev("react_played", seat=seat, name=d.name, performer=state.name(performer))]
    if uid in state.player(seat).hand:  # actions: a played card goes to its owner's discard pile
        state.player(seat).hand.remove(uid)
        state.player(seat).discard.append(uid)
    ctx = Ctx(seat=seat, performer=performer, this=performer, card=uid, spell=is_spell(d), window=w, below=frame,
              choice=option.target)
    return events + run(state, ctx, ability.effects, dice)


def _feat(state: State, seat: int, feat: str, uid: str, w: WindowFrame,
          frame: StrikeFrame | ActionFrame | WoundFrame | None, dice: Dice) -> list[Event]:
    """feats: once per turn (Stealth excepted), a DC 20 check; on success the feat does what it says."""
    if feat != "stealth":
        state.chars[uid].used.append(f"feat:{feat}")
        state.chars[uid].non_stealth_action = True
    roll = feat_check(state, uid, feat, dice)
    ok = succeeded(roll)
    events = [ev("feat_check", rolls=dice.take_drawn(), seat=seat, name=state.name(uid), feat=feat,
                 natural=roll.natural, total=roll.total, dc=20, ok=ok)]
    if not ok:
        return events
    if feat == "defend" and frame is not None:  # reading §6.13: the defender is a legal target by construction
        if isinstance(frame, (StrikeFrame, WoundFrame)):
            frame.target = uid
        else:
            frame.targets = [uid if t == w.target else t for t in frame.targets]
        w.target = uid
        events.append(ev("redirected", name=state.name(uid)))
    elif feat in ("magic_resistance", "stealth") and frame is not None:
        frame.cancelled = True  # reading §6.16: the whole spell is cancelled
        events.append(ev("cancelled", name=state.name(uid)))
    elif feat == "powerattack" and isinstance(frame, StrikeFrame):
        frame.wounds += 1
        frame.action_wounds += 1
        events.append(ev("wounds_changed", name=state.name(frame.target), n=frame.wounds))
    elif feat == "riposte" and w.source in state.chars:
        ctx = Ctx(seat=seat, performer=uid, this=uid, card="feat:riposte", window=w, below=frame)
        events += run(state, ctx, [{"strike": {"kind": "melee", "bonus": None, "at": "trigger.source"}}], dice)
    elif feat == "charisma" and isinstance(frame, StrikeFrame):
        events += reroll_strike(state, frame, dice)
    return events
