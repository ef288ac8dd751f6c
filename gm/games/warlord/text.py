"""Warlord words: cards (autocomplete, ``/warlord card``, the hand), the summary line, the private
panel and the event lines that carry dice (natural, bonus, total against AC or DC, and why).

Everything here reads a seat's ``view`` (or the public one) and the card definitions it holds;
nothing decides a rule. Stat, state, class and feat words come from ``warlord.ui.*`` keys, so
Italian text carries no English term (card names stay as printed; card text uses ``text_it`` when the pack has it).
"""

from __future__ import annotations

from typing import Any

from common.i18n import has, humanize, local_names, normalize, t
from engines.core.events import Event
from engines.warlord import ENGINE
from engines.warlord.content import CardDef, trait_key
from engines.warlord.rules_common import armor, atk_values, hit_points, italian_names, level
from engines.warlord.state import State, WindowFrame
from gm.games.choices import fit
from gm.reply import Button, Reply

NS = "warlord"


# ---------------------------------------------------------------------------- small words
def player_name(view: State, seat: int | None, seat_names: list[str] | None = None) -> str:
    if seat is None:
        return "?"
    if seat_names and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return next((p.name for p in view.players if p.seat == seat), str(seat))


def word(group: str, value: Any, lang: str) -> str:
    """A game term (``warlord.ui.<group>.<value>``) or the value itself when there is no word."""
    key = f"warlord.trigger.{value}" if group == "trigger" else f"warlord.ui.{group}.{value}"
    return t(key, lang) if has(key, lang) else str(value)


def shown(view: State, uid: str, lang: str) -> str:
    """A card's name in the reader's language (``name_it`` for Italian when the pack has one)."""
    return view.defn(uid).shown(lang) if uid in view.cards else uid


def aliases(view: State, uid: str) -> tuple[str, ...]:
    """The names a player may type for a card besides its label: English and Italian."""
    if uid not in view.cards:
        return (uid,)
    d = view.defn(uid)
    return tuple(x for x in (d.name, d.name_it) if x)


def local(view: State, names: str, lang: str) -> str:
    """Card names the engine wrote in English ("A, B" too), in the reader's language."""
    if normalize(lang) != "it" or not names:
        return names
    table = italian_names(view)
    return ", ".join(table.get(part, part) for part in names.split(", "))


def trait_word(trait: str, lang: str) -> str:
    """A trait as the reader's language says it (``warlord.ui.trait.<trait>``: "Weapon" → "Arma", the
    built-in factions' Italian names); a pack's own trait without a word stays as printed."""
    key = trait_key(trait)
    return t(key, lang) if has(key, lang) else trait


# Event parameters that may name a feat by its id: a feat order used, a feat's react cancelled.
_FEAT_PARAMS = ("source", "name")


