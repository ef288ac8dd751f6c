"""World of Warcraft: The Board Game at the table (issue 17, spec §7): presenter (map picture, summary,
buttons, the per-seat control panel) and the replies behind ``/wowb`` that are more than one action.

A faction turn is shared: every seat of the active faction acts in parallel on its own characters, so
the board carries buttons any waiting seat may press (``shared_buttons``): each opens a private menu of
the clicker's own legal actions, which sends one action. Combat steps belong to one seat (the attacker)
or to the fighting faction (the attack order, the wound split), and get their own buttons: roll, the
dice to reroll toggled one by one, all wounds on one character.

Nothing here decides a rule: menus and autocomplete come from ``legal_actions`` on the clicker's view
(``gm.games.wowboard.choices``), words from ``gm.games.wowboard.text``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engines.wowboard  # noqa: F401  (registers the engine)
from common.i18n import has, t
from engines.core.contract import Action
from engines.core.errors import TavoloError
from engines.core.events import Event
from engines.wowboard import ENGINE
from engines.wowboard import actions as A
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import State
from gm import presenters
from gm.context import Actor, Place
from gm.games.seat_view import require_seat_view, seat_view
from gm.games.wowboard import choices, text
from gm.reply import Button, Reply, Select, SelectOption

if TYPE_CHECKING:
    from gm.app import App
    from gm.table.model import Table

SYSTEM = "wowboard"
AREA = "wb"
MENU_KINDS = ("travel", "challenge", "rest", "train", "town", "equip", "unequip", "answer")
# Events worth a new picture: a new faction turn, a fight won, a PvP result, a boss, the final battle, the end. A
# fight's start, a fight lost against creatures (the fallen character's return follows), the management step and
# a respawn edit the picture already posted.
NEW_BOARD_EVENTS = frozenset({"faction_turn", "combat_won", "pvp_won", "pvp_draw", "pvp_stalled", "final_battle",
                              "quest_completed", "game_won", "game_drawn", "overlord_beaten", "boss_appears"})
# Events after which the whole map is worth seeing (a faction turn's start or end, a game's end).
FULL_MAP_EVENTS = frozenset({"faction_turn", "management", "marker", "game_won", "game_drawn", "final_battle",
                             "overlord_beaten", "seat_handed", "faction_resigned"})
OPTION_BUTTONS = 5
CLASS_BUTTONS = 7  # setup.2: the full pack's seven classes, each a button (Discord allows 25 components)
HIDDEN = "?"  # what ``WowBoardEngine.view`` writes for a drawn card the viewer may not see
DIE_BUTTONS = 20  # Discord allows 25 components: 20 dice, and the two controls


# ---------------------------------------------------------------------------- the channel's game
async def current(app: App, place: Place, actor: Actor) -> tuple[State | None, int | None, Table | None]:
    return await seat_view(app, place, actor, SYSTEM, ENGINE, State)


async def game(app: App, place: Place, actor: Actor) -> tuple[State, int | None, Table]:
    """The channel's game as this user may see it; once it is over, the last one (sheets, quests and cards
    stay readable after the final battle)."""
    if await app.tables.table_for(place) is None:
        last = await app.tables.finished_game(place)
        if last is not None and last.game.system == SYSTEM and isinstance(last.state, State):
            seat = last.seat_of(actor.user_id)
            view = ENGINE.view(last.state, seat)
            assert isinstance(view, State)
            return view, seat, last
    return await require_seat_view(app, place, actor, SYSTEM, ENGINE, State, "wowboard.ui.not_wowboard")


def check_ref_value(ref: str, now: str) -> str:
    """A menu is built only for the position its button was posted with (an old board's menu would
    offer moves that are gone)."""
    if ref != now:
        raise TavoloError("common.stale_button")
    return now


# ---------------------------------------------------------------------------- actions as select values
def encode(action: Action) -> str:
    """An action as a select option's value (≤ 100 characters, ``|``-separated)."""
    if isinstance(action, A.Travel):
        return f"travel|{action.character}|{action.to}"
    if isinstance(action, A.Challenge):
        return f"challenge|{action.character}|{action.target}|{','.join(action.invite)}"
    if isinstance(action, A.Rest):
        return f"rest|{action.character}|{action.health}|{action.energy}"
    if isinstance(action, A.Pass):
        return f"pass|{action.character}"
    if isinstance(action, A.Train):
        return f"train|{action.character}|{','.join(action.powers)}"
    if isinstance(action, A.Town):
        return (f"town|{action.character}|{','.join(action.sell)}|{','.join(action.buy)}|{','.join(action.powers)}"
                f"|{action.health}|{action.energy}")
    if isinstance(action, A.Equip):
        return f"equip|{action.character}|{action.card}|{action.area}"
    if isinstance(action, A.Unequip):
        return f"unequip|{action.character}|{action.card}"
    if isinstance(action, A.Choose):
        return f"choose|{action.value}"
    raise TavoloError("common.stale_button")


