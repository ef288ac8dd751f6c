"""World of Warcraft Miniatures words: the summary line, the private panel, what a character or a
card does (``/wowm info``, autocomplete descriptions), the clock and the dice.

Everything here reads a state (or a seat's ``view``) and the content; nothing decides a rule.
Stat and damage-type words come from ``wowm.ui.*`` keys so Italian text carries no English term.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from common.i18n import has, humanize, t
from engines.core.events import Event
from engines.wowminis import ENGINE
from engines.wowminis.card_text import fill
from engines.wowminis.content import (
    PHYSICAL_TYPES,
    AbilityDef,
    ActionCardDef,
    CharacterDef,
    Pack,
    builtin_pack,
    fits,
    italian_names,
    local_name,
)
from engines.wowminis.rules_clock import clock_summary
from engines.wowminis.rules_stats import armor, max_health, movement, resist
from engines.wowminis.state import CharState, State, shown
from gm.errors import worded
from gm.games.choices import fit
from gm.games.names import Name, find
from gm.reply import Button, Reply

SCORING_TICKS = (5, 10)  # 502.2: VP locations score at the end of ticks 5 and 10
CRIT = "crit"
MAX_LEARNED = 4000  # Italian names learned from server packs' views (bounded: one process serves many)
_LEARNED: dict[str, str] = {}


# ---------------------------------------------------------------------------- names in Italian
@cache
def _builtin_italian() -> dict[str, str]:
    return italian_names([builtin_pack()])


_LAST_VIEW: list[Any] = [None, {}]  # [the last view whose names were read, its names]


def view_names(view: State) -> dict[str, str]:
    """``italian_names`` of one position, read once per view: a reply words the same view's summary, its
    question in both languages and its buttons, and each walk of a state's named things costs ~0.6 ms
    (issue 28). A view is never changed once made, so the view itself is the key (kept, so it stays alive)."""
    if _LAST_VIEW[0] is not view:
        _LAST_VIEW[:] = [view, italian_names([view])]
    return _LAST_VIEW[1]  # type: ignore[no-any-return]


def learn(view: State) -> None:
    """Remember the Italian names a position holds (a server pack's characters and cards): the engine
    words its events with the English ``name``, and an event line has no position to read them from."""
    found = view_names(view)
    if len(_LEARNED) + len(found) > MAX_LEARNED:
        _LEARNED.clear()
    _LEARNED.update(found)


def it_name(text: str) -> str:
    """The Italian name of a thing the engine named in English; anything else unchanged."""
    return _LEARNED.get(text) or _builtin_italian().get(text) or text


def localized(params: dict[str, Any], lang: str, view: State | None = None) -> dict[str, Any]:
    """Event and question parameters with every name of a character, ability, card or aura in the
    reader's language (issue 26: Italian is a full language). Plain values only: ids, spaces and
    numbers never match a name."""
    if lang != "it":
        return params
    table = {**_builtin_italian(), **_LEARNED, **(view_names(view) if view is not None else {})}

    def one(value: Any) -> Any:
        if isinstance(value, str):
            return table.get(value, value)
        if isinstance(value, list):
            return [one(v) for v in value]
        if isinstance(value, dict):  # a character's name → its cards (the secret bars)
            return {table.get(k, k) if isinstance(k, str) else k: one(v) for k, v in value.items()}
        return value

    return {k: one(v) for k, v in params.items()}


# ---------------------------------------------------------------------------- small words
def player_name(view: State, seat: int | None, seat_names: list[str] | None = None) -> str:
    if seat is None:
        return "?"
    if seat_names and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return next((p.name for p in view.players if p.seat == seat), str(seat))


def ability_name(ability: Any, lang: str) -> str:
    """A card, ability or character as printed, in the reader's language (``name_it`` in Italian)."""
    return local_name(ability, lang)


def char_name(c: CharState, lang: str) -> str:
    """A character (or pet) on the table, in the reader's language."""
    return local_name(c.defn, lang)


def printed_text(item: AbilityDef | CharacterDef, lang: str) -> str:
    """A card's or character's text in the reader's language, its numbers read from the card itself
    (``engines.wowminis.card_text``: the text never disagrees with the dice, issue 27.1)."""
    text = (item.text_it or item.text) if lang == "it" else (item.text or item.text_it)
    return fill(item, text)


def ability_text(ability: AbilityDef, lang: str) -> str:
    return printed_text(ability, lang)


def range_text(ability: AbilityDef, lang: str) -> str:
    target = ability.target
    if target.side in ("self", "none"):
        return t(f"wowm.ui.range.{target.side}", lang)
    low, high = target.range.min, target.range.max
    if high <= 1 and low == 0 and not target.aoe:
        return t("wowm.ui.range.adjacent", lang)
    return t("wowm.ui.range.hexes", lang, low=low, high=high)


def ability_parts(ability: AbilityDef, lang: str) -> list[str]:
    """The facts a player weighs before choosing: kind, cost, range, targets, dice, effect."""
    parts = [t(f"wowm.ui.category.{ability.category}", lang), t("wowm.ui.cost", lang, cost=ability.cost)]
    parts.append(range_text(ability, lang))
    target = ability.target
    if target.aoe:
        parts.append(t("wowm.ui.aoe", lang))
    elif target.count > 1:
        parts.append(t("wowm.ui.up_to" if target.up_to else "wowm.ui.targets", lang, count=target.count))
    if ability.type == "attack" and ability.damage_type:
        # 600.1c/601.2: physical or magic says which defence the target rolls, so the line names it; it says
        # "physical" or "magic" too where the type does not (A22: a holy swing may be physical)
        nature = "physical" if ability.is_physical else "magic"
        defence = "armor" if ability.is_physical else "resist"
        usual = (ability.damage_type in PHYSICAL_TYPES) == ability.is_physical
        parts.append(t("wowm.ui.attack_dice" if usual else "wowm.ui.attack_dice_nature", lang, power=ability.power,
                       kind=t(f"wowm.ui.dtype.{ability.damage_type}", lang),
                       nature=t(f"wowm.ui.attack_nature.{nature}", lang),
                       defence=t(f"wowm.ui.dice_kind.{defence}", lang)))
    elif ability.type == "heal":
        parts.append(t("wowm.ui.heal_dice", lang, power=ability.power))
    text = ability_text(ability, lang)
    if text:
        parts.append(text)
    return parts


def ability_short(ability: AbilityDef, lang: str, limit: int = 100) -> str:
    return fit([ability_name(ability, lang), *ability_parts(ability, lang)], limit=limit)


def character_line(defn: CharacterDef, lang: str) -> str:
    """"Elowen Brightvow · Alliance · legendary · Honor 5 · Health 8 · Armor 1 · Resist 2"."""
    parts = [local_name(defn, lang), t(f"wowm.ui.faction.{defn.faction}", lang)]
    if defn.char_class:  # 201: race and class (and spec), what the cards' restrictions name (issue 27.4)
        kind = t("wowm.ui.class_line", lang, race=tag_word(defn.race, lang), char_class=tag_word(defn.char_class, lang))
        parts.append(f"{kind} ({tag_word(defn.spec, lang)})" if defn.spec else kind)
    if defn.legendary:
        parts.append(t("wowm.ui.legendary", lang))
    parts.append(t("wowm.ui.stats", lang, honor=defn.honor, health=defn.health, armor=defn.armor,
                   resist=defn.resist))
    return " · ".join(parts)


def keywords_text(defn: CharacterDef, lang: str) -> str:
    return ", ".join(t(f"wowm.ui.keyword.{k}", lang) for k in defn.keywords)


# ---------------------------------------------------------------------------- info
def character_info(defn: CharacterDef, lang: str) -> str:
    lines = [f"**{character_line(defn, lang)}**"]
    if defn.keywords:
        lines.append(t("wowm.ui.info_keywords", lang, keywords=keywords_text(defn, lang)))
    lines.append(t("wowm.ui.info_main", lang, ability=ability_short(defn.main_attack, lang, 400)))
    for ability in defn.abilities:
        lines.append("• " + ability_short(ability, lang, 400))
    text = printed_text(defn, lang)
    if text:
        lines.append(text)
    return "\n".join(lines)


def tag_word(word: str, lang: str) -> str:
    """A race, class or spec of the pack (``night elf``) in the reader's words; a server pack's own
    word stays as written."""
    key = "wowm.ui.tag." + word.replace(" ", "_")
    return t(key, lang) if has(key, lang) else word


def card_info(card: ActionCardDef, lang: str) -> str:
    lines = [f"**{ability_name(card, lang)}** · " + t(f"wowm.ui.card_type.{card.type}", lang)]
    lines.append(" · ".join(ability_parts(card, lang)))
    limits = []
    if card.once_per_game:
        limits.append(t("wowm.ui.once_per_game", lang))
    r = card.restriction
    if not r.generic:  # 300.2: the names, races, classes and specs it fits, in the reader's words
        words = [it_name(n) if lang == "it" else n for n in r.names]
        words += [tag_word(w, lang) for w in (*r.races, *r.classes, *r.specs)]
        limits.append(t("wowm.ui.restricted", lang, what=", ".join(words)))
    if limits:
        lines.append(" · ".join(limits))
    return "\n".join(lines)


def find_info(pack: Pack, name: str) -> tuple[str, Any] | None:
    """A character or a card by the shared resolver (``gm.games.names``): its name or id in either
    language, any word or piece of it, a close typo; a character also by its own abilities' names
    (``longbow`` finds Lyssara, whose main attack is Longbow Volley). None when nothing, or more than
    one thing, fits."""
    items: dict[str, tuple[str, Any]] = {}
    names = []
    for c in pack.characters:
        items[f"char:{c.id}"] = ("char", c)
        spoken = [a for ability in (c.main_attack, *c.abilities) for a in (ability.name, ability_name(ability, "it"))]
        names.append(Name(f"char:{c.id}", c.name, (c.id, c.name_it, *spoken)))
    for k in pack.cards:
        items[f"card:{k.id}"] = ("card", k)
        names.append(Name(f"card:{k.id}", k.name, (k.id, k.name_it)))
    _tier, found = find(name, names)
    return items[found[0].value] if len(found) == 1 else None


# ---------------------------------------------------------------------------- summary and clock
def vp_text(view: State, seat_names: list[str] | None, lang: str) -> str:
    """Each player's VP against the goal; in 2 vs 2 each team's, which is what wins (rules_parties)."""
    if any(p.team is not None for p in view.players):
        teams = sorted({p.team for p in view.players if p.team is not None})
        return ", ".join(t("wowm.ui.team_vp_of", lang, n=n + 1, vp=sum(p.vp for p in view.players if p.team == n),
                           goal=sum(p.goal for p in view.players if p.team == n),
                           players=" + ".join(player_name(view, p.seat, seat_names) for p in view.players
                                              if p.team == n))
                         for n in teams)
    return ", ".join(t("wowm.ui.vp_of", lang, player=player_name(view, p.seat, seat_names), vp=p.vp, goal=p.goal)
                     for p in view.players)


def summary(view: State, lang: str, seat_names: list[str] | None = None) -> str:
    """Round, Master Clock tick (and the next scoring tick), VP against the goal. Who acts is the
    decision line's job (TABLE_UX: said once)."""
    if view.phase == "choose_bar" and view.limited is not None:  # 100.3: drafting or building, not bars
        return t("wowm.ui.summary_limited", lang, format=view.limited.format, vp=vp_text(view, seat_names, lang))
    if view.phase == "choose_bar":
        return t("wowm.ui.summary_bars", lang, vp=vp_text(view, seat_names, lang))
    tick = view.tick
    scoring = next((s for s in SCORING_TICKS if s >= tick), 10)
    line = t("wowm.ui.summary", lang, round=view.round, tick=tick, scoring=scoring, vp=vp_text(view, seat_names, lang))
    turn = view.turn
    decision = ENGINE.decision(view)
    # TABLE_UX: who acts is said once, by the decision line; in a turn, this adds where the
    # character stands, its own tick and its health (never in a window or a question: it would
    # read as a second "who acts now").
    if decision is not None and decision.kind == "turn" and turn is not None and turn.char in view.chars:
        c = view.chars[turn.char]
        line += "\n" + t("wowm.ui.summary_active", lang, name=char_name(c, lang), short=c.short,
                         space=c.pos or t("wowm.ui.off_map", lang), clock=shown(c.clock),
                         health=c.health, max=max_health(view, c))
    return line


def clock_lines(view: State, lang: str) -> list[str]:
    """``/wowm clock``: every character by its personal tick, from the Master Clock onwards."""
    lines = [t("wowm.ui.clock_master", lang, round=view.round, tick=view.tick)]
    rows: list[tuple[int, str]] = []
    for row in clock_summary(view):
        data = dict(row)
        cid = str(data.get("char", data.get("id", "")))
        c = view.chars.get(cid)
        if c is None:
            continue
        ahead = c.clock - view.master
        where = c.pos or t("wowm.ui.off_map", lang)
        owner = player_name(view, c.controller)
        rows.append((c.clock, t("wowm.ui.clock_row", lang, tick=shown(c.clock), ahead=ahead, name=char_name(c, lang),
                                short=c.short, player=owner, space=where)))
    if not rows:  # clock_summary shape changed: fall back on the characters themselves
        for c in view.chars.values():
            rows.append((c.clock, t("wowm.ui.clock_row", lang, tick=shown(c.clock), ahead=c.clock - view.master,
                                    name=char_name(c, lang), short=c.short, player=player_name(view, c.controller),
                                    space=c.pos or t("wowm.ui.off_map", lang))))
    lines += [text for _, text in sorted(rows, key=lambda r: r[0])]
    lines.append(t("wowm.ui.clock_scoring", lang))
    return lines


# ---------------------------------------------------------------------------- the private panel
def bar_lines(view: State, seat: int, lang: str) -> list[str]:
    """Each own character's bar, face-down cards included (the seat's own view shows them)."""
    lines = []
    for c in own_chars(view, seat):
        cards = []
        for card in c.bar:
            if card.defn is None:
                cards.append(t("wowm.ui.card_hidden", lang))
                continue
            state_words = []
            if not card.face_up:
                state_words.append(t("wowm.ui.face_down", lang))
            if not card.ready:
                state_words.append(t("wowm.ui.exhausted", lang))
            if card.zone == "set_aside":
                state_words.append(t("wowm.ui.active_form", lang))
            extra = f" ({', '.join(state_words)})" if state_words else ""
            cards.append(f"{ability_name(card.defn, lang)} [{card.defn.cost}]{extra}")
        lines.append(t("wowm.ui.bar_line", lang, name=char_name(c, lang), short=c.short, health=c.health,
                       max=max_health(view, c), space=c.pos or t("wowm.ui.off_map", lang), clock=shown(c.clock),
                       cards=", ".join(cards) or "—"))
    return lines


def pool_lines(view: State, seat: int, lang: str) -> list[str]:
    """Set-up: the party's pool, each card with the character it comes with (or, in a custom pool, those
    it fits, 300.2: issue 27.4) and what it does (the seat's own view)."""
    lines = []
    mine = own_chars(view, seat)
    for card in view.pool.get(seat, []):
        if card.defn is None:
            continue
        owners = [c for c in mine if card.defn.id in c.defn.pool] or [c for c in mine if fits(card.defn, c.defn)]
        whose = t("wowm.ui.for_chars", lang, names=", ".join(f"{c.short} {char_name(c, lang)}" for c in owners))
        lines.append(f"• **{ability_name(card.defn, lang)}** ({whose}) · "
                     + " · ".join(ability_parts(card.defn, lang)))
    return lines


def own_chars(view: State, seat: int) -> list[CharState]:
    return [c for c in view.chars.values() if c.controller == seat and c.kind == "hero"]


def char_stats(view: State, c: CharState, lang: str) -> str:
    return t("wowm.ui.char_now", lang, armor=armor(view, c), resist=resist(view, c), move=movement(view, c))


def panel(view: State, seat: int, lang: str, ref: str, play_lines: list[str]) -> Reply:
    """"My options": the seat's own bars face up, and what it can do now."""
    decision = ENGINE.decision(view)
    lines: list[str] = []
    buttons: list[Button] = []
    if decision is None:
        lines.append(t("wowm.ui.panel_over", lang))
    elif seat in decision.seats:
        prompt = t(decision.prompt_key, lang, **humanize(decision.params, lang, "wowm")) if decision.prompt_key else ""
        lines.append(t("wowm.ui.panel_your_move", lang, prompt=prompt))
    else:
        names = ", ".join(player_name(view, s) for s in decision.seats)
        lines.append(t("wowm.ui.panel_waiting", lang, players=names))
    if view.phase == "choose_bar":
        if not view.player(seat).bar_done:
            lines.append(t("wowm.ui.panel_pool", lang, size=view.scenario.bar_per_char))
            lines += pool_lines(view, seat, lang)
            buttons.append(Button(t("wowm.ui.button.bar", lang), f"tv1:wowm:{ref}:bar", style="primary"))
        else:
            chosen = view.bar_choices.get(seat, {})
            lines.append(t("wowm.ui.panel_bar_done", lang))
            pool = {card.id: card for card in view.pool.get(seat, [])}
            for cid, ids in chosen.items():
                c = view.chars.get(cid)
                names = [ability_name(pool[i].defn, lang) for i in ids if i in pool and pool[i].defn is not None]
                if c is not None:
                    lines.append(f"• {char_name(c, lang)}: {', '.join(names)}")
    else:
        lines.append(t("wowm.ui.panel_bars", lang))
        lines += bar_lines(view, seat, lang)
    if play_lines:
        lines.append(t("wowm.ui.panel_plays", lang))
        lines += play_lines
    title = t("wowm.ui.panel_title", lang, player=player_name(view, seat))
    return Reply(title=title, text="\n".join(lines), ephemeral=True, buttons=buttons)


# ---------------------------------------------------------------------------- events
def faces_text(faces: list[Any], lang: str, threshold: int = 4) -> str:
    """d10 faces as people read them: hits (4–9) bold, the critical 0 marked (103.4)."""
    out = []
    for face in faces:
        text = str(face)
        if text == CRIT or text == "0":
            out.append("💥0")
        elif text.isdecimal() and int(text) >= threshold:
            out.append(f"**{text}**")
        else:
            out.append(text)
    return " ".join(out)


def event_text(event: Event, lang: str) -> str | None:
    """One event's line. In Italian, the names the engine put in it (characters, abilities, cards,
    auras) are read in Italian first; then ``_own_text`` or the event's template words it."""
    params = localized(event.params, lang)
    if params == event.params:
        return _own_text(event, lang)
    event = event.model_copy(update={"params": params})
    own = _own_text(event, lang)
    return own if own is not None else t(event.key, lang, **worded(humanize(params, lang, "wowm"), lang))


def _own_text(event: Event, lang: str) -> str | None:
    """Dice lines with the faces read as hits and criticals; the parties without seat numbers;
    everything else from the templates."""
    if event.key == "wowm.ev.critical" and not event.params.get("extra"):  # no extra hits: a rider, or nothing
        # 105.1b: an ability without a critical effect only counts the critical as a hit (older logs: a rider)
        key = "wowm.ui.ev_critical_rider" if event.params.get("effect", True) else "wowm.ui.ev_critical_plain"
        return t(key, lang, ability=event.params.get("ability", ""))
    if event.key == "wowm.ev.tick_ended":  # the next line announces the new tick; "Tick 1 ends." adds nothing
        return ""
    if event.key == "wowm.ev.react_answered":  # the window's prompt says who is still to answer (issue 26.8)
        return ""
    if event.key == "wowm.ev.passed" and event.private_to:  # said to the passing seat alone
        return t("wowm.ui.you_pass", lang) + ("\n" + t("wowm.ui.pass_first", lang) if event.params.get("first")
                                              else "")
    if event.key == "wowm.ev.prefs":
        words = {f: t(f"wowm.ui.pref.{event.params.get(f)}", lang) for f in ("auto_pass", "auto_reroll")}
        return t("wowm.ui.prefs_set", lang, **words)
    if event.key == "wowm.ev.parties":
        parties = event.params.get("parties") or {}
        goals = event.params.get("goals") or {}
        if isinstance(parties, dict) and isinstance(goals, dict):
            sides = [", ".join(map(str, names)) for _seat, names in sorted(parties.items(), key=lambda kv: str(kv[0]))]
            return t("wowm.ui.ev_parties", lang, parties=t("wowm.ui.versus", lang).join(sides),
                     goals=" / ".join(str(g) for _seat, g in sorted(goals.items(), key=lambda kv: str(kv[0]))))
    if event.key == "wowm.ev.dice":
        faces = list(event.params.get("faces", []))
        kind = str(event.params.get("kind", "attack"))
        label = t(f"wowm.ui.dice_kind.{kind}", lang) if has(f"wowm.ui.dice_kind.{kind}", lang) else kind
        return t("wowm.ui.dice_line", lang, name=event.params.get("name", ""), kind=label,
                 faces=faces_text(faces, lang))
    return None


__all__ = ["ability_short", "bar_lines", "card_info", "char_name", "character_info", "clock_lines", "event_text",
           "find_info", "it_name", "learn", "localized", "panel", "summary"]