def event_names(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """An event's parameters with card names in the reader's language (``names_it``, see
    ``common.i18n.local_names``) and feat ids worded ("medicine" reads "Medicina")."""
    out = local_names(params, lang)
    for k in _FEAT_PARAMS:
        v = out.get(k)
        if isinstance(v, str) and v and has(f"warlord.ui.feat.{v}", lang):
            out = {**out, k: word("feat", v, lang)}
    return out


def feat_words(feats: dict[str, int], lang: str) -> str:
    return ", ".join(f"{word('feat', f, lang)} +{b}" for f, b in feats.items())


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def atk_text(values: list[int]) -> str:
    return "/".join(signed(v) for v in values) or "+0"


def card_text(card: CardDef, lang: str) -> str:
    """The card's printed text in the reader's language: ``text_it`` for Italian when the pack has it."""
    return card.text_it if normalize(lang) == "it" and card.text_it else card.text


def card_head(d: CardDef, lang: str) -> str:
    """"level 2 wizard character" (the type, level and class in the reader's language)."""
    return t("warlord.ui.card_head", lang, type=word("type", d.type, lang), level=d.level, cls=word("cls", d.cls, lang))


def card_parts(d: CardDef, lang: str, *, text: bool = True) -> list[str]:
    """What a player weighs before choosing a card: its numbers, feats, traits and printed text."""
    parts = [card_head(d, lang)]
    if d.type == "character":
        parts.append(t("warlord.ui.char_stats", lang, atk=atk_text(d.atk), ac=d.ac, skill=d.skill, hp=d.hp))
        if d.feats:
            parts.append(feat_words(d.feats, lang))
    elif d.type == "item":
        bonus = []
        if d.atk_bonus:
            bonus.append(t("warlord.ui.atk_bonus", lang, n=signed(d.atk_bonus)))
        if d.ac_bonus:
            bonus.append(t("warlord.ui.ac_bonus", lang, n=signed(d.ac_bonus)))
        parts.append(t("warlord.ui.needs_level", lang, n=d.level))
        parts += bonus
    traits = [x for x in d.traits if x not in ("Unique",)]
    if d.has("Unique"):
        parts.append(t("warlord.ui.unique", lang))
    if traits:
        parts.append(", ".join(trait_word(x, lang) for x in traits))
    if text and d.text:
        parts.append(card_text(d, lang))
    return parts


def card_short(d: CardDef, lang: str, limit: int = 100) -> str:
    parts = card_parts(d, lang)
    return fit([d.shown(lang), *parts], limit=limit, importance=[20, 15, 10, 5, 3, 2, 1, 0][:len(parts) + 1])


def card_info(d: CardDef, lang: str) -> str:
    lines = [f"**{d.shown(lang)}** · {card_head(d, lang)}"]
    rest = card_parts(d, lang, text=False)[1:]
    if rest:
        lines.append(" · ".join(rest))
    if d.text:
        lines.append(card_text(d, lang))
    if any(a.unmodeled for a in d.abilities):
        lines.append(t("warlord.ui.unmodeled", lang))
    return "\n".join(lines)


def where(view: State, uid: str) -> tuple[int, int] | None:
    """(owner seat, rank number) of a character in play."""
    for p in view.players:
        for k, row in enumerate(p.ranks):
            if uid in row:
                return p.seat, k + 1
    return None


def place_text(view: State, uid: str, lang: str) -> str:
    """"rank 1 #2": where a character stands, counted from the left (tells twins apart)."""
    for p in view.players:
        for k, row in enumerate(p.ranks):
            if uid in row:
                return t("warlord.ui.rank_place", lang, n=k + 1, pos=row.index(uid) + 1)
    return ""


def tagged(view: State, uid: str, lang: str) -> str:
    """A character's name, with its place when another character in play has the same name, and its owner
    too when such a twin belongs to another player (3–4 players: two armies each with a "Shieldwall Recruit
    (rank 1 #1)", issue 27.5)."""
    name = shown(view, uid, lang)
    twins = [u for u in view.chars if u != uid and view.name(u) == view.name(uid)]
    place = place_text(view, uid, lang)
    if not twins or not place:
        return name
    owner = view.chars[uid].controller
    if any(view.chars[u].controller != owner for u in twins):
        return f"{name} ({player_name(view, owner)}, {place})"
    return f"{name} ({place})"


def char_now(view: State, uid: str, lang: str, *, owner: bool = True, rank: bool = True) -> str:
    """A character in play as it stands: rank, state, ATK, AC, wounds against HP, items."""
    c = view.chars[uid]
    d = view.defn(uid)
    spot = where(view, uid)
    parts = [d.shown(lang)]
    if owner and spot is not None:
        parts[0] += f" ({player_name(view, c.controller)})"
    if spot is not None and rank:
        parts.append(place_text(view, uid, lang))
    parts.append(word("state", c.state, lang))
    parts.append(t("warlord.ui.now_stats", lang, atk=atk_text(atk_values(view, uid)), ac=armor(view, uid),
                   wounds=c.wounds, hp=hit_points(view, uid)))
    if c.items:
        parts.append(", ".join(shown(view, i, lang) for i in c.items))
    return " · ".join(parts)


def level_rank(view: State, uid: str) -> int:
    spot = where(view, uid)
    return level(view, uid) + (spot[1] if spot else 0)


# ---------------------------------------------------------------------------- summary
def window_line(view: State, lang: str) -> str:
    """"Reaction window: a character is targeted (Horde Grunt → Shieldwall Recruit)": the moment only,
    never what anyone holds."""
    top = view.stack[-1] if view.stack else None
    if not isinstance(top, WindowFrame):
        return ""
    who = ""
    if top.source and top.target:
        who = f"{shown(view, top.source, lang)} → {shown(view, top.target, lang)}"
    elif top.source or top.target:
        who = shown(view, top.source or top.target or "", lang)
    if not who:
        return t("warlord.ui.window_line_bare", lang, trigger=word("trigger", top.trigger, lang))
    return t("warlord.ui.window_line", lang, trigger=word("trigger", top.trigger, lang), who=who)


def summary(view: State, lang: str, seat_names: list[str] | None = None) -> str:
    """Turn, phase, initiative order; the attack under way; the open reaction window. Who acts is
    the decision line's job (TABLE_UX: said once)."""
    if view.phase == "setup":
        return t("warlord.ui.summary_setup", lang)
    phase = t(f"warlord.img.phase.{view.phase}", lang) if has(f"warlord.img.phase.{view.phase}", lang) else view.phase
    line = t("warlord.ui.summary_turn", lang, turn=view.turn, phase=phase)
    if view.phase == "orders" and view.initiative:
        order = " → ".join(player_name(view, s, seat_names) for s in view.initiative)
        line += " · " + t("warlord.ui.summary_order", lang, order=order, passes=view.consecutive_passes)
    lines = [line]
    a = view.attack
    if a is not None and a.attacker in view.chars:
        lines.append(t("warlord.ui.summary_attack", lang, name=shown(view, a.attacker, lang), made=a.made,
                       of=a.total))
    window = window_line(view, lang)
    if window:
        lines.append(window)
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the private panel
def hand_lines(view: State, seat: int, lang: str) -> list[str]:
    """The seat's own hand (its own view holds it), each card with what it does."""
    return ["• " + card_short(view.defn(u), lang, 180) for u in view.player(seat).hand if u in view.cards]


def army_lines(view: State, seat: int, lang: str) -> list[str]:
    lines = []
    for k, row in enumerate(view.player(seat).ranks):
        names = [char_now(view, u, lang, owner=False, rank=False) for u in row if u in view.chars]
        if names:
            lines.append(t("warlord.ui.rank_line", lang, n=k + 1, chars=" | ".join(names)))
    return lines


def panel(view: State, seat: int, lang: str, ref: str, plays: list[str], buttons: list[Button]) -> Reply:
    """"Show my hand / My options": the seat's own hand, army and what it may do now."""
    decision = ENGINE.decision(view)
    p = view.player(seat)
    lines: list[str] = []
    if decision is None:
        lines.append(t("warlord.ui.panel_over", lang))
    elif seat in decision.seats:
        params = humanize(decision.params, lang, NS)
        if decision.params.get("trigger"):
            params["trigger"] = word("trigger", decision.params["trigger"], lang)
        prompt = t(decision.prompt_key, lang, **params) if decision.prompt_key else ""
        lines.append(t("warlord.ui.panel_your_move", lang, prompt=prompt))
    else:
        names = ", ".join(player_name(view, s) for s in decision.seats)
        lines.append(t("warlord.ui.panel_waiting", lang, players=names))
    if view.phase == "setup":
        lines.append(t("warlord.ui.panel_deck", lang, n=len(p.deck_pool)))
    else:
        lines.append(t("warlord.ui.panel_hand", lang, n=len(p.hand)))
        lines += hand_lines(view, seat, lang) or [t("warlord.ui.panel_hand_empty", lang)]
        lines.append(t("warlord.ui.panel_army", lang))
        lines += army_lines(view, seat, lang)
        lines.append(t("warlord.ui.panel_counts", lang, deck=p.deck_count if p.deck_count is not None else 0,
                       discard=len(p.discard)))
    if plays:
        lines.append(t("warlord.ui.panel_plays", lang))
        lines += plays
    title = t("warlord.ui.panel_title", lang, player=player_name(view, seat))
    return Reply(title=title, text="\n".join(lines), ephemeral=True, buttons=buttons)


# ---------------------------------------------------------------------------- events
def why_text(why: str, lang: str) -> str:
    return t(f"warlord.ui.why.{why}", lang) if why and has(f"warlord.ui.why.{why}", lang) else ""


def strike_text(event: Event, lang: str) -> str:
    """"🎲 Horde Grunt strikes Shieldwall Recruit (1/2): 14 + 2 = 16 against AC 12 → hit (natural 20 …)"."""
    p = event_names(event.params, lang)
    ranged = event.key.endswith("ranged_rolled")
    verdict = t("warlord.ui.hit" if p.get("hit") else "warlord.ui.miss", lang)
    why = str(p.get("why", ""))
    why = why_text(f"crit{p.get('natural')}" if why == "crit" else why, lang)
    return t("warlord.ui.ev_ranged" if ranged else "warlord.ui.ev_strike", lang, striker=p.get("striker", ""),
             target=p.get("target", ""), index=p.get("index", 1), of=p.get("of", 1), natural=p.get("natural", ""),
             bonus=signed(int(p.get("bonus", 0) or 0)), total=p.get("total", ""), ac=p.get("ac", ""),
             verdict=verdict + (f" ({why})" if why else ""))


def stops_text(stops: list[str], lang: str) -> str:
    kept = [s.strip() for s in stops if s.strip() and s.strip() != "-"]
    return ", ".join(word("trigger", s, lang) for s in kept) or t("warlord.ui.no_stops", lang)


PRESET_KEYS = {"none": "warlord.ui.preset.none", "targeted": "warlord.ui.preset.targeted",
               "turn": "warlord.ui.preset.turn"}
REACT_FEAT_NAMES = frozenset({"defend", "magic_resistance", "powerattack", "riposte", "charisma", "stealth"})


def event_text(event: Event, lang: str) -> str | None:
    """Dice lines worded with their verdict and reason; internal words (states, feats, stats, yields,
    zones) in the reader's language; everything else from the templates."""
    key = event.key.removeprefix("warlord.ev.")
    p = event_names(event.params, lang)
    if key in ("strike_rolled", "ranged_rolled"):
        return strike_text(event, lang)
    if key == "feat_check":
        return t("warlord.ui.ev_feat", lang, name=p.get("name", ""), feat=word("feat", p.get("feat", ""), lang),
                 natural=p.get("natural", ""), total=p.get("total", ""), dc=p.get("dc", 20),
                 verdict=t("warlord.ui.success" if p.get("ok") else "warlord.ui.failure", lang))
    if key == "save_rolled":
        return t("warlord.ui.ev_save", lang, name=p.get("name", ""), kind=word("save", p.get("kind", ""), lang),
                 natural=p.get("natural", ""), total=p.get("total", ""), dc=p.get("dc", ""),
                 verdict=t("warlord.ui.saved" if p.get("ok") else "warlord.ui.failure", lang))
    if key == "initiative_rolled":
        return "🎲 " + t(event.key, lang, results=p.get("results", ""))
    if key in ("reformed", "state_set", "gm_state"):
        params = {**p, "state": word("state", p.get("state", ""), lang)}
        return t(event.key, lang, **params)
    if key == "modified":
        stat = str(p.get("stat", ""))
        shown = word("feat", stat[5:], lang) if stat.startswith("feat:") else word("stat", stat, lang)
        return t(event.key, lang, name=p.get("name", ""), stat=shown, amount=signed(int(p.get("amount", 0) or 0)))
    if key == "react_passed":
        return t("warlord.ui.ev_yield", lang, player=p.get("player", ""),
                 what=word("yield", p.get("yield_for", ""), lang))
    if key == "recruited" and p.get("stunned"):
        return t(event.key, lang, **p) + " " + t("warlord.ui.recruit_stunned", lang)
    if key == "gm_move":
        to = str(p.get("to", ""))
        shown = t("warlord.ui.rank", lang, n=to[5:]) if to.startswith("rank:") else word("zone", to, lang)
        return t(event.key, lang, name=p.get("name", ""), to=shown)
    if key == "react_answered":  # the board's prompt says who is still to answer: no line of its own
        return ""
    if key == "discard_chosen" and p.get("empty"):  # an empty hand's one answer: the table's line says it
        return ""
    if key == "react_pass_ack":  # a seat's first pass also says how to stop being asked (issue 26.8)
        return t(event.key, lang) + ("\n" + t("warlord.ui.pass_first", lang) if p.get("first") else "")
    if key == "react_chosen":  # reacts (spec 2.12): pending only while a seat before it has not answered
        name = word("feat", str(p.get("name")), lang) if p.get("name") in REACT_FEAT_NAMES else p.get("name", "")
        line_key = "warlord.ev.react_taken" if p.get("at_once") else event.key
        return t(line_key, lang, name=name, performer=p.get("performer", ""))
    if key == "preset_set":
        return t(event.key, lang, preset=t(PRESET_KEYS.get(str(p.get("preset")), PRESET_KEYS["none"]), lang))
    if key == "stops_set":
        return t(event.key, lang, stops=stops_text(str(p.get("stops", "")).split(","), lang))
    if key == "order_used" and p.get("source") == p.get("name"):  # a character's own printed order
        return t("warlord.ui.ev_own_order", lang, player=p.get("player", ""), name=p.get("name", ""))
    if key == "readied":
        return t(event.key, lang)
    if p != local_names(event.params, lang):  # a feat named by its id: the template, with the feat worded
        line = t(event.key, lang, **humanize(p, lang, NS))
        return line + (" 🎲 " + " ".join(str(r) for r in event.rolls) if event.rolls else "")
    return None


__all__ = ["card_info", "card_short", "card_text", "char_now", "event_text", "panel", "summary", "window_line"]
