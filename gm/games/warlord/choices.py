"""Warlord autocomplete and typed names, built from ``legal_actions`` on the seat's own ``view``.

So a list offers only what the engine accepts now, and never a card the seat may not see (another
seat's hand, any deck). Cards go back as uids (``s0c12``); what a player types instead (a name, its
beginning) is resolved among the same legal options, and anything else is handed to the engine,
whose error names the rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from common.i18n import Phrase, t
from engines.core.contract import Action
from engines.core.errors import RuleError, TavoloError
from engines.warlord import ENGINE
from engines.warlord import actions as A
from engines.warlord.content import DeckDef, Pack
from engines.warlord.rules_common import add_italian_names, atk_values, italian_names
from engines.warlord.rules_deck import army_card_error
from engines.warlord.state import State
from gm.games.choices import Choice, Ranked, clip, fit, matches, rank
from gm.games.names import Name, echo, find, fold, resolve, resolve_many
from gm.games.warlord import text
from gm.games.warlord.typed import NAME_KEYS, army_ref, army_ref_label, pick_card

NONE_WORDS = ("none", "nessuna", "nessuno", "-", "keep", "tieni")
DIRECTIONS = ("forward", "back", "shift")
YIELDS = ("window", "attack", "turn")
MARKS = ("range", "roll", "wound")
ZONES = ("hand", "discard", "deck", "removed")


# ---------------------------------------------------------------------------- basics
def legal(view: State | None, seat: int | None) -> list[Action]:
    if view is None or seat is None:
        return []
    return ENGINE.legal_actions(view, seat)


def _of(view: State | None, seat: int | None, kind: type[Any]) -> list[Any]:
    return [a for a in legal(view, seat) if isinstance(a, kind)]


def resolve_card(view: State, uids: Iterable[str], typed: str | None) -> str:
    """A uid among ``uids`` by the shared resolver (``gm.games.names``: uid, name, any word or piece
    of it, a close typo), the first copy when several copies of one card fit; else what was typed,
    so that the engine's refusal names the rule that failed."""
    typed = (typed or "").strip()
    pool = [u for u in dict.fromkeys(uids) if u in view.cards]
    if typed in pool:
        return typed
    _tier, found = find(typed, [Name(u, view.name(u), (view.cards[u].card, view.defn(u).name_it)) for u in pool])
    return found[0].value if found and len({view.name(n.value) for n in found}) == 1 else typed


def _word_value(group: str, values: tuple[str, ...], typed: str | None) -> str | None:
    """A fixed value typed as itself or as its word in either language (or the start of one)."""
    wanted = fold(typed or "")
    if not wanted:
        return None
    for exact in (True, False):
        for v in values:
            words = [v, *(text.word(group, v, lang) for lang in ("en", "it"))]
            if any(fold(w) == wanted if exact else fold(w).startswith(wanted) for w in words):
                return v
    return None


# ---------------------------------------------------------------------------- lobby and set-up
def deck_warlord(pack: Pack, deck: DeckDef, lang: str) -> str:
    """The Warlord a deck is built around, in the reader's language."""
    defs = {c.id: c for c in pack.cards}
    return next((defs[c].shown(lang) for c in deck.cards if c in defs and defs[c].has("Warlord")), "?")


def deck_choices(pack: Pack, current: str, lang: str) -> list[Choice]:
    found = []
    for k, deck in enumerate(pack.decks):
        size = sum(deck.cards.values())
        lord = deck_warlord(pack, deck, lang)
        label = fit([deck.shown(lang), t("warlord.ui.deck_label", lang, warlord=lord, n=size)])
        found.append(Ranked(Choice(label, deck.id), (k,), (deck.name, deck.name_it)))
    return rank(found, current)


