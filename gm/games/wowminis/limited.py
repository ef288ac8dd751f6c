"""The table side of the limited formats (100.3) and of ``/wowm suggest``: a seat's booster and pool in its
private panel, the pick and build commands read from what the seat typed, and the suggested party.

Everything here reads the seat's own ``view``: another seat's booster, picks and build never reach it
(``engines.wowminis.limited_draft.hide``), so no list or reply can leak them.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from common.i18n import t
from engines.core.errors import TavoloError
from engines.wowminis import limited as L
from engines.wowminis.content import ActionCardDef, CharacterDef, ScenarioDef, fits, local_name, pack_for
from engines.wowminis.limited_state import LimitedState
from engines.wowminis.limited_suggest import Pick, role_of, suggest
from engines.wowminis.state import State
from gm.context import Actor, Place
from gm.games.choices import Choice, Ranked, rank
from gm.reply import Button, Reply

if TYPE_CHECKING:
    from gm.app import App


def _char_line(c: CharacterDef, lang: str) -> str:
    faction = t(f"wowm.limited.faction.{c.faction}", lang)
    star = " ★" if c.legendary else ""
    return t("wowm.limited.char_line", lang, name=local_name(c, lang), faction=faction, honor=c.honor,
             health=c.health, star=star)


def _card_line(k: ActionCardDef, lang: str) -> str:
    fits_who = ", ".join([*k.restriction.classes, *k.restriction.races, *k.restriction.specs,
                          *k.restriction.names]) or t("wowm.limited.anyone", lang)
    return t("wowm.limited.card_line", lang, name=local_name(k, lang), cost=k.cost,
             kind=t(f"wowm.limited.category.{k.category}", lang), fits=fits_who)


def item_label(lim: LimitedState, item: str, lang: str) -> str:
    kind, _, key = item.partition(":")
    if kind == "c" and key in lim.characters:
        return _char_line(lim.characters[key], lang)
    if kind == "k" and key in lim.cards:
        return _card_line(lim.cards[key], lang)
    return item


def panel(view: State, seat: int, lang: str, ref: str) -> Reply:
    """The seat's booster (while drafting), its pick if made, and its pool so far; buttons pick."""
    lim = view.limited
    assert lim is not None
    lines = [t(f"wowm.limited.panel_{lim.format}", lang, size=view.scenario.party_size, bar=L.SEALED_BAR)]
    buttons: list[Button] = []
    if lim.stage == "draft":
        if seat in lim.answers:
            lines.append(t("wowm.limited.panel_picked", lang, item=item_label(lim, lim.answers[seat], lang)))
        else:
            lines.append(t("wowm.limited.panel_booster", lang, round=lim.round + 1, rounds=len(lim.rounds),
                           pick=lim.pick + 1, picks=lim.picks[lim.round]))
            for number, item in enumerate(lim.hands.get(seat, []), start=1):
                lines.append(f"{number}. {item_label(lim, item, lang)}")
    elif seat in lim.built:
        lines.append(t("wowm.limited.panel_built", lang))
    else:
        lines.append(t("wowm.limited.panel_build", lang))
    pool = lim.picked.get(seat, [])
    if pool:
        lines.append(t("wowm.limited.panel_pool", lang, count=len(pool)))
        lines += [f"• {item_label(lim, item, lang)}" for item in pool]
    return Reply(text="\n".join(lines), buttons=buttons, ephemeral=True)


def pick_choices(view: State | None, seat: int | None, current: str, lang: str) -> list[Choice]:
    """``/wowm pick item:``: the items of the seat's own booster, while it still has to pick."""
    lim = view.limited if view is not None else None
    if lim is None or seat is None or lim.stage != "draft" or seat in lim.answers:
        return []
    found = [Ranked(Choice(item_label(lim, item, lang)[:100], item), (order,))
             for order, item in enumerate(lim.hands.get(seat, []))]
    return rank(found, current)


def build_action(party: str, cards: str | None) -> dict[str, Any]:
    """``party:"Ysolde, Vessa, Skarn"`` and ``cards:"Ysolde: war drums, sunward; Vessa: …"`` → the action."""
    members = [x.strip() for x in party.split(",") if x.strip()]
    bars: dict[str, list[str]] = {}
    for group in (cards or "").replace("/", ";").split(";"):
        who, sep, names = group.partition(":")
        if sep and who.strip():
            bars[who.strip()] = [x.strip() for x in names.split(",") if x.strip()]
    return {"kind": "build_party", "party": members, "bars": bars}


def _pick_lines(picks: list[Pick], cards: dict[str, ActionCardDef], lang: str) -> list[str]:
    lines = []
    for p in picks:
        names = ", ".join(local_name(cards[k], lang) for k in p.cards if k in cards)
        lines.append(t(f"wowm.limited.why_{p.role}", lang, name=local_name(p.char, lang), honor=p.char.honor,
                       cards=names or "—"))
    return lines


