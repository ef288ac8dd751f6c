"""The Warlord table through the real cogs in the console (issue 16): lobby, decks, the secret
starting armies, the secret discards, initiative, an attack whose strike opens a reaction window,
and the pass that lets it roll; then a short game driven command by command from ``legal_actions``,
in which no public message may name a card still hidden in a hand.
"""

from __future__ import annotations

import random
import re
from typing import Any

from console.runner import Console
from engines.core.contract import Action
from engines.warlord import ENGINE
from engines.warlord import actions as A
from engines.warlord.packs import builtin
from engines.warlord.state import State

OPENING = [
    "/as alice",
    "/game new system:warlord",
    "/warlord deck deck:stonewardens",
    "/as bob",
    "/game join",
    "/warlord deck deck:ash",
    "/game start",
    '/warlord army warlord:vorga level1:"horde grunt, horde grunt, sneak knife" level2:"ember hexer, tusked brute"',
    "/as alice",
    "/warlord army",
    "/click 1",  # "Take the suggested army"; turn 1's discards (empty hands) are answered by the table
    "/as bob",
    "/warlord pass",  # the "after initiative" window: bob's deck has Ill Omen and his hand is not empty
    "/warlord attack attacker:sneak",
    "/click 1",  # the first "Strike Shieldwall Recruit (rank 1 #1)" button
    "/as alice",
    "/warlord hand",
    "/click Pass",
]
INTERNAL = re.compile(r"\bwarlord\.[a-z_]+\.|\b(?:None|True|False|starting_army|draw_discard|choose_strike_target|"
                      r"pass_react|after_hit|before_roll|strike_resolved)\b|\bs\d+c\d+\b")