def decode(value: str) -> dict[str, Any]:
    """The action a select option stands for (the engine checks it again under the table lock)."""
    parts = value.split("|")
    kind, rest = parts[0], parts[1:]

    def listed(raw: str) -> list[str]:
        return [x for x in raw.split(",") if x]

    def number(raw: str) -> int:
        return int(raw) if raw.isdecimal() else 0

    try:
        if kind == "travel":
            return {"kind": "travel", "character": rest[0], "to": rest[1]}
        if kind == "challenge":
            return {"kind": "challenge", "character": rest[0], "target": rest[1], "invite": listed(rest[2])}
        if kind == "rest":
            return {"kind": "rest", "character": rest[0], "health": number(rest[1]), "energy": number(rest[2])}
        if kind == "pass":
            return {"kind": "pass", "character": rest[0]}
        if kind == "train":
            return {"kind": "train", "character": rest[0], "powers": listed(rest[1])}
        if kind == "town":
            return {"kind": "town", "character": rest[0], "sell": listed(rest[1]), "buy": listed(rest[2]),
                    "powers": listed(rest[3]), "health": number(rest[4]), "energy": number(rest[5])}
        if kind == "equip":
            return {"kind": "equip", "character": rest[0], "card": rest[1], "area": rest[2]}
        if kind == "unequip":
            return {"kind": "unequip", "character": rest[0], "card": rest[1]}
        if kind == "choose":
            return {"kind": "choose", "value": "|".join(rest)}
    except IndexError:
        pass
    raise TavoloError("common.stale_button")


def action_label(view: State, action: Action, lang: str) -> str:
    """How a menu names one legal action: "Warden: travel to Kilnwatch (via Soot Mire)"."""
    who = text.char_name(view, c, lang) if (c := getattr(action, "character", "")) in \
        view.characters else ""
    if isinstance(action, A.Travel):
        return t("wowboard.ui.menu.travel", lang, who=who, to=text.name(view, action.to, lang))
    if isinstance(action, A.Challenge):
        line = t("wowboard.ui.menu.challenge", lang, who=who,
                 target=choices.target_label(view, action.target, lang))
        line += choices.no_dice_note(view, action.character, lang)  # allowed, but it would roll nothing
        if action.invite:
            line += " + " + ", ".join(text.char_name(view, f, lang) for f in action.invite)
        return line
    if isinstance(action, A.Rest):
        return t("wowboard.ui.menu.rest", lang, who=who, health=action.health, energy=action.energy)
    if isinstance(action, A.Pass):
        return t("wowboard.ui.menu.pass", lang, who=who)
    if isinstance(action, A.Train):
        return t("wowboard.ui.menu.train", lang, who=who,
                 powers=", ".join(text.name(view, p, lang) for p in action.powers))
    if isinstance(action, A.Town):
        bits = [*(t("wowboard.ui.menu.buy", lang, card=choices.buy_label(view, c, i, lang)) for i in action.buy),
                *(t("wowboard.ui.menu.sell", lang, card=text.name(view, i, lang)) for i in action.sell),
                *(t("wowboard.ui.menu.learn", lang, card=text.name(view, p, lang)) for p in action.powers)]
        if action.health or action.energy:
            bits.append(t("wowboard.ui.menu.heal", lang, health=action.health, energy=action.energy))
        return t("wowboard.ui.menu.town", lang, who=who, what=", ".join(bits) or "—")
    if isinstance(action, A.Equip):
        area = choices.area_label(view, action.character, action.area, lang)
        if printed := choices.covered_printed(view, action.character, action.area, lang):  # equipping.1
            area = f"{area} — {t('wowboard.ui.covers', lang, name=printed)}"  # as the autocomplete says it
        return t("wowboard.ui.menu.equip", lang, who=who, card=text.name(view, action.card, lang), area=area)
    if isinstance(action, A.Unequip):
        return t("wowboard.ui.menu.unequip", lang, who=who, card=text.name(view, action.card, lang))
    if isinstance(action, A.Choose):
        return text.option_label(view, action.value, lang)
    return action.kind