def resolve_deck(pack: Pack, typed: str) -> str:
    """A deck by id, English or Italian name, any word or piece of it, or a close typo; else the list, in
    the reader's language (the confirmation says "Guardiapietra", so must the refusal)."""
    names = [Name(d.id, d.name, (d.name_it,)) for d in pack.decks]
    try:
        return resolve(typed, names, what=Phrase("warlord.ui.what.deck"), keys=NAME_KEYS)
    except TavoloError as exc:
        add_italian_names(exc.params, {d.name: d.name_it for d in pack.decks if d.name_it})
        raise exc from None


def _split(current: str) -> tuple[list[str], str]:
    parts = (current or "").split(",")
    return [p.strip() for p in parts[:-1] if p.strip()], parts[-1].strip()


def _multi(options: list[tuple[str, str, int, tuple[str, ...]]], current: str, limit: int) -> list[Choice]:
    """Comma-separated names: ``options`` are (name, label, copies, other spellings); the typed names stay
    in front."""
    done, last = _split(current)
    if limit <= 0:
        return []
    if len(done) >= limit:
        return [Choice(", ".join(done)[:100], ", ".join(done)[:100])]
    found = []
    for order, (name, label, copies, spelled) in enumerate(options):
        if sum(fold(d) in {fold(x) for x in (name, *spelled)} for d in done) >= copies:
            continue
        value = ", ".join([*done, name])
        if len(value) > 100 or (last and not matches(last, name, label, *spelled)):
            continue
        shown = fit([value, label]) if done else label
        found.append(Ranked(Choice(shown, value), (order,)))
    return rank(found, "")


def _pool_chars(view: State, seat: int) -> list[str]:
    return [u for u in view.player(seat).deck_pool if u in view.cards and view.defn(u).type == "character"]


def _counted(view: State, uids: list[str], lang: str) -> list[tuple[str, str, int, tuple[str, ...]]]:
    """(name in the reader's language, label, copies, both names) per card of ``uids``."""
    seen: dict[str, tuple[str, str, int, tuple[str, ...]]] = {}
    for u in uids:
        d = view.defn(u)
        name, label, n, spelled = seen.get(d.id, (d.shown(lang), text.card_short(d, lang), 0, text.aliases(view, u)))
        seen[d.id] = (name, label, n + 1, spelled)
    return list(seen.values())


def army_warlord_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    if view is None or seat is None or view.phase != "setup":
        return []
    uids = [u for u in _pool_chars(view, seat) if view.defn(u).has("Warlord")]
    return rank([Ranked(Choice(label, name), (0,), spelled) for name, label, _n, spelled in _counted(view, uids, lang)],
                current)


def army_level_choices(view: State | None, seat: int | None, level: int, warlord: str | None, current: str,
                       lang: str) -> list[Choice]:
    """Level 1 (or 2) characters of the deck that the starting-army check accepts beside the chosen Warlord
    (the one typed, else every Warlord of the deck): the same check as the refusal (issue 27.4)."""
    if view is None or seat is None or view.phase != "setup":
        return []
    pool = _pool_chars(view, seat)
    lords = [u for u in pool if view.defn(u).has("Warlord")]
    if warlord:
        lords = [resolve_card(view, lords, warlord)]
    uids = [u for u in pool if any(army_card_error(view.defn(lord), view.defn(u), level, view.factions) is None
                                   for lord in lords if lord in view.cards)]
    return _multi(_counted(view, uids, lang), current, 3 if level == 1 else 2)


def suggested_army(view: State | None, seat: int | None) -> A.StartingArmy | None:
    return next(iter(_of(view, seat, A.StartingArmy)), None)


def names_list(typed: str | None) -> list[str]:
    return [x.strip() for x in (typed or "").split(",") if x.strip()]


def _army_names(view: State, uids: list[str]) -> list[Name]:
    """One name per card of the deck, spelt as the card says, by its id, or as the short label."""
    seen: dict[str, Name] = {}
    for u in uids:
        d = view.defn(u)
        seen.setdefault(d.name, Name(d.name, d.name, (d.id, d.name_it, text.card_short(d, "en"),
                                                     text.card_short(d, "it"))))
    return list(seen.values())