def out(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


def public_lines(output: str) -> list[str]:
    """What the channel shows: ephemeral blocks ("(only …)" and their indented lines) left out."""
    found, private = [], False
    for line in output.splitlines():
        if line.startswith("(only "):
            private = True
        elif not line.startswith(" "):
            private = False
        if not private:
            found.append(line)
    return found


def readable(output: str) -> list[str]:
    """What players read: autocomplete values and image paths left out."""
    return [line.split("  →  ")[0] for line in output.splitlines() if "[image]" not in line]


async def test_opening_secret_armies_draw_initiative_and_a_strike_through_a_window(console: Console) -> None:
    await console.run(OPENING)
    output = out(console)
    assert console.errors == 0, output[-3000:]
    # the armies stay secret until both are in: bob's own picks reach him alone
    before = "\n".join(public_lines(output.split("alice: Warlord Thane Brannoc Ironvow", 1)[0]))
    assert "Sneak Knife" not in before and "Tusked Brute" not in before and "Ember Hexer" not in before
    assert "(only bob) Your starting army: Vorga the Cinder Queen, Horde Grunt, Horde Grunt, Sneak Knife" in output
    assert "bob has chosen a starting army." in output
    assert "bob: Warlord Vorga the Cinder Queen; rank 1 Horde Grunt, Horde Grunt, Sneak Knife" in output
    # draw phase: counts in public, the cards only to their owner
    assert "alice draws 5 cards." in output and "bob draws 5 cards." in output
    assert "\n             You draw: " in output  # in alice's own army reply: the last army starts turn 1
    assert "🎲 Initiative: alice 4, bob 16." in output
    # the attack, the window (its moment only) and the roll with its reason
    assert "bob attacks with Sneak Knife (1 strike)." in output
    assert ("🤫 Waiting for @alice: Reaction window: a character is targeted — react or pass. Each answer stays "
            "hidden until everyone has answered.") in output
    assert ("🎲 Sneak Knife strikes Shieldwall Recruit (1/1): 1 +2 = 3 against AC 12 → miss "
            "(a natural 1 always misses).") in output
    # the panel: alice's own hand and her react, to her alone
    assert "(only alice) == alice: hand and options (only you see this) ==" in output
    assert "• Defend +2 — Shieldwall Recruit (rank 1 #2)" in output
    assert [line for line in readable(output) if INTERNAL.search(line)] == []
    posted = output.count("[image]") - output.count("board above updated")
    assert posted <= 6, posted  # set-up, reveal, the orders, the attack; strikes and windows edit it


async def test_italian_opening_reads_in_italian(console: Console) -> None:
    await console.run(["/lang it", *OPENING[:-1], "/warlord pass"])
    output = out(console)
    assert console.errors == 0, output[-3000:]
    assert "@alice gioca il mazzo Guardiapietra (Warlord Thane Brannoc Votoferreo, 50 carte)." in output
    assert "Finestra di reazione: un personaggio è bersagliato — reagisci o passa." in output
    assert ("🎲 Lama Furtiva colpisce Recluta del Muro di Scudi (1/1): 1 +2 = 3 contro AC 12 → mancato "
            "(un 1 naturale manca sempre).") in output
    assert "**La tua mano (5):**" in output
    assert "Rango 1: Recluta del Muro di Scudi · pronto · ATK +1 · AC 12 · ferite 0/1" in output
    mine = "\n".join(line for line in readable(output) if not line.startswith("/") and "warlord " not in line)
    for card in builtin().cards:  # printed card text is the pack's (it has no Italian text)
        mine = mine.replace(card.text, "") if card.text else mine
    assert not re.search(r"\b(?:ready|spent|stunned|wounds|rank|Your|hand|against|strikes|level)\b", mine)
    assert [c.name for c in builtin().cards if c.name in mine] == []  # issue 26.10: the Italian names only


# ---------------------------------------------------------------------------- a short game, command by command
def _command(a: Action) -> str:
    """The console line a player would type for a legal action (cards by uid, as autocomplete sends)."""
    if isinstance(a, A.StartingArmy):
        return (f'/warlord army warlord:"{a.warlord}" level1:"{", ".join(a.level1)}" '
                f'level2:"{", ".join(a.level2)}"')
    if isinstance(a, A.DrawDiscard):
        return f"/warlord discard cards:{a.cards[0] if a.cards else 'none'}"
    if isinstance(a, A.Attack):
        return f"/warlord attack attacker:{a.attacker}"
    if isinstance(a, A.Strike):
        return f"/warlord strike target:{a.target}"
    if isinstance(a, A.StopAttack):
        return "/warlord stop"
    if isinstance(a, A.Recruit):
        return f"/warlord recruit card:{a.card}" + (f" position:{a.position}" if a.position is not None else "")
    if isinstance(a, A.Equip):
        return f"/warlord equip item:{a.item} on:{a.host}"
    if isinstance(a, A.Maneuver):
        return f"/warlord move char:{a.char} to:{'shift' if a.to == 'same' else a.to}"
    if isinstance(a, A.PlayOrder):
        return (f"/warlord play card:{a.card} by:{a.performer} mode:{a.ability + 1}"
                + (f" target:{a.target}" if a.target else ""))
    if isinstance(a, A.UseOrder):
        line = f"/warlord use source:{a.source}"
        line += f" by:{a.performer}" if a.performer else ""
        line += f" target:{a.target}" if a.target else ""
        return line + (f" marksmanship:{a.marksmanship}" if a.marksmanship else "")
    if isinstance(a, A.React):
        return f'/warlord react source:"{a.source}|{a.ability}|{a.performer or ""}"'
    if isinstance(a, A.PassReact):
        return "/warlord pass" if a.yield_for == "none" else f"/warlord yield for:{a.yield_for}"
    if isinstance(a, A.Reform):
        return f"/warlord reform char:{a.char}" + (f" position:{a.position}" if a.position is not None else "")
    return "/warlord pass"


def _pick(legal: list[Action], rng: random.Random) -> Action:
    weights = {"attack": 6, "strike": 8, "react": 3, "recruit": 3, "equip": 2, "play_order": 2, "use_order": 2,
               "pass_react": 2, "maneuver": 1, "stop_attack": 1, "pass": 1}
    return rng.choices(legal, [weights.get(a.kind, 1) for a in legal])[0]


async def _state(console: Console) -> State:
    app: Any = console.bot.app  # type: ignore[attr-defined]
    from gm.context import Place

    table = await app.tables.table_for(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert isinstance(table.state, State)
    return table.state


def _hidden_names(state: State) -> set[str]:
    """Names of cards in some hand that no one can see anywhere else (in play or in a discard pile)."""
    seen = {state.name(u) for u in [*state.chars, *state.items]}
    seen |= {state.name(u) for p in state.players for u in [*p.discard, *p.removed]}
    return {state.name(u) for p in state.players for u in p.hand} - seen


async def test_a_short_game_never_names_a_hand_card_in_public(console: Console) -> None:
    await console.run(OPENING[:7])
    rng = random.Random(4)
    names = {0: "alice", 1: "bob"}
    checked = 0
    for _ in range(45):
        state = await _state(console)
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        action = _pick(ENGINE.legal_actions(state, seat), rng)
        start = len(console.transcript.messages)  # type: ignore[attr-defined]
        await console.run([f"/as {names[seat]}", _command(action)])
        assert console.errors == 0, (action, out(console)[-2500:])
        hidden = _hidden_names(await _state(console))
        for message in console.transcript.messages[start:]:  # type: ignore[attr-defined]
            if message.ephemeral:
                continue
            words = (message.content or "") + " ".join(str(e.description or "") for e in message.embeds)
            assert [n for n in hidden if n in words] == [], (action, words)
            checked += 1
    assert checked > 40