def menu_actions(view: State, seat: int | None, kind: str) -> list[Action]:
    """The clicker's legal actions of one kind (equip and unequip from the same checks as ``apply``)."""
    if kind == "equip":
        return [A.Equip(character=c, card=k, area=a) for c, k, a in choices.equip_pairs(view, seat)]
    if kind == "unequip":
        if view.phase != "management" or seat is None or seat in view.management_done:
            return []
        return [A.Unequip(character=c.id, card=card) for c in view.characters.values()
                if c.seat == seat and c.faction == view.active
                for slot in c.sheet.values() for card in ([slot.card] if slot.card else []) + slot.addons]
    found = choices.legal(view, seat)
    if kind == "answer":
        return [a for a in found if isinstance(a, A.Choose)]
    if kind == "rest":
        return [a for a in found if isinstance(a, (A.Rest, A.Pass))]
    return [a for a in found if a.kind == kind]


def menu(view: State, seat: int | None, kind: str, lang: str, ref: str) -> Reply:
    """A private select of the clicker's legal actions of one kind; choosing one sends it."""
    if seat is None:
        raise TavoloError("game.panel_spectator")
    found = menu_actions(view, seat, kind)
    if not found:
        return Reply(text=t("wowboard.ui.menu_empty", lang), ephemeral=True)
    options = tuple(SelectOption(action_label(view, a, lang)[:100], encode(a)[:100]) for a in found[:25])
    prompt = t(f"wowboard.ui.pick.{kind}", lang)
    lines = [prompt]
    if len(found) > 25:
        lines.append(t("wowboard.ui.menu_more", lang, n=len(found) - 25))
    return Reply(text="\n".join(lines), ephemeral=True,
                 selects=[Select(custom_id=f"tv1:{AREA}:{ref}:do", placeholder=prompt[:100], options=options)])


def builder(view: State, seat: int | None, kind: str, char: str, lang: str, ref: str) -> Reply:
    """spec §7: train and town as a private builder — one select where the player ticks everything this
    visit should do (buy, sell, learn, heal); the picks go out as ONE action, all or nothing (train-town.2)."""
    if seat is None:
        raise TavoloError("game.panel_spectator")
    c = view.characters.get(char)
    if c is None or c.seat != seat:
        raise TavoloError("common.stale_button")
    singles = [a for a in choices.legal(view, seat) if a.kind == kind and getattr(a, "character", "") == char]
    options: list[SelectOption] = []
    for a in singles:
        if isinstance(a, A.Train):
            options += [SelectOption(t("wowboard.ui.menu.learn", lang, card=text.name(view, p, lang))[:100],
                                     f"learn|{p}") for p in a.powers]
        elif isinstance(a, A.Town):
            options += [SelectOption(t("wowboard.ui.menu.buy", lang, card=choices.buy_label(view, char, i, lang))[:100],
                                     f"buy|{i}") for i in a.buy]
            options += [SelectOption(t("wowboard.ui.menu.sell", lang, card=text.name(view, i, lang))[:100], f"sell|{i}")
                        for i in a.sell]
            options += [SelectOption(t("wowboard.ui.menu.learn", lang, card=text.name(view, p, lang))[:100],
                                     f"learn|{p}") for p in a.powers]
            if a.health or a.energy:
                options.append(SelectOption(t("wowboard.ui.menu.heal", lang, health=a.health, energy=a.energy)[:100],
                                            f"heal|{a.health}|{a.energy}"))
    options = list({o.value: o for o in options}.values())[:25]
    if not options:
        return Reply(text=t("wowboard.ui.menu_empty", lang), ephemeral=True)
    prompt = t(f"wowboard.ui.builder.{kind}", lang, name=text.name(view, c.class_id, lang), gold=c.gold)
    verb = "trb" if kind == "train" else "tb"
    return Reply(text=prompt, ephemeral=True,
                 selects=[Select(custom_id=f"tv1:{AREA}:{ref}:{verb}:{char}", placeholder=prompt[:100],
                                 options=tuple(options), max_values=len(options))])


