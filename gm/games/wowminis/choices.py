"""WoW Miniatures autocomplete and typed names, built from ``legal_actions`` only.

Every list here is what ``apply`` would accept from the seat now, ranked as a player reads it
(TABLE_UX): an enemy in reach before an ally, a cheap ability before a dear one, the nearest hex
first. ``resolve_*`` turn what a player typed (a board label ``GRU``, a name, a prefix, in either
language) into the action's fields; anything unknown is left for the engine to refuse by name.

A play's target choice carries the whole legal play in one value: ``t1,t2@SPACE/ORIENTATION``
(``@`` and ``/`` only when the ability has a destination or an area), so autocomplete never
offers half a play the engine would refuse.
"""

from __future__ import annotations

from typing import Any

from common.i18n import t
from engines.core.errors import RuleError, TavoloError
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.content import Pack, local_name, norm
from engines.wowminis.rules_board import dist, parse_space, terrain_at
from engines.wowminis.rules_moves import natural_moves
from engines.wowminis.rules_play import Playable, cost_of, playables
from engines.wowminis.rules_replace import OPTION_KEYS
from engines.wowminis.rules_setup import bar_options, seat_chars
from engines.wowminis.rules_stats import max_health, stealthed
from engines.wowminis.rules_targeting import aoe_choices
from engines.wowminis.state import CharState, State, shown
from gm.games.choices import Choice, Ranked, fit, matches, rank
from gm.games.names import find, fold
from gm.games.wowminis import names
from gm.games.wowminis.text import ability_name, ability_parts, character_line, localized

FACING = ("↑", "↗", "↘", "↓", "↙", "↖")  # the six triangle orientations (407.2), as arrows


# ---------------------------------------------------------------------------- helpers
def _legal(view: State, seat: int | None) -> list[Any]:
    if seat is None or view.phase == "over":
        return []
    return ENGINE.legal_actions(view, seat)


def active(view: State) -> CharState | None:
    turn = view.turn
    return view.chars.get(turn.char) if turn is not None else None


def piece_text(view: State, pid: str, lang: str = "en") -> str:
    """A piece as the board shows it: its label and its name in the reader's language."""
    c = view.chars.get(pid)
    if c is not None:
        return f"{c.short} {local_name(c.defn, lang)}"
    totem = view.totems.get(pid)
    return f"{totem.short} {local_name(totem.defn, lang)}" if totem is not None else pid


def _relation(view: State, seat: int, pid: str, lang: str) -> str:
    c = view.chars.get(pid)
    owner = c.controller if c is not None else (view.totems[pid].controller if pid in view.totems else seat)
    return t("wowm.ui.relation.ally" if owner == seat else "wowm.ui.relation.enemy", lang)


def _health(view: State, pid: str, lang: str) -> str:
    c = view.chars.get(pid)
    if c is not None:
        return t("wowm.ui.health_of", lang, health=c.health, max=max_health(view, c))
    totem = view.totems.get(pid)
    return t("wowm.ui.health_of", lang, health=totem.defn.health - totem.damage, max=totem.defn.health) if totem else ""


def encode_play(action: A.Play | A.React) -> str:
    value = ",".join(action.targets)
    if action.space:
        value += f"@{action.space}"
    orientation = getattr(action, "orientation", None)
    if orientation is not None:
        value += f"/{orientation}"
    return value or "-"


def area_orientations(view: State, c: CharState, ability: Any, lang: str,
                      shown_at: tuple[str, int] | None = None) -> list[Choice]:
    """Issue 29.6: an area ability's six orientations (407.2), each one that is legal somewhere: pointing from
    the space the preview shows when it may point that way there, else from the first space it may; values
    are ``SPACE/O``, the preview's ``placement``. Only the engine's legal placements (``aoe_choices``)."""
    placements = aoe_choices(view, c, ability)
    if not placements:
        return []
    space = shown_at[0] if shown_at and any(p[0] == shown_at[0] for p in placements) else placements[0][0]
    found = []
    for o in range(6):
        at = next((p for p in placements if p[1] == o and p[0] == space), None) or \
            next((p for p in placements if p[1] == o), None)
        if at is not None:
            found.append(Choice(t("wowm.ui.area_at", lang, space=at[0], arrow=FACING[o]), f"{at[0]}/{o}"))
    return found