def suggest_reply(view: State | None, seat: int | None, content: dict[str, Any] | None, lang: str,
                  options: dict[str, Any] | None = None) -> Reply:
    """A legal, balanced party, to the asker alone: from the seat's limited pool when it is building or
    drafting, else from the pack (the game's scenario; in a lobby, the one its ``options`` name, else the
    standard one). The goal it names is the table's: a scenario's or a ``goal`` option's VP (102.1)."""
    lim = view.limited if view is not None else None
    pack = pack_for(content)
    scenario = view.scenario if view is not None else ScenarioDef()
    if view is None and options is not None:
        with suppress(TavoloError):  # a scenario the pack no longer has: the standard party rules
            scenario = pack.scenario(str(options.get("scenario") or "standard"))
    if lim is not None and seat is not None:
        return _suggest_pool(lim, scenario, seat, lang)
    cards = {k.id: k for k in pack.cards}
    printed = {c.id: [cards[k] for k in c.pool[:scenario.bar_per_char] if k in cards] for c in pack.characters}
    picks = suggest(pack.characters, printed, scenario)
    if not picks:
        raise TavoloError("wowm.limited.no_suggestion")
    honor = sum(p.char.honor for p in picks)
    goal = _goal(view, seat, options, scenario)
    head = t(_goal_key(goal, honor, options is not None or view is not None), lang, honor=honor, goal=goal)
    names = ", ".join(local_name(p.char, lang) for p in picks)
    tail = t("wowm.limited.suggest_command", lang, names=names)
    return Reply(text="\n".join([head, *_pick_lines(picks, cards, lang), tail]), ephemeral=True)


def _goal(view: State | None, seat: int | None, options: dict[str, Any] | None, scenario: ScenarioDef) -> int | None:
    """102.1: the VP this seat plays to when something other than its Honor sets it (a scenario, ``goal``)."""
    if view is not None and seat is not None and any(p.seat == seat for p in view.players):
        return view.player(seat).goal
    return scenario.goal(options) if options is not None else None


def _goal_key(goal: int | None, honor: int, options_known: bool) -> str:
    """Which head line: the party's Honor is the goal (102.1), the table plays to another goal, or (a lobby
    whose options this reply was not given) the goal is the Honor unless the table sets another."""
    if goal is None:
        return "wowm.limited.suggest_pack" if options_known else "wowm.limited.suggest_pack_open"
    return "wowm.limited.suggest_pack" if goal == honor else "wowm.limited.suggest_pack_goal"


def _suggest_pool(lim: LimitedState, scenario: ScenarioDef, seat: int, lang: str) -> Reply:
    chars = L.characters_of(lim, seat)
    cards = L.cards_of(lim, seat)
    fitting = {c.id: [k for k in cards if fits(k, c)] for c in chars}
    picks = suggest(chars, fitting, scenario, same_faction=False)  # 100.3: factions may mix
    bars = L.assign([p.char for p in picks], cards, exact=lim.format == "sealed") if picks else None
    if bars is None:  # the balanced party cannot be fitted with cards: the first legal build instead
        build = L.a_build(lim, scenario, seat)
        if build is None:
            raise TavoloError("wowm.limited.no_suggestion")
        by_id = {c.id: c for c in chars}
        bars = build.bars
        picks = [Pick(char=by_id[m], role=role_of(by_id[m], fitting[m])) for m in build.party]
    picks = [Pick(char=p.char, role=p.role, cards=tuple(bars.get(p.char.id, []))) for p in picks]
    by_card = {k.id: k for k in cards}
    honor = sum(p.char.honor for p in picks)
    party = ", ".join(local_name(p.char, lang) for p in picks)
    groups = "; ".join(f"{local_name(p.char, lang)}: {', '.join(local_name(by_card[k], lang) for k in p.cards)}"
                       for p in picks if p.cards)
    lines = [t("wowm.limited.suggest_pool", lang, honor=honor), *_pick_lines(picks, by_card, lang),
             t("wowm.limited.suggest_build", lang, party=party, cards=groups)]
    return Reply(text="\n".join(lines), ephemeral=True)


async def secret_act(app: App, place: Place, actor: Actor, action: dict[str, Any]) -> Reply:
    """A pick or a build: the answer goes back to the seat alone, the channel learns only that it answered
    (or, with the last answer in, what everyone now sees), as the secret bars do."""
    reply = await app.tables.act(place, actor, action)
    private = [extra for extra in reply.extra if extra.ephemeral]
    if reply.update_board:
        public = Reply(text=reply.brief, mentions=reply.mentions, buttons=reply.buttons)
    else:
        public = Reply(text=reply.text, image=reply.image, buttons=reply.buttons, mentions=reply.mentions,
                       board=reply.board)
    body = "\n".join(p.text for p in private) or reply.text
    return Reply(text=body, ephemeral=True, extra=[public])