def built_action(kind: str, char: str, picks: list[str]) -> dict[str, Any]:
    """The one train or town action a builder's picks make (the engine checks it whole)."""
    action: dict[str, Any] = {"kind": kind, "character": char, "powers": []}
    if kind == "town":
        action.update(sell=[], buy=[], health=0, energy=0)
    for pick in picks:
        what, _, rest = pick.partition("|")
        if what == "learn":
            action["powers"].append(rest)
        elif what in ("buy", "sell") and kind == "town":
            action[what].append(rest)
        elif what == "heal" and kind == "town":
            health, _, energy = rest.partition("|")
            action["health"], action["energy"] = int(health or 0), int(energy or 0)
    return action


def dice_panel(view: State, seat: int | None, lang: str, ref: str, chosen: list[int]) -> Reply:
    """reroll.1: one toggle button per die (numbered as the picture numbers them), then "Reroll
    selected" or "Keep". Each click answers with the panel redrawn; nothing is sent until confirmed."""
    combat = view.combat
    attack = combat.attack if combat is not None else None
    if attack is None or attack.step != "reroll" or seat is None or view.characters[attack.character].seat != seat:
        raise TavoloError("wowboard.ui.no_reroll")
    mask = ".".join(str(i) for i in chosen)
    buttons = []
    for i, die in enumerate(attack.dice[:DIE_BUTTONS]):
        hit = die.value >= attack.threat
        toggled = [x for x in chosen if x != i] if i in chosen else sorted([*chosen, i])
        label = f"{i + 1}: {die.value}{' ✓' if hit else ''}{' ↻' if die.rerolled else ''}"
        buttons.append(Button(label, f"tv1:{AREA}:{ref}:rrt:{'.'.join(map(str, toggled)) or '-'}",
                              style="primary" if i in chosen else "secondary", disabled=die.rerolled))
    buttons.append(Button(t("wowboard.ui.button.reroll_selected", lang, n=len(chosen)),
                          f"tv1:{AREA}:{ref}:rrs:{mask or '-'}", style="danger", disabled=not chosen))
    buttons.append(Button(t("wowboard.ui.button.keep", lang), f"tv1:{AREA}:{ref}:rr:-", style="success"))
    body = t("wowboard.ui.reroll_panel", lang, n=attack.reroll, threat=attack.threat,
             dice=text.dice_text(attack.dice, attack.threat),
             chosen=", ".join(str(i + 1) for i in chosen) or "—")
    return Reply(text=body, ephemeral=True, buttons=buttons)