def parse_placement(text: str | None) -> tuple[str, int] | None:
    """``SPACE/O`` from the preview's select (None for anything else: the preview then shows the first)."""
    space, _, orient = (text or "").partition("/")
    return (space.strip().upper(), int(orient)) if space.strip() and orient.strip() in "012345" and orient else None


def decode_play(view: State, text: str) -> dict[str, Any]:
    """``t1,t2@SPACE/O`` (or names people type) → targets, space, orientation."""
    raw = (text or "").strip()
    out: dict[str, Any] = {"targets": []}
    if raw in ("", "-"):
        return out
    if "/" in raw:
        raw, _, orient = raw.rpartition("/")
        if orient.strip().isdecimal() and len(orient.strip()) == 1:
            out["orientation"] = int(orient.strip())
        elif orient.strip() in FACING:
            out["orientation"] = FACING.index(orient.strip())
    if "@" in raw:
        raw, _, space = raw.partition("@")
        out["space"] = space.strip()
    for part in raw.split(","):
        part = part.strip()
        if not part:
            continue
        out["targets"].append(_piece_or_space(view, part, out))
    if not out["targets"] and "space" not in out:
        out.pop("targets")
    return out


def _piece_or_space(view: State, text: str, out: dict[str, Any]) -> str:
    _tier, found = find(text, names.piece_names(view, "en"))  # a piece, in either language
    if len(found) == 1:
        return found[0].value
    try:  # an area or a destination typed as a hex
        space = parse_space(view, text)
    except RuleError:
        return text  # the engine names what is wrong
    out.setdefault("space", space)
    return ""


# ---------------------------------------------------------------------------- lobby: party
def party_choices(pack: Pack, current: str, lang: str, size: int = 3) -> list[Choice]:
    """Characters for ``/wowm party``: after the first pick, only that faction (100.2), no repeat,
    and no second legendary (A3); the value keeps the names already typed."""
    parts = [p.strip() for p in (current or "").split(",")]
    done, typing = parts[:-1], parts[-1]
    picked = []
    for name in done:
        hit = _character(pack, name)
        if hit is not None:
            picked.append(hit)
    faction = picked[0].faction if picked else None
    legendary = any(c.legendary for c in picked)
    prefix = ", ".join(local_name(c, lang) for c in picked)
    found = []
    if len(picked) >= size:
        return [Choice(fit([prefix]), prefix)]
    for order, c in enumerate(pack.characters):
        if c in picked or (faction and c.faction != faction) or (legendary and c.legendary):
            continue
        value = f"{prefix}, {local_name(c, lang)}" if prefix else local_name(c, lang)
        about = character_line(c, lang).split(" · ")[1:]  # faction, class, …: the last dropped first
        found.append(Ranked(Choice(fit([value, *about]), value), (not c.legendary, order),
                            (c.name, c.name_it, c.id)))
    return rank(found, typing)


def _character(pack: Pack, name: str) -> Any:
    _tier, found = find(name, names.character_names(pack, "en"))
    return pack.character(found[0].value) if len(found) == 1 else None


def resolve_party(pack: Pack, text: str, lang: str = "en") -> list[str]:
    """Names in either language, ids, words or typos separated by commas → character ids; a miss or
    an ambiguous name lists the candidates (the shared resolver)."""
    return [names.resolve_character(pack, part, lang).id for part in (text or "").split(",") if part.strip()]


# ---------------------------------------------------------------------------- set-up: bars
def bar_label(view: State, seat: int, bars: dict[str, list[str]], lang: str) -> str:
    pool = {card.id: card for card in view.pool.get(seat, [])}
    parts = []
    for cid, ids in bars.items():
        c = view.chars[cid]
        names = [ability_name(pool[i].defn, lang) for i in ids if i in pool and pool[i].defn is not None]
        parts.append(f"{c.short}: {' + '.join(names)}")
    label = "; ".join(parts)
    if len(label) > 100:  # three full pairs rarely fit Discord's 100 characters: the first word of each card
        label = "; ".join(part.split(": ", 1)[0] + ": " + " + ".join(n.split()[0] for n in part.split(": ", 1)[1]
                                                                     .split(" + ")) for part in parts)
    return fit([label])