def army_names(view: State, seat: int, warlord: str, level1: str | None,
               level2: str | None) -> tuple[str, list[str], list[str]]:
    """The starting army as typed ("thane", "shieldwall, shieldwall, shieldwall", "crossbowman"), read
    by the shared resolver against the deck's own characters: an unknown or ambiguous name is refused
    here with the deck's names, not passed on as a card the engine cannot find."""
    pool = _pool_chars(view, seat)
    lords = [u for u in pool if view.defn(u).has("Warlord")]
    table = italian_names(view)
    try:
        chosen = resolve(warlord, _army_names(view, lords), what=Phrase("warlord.ui.what.warlord"), keys=NAME_KEYS)

        def level(typed: str | None, n: int) -> list[str]:
            uids = [u for u in pool if view.defn(u).level == n and not view.defn(u).has("Warlord")]
            return resolve_many(typed or "", _army_names(view, uids), what=Phrase(f"warlord.ui.what.level{n}"),
                                keys=NAME_KEYS) if typed else []

        return chosen, level(level1, 1), level(level2, 2)
    except TavoloError as exc:  # the deck's names in the reader's language too
        add_italian_names(exc.params, table)
        raise exc from None


# ---------------------------------------------------------------------------- draw phase
def discard_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    if view is None or seat is None or not _of(view, seat, A.DrawDiscard):
        return []
    found = []
    if not (current or "").strip():
        found.append(Choice(t("warlord.ui.discard_none", lang), "none"))
    uids = list(view.player(seat).hand)
    return found + _multi(_counted(view, uids, lang), current, len(uids))[:24]


def resolve_discards(view: State, seat: int | None, typed: str | None) -> list[str]:
    if seat is None:
        raise TavoloError("game.not_seated")
    names = names_list(typed)
    if not names or fold(names[0]) in NONE_WORDS or view.phase != "draw":
        return []  # out of the draw phase the engine refuses the discard with the rule of the moment (issue 27.7)
    left = list(view.player(seat).hand)
    out = []
    for name in names:
        uid = pick_card(view, left, name)
        if uid not in left:
            raise RuleError("warlord.err.no_such_card", rule="draw-phase", name=echo(name))
        left.remove(uid)
        out.append(uid)
    return out


# ---------------------------------------------------------------------------- orders
def attacker_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = []
    for a in _of(view, seat, A.Attack):
        assert view is not None
        n = len(atk_values(view, a.attacker))
        label = fit([text.char_now(view, a.attacker, lang, owner=False), t("warlord.ui.strikes", lang, n=n)])
        found.append(Ranked(Choice(label, a.attacker), (-n,), text.aliases(view, a.attacker)))
    return rank(found, current)


def needs(natural: int) -> int:
    return max(2, min(20, natural))