# ---------------------------------------------------------------------------- buttons
def decision_buttons(view: State, seat: int | None, lang: str, ref: str) -> list[Button]:
    """The buttons of the open decision; ``seat`` None when several seats wait (each click acts for the
    clicker's own seat)."""
    decision = ENGINE.decision(view)
    if decision is None:
        return []
    prefix = f"tv1:{AREA}:{ref}"
    kind = decision.kind
    answer_seat = seat if seat is not None else decision.seats[0]
    if view.pending:
        options = [a for a in ENGINE.legal_actions(view, answer_seat) if isinstance(a, A.Choose)]
        # The public board's view hides the cards a reward drew (spec §3.6: only the group sees them), so
        # its options are "?": a button per option would say "?" and send "?". Answer… opens the choice
        # privately, named from the clicker's own view.
        hidden = any(a.value == HIDDEN for a in options)
        if not hidden and len(options) <= OPTION_BUTTONS and all(len(f"{prefix}:ch:{a.value}") <= 100 for a in options):
            return [Button(text.option_label(view, a.value, lang)[:80], f"{prefix}:ch:{a.value}", style="primary")
                for a in options]
        return [Button(t("wowboard.ui.button.answer", lang), f"{prefix}:menu:answer", style="primary")]
    if kind == "draft_class":
        return [Button(text.name(view, a.class_id, lang)[:80], f"{prefix}:cls:{a.class_id}", style="primary")
                for a in ENGINE.legal_actions(view, answer_seat) if isinstance(a, A.PickClass)][:CLASS_BUTTONS]
    if kind == "attack_order":
        return order_buttons(view, answer_seat, lang, prefix)
    if kind == "pool":  # power-cards.3: a button per instant it can pay for now, printed ones included
        char, entries = choices.roll_instants(view, answer_seat)
        return [Button(t("wowboard.ui.button.roll", lang), f"{prefix}:roll", style="danger"),
                *(Button(t("wowboard.ui.button.roll_with", lang, name=choices.instant_label(view, char, e, lang))[:80],
                         f"{prefix}:roll:{e}", style="primary")
                  for e in entries if char and len(f"{prefix}:roll:{e}") <= 100)][:OPTION_BUTTONS]
    if kind == "reroll":
        return [Button(t("wowboard.ui.button.choose_dice", lang), f"{prefix}:rrt:-", style="primary"),
                Button(t("wowboard.ui.button.reroll_misses", lang), f"{prefix}:rrm", style="danger"),
                Button(t("wowboard.ui.button.keep", lang), f"{prefix}:rr:-", style="success")]
    if kind == "assign_wounds":
        return [Button(t("wowboard.ui.button.all_wounds", lang,
                         name=text.char_name(view, c, lang))[:80],
                       f"{prefix}:wd:{c}") for a in ENGINE.legal_actions(view, answer_seat)
                # a pick with a companion is listed twice (power-cards.4): one button a character, not two
                if isinstance(a, A.AssignWounds) and not a.companions for c, n in a.split.items() if n][:OPTION_BUTTONS]
    if kind == "management":
        return [Button(t("wowboard.ui.button.equip", lang), f"{prefix}:menu:equip", style="primary"),
                Button(t("wowboard.ui.button.unequip", lang), f"{prefix}:menu:unequip"),
                Button(t("wowboard.ui.button.done", lang), f"{prefix}:done", style="success")]
    if kind == "faction_turn":
        return [Button(t("wowboard.ui.button.travel", lang), f"{prefix}:menu:travel", style="primary"),
                Button(t("wowboard.ui.button.challenge", lang), f"{prefix}:menu:challenge", style="danger"),
                Button(t("wowboard.ui.button.rest", lang), f"{prefix}:menu:rest"),
                Button(t("wowboard.ui.button.train", lang), f"{prefix}:menu:train"),
                Button(t("wowboard.ui.button.town", lang), f"{prefix}:menu:town")]
    return []


def order_buttons(view: State, seat: int, lang: str, prefix: str) -> list[Button]:
    """combat-round.1, pvp-combat.2: one button per order offered; the first is the usual answer (the order
    chosen last round, else the characters as they joined), in green and, from the second round on, named
    "Same order" (issue 26.6: the order can change the fight, so it is asked, but in one click)."""
    combat = view.combat
    orders = [a.order for a in ENGINE.legal_actions(view, seat) if isinstance(a, A.SetOrder)][:OPTION_BUTTONS]
    decision = ENGINE.decision(view)
    faction = decision.params.get("faction") if decision is not None else None
    last = combat.last_orders.get(str(faction or combat.faction)) if combat is not None else None
    buttons = []
    for n, order in enumerate(orders):
        names = " → ".join(text.char_name(view, c, lang) for c in order)
        if n == 0 and last and [c for c in last if c in order] == order:
            names = t("wowboard.ui.button.same_order", lang, order=names)
        buttons.append(Button(names[:80], f"{prefix}:ord:{','.join(order)}", style="success" if n == 0 else "primary"))
    return buttons