def bar_choices(view: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Complete legal bars for ``/wowm bar`` (the seat's own view only): value ``k1 k2; k4 k5; …``."""
    if seat is None or view.phase != "choose_bar" or view.player(seat).bar_done:
        return []
    found = []
    for order, bars in enumerate(bar_options(view, seat, limit=200)):
        value = "; ".join(f"{view.chars[cid].short}: {' '.join(ids)}" for cid, ids in bars.items())
        found.append(Ranked(Choice(bar_label(view, seat, bars, lang), value), (order,)))
    return rank(found, current)


def resolve_bar(view: State, seat: int | None, text: str) -> dict[str, list[str]]:
    """``"ELO: renewing, umbral; BRA: aegis light, veil"`` (or groups in party order) → the bars."""
    if seat is None:
        return {}
    chars = seat_chars(view, seat)
    pool = [card for card in view.pool.get(seat, []) if card.defn is not None]
    groups = [g.strip() for g in (text or "").replace("/", ";").split(";") if g.strip()]
    bars: dict[str, list[str]] = {}
    for index, group in enumerate(groups):
        who, sep, cards = group.partition(":")
        if not sep:
            who, cards = "", group
        char = _own_char(chars, who) if who.strip() else (chars[index] if index < len(chars) else None)
        key = char.id if char is not None else who.strip()
        bars[key] = _pool_cards(pool, cards)
    return bars


def _own_char(chars: list[CharState], text: str) -> CharState | None:
    wanted = norm(text)
    for c in chars:
        if wanted in (norm(c.id), norm(c.short), norm(c.defn.name), norm(c.defn.name_it), norm(c.defn.id)):
            return c
    hits = [c for c in chars if norm(c.defn.name).startswith(wanted) or norm(c.defn.name_it).startswith(wanted)]
    return hits[0] if len(hits) == 1 else None


def _pool_cards(pool: list[Any], text: str) -> list[str]:
    """Card ids or names from the pool; names may be prefixes and run together ("aegis veil")."""
    words = [w for w in text.replace(",", " ").replace("+", " ").split() if w]
    ids = {card.id.lower(): card.id for card in pool}
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i].lower() in ids:
            out.append(ids[words[i].lower()])
            i += 1
            continue
        best = None  # the longest run of words that starts one card's name
        for j in range(len(words), i, -1):
            wanted = fold(" ".join(words[i:j]))
            hits = [c for c in pool if c.id not in out and any(f" {fold(n)}".find(f" {wanted}") >= 0
                                                               for n in (c.defn.name, c.defn.name_it) if n)]
            if hits:
                best = (j, hits[0].id)
                break
        if best is None:
            out.append(words[i])  # the engine names the unknown card
            i += 1
        else:
            out.append(best[1])
            i = best[0]
    return out


# ---------------------------------------------------------------------------- decisions
def option_choices(view: State, seat: int | None, current: str, lang: str, kinds: tuple[str, ...] = ()) -> list[Choice]:
    """The open closed question's answers (who acts next, a spawn point, a protector…)."""
    pending = view.pending
    if pending is None or seat != pending.seat or (kinds and pending.kind not in kinds):
        return []
    found = []
    for order, option in enumerate(pending.options):
        found.append(Ranked(Choice(option_label(view, option.value, option.params, lang), option.value), (order,),
                            tuple(str(v) for v in option.params.values())))
    return rank(found, current)


def option_label(view: State, value: str, params: dict[str, Any], lang: str) -> str:
    c = view.chars.get(value)
    if c is not None:
        where = c.pos or t("wowm.ui.off_map", lang)
        owner = next((p.name for p in view.players if p.seat == c.controller), "")
        return fit([f"{piece_text(view, value, lang)} ({owner})",
                    t("wowm.ui.health_of", lang, health=c.health, max=max_health(view, c)), where])
    if value.lower() == "none":
        return t("wowm.ui.option_none", lang)
    if "slot" in params:  # 602.2/705.1d: a face-down card by its place in the bar (7.3), never its instance id
        return t("wowm.option.card_hidden", lang, slot=params["slot"])
    card = next((k for c in view.chars.values() for k in c.bar if k.id == value and k.defn is not None), None)
    if card is not None and card.defn is not None and "card" in params:  # a face-up card: its name alone
        return ability_name(card.defn, lang)
    if view.pending is not None and view.pending.kind == "replacement" and params.get("op") in OPTION_KEYS:
        # 709.2: which replacement applies first, worded by what it does, its buff named in the reader's language
        return t(OPTION_KEYS[str(params["op"])], lang, **localized(params, lang, view))
    named = [str(v) for k, v in params.items() if k in ("name", "card", "space", "at")]
    return fit([value, *[n for n in named if n != value]])


def resolve_option(view: State, seat: int | None, text: str, lang: str = "en") -> str:
    """A typed answer: an option value, a board label, a name in either language, a word or a typo."""
    return names.resolve_option(view, seat, text, lang)


# ---------------------------------------------------------------------------- the turn
def move_choices(view: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Reachable hexes, cheapest first, with their cost; "enters cover", "breaks stealth" (spec §7.1)."""
    c = active(view)
    legal = {a.to for a in _legal(view, seat) if isinstance(a, A.Move)}
    if c is None or not legal:
        return []
    costs = natural_moves(view, c)
    hidden = stealthed(view, c)
    found = []
    entered = view.turn.spaces_entered if view.turn is not None else 0
    for space in legal:
        cost, route = costs.get(space, (0, []))
        parts = [space, t("wowm.ui.move_cost", lang, cost=cost)]
        terrain = terrain_at(view, space)
        if terrain in ("cover", "elevated"):
            parts.append(t(f"wowm.ui.enters.{terrain}", lang))
        spaces = len([s for s in route if s != c.pos]) or 1
        if hidden and entered + spaces > 1:  # 708.4a/A34: a second space ends Stealth for this turn
            parts.append(t("wowm.ui.breaks_stealth", lang))
        found.append(Ranked(Choice(fit(parts), space), (cost, space)))
    return rank(found, current)


def _active_playable(view: State, c: CharState, key: str) -> Playable | None:
    return next((p for p in playables(view, c) if p.key == key), None)


def ability_choices(view: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Legal abilities of the active character: "Ember Dart · 3 → tick 7 · 2 targets · …",
    cheapest first; abilities on cooldown, over the lapping cap or locked by a form are not offered."""
    c = active(view)
    if c is None:
        return []
    counts: dict[str, int] = {}
    for a in _legal(view, seat):
        if isinstance(a, A.Play):
            counts[a.ability] = counts.get(a.ability, 0) + 1
    found = []
    for key, count in counts.items():
        p = _active_playable(view, c, key)
        if p is None:
            continue
        cost = cost_of(view, c, p)
        head = t("wowm.ui.play_cost", lang, name=ability_name(p.ability, lang), cost=cost,
                 tick=shown(c.clock + cost))
        parts = [head, t("wowm.ui.play_count", lang, count=count), *ability_parts(p.ability, lang)[2:]]
        found.append(Ranked(Choice(fit(parts, importance=[10, 5, *range(len(parts) - 2, 0, -1)]), key),
                            (0 if p.source == "main" else 1, cost, p.ability.name),
                            (p.ability.name, p.ability.name_it, p.ability.id)))
    return rank(found, current)


def resolve_ability(view: State, text: str, lang: str = "en") -> str:
    """One of the active character's abilities (the shared resolver: either language, a word, a typo);
    a miss lists them. With no active character, the engine says so."""
    c = active(view)
    return names.resolve_ability(view, c, text, lang) if c is not None else text


def _ability_key(view: State, text: str) -> str | None:
    """For autocomplete: the ability typed so far, or None (never an error while typing)."""
    try:
        return resolve_ability(view, text)
    except TavoloError:
        return None


def target_choices(view: State, seat: int | None, ability: str | None, current: str, lang: str) -> list[Choice]:
    """Only legal targets of the chosen ability (range, LOS, Taunt): enemies first for an attack,
    allies first otherwise, then the nearest; an area says where it points and whom it hits."""
    c = active(view)
    if c is None or seat is None:
        return []
    key = _ability_key(view, ability) if ability else None
    found = []
    for a in _legal(view, seat):
        if not isinstance(a, A.Play) or (key and a.ability != key):
            continue
        found.append(_play_ranked(view, seat, c, a, lang))
    return rank(found, current)


def _play_ranked(view: State, seat: int, c: CharState, a: A.Play | A.React, lang: str,
                 caster: CharState | None = None) -> Ranked:
    parts = []
    enemies = 0
    nearest = 99
    for pid in a.targets:
        relation = _relation(view, seat, pid, lang)
        enemies += relation == t("wowm.ui.relation.enemy", lang)
        pos = view.chars[pid].pos if pid in view.chars else (view.totems[pid].pos if pid in view.totems else None)
        if c.pos and pos:
            nearest = min(nearest, dist(c.pos, pos))
        parts.append(f"{piece_text(view, pid, lang)} ({relation}, {_health(view, pid, lang)})")
    if a.space:
        orientation = getattr(a, "orientation", None)
        if orientation is not None:
            parts.append(t("wowm.ui.area_at", lang, space=a.space, arrow=FACING[orientation % 6]))
        else:
            parts.append(t("wowm.ui.to_space", lang, space=a.space))
    if not parts:
        parts.append(t("wowm.ui.no_target", lang))
    harmful = _is_harmful(view, c, a)
    order = (-enemies if harmful else enemies, nearest)
    aliases = tuple(w for pid in a.targets for w in (_short(view, pid), _pname(view, pid), _pname(view, pid, "it")))
    return Ranked(Choice(fit(parts, separator=" · "), encode_play(a)), order, aliases)


def _short(view: State, pid: str) -> str:
    return view.chars[pid].short if pid in view.chars else (view.totems[pid].short if pid in view.totems else pid)


def _pname(view: State, pid: str, lang: str = "en") -> str:
    defn = view.chars[pid].defn if pid in view.chars else (view.totems[pid].defn if pid in view.totems else None)
    return local_name(defn, lang) if defn is not None else pid


def _is_harmful(view: State, c: CharState, a: A.Play | A.React) -> bool:
    key = a.ability if isinstance(a, A.Play) else a.card
    p = _active_playable(view, c, key)
    ability = p.ability if p is not None else None
    return ability is None or ability.type in ("attack", "debuff")


# ---------------------------------------------------------------------------- reacts and rerolls
def react_choices(view: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """Eligible reacts in the open window (the seat's own view: its face-down cards by name)."""
    found: dict[str, Ranked] = {}
    for a in _legal(view, seat):
        if not isinstance(a, A.React) or a.card in found:
            continue
        card, owner = _own_card(view, a.card)
        if card is None:
            continue
        label = fit([ability_name(card.defn, lang), t("wowm.ui.by", lang, name=local_name(owner.defn, lang)),
                     *ability_parts(card.defn, lang)[1:]])
        found[a.card] = Ranked(Choice(label, a.card), (card.defn.cost,), (card.defn.name, card.defn.name_it))
    return rank(found.values(), current)


def react_target_choices(view: State, seat: int | None, card: str | None, current: str, lang: str) -> list[Choice]:
    try:
        wanted = resolve_react_card(view, seat, card) if card else None
    except TavoloError:  # still typing: every react's targets
        wanted = None
    found = []
    for a in _legal(view, seat):
        if isinstance(a, A.React) and (wanted is None or a.card == wanted):
            _card, owner = _own_card(view, a.card)
            if owner is not None:
                found.append(_play_ranked(view, seat, owner, a, lang))  # type: ignore[arg-type]
    return rank(found, current)


def _own_card(view: State, card_id: str) -> tuple[Any, Any]:
    for c in view.chars.values():
        for card in c.bar:
            if card.id == card_id and card.defn is not None:
                return card, c
    return None, None


def resolve_react_card(view: State, seat: int | None, text: str | None, lang: str = "en") -> str:
    """One of this seat's own cards (a react to play, a face-down card to reveal): the shared resolver."""
    return names.resolve_card(view, seat, text or "", lang)


def reveal_choices(view: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """The seat's face-down cards (its own view), each with what it does."""
    found = []
    for c in view.chars.values():
        if c.controller != seat:
            continue
        for card in c.bar:
            if card.defn is not None and not card.face_up:
                label = fit([ability_name(card.defn, lang), t("wowm.ui.by", lang, name=local_name(c.defn, lang)),
                             *ability_parts(card.defn, lang)[:2]])
                found.append(Ranked(Choice(label, card.id), (c.defn.name, card.defn.name),
                                    (card.defn.name, card.defn.name_it)))
    return rank(found, current)


PREFS = {"auto_pass": ("never", "always", "targeted", "my_turn"), "auto_reroll": ("ask", "failures")}


def pref_choices(field: str, current: str, lang: str) -> list[Choice]:
    return rank([Ranked(Choice(t(f"wowm.ui.pref.{v}", lang), v), (i,)) for i, v in enumerate(PREFS[field])], current)


def resolve_prefs(auto_pass: str | None, auto_reroll: str | None) -> dict[str, str]:
    """Typed preferences, by value or by the words offered (in either language)."""
    out: dict[str, str] = {}
    for field, typed in (("auto_pass", auto_pass), ("auto_reroll", auto_reroll)):
        if not typed:
            continue
        hits = [v for v in PREFS[field] if fold(typed) in (fold(v), *(fold(t(f"wowm.ui.pref.{v}", lang))
                                                                      for lang in ("en", "it")))]
        hits = hits or [v for v in PREFS[field] if any(fold(t(f"wowm.ui.pref.{v}", lang)).startswith(fold(typed))
                                                       for lang in ("en", "it"))]
        if len(hits) != 1:
            raise RuleError("wowm.ui.bad_pref", value=typed[:30], allowed=", ".join(PREFS[field]))
        out[field] = hits[0]
    return out


def reroll_choices(view: State, seat: int | None, current: str, lang: str) -> list[Choice]:
    """"Keep" first, then each legal batch of dice with its faces (1-based, as people count)."""
    legal = [a for a in _legal(view, seat) if isinstance(a, A.Reroll)]
    if not legal:
        return []
    faces = reroll_faces(view)
    found = []
    for a in legal:
        if not a.dice:
            found.append(Ranked(Choice(t("wowm.ui.keep_dice", lang), "keep"), (0,), ("keep", "tieni")))
            continue
        shown_faces = ", ".join(f"#{i + 1} ({faces[i]})" if i < len(faces) else f"#{i + 1}" for i in a.dice)
        value = " ".join(str(i + 1) for i in a.dice)
        low = sum(1 for i in a.dice if i < len(faces) and faces[i].isdecimal() and int(faces[i]) < 4)
        found.append(Ranked(Choice(t("wowm.ui.reroll_dice", lang, dice=shown_faces), value), (1, -low, len(a.dice))))
    return rank(found, current)


def reroll_faces(view: State) -> list[str]:
    from engines.wowminis.state import PlayFrame

    top = view.stack[-1] if view.stack else None
    if not isinstance(top, PlayFrame):
        return []
    roll = top.roll if top.step == "E" else (top.defences[top.idx].roll if top.idx < len(top.defences) else None)
    return [str(f) for f in roll.final] if roll is not None else []


def parse_dice(text: str | None) -> list[int]:
    """"1 3" or "1,3" (1-based) → 0-based positions; "keep", "tieni", "none" or empty → []."""
    raw = (text or "").replace(",", " ").split()
    if not raw or raw[0].lower() in ("keep", "tieni", "none", "nessuno", "-"):
        return []
    out = []
    for word in raw:
        if not word.isdecimal() or len(word) > 2 or int(word) < 1:
            raise RuleError("wowm.ui.bad_dice", value=word[:12])
        out.append(int(word) - 1)
    return out


# ---------------------------------------------------------------------------- info and hexes
def info_choices(pack: Pack, current: str, lang: str) -> list[Choice]:
    found = [Ranked(Choice(character_line(c, lang), local_name(c, lang)), (0, local_name(c, lang)),
                    (c.id, c.name, c.name_it)) for c in pack.characters]
    found += [Ranked(Choice(fit([ability_name(k, lang), *ability_parts(k, lang)]), local_name(k, lang)),
                     (1, local_name(k, lang)), (k.id, k.name, k.name_it)) for k in pack.cards]
    return rank(found, current)


def hex_choices(view: State, current: str, lang: str) -> list[Choice]:
    """Hexes for ``/wowm los``: the ones with a character first (named), then any typed label."""
    found = []
    for c in view.chars.values():
        if c.pos:
            found.append(Ranked(Choice(f"{c.pos} — {piece_text(view, c.id, lang)}", c.pos), (0, c.pos),
                                (c.short, c.defn.name, c.defn.name_it)))
    typed = (current or "").strip()
    if typed:
        try:
            space = parse_space(view, typed)
            found.append(Ranked(Choice(space, space), (1, space)))
        except RuleError:
            pass
    return rank(found, "" if typed and not any(matches(typed, r.choice.label) for r in found) else typed)


def resolve_hex(view: State, text: str, lang: str = "en") -> str:
    """A hex by label, or by the character standing on it (the shared resolver, either language)."""
    try:
        return parse_space(view, text)
    except RuleError:
        pid = names.resolve_piece(view, text, lang)
        c = view.chars.get(pid)
        pos = c.pos if c is not None else (view.totems[pid].pos if pid in view.totems else None)
        if pos is None:
            raise RuleError("wowm.ui.off_map_los", name=_pname(view, pid, lang)) from None
        return pos