def strike_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Legal targets of the next strike, each with the d20 it needs ("needs 10+")."""
    if view is None or view.attack is None:
        return []
    a = view.attack
    bonus = atk_values(view, a.attacker)[min(a.made, len(atk_values(view, a.attacker)) - 1)]
    found = []
    for s in _of(view, seat, A.Strike):
        from engines.warlord.rules_common import armor

        need = needs(armor(view, s.target) - bonus)
        label = fit([text.char_now(view, s.target, lang), t("warlord.ui.needs_roll", lang, n=need)])
        found.append(Ranked(Choice(label, s.target), (need,), text.aliases(view, s.target)))
    return rank(found, current)


def recruit_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _of(view, seat, A.Recruit):
        assert view is not None
        d = view.defn(a.card)
        label = fit([d.shown(lang), t("warlord.ui.to_rank", lang, n=d.level), *text.card_parts(d, lang)])
        found.setdefault(d.id, Ranked(Choice(label, a.card), (-d.level, d.shown(lang)), text.aliases(view, a.card)))
    return rank(found.values(), current)


def position_choices(view: State | None, seat: int | None, rank_no: int | None, current: str,
                     lang: str) -> list[Choice]:
    """Places in a rank, left to right: the ends and between two characters."""
    if view is None or seat is None or rank_no is None:
        return []
    ranks = view.player(seat).ranks
    row = ranks[rank_no - 1] if 0 < rank_no <= len(ranks) else []
    found = []
    for k in range(len(row) + 1):
        if k == 0:
            label = t("warlord.ui.pos_left", lang)
        elif k == len(row):
            label = t("warlord.ui.pos_right", lang)
        else:
            label = t("warlord.ui.pos_between", lang, a=text.shown(view, row[k - 1], lang),
                      b=text.shown(view, row[k], lang))
        found.append(Ranked(Choice(f"{k} · {label}", str(k)), (k,)))
    return rank(found, current)


def card_rank(view: State | None, card: str | None, seat: int | None) -> int | None:
    """The rank a card from hand enters (its level), or where a character in play stands."""
    if view is None or seat is None or not card:
        return None
    uid = resolve_card(view, [*view.player(seat).hand, *view.chars], card)
    if uid in view.chars:
        spot = text.where(view, uid)
        return spot[1] if spot else None
    return view.defn(uid).level if uid in view.cards else None


def equip_item_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _of(view, seat, A.Equip):
        assert view is not None
        d = view.defn(a.item)
        label = fit([d.shown(lang), *text.card_parts(d, lang)[1:]], importance=[9, 8, 7, 6, 5, 4, 3, 2, 1][:len(
            text.card_parts(d, lang))])
        found.setdefault(a.item, Ranked(Choice(label, a.item), (d.level, d.shown(lang)), text.aliases(view, a.item)))
    return rank(found.values(), current)


def equip_host_choices(view: State | None, seat: int | None, item: str | None, current: str,
                       lang: str) -> list[Choice]:
    options = _of(view, seat, A.Equip)
    if view is None or seat is None:
        return []
    wanted = resolve_card(view, [a.item for a in options], item) if item else None
    found = {}
    for a in options:
        if wanted and a.item != wanted:
            continue
        have = text.level_rank(view, a.host)
        label = fit([text.char_now(view, a.host, lang, owner=False),
                     t("warlord.ui.level_rank", lang, n=have, need=view.defn(a.item).level)])
        found.setdefault(a.host, Ranked(Choice(label, a.host), (-have,), text.aliases(view, a.host)))
    return rank(found.values(), current)


def _effect_words(ability: Any, lang: str) -> str:
    keys = [next(iter(e), "") for e in ability.effects]
    return ", ".join(text.word("effect", k, lang) for k in keys if k) or "—"


def play_card_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _of(view, seat, A.PlayOrder):
        assert view is not None
        d = view.defn(a.card)
        found.setdefault(a.card, Ranked(Choice(text.card_short(d, lang), a.card), (d.level, d.shown(lang)),
                                        text.aliases(view, a.card)))
    return rank(found.values(), current)


def _target_label(view: State, target: str | None, lang: str) -> str:
    if target is None:
        return t("warlord.ui.no_target", lang)
    if target in ("forward", "back"):
        return text.word("dir", target, lang)
    army = army_ref_label(view, target, lang)  # Stealth enters an army, not a card
    if army:
        return army
    if target in view.chars:
        return text.char_now(view, target, lang)
    if target in view.cards:  # a card out of play: say where it is (Scribe names a spell in hand, issue 27.7)
        key = next((k for p in view.players for k, cards in (("warlord.ui.from_hand", p.hand),
                                                             ("warlord.ui.from_discard", p.discard))
                    if target in cards), "")
        if key:
            return t(key, lang, name=text.shown(view, target, lang))
        return text.shown(view, target, lang)
    return target


def _plays(view: State | None, seat: int | None, card: str | None, by: str | None, mode: str | None,
           kind: type[Any]) -> list[Any]:
    options = _of(view, seat, kind)
    if view is None:
        return []
    field = "card" if kind is A.PlayOrder else "source"
    if card:
        sources = [getattr(a, field) for a in options]
        wanted = card if card in sources else resolve_card(view, [s for s in sources if s in view.cards], card)
        options = [a for a in options if getattr(a, field) == wanted]
    if by:
        performers = [a.performer for a in options if a.performer]
        who = resolve_card(view, performers, by)
        options = [a for a in options if a.performer is None or a.performer == who]
    if mode not in (None, ""):
        k = parse_mode(mode)
        options = [a for a in options if a.ability == k]
    return options


def performer_choices(view: State | None, seat: int | None, card: str | None, current: str, lang: str,
                      kind: type[Any] = A.PlayOrder) -> list[Choice]:
    found = {}
    for a in _plays(view, seat, card, None, None, kind):
        if a.performer and view is not None:
            found.setdefault(a.performer, Ranked(Choice(text.char_now(view, a.performer, lang, owner=False),
                                                        a.performer), (), text.aliases(view, a.performer)))
    return rank(found.values(), current)


def parse_mode(mode: str | None) -> int:
    raw = (mode or "").strip().split(" ")[0]
    return int(raw) - 1 if raw.isdecimal() and 0 < int(raw) <= 6 else 0


def mode_choices(view: State | None, seat: int | None, card: str | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _plays(view, seat, card, None, None, A.PlayOrder):
        assert view is not None
        ability = view.defn(a.card).abilities[a.ability]
        label = t("warlord.ui.mode", lang, n=a.ability + 1, what=_effect_words(ability, lang))
        found.setdefault(a.ability, Ranked(Choice(label, str(a.ability + 1)), (a.ability,)))
    return rank(found.values(), current)


def target_choices(view: State | None, seat: int | None, card: str | None, by: str | None, mode: str | None,
                   current: str, lang: str, kind: type[Any] = A.PlayOrder) -> list[Choice]:
    found = {}
    for a in _plays(view, seat, card, by, mode, kind):
        if a.target is None or view is None:
            continue
        foe = a.target in view.chars and view.chars[a.target].controller != seat
        found.setdefault(a.target, Ranked(Choice(_target_label(view, a.target, lang)[:100], a.target),
                                          (0 if foe else 1,), text.aliases(view, a.target)))
    return rank(found.values(), current)


def resolve_target(view: State, options: list[Any], typed: str | None, *, strict: bool = False,
                   lang: str = "en") -> str | None:
    """A typed target among the legal ones; nothing typed and one legal target: that one. ``strict`` (a
    command, not autocomplete): a name that fits no card in play nor a legal target is refused with them."""
    if not typed:
        targets = {a.target for a in options}
        return next(iter(targets)) if len(targets) == 1 else None
    direction = _word_value("dir", ("forward", "back"), typed)
    if direction:
        return direction
    legal_targets = [a.target for a in options if a.target]
    army = army_ref(view, legal_targets, typed)  # Stealth's "army:0", or the army's name, as offered
    if army:
        return army
    if strict:
        return pick_card(view, legal_targets, typed, "target", also=view.chars, lang=lang)
    return resolve_card(view, legal_targets, typed)


def use_source_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _of(view, seat, A.UseOrder):
        assert view is not None
        if a.source.startswith("feat:"):
            feat = a.source[5:]
            label = t("warlord.ui.feat_order", lang, feat=text.word("feat", feat, lang))
            found.setdefault(a.source, Ranked(Choice(label, a.source), (1,), (feat, text.word("feat", feat, "it"))))
            continue
        d = view.defn(a.source)
        bearer = view.items[a.source].host if a.source in view.items else None
        head = text.tagged(view, a.source, lang) if a.source in view.chars else d.shown(lang)
        head += f" ({text.tagged(view, bearer, lang)})" if bearer else ""
        label = clip(f"{head} · {text.card_text(d, lang) or _effect_words(d.abilities[a.ability], lang)}")
        found.setdefault(a.source, Ranked(Choice(label, a.source), (0, d.shown(lang)), text.aliases(view, a.source)))
    return rank(found.values(), current)


def resolve_source(view: State, seat: int | None, typed: str, kind: type[Any] = A.UseOrder, *,
                   strict: bool = False, lang: str = "en") -> str:
    """The card or feat whose order (or react) is used. ``strict`` (a command): a name that fits neither a
    legal source nor a card of this seat in play is refused with the candidates."""
    options = _of(view, seat, kind)
    sources = list(dict.fromkeys(a.source for a in options))
    if typed in sources:
        return typed
    feat = _word_value("feat", tuple(s[5:] for s in sources if s.startswith("feat:")), typed)
    if feat:
        return f"feat:{feat}"
    cards = [s for s in sources if s in view.cards]
    if strict and seat is not None:
        mine = [u for u in [*view.chars, *view.items] if u in view.cards and view.cards[u].owner == seat]
        return pick_card(view, cards, typed, "source", also=mine + list(view.player(seat).hand), lang=lang)
    return resolve_card(view, cards, typed)


def mark_choices(view: State | None, seat: int | None, source: str | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _plays(view, seat, source, None, None, A.UseOrder):
        if a.marksmanship:
            found.setdefault(a.marksmanship, Ranked(Choice(text.word("mark", a.marksmanship, lang), a.marksmanship),
                                                    (MARKS.index(a.marksmanship),)))
    return rank(found.values(), current)


def move_char_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _of(view, seat, A.Maneuver):
        assert view is not None
        found.setdefault(a.char, Ranked(Choice(text.char_now(view, a.char, lang, owner=False), a.char), (),
                                        text.aliases(view, a.char)))
    return rank(found.values(), current)


def direction_choices(view: State | None, seat: int | None, char: str | None, current: str,
                      lang: str) -> list[Choice]:
    options = _of(view, seat, A.Maneuver)
    if view is None or seat is None:
        return []
    who = resolve_card(view, [a.char for a in options], char) if char else None
    legal_to = {a.to for a in options if who is None or a.char == who}
    found = [Ranked(Choice(text.word("dir", d, lang), d), (k,))
             for k, d in enumerate(DIRECTIONS) if (d if d != "shift" else "same") in legal_to or d == "shift"]
    return rank(found, current)


def resolve_zone(typed: str) -> str:
    """A ``/gm move`` zone as typed in either language ("discard", "scarti", "rank:2", "rango:2"); anything
    else goes to the engine, whose refusal lists the zones."""
    head, _, number = typed.strip().partition(":")
    if number and fold(head) in ("rank", "rango"):
        return f"rank:{number.strip()}"
    spoken = {"mano": "hand", "scarti": "discard", "scarto": "discard", "mazzo": "deck", "rimossa": "removed",
              "rimosse": "removed", "fuori": "removed"}
    return spoken.get(fold(typed), "") or _word_value("zone", ZONES, typed) or typed


def resolve_direction(typed: str) -> str:
    """forward, back or shift, typed in either language as autocomplete shows them ("avanti", "di lato")."""
    found = _word_value("dir", DIRECTIONS, typed)
    if found is None:
        raise TavoloError("warlord.ui.bad_direction", value=echo(typed))
    return "same" if found == "shift" else found


def reform_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    found = {}
    for a in _of(view, seat, A.Reform):
        assert view is not None
        found.setdefault(a.char, Ranked(Choice(text.char_now(view, a.char, lang, owner=False), a.char), (),
                                        text.aliases(view, a.char)))
    return rank(found.values(), current)