# ---------------------------------------------------------------------------- information
def panel(view: State, seat: int | None, lang: str, ref: str) -> Reply:
    """The per-seat control panel (spec §7): the seat's characters side by side, what it is asked now,
    the buttons for it."""
    if seat is None:
        raise TavoloError("game.panel_spectator")
    decision = ENGINE.decision(view)
    lines = [t("wowboard.ui.panel_faction_open", lang) if view.factions_open  # setup.3: dealt after the draft
             else t("wowboard.ui.panel_faction", lang, faction=text.faction_word(view.seat(seat).faction, lang))]
    lines += [text.character_line(view, c, lang) for c in view.characters.values() if c.seat == seat]
    if decision is None:
        lines.append(t("wowboard.ui.panel_over", lang))
    elif seat in decision.seats:
        spoken = text.prompt_words(view, decision.params, lang, HIDDEN)  # the public question's words
        params = {k: spoken[k] if spoken[k] != v else text.name(view, v, lang) if isinstance(v, str) else v
                  for k, v in decision.params.items()}
        if "faction" in params:
            params["faction"] = text.faction_word(str(decision.params["faction"]), lang)
        lines.append(t("wowboard.ui.panel_your_move", lang, prompt=t(decision.prompt_key, lang, **params)))
        forced = [c for c in view.characters.values() if c.seat == seat and c.actions_left
                  and decision.kind == "faction_turn" and _forced(view, c.id)]
        for c in forced:
            lines.append(t("wowboard.ui.forced", lang, name=text.name(view, c.class_id, lang)))
    else:
        names = ", ".join(text.seat_name(view, s) for s in decision.seats)
        lines.append(t("wowboard.ui.panel_waiting", lang, players=names))
    buttons = decision_buttons(view, seat, lang, ref) if decision is not None and seat in decision.seats else []
    return Reply(title=t("wowboard.ui.panel_title", lang), text="\n".join(lines), ephemeral=True, buttons=buttons)


def _forced(view: State, cid: str) -> bool:
    from engines.wowboard.rules_challenge import forced

    return forced(view, view.characters[cid])


def touched_regions(view: State, events: list[Event]) -> list[str]:
    """The regions the events name (a travel's path, a fight's region, a respawn), in order, once each."""
    regions = {r.id for r in pack_of(view).regions}
    found: list[str] = []
    for e in events:
        for key in ("region", "to", "from", "path", "where"):
            value = e.params.get(key)
            for part in str(value or "").replace(" → ", ", ").split(", "):
                if part in regions and part not in found:
                    found.append(part)
        name = e.params.get("name")
        if isinstance(name, str) and name in view.characters and view.characters[name].region not in found:
            found.append(view.characters[name].region)
    return found


# ---------------------------------------------------------------------------- server packs
async def import_pack(store: Any, place: Place, actor: Actor, filename: str, data: bytes, name: str | None,
                      *, replace: bool = False) -> Reply:
    """``/wowb-admin pack``: a server pack laid over the built-in one (quests, items, events, classes…),
    checked whole in a budgeted child process; nothing is saved unless all of it is valid."""
    from engines.wowboard.content import MAX_PACK_BYTES, changed_entries, checked_server_pack, checked_upload
    from gm.packs import admin as pack_admin

    pack_data = await pack_admin.read_upload(place, actor, data, filename, checked_upload, max_bytes=MAX_PACK_BYTES,
                                             too_big="wowboard.err.pack_too_big", not_text="wowboard.ui.pack_not_text")
    pack = checked_server_pack(pack_data)
    name = pack_admin.pack_name(name or filename.rsplit(".", 1)[0])
    replaced = await pack_admin.save(store, place, actor, SYSTEM, name, pack_data, replace)
    key = "wowboard.ui.pack_replaced" if replaced else "wowboard.ui.pack_saved"
    return Reply(text=t(key, actor.locale, name=name, entries=changed_entries(pack), quests=len(pack.quests),
                        items=len(pack.items)))


