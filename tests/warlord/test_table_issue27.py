"""What players hit at a real table (issue 27, Warlord), each through the table's own replies: the private
army list, the strike buttons of 3–4 players, the panel's "what you can do now", and the words of a
Scribe's target and of a discard typed during the army set-up."""

from __future__ import annotations

from console.runner import Console
from engines.core.dice import RecordedDice
from engines.warlord import actions as A
from engines.warlord.state import AttackState
from gm.games.warlord import orders
from gm.games.warlord.presenter import PRESENTER, play_lines
from tests.warlord.builders import ARMY_A, ARMY_B, E, act, deploy, fresh, hand, scene_four
from tests.warlord.test_console_flow import OPENING, out

SETUP = OPENING[:7]


async def test_the_private_army_list_offers_only_cards_the_faction_check_accepts(console: Console) -> None:
    """starting-army (issue 27.4): Glade Warden and Hired Crossbowman were listed, then refused."""
    await console.run([*SETUP, "/as alice", "/warlord army"])
    text = out(console).split("Your starting army (only you see this)")[1]
    level1 = next(line for line in text.splitlines() if "Level 1:" in line)
    level2 = next(line for line in text.splitlines() if "Level 2:" in line)
    assert "Glade Warden" not in level1 and "Hired Crossbowman" not in level2
    assert "Shieldwall Recruit" in level1 and "Runecarver Adept" in level2
    names = [n.strip() for n in level1.split("Level 1:")[1].split(",")][:3]
    pair = [n.strip() for n in level2.split("Level 2:")[1].split(",")][:2]
    mark = len(out(console))
    await console.run([f'/warlord army warlord:thane level1:"{", ".join(names)}" level2:"{", ".join(pair)}"'])
    assert "does not share" not in out(console)[mark:] and console.errors == 0


async def test_a_discard_typed_during_the_army_set_up_cites_the_set_up(console: Console) -> None:
    """issue 27.7: "There is no card tower there. (rule draw-phase)" while armies are chosen."""
    await console.run([*SETUP, "/as alice", "/warlord discard cards:tower"])
    said = out(console).rsplit("You are now alice.", 1)[1]
    assert "draw-phase" not in said and "no card tower" not in said
    assert "(rule “Starting army”)" in said  # the section's title: the id stays in the button only


def _three_player_attack() -> tuple:
    """Seat 0 attacks; seats 1 and 2 each have Shieldwall Recruits and more in their front ranks."""
    state = fresh(3, ["ashen_horde", "stonewardens", "stonewardens"])
    a = deploy(state, 0, ARMY_B)
    deploy(state, 1, [["shieldwall_recruit", "tunnel_scout", "hearth_acolyte"], ["axe_sergeant", "runecarver_adept"],
                      ["thane_brannoc"]])
    deploy(state, 2, [["shieldwall_recruit", "hearth_acolyte", "tunnel_scout"], ["axe_sergeant", "runecarver_adept"],
                      ["thane_brannoc"]])
    state.phase, state.turn, state.initiative, state.order_seat = "orders", 1, [0, 1, 2], 0
    state.chars[a[0][0]].state = "spent"
    state.attack = AttackState(attacker=a[0][0], seat=0, total=1)
    return state, a


def test_strike_buttons_name_the_owner_and_more_than_five_targets_go_in_one_menu() -> None:
    """issue 27.5: two identical "Strike Shieldwall Recruit (rank 1 #1)" buttons, and targets cut at five."""
    state, _a = _three_player_attack()
    view = E.view(state, 0)
    buttons = PRESENTER.buttons("1.1", view, seat=0, lang="en")
    assert [b.label for b in buttons][:1] == ["Strike… (6 targets)"]
    for seat in (1, 2):  # two front-rank characters each: four targets, one button each
        gone = state.player(seat).ranks[0][2:]
        state.player(seat).ranks = [state.player(seat).ranks[0][:2], state.player(seat).ranks[1][:1]]
        kept = {u for row in state.player(seat).ranks for u in row}
        for uid in [*gone, *[u for u in state.chars if state.chars[u].army_of == seat and u not in kept]]:
            state.chars.pop(uid, None)
    labels = [b.label for b in PRESENTER.buttons("1.1", E.view(state, 0), seat=0, lang="en")]
    assert "Strike Shieldwall Recruit (p1, rank 1 #1)" in labels
    assert "Strike Shieldwall Recruit (p2, rank 1 #1)" in labels
    assert len(labels) == len(set(labels))


def test_the_strike_menu_lists_every_target_with_its_owner() -> None:
    state, _a = _three_player_attack()
    from gm.games.warlord import choices

    found = choices.strike_choices(E.view(state, 0), 0, "", "en")
    assert len(found) == 6 and len({c.label for c in found}) == 6
    assert any(c.label.startswith("Shieldwall Recruit (p2) · rank 1 #1") for c in found)
    values = [orders.encode_order(A.Strike(target=c.value)) for c in found]
    assert orders.decode_order(values[0]) == {"kind": "strike", "target": found[0].value}


def test_what_you_can_do_now_lists_each_order_once_with_its_targets() -> None:
    """issue 27.6: "Use Ember Hexer (rank 2 #1)" three times, once per target, with the target cut off."""
    state = scene_four()
    state.order_seat, state.initiative = 3, [3, 0, 1, 2]
    lines = play_lines(E.view(state, 3), 3, "en")
    assert len(lines) == len(set(lines))
    hexer = [line for line in lines if line.startswith("• Use Ember Hexer")]
    assert len(hexer) == 1 and "→" in hexer[0]


def test_a_scribe_target_in_hand_is_not_said_to_come_from_the_discard_pile() -> None:
    """issue 27.7: "Use Scribe … (from your discard pile)" for a spell in hand."""
    from tests.warlord.builders import battle

    state, a, _b = battle(ARMY_A, ARMY_B)
    rune = hand(state, 0, "rune_of_shattering")
    scribe = A.UseOrder(source="feat:scribe", performer=a[1][1], target=rune)
    assert scribe in E.legal_actions(state, 0)
    label = orders.order_label(E.view(state, 0), scribe, "en")
    assert "Rune of Shattering (from your hand)" in label and "discard" not in label
    assert "(dalla tua mano)" in orders.order_label(E.view(state, 0), scribe, "it")
    act(state, 0, {"kind": "use_order", "source": "feat:scribe", "performer": a[1][1], "target": rune},
        RecordedDice([13]))