# ---------------------------------------------------------------------------- the presenter
class WowBoardPresenter:
    system = SYSTEM
    # the /gm overrides of this game (gm.table.overrides)
    gm_commands = frozenset({"wowb-move", "wowb-stat", "wowb-give", "wowb-take",
                             "wowb-spawn", "wowb-remove", "wowb-turn", "note"})
    locale_namespace = "wowboard"
    shared_buttons = True  # a faction turn waits for both seats of a faction at once
    words_rolls = True  # dice lines name each die by colour and value ("R7 G5") already

    def render(self, view: State, *, viewer: int | None, lang: str, seat_names: list[str],  # type: ignore[override]
               focus: list[str] | None = None) -> bytes | None:
        """The combat panel while a fight is on; otherwise the map, cropped to ``focus`` when given."""
        import renderers.wowboard as pictures

        names = dict(enumerate(seat_names))
        if view.combat is not None:
            return pictures.render_combat(view, lang=lang, seat_names=names)
        return pictures.render(view, lang=lang, seat_names=names, focus=focus)

    def event_mentions(self, view: State, events: list[Event]) -> list[int]:
        """Spec §7: a PvP or the final battle pulls the other faction's seats in; they are pinged even
        when the first decision is the attacker's."""
        seats: list[int] = []
        for e in events:
            if e.key in ("wowboard.ev.pvp_started", "wowboard.ev.final_battle"):
                named = str(e.params.get("defenders", "")).split(", ")
                if e.key == "wowboard.ev.final_battle":
                    named = [c.id for c in view.characters.values()]
                seats += [view.characters[c].seat for c in named if c in view.characters]
        return sorted(set(seats))

    def render_here(self, view: State) -> bool:
        """A game on a server pack draws in this process, which holds the pack (``use_content``); the
        render workers know only the built-in one."""
        from engines.wowboard.content import BUILTIN_KEY

        return view.pack != BUILTIN_KEY

    def picture_hints(self, view: State, events: list[Event]) -> dict[str, Any] | None:
        """Spec §7 image policy: a crop around the regions an action touched, the full map when a faction
        turn starts or ends, on ``/game status`` and at the end; ``images:turn_end`` keeps only those,
        ``images:off`` sends the text summary alone (status still shows the map)."""
        policy = str(view.options.get("images", "every"))
        keys = {e.key.removeprefix("wowboard.ev.") for e in events if not e.private_to}
        if not events or view.phase == "over" or keys & FULL_MAP_EVENTS:
            return {} if policy != "off" or not events else None
        if policy != "every":
            return None
        if view.combat is not None:
            return {}
        touched = touched_regions(view, events)
        return {"focus": touched} if touched else {}

    def summary(self, view: State, *, lang: str, seat_names: list[str]) -> str:  # type: ignore[override]
        return text.summary(view, lang, seat_names)

    def buttons(self, ref: str, view: State, *, seat: int | None, lang: str) -> list[Button]:  # type: ignore[override]
        if view.phase == "over":
            return []
        return decision_buttons(view, seat, lang, ref)

    def private_panel(self, view: State, *, seat: int, lang: str, ref: str) -> Reply:
        return panel(view, seat, lang, ref)

    def team_name(self, team: str, lang: str) -> str:
        """A lobby ``team:`` (a faction id, ``engine.check_team``) as the reader says it: "Orda", "Alliance"."""
        key = f"wowboard.faction.{team}"
        return t(key, lang) if has(key, lang) else team

    def image_policy(self, events: list[Event]) -> str:
        """TABLE_UX "the channel is a shared space": about two new pictures per faction turn at most. Which picture a
        reply carries, if any, is ``picture_hints``' (the table's ``images`` option); this says whether it
        is a new message: a faction turn, a fight won, a PvP result, a boss, the final battle and the end
        are. A fight lost against creatures edits the board: its character falls and is asked where to
        return at once, which edits it again, and the text line says it in the channel (with a new picture
        for each, the scripted game posted 66 in 32 faction turns). A fight's start (its result follows at
        once), travel, the management step and a respawn (the answer to a defeat already shown) edit the
        picture already posted. With a new picture for each fight's start and end, each respawn and each
        management step, ``images:every`` posted 121 pictures in 33 faction turns."""
        keys = {e.key.removeprefix("wowboard.ev.") for e in events if not e.private_to}
        return "new" if keys & NEW_BOARD_EVENTS else "update"

    def player_turns(self, view: State) -> frozenset[tuple[object, ...]]:
        """The player turns under way, for the image budget (TABLE_UX: about two new pictures per player
        turn). The game goes by faction turns (faction-turn.1): the active faction's seats act in
        parallel, then manage, and the marker moves one step on the turn track; so a faction turn is one
        player turn, numbered by ``turn``. At the End each faction's last management is one more, and
        the final battle one. The draft and the end are nobody's turn."""
        if view.phase in ("play", "management"):
            return frozenset({("turn", view.turn)})
        if view.phase == "final_management":
            return frozenset({("end", view.active)})
        return frozenset({("battle",)}) if view.phase == "final_battle" else frozenset()

    def event_text(self, event: Event, lang: str) -> str | None:
        return text.event_text(event, lang)

    def warm_words(self) -> None:
        text.warm_names()

    def prompt_params(self, view: State, params: dict[str, Any], lang: str) -> dict[str, Any]:
        """Decision prompts name a character or the options by id: people read names."""
        return text.prompt_words(view, params, lang, HIDDEN)

    def gm_name_choices(self, view: State, what: str, current: str, lang: str = "en") -> list[Any]:
        """``/gm wowb-*`` options: characters, regions, cards, creature types, figures, by name in the GM's
        language; either language's name is typed."""
        from gm.games.choices import Choice, Ranked, rank

        pack = pack_of(view)

        def both(ident: str) -> str:
            return text.name(view, ident, lang)

        if what == "character":
            found = [(text.char_label(view, c, lang=lang), c) for c in view.characters]
        elif what == "region":
            found = [(both(r.id), r.id) for r in pack.regions]
        elif what == "creature":
            found = [(both(c.id), c.id) for c in pack.creatures]
        elif what == "figure":
            found = [(f"{both(f.type)} ({f.tier}) · {both(f.region)}", f.id) for f in view.figures.values()]
        elif what == "card":
            found = [(both(c.id), c.id) for c in [*pack.items, *pack.class_cards]]
        else:
            return []
        return rank([Ranked(Choice(label[:100], value), aliases=text.aliases(view, value)) for label, value in found],
                    current)

    def gm_resolve(self, view: State, action: dict[str, Any], lang: str = "en") -> dict[str, Any]:
        """``/gm wowb-*``: characters, regions, cards, creature types and figures named as people read
        them ("militia axe", "Quercia Cava", "milita axe"), in either language, by the same resolver as
        every other command; a miss lists the names (in English: this hook is not told the reader's)."""
        pack = pack_of(view)
        options = {"character": list(view.characters), "region": [r.id for r in pack.regions],
                   "card": [c.id for c in [*pack.items, *pack.class_cards]],
                   "creature": [c.id for c in pack.creatures], "figure": list(view.figures)}
        named = dict(action)
        for field, ids in options.items():
            if isinstance(named.get(field), str) and named[field]:
                named[field] = choices.resolve(view, ids, named[field], f"gm_{field}", lang)
        return named

    def warm_up(self) -> None:
        """Fonts, arenas and palettes, drawn once per render worker (``gm.presenters.warm_up_all``)."""
        from renderers.wowboard import warm_up

        warm_up()

    def help_text(self, lang: str) -> str:
        return t("wowboard.ui.help", lang)


PRESENTER = presenters.register(WowBoardPresenter())
