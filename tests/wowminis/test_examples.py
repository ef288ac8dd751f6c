"""The specification's worked examples (E1-E15, §5) and inline examples, as scenarios.

E2, E6, E7, E9 and E12 live next to their sections (test_fundamentals, test_concepts, test_board);
this module has the rest. Stand-in cards are the built-in pack's originals with the same mechanics.
"""

from __future__ import annotations

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis.content import fits
from engines.wowminis.rules_effects import apply_buff
from engines.wowminis.rules_resolve import settle
from engines.wowminis.rules_stats import armor, attack_dice
from engines.wowminis.rules_targeting import single_targets, target_sets
from engines.wowminis.state import CardInstance
from tests.wowminis.builders import PACK, act, board, custom, event, give, keys, new, pass_all, put, refused, turn

MONSTERS = ("elowen,brannoc,teodric", "cinderjaw,mossback,skarn")


def _buff(state, cid, card, seat):
    c = PACK.card(card)
    return apply_buff(state, state.chars[cid], c.buff, c.type, seat, None, c.name)


def test_103_2_e1_a_prohibited_character_is_never_a_target():
    state = board()
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    _buff(state, "brannoc-1", "veil_of_sanctuary", 0)
    thrak = state.chars["thrak-2"]
    assert single_targets(state, thrak, thrak.defn.main_attack) == []
    assert target_sets(state, thrak, thrak.defn.main_attack) == []


def test_105_3b_e3_the_condition_reads_the_completed_roll():
    state = board(MONSTERS, terrain={"C3": "elevated"})
    attacker = put(state, "brannoc-1", "C3")
    put(state, "mossback-2", "C4", ahead=3)  # Thorny Hide: a hit without a critical costs the attacker 1
    state.players[0].auto_reroll = "ask"
    turn(state, "brannoc-1")
    act(state, 0, "play", ability="main", targets=["mossback-2"], roll=[1, 9, 9, 9])
    act(state, 0, "reroll", dice=[0], roll=[10, 1, 1, 1])
    assert attacker.health == attacker.defn.health  # the reroll made it critical: no damage back
    state = board(MONSTERS, terrain={"C3": "elevated"})
    attacker = put(state, "brannoc-1", "C3")
    put(state, "mossback-2", "C4", ahead=3)
    turn(state, "brannoc-1")
    act(state, 0, "play", ability="main", targets=["mossback-2"], roll=[1, 9, 9, 9, 5, 1, 1, 1])
    assert attacker.health == attacker.defn.health - 1


def test_302_3_e4_a_form_with_an_attack_locks_everything_else():
    state = board()
    druid = put(state, "thrak-2", "C3")
    bear, stag, bloom = give(state, "thrak-2", "ursine_form", "stag_form", "rejuvenating_bloom")
    put(state, "brannoc-1", "C4", ahead=3)
    turn(state, "thrak-2")
    act(state, 1, "play", ability=bear.id)
    pass_all(state)
    assert druid.form == bear.id and bear.zone == "set_aside"
    playable = {a.ability for a in ENGINE.legal_actions(state, 1) if a.kind == "play"}
    assert playable == {"rending_maul", stag.id}
    refused(state, 1, "play", rule="302.3", ability="main", targets=["brannoc-1"])
    refused(state, 1, "play", rule="302.3", ability=bloom.id, targets=["thrak-2"])
    assert fits(bloom.defn, druid.defn) and druid.defn.race == "tauren"  # 302.1: race and class unchanged
    assert armor(state, druid) == druid.defn.armor + 1


def test_302_3_e5_a_form_without_payment_abilities_locks_nothing():
    state = board(("elowen,brannoc,lyssara", "thrak,grushka,vorzul"))
    priest = put(state, "elowen-1", "C3")
    umbral, lance = give(state, "elowen-1", "umbral_form", "mind_lance")
    put(state, "thrak-2", "C5", ahead=3)
    turn(state, "elowen-1")
    act(state, 0, "play", ability=umbral.id)
    pass_all(state)
    assert priest.form == umbral.id
    assert attack_dice(state, priest, lance.defn.power, physical=False) == lance.defn.power + 1
    act(state, 0, "play", ability=lance.id, targets=["thrak-2"], roll=[1] * 7)
    assert not lance.ready


def test_302_4_leaving_a_form_returns_the_card_face_up_and_ready():
    state = board()
    druid = put(state, "thrak-2", "C3")
    bear, stag = give(state, "thrak-2", "ursine_form", "stag_form")
    turn(state, "thrak-2")
    act(state, 1, "play", ability=bear.id)
    pass_all(state)
    act(state, 1, "play", ability=stag.id)
    pass_all(state)
    assert druid.form == stag.id and bear.zone == "bar" and bear.face_up and bear.ready
    act(state, 1, "leave_form")
    assert druid.form is None and stag.zone == "bar" and stag.ready


def test_600_1c_e8_converted_attack_dodges_the_physical_negate():
    state = board(MONSTERS)
    put(state, "skarn-2", "C3")
    paladin = put(state, "brannoc-1", "C6", ahead=3)
    put(state, "teodric-1", "D6", ahead=3)
    _aegis, = give(state, "brannoc-1", "aegis_of_light")
    spellbreak, = give(state, "teodric-1", "spellbreak")
    arrow, = give(state, "skarn-2", "runed_arrow")
    turn(state, "skarn-2")
    act(state, 1, "play", ability=arrow.id)
    act(state, 0, "pass")  # the mage could negate the instant itself; he waits
    clock = state.chars["skarn-2"].clock
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    legal = {a.card for a in ENGINE.legal_actions(state, 0) if a.kind == "react"}
    assert legal == {spellbreak.id}  # arcane is magic: the physical negate does not fit
    events = act(state, 0, "react", card=spellbreak.id)
    events += pass_all(state)  # the react's own window (701.3): Brannoc's face-down card is asked
    assert "negated" in keys(events) and paladin.health == paladin.defn.health
    assert state.chars["skarn-2"].clock == clock + 4 and not arrow.ready  # nothing refunded


def test_600_1c_e8_variant_critical_readies_the_instant():
    state = board(MONSTERS)
    put(state, "skarn-2", "C3")
    put(state, "brannoc-1", "C6", ahead=3)
    arrow, = give(state, "skarn-2", "runed_arrow")
    turn(state, "skarn-2")
    act(state, 1, "play", ability=arrow.id)
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[10, 1, 1, 1, 1, 1])
    assert event(events, "dice").params["kind"] == "attack"
    assert [e.params["kind"] for e in events if e.key == "wowm.ev.dice"] == ["attack", "resist"]
    assert arrow.ready


def _e10_state(order_first: str):
    state = board(master=5)
    pet = custom(state, "pup", 0, "C3", ahead=3, health=2)
    pet.health = 1
    _buff(state, "pup", "rejuvenating_bloom", 0)
    _buff(state, "pup", "creeping_blight", 1)
    state.stage = "tick_end"
    from engines.core.dice import RecordedDice
    settle(state, RecordedDice([]))
    decision = ENGINE.decision(state)
    assert decision.kind == "order_triggers" and decision.seats == [0]
    option = next(o.value for o in decision.options if o.params["order"].startswith(order_first))
    act(state, 0, "choose", value=option)
    return state, pet


def test_704_2c_e10_wave_order_decides_survival():
    _state, pet = _e10_state("Creeping Blight")  # damage first: 1 -> -1 -> 1, alive after the wave
    assert pet.pos == "C3" and pet.health == 1
    _state, pet = _e10_state("Rejuvenating Bloom")  # heal first: capped at 2, then 0: destroyed
    assert pet.pos is None


def test_704_2b_e11_the_condition_is_read_right_after_the_event():
    state = board(("elowen,brannoc,lyssara", "morvath,cinderjaw,mossback"), master=5)
    put(state, "morvath-2", "C3", ahead=3)
    victim = put(state, "brannoc-1", "C4", ahead=3, health=4)
    _buff(state, "brannoc-1", "rejuvenating_bloom", 0)
    state.stage = "tick_end"
    from engines.core.dice import RecordedDice
    settle(state, RecordedDice([]))
    option = next(o.value for o in ENGINE.decision(state).options if o.params["order"].startswith("Rejuvenating"))
    act(state, 0, "choose", value=option)
    assert victim.health == 5  # healed to 6 first, still took the 1 read at 4


def test_704_3b_e13_same_named_auras_do_not_stack():
    state = board()
    c = put(state, "lyssara-1", "C3")
    put(state, "elowen-1", "C4")
    put(state, "brannoc-1", "C2")
    assert armor(state, c) == c.defn.armor + 1


def test_705_1b_e14_critical_rider_halves_still_happen():
    state = board()
    priest = put(state, "elowen-1", "C3")
    put(state, "thrak-2", "C5", ahead=3)
    bystander = put(state, "vorzul-2", "C2", ahead=3, health=5)
    turn(state, "elowen-1")
    act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[10, 1, 1, 1, 1, 1])
    assert bystander.health == 4  # no ally adjacent: the damage half still happens
    state = board()
    priest = put(state, "elowen-1", "C3")
    put(state, "thrak-2", "C5", ahead=3)
    friend = put(state, "brannoc-1", "C2", ahead=3, health=5)
    turn(state, "elowen-1")
    act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[10, 1, 1, 1, 1, 1])
    assert friend.health == 6 and priest.pos == "C3"  # no enemy adjacent: the healing still happens


def test_708_5_e15_taunt_constrains_multi_target_attacks():
    state = board(("elowen,brannoc,lyssara", "thrak,grushka,vorzul"))
    custom(state, "cleaver", 0, "C3", main_attack={"id": "cleave", "name": "Cleave", "cost": 3, "power": 3,
                                                   "damage_type": "melee", "target": {"count": 2, "up_to": True}})
    put(state, "thrak-2", "C4", ahead=3)
    put(state, "vorzul-2", "B3", ahead=3)
    turn(state, "cleaver")
    refused(state, 0, "play", rule="708.5", ability="main", targets=["vorzul-2"])
    cleaver = state.chars["cleaver"]
    sets = {tuple(sorted(t)) for t in target_sets(state, cleaver, cleaver.defn.main_attack)}
    assert sets == {("thrak-2",), ("thrak-2", "vorzul-2")}
    put(state, "grushka-2", "D3", ahead=3)
    refused(state, 0, "play", rule="708.5", ability="main", targets=["thrak-2", "vorzul-2"])
    c = state.chars["cleaver"]
    single = c.defn.main_attack.model_copy(update={"target": c.defn.main_attack.target.model_copy(
        update={"count": 1, "up_to": False})})
    assert {t[0] for t in target_sets(state, c, single)} == {"thrak-2", "grushka-2"}  # 708.5b: either one


def test_301_2c_a28_buff_expires_after_the_tick_10_wave():
    state = board(master=10)
    c = put(state, "brannoc-1", "C3", ahead=3, health=5)
    _buff(state, "brannoc-1", "rejuvenating_bloom", 0)
    state.stage = "tick_end"
    from engines.core.dice import RecordedDice
    events = settle(state, RecordedDice([]))
    ks = keys(events)
    assert ks.index("healed") < ks.index("buff_removed") < ks.index("cards_readied")
    assert c.health == 7 and not state.effects


def test_700_2b_304_2_pet_card_summons_with_the_masters_clock():
    state = board(MONSTERS)
    hunter = put(state, "skarn-2", "C3")
    card, = give(state, "skarn-2", "call_ridgecat")
    turn(state, "skarn-2")
    act(state, 1, "play", ability=card.id)
    if ENGINE.decision(state).kind == "pet_placement":
        act(state, 1, "choose", value="C4")
    pet = next(c for c in state.chars.values() if c.kind == "pet")
    assert pet.clock == hunter.clock == state.master + 3 and pet.master_id == "skarn-2"


def test_708_4_708_4a_708_4b_stealth_kept_for_one_space_and_teleports():
    state = board(("elowen,brannoc,lyssara", "sereth,grushka,vorzul"), terrain={"C4": "cover"})
    rogue = put(state, "sereth-2", "C3")
    put(state, "brannoc-1", "C7", ahead=3)
    step, = give(state, "sereth-2", "shadowstep")
    events = turn(state, "sereth-2")
    assert "stealthed" in keys(events)
    act(state, 1, "move", to="C4")  # one cover space costs 2 MP but is one space
    assert state.turn.stealthed
    assert attack_dice(state, rogue, 3, physical=True) == 4  # +1 on physical attacks
    act(state, 1, "play", ability=step.id, space="C6")
    assert state.turn.stealthed  # teleports do not count
    state = board(("elowen,brannoc,lyssara", "sereth,grushka,vorzul"))
    rogue = put(state, "sereth-2", "C3")
    put(state, "brannoc-1", "C7", ahead=3)
    turn(state, "sereth-2")
    events = act(state, 1, "move", to="C5")
    assert "stealth_lost" in keys(events) and not state.turn.stealthed


def test_708_4a_stealth_silences_enemy_reacts():
    state = board(("elowen,brannoc,lyssara", "sereth,grushka,vorzul"))
    put(state, "sereth-2", "C3")
    put(state, "brannoc-1", "C5", ahead=3)
    give(state, "brannoc-1", "aegis_of_light")
    turn(state, "sereth-2")
    act(state, 1, "move", to="C4")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[1] * 5 + [1] * 3)
    assert "hits" in keys(events)  # no window stopped for seat 0


def test_701_note_prompts_depend_on_public_data_only():
    state = board()
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    _useless, = give(state, "brannoc-1", "fleetfoot_charm")  # not a react, but face down
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    decision = ENGINE.decision(state)
    assert decision.kind == "react_window" and decision.seats == [0]  # asked: nobody learns it holds nothing
    assert [a.kind for a in ENGINE.legal_actions(state, 0)] == ["pass"]
    events = act(state, 0, "prefs", auto_pass="always", roll=[1] * 7)  # opting out passes this window too
    assert "hits" in keys(events) and ENGINE.decision(state).kind == "turn"


def _printed_pools(state, seat: int = 0):
    """The party plays the pools printed on its character cards, which everyone can read (101.2)."""
    state.player(seat).pool_public = True
    return state


def test_701_note_a_printed_pool_with_no_react_that_fits_asks_nobody():
    state = _printed_pools(board())
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    give(state, "brannoc-1", "fleetfoot_charm")  # the party's only card: everyone knows it is no react
    turn(state, "thrak-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[1] * 7)
    assert "hits" in keys(events) and ENGINE.decision(state).kind == "turn"


def test_701_note_a_printed_react_not_yet_seen_keeps_every_face_down_card_in_question():
    state = _printed_pools(board())
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    give(state, "brannoc-1", "fleetfoot_charm")
    state.pool[0] = [CardInstance(id="k900", defn=PACK.card("aegis_of_light").model_copy(deep=True))]
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    decision = ENGINE.decision(state)  # the Aegis could be the face-down card: nobody else can tell
    assert decision.kind == "react_window" and decision.seats == [0]
    assert [a.kind for a in ENGINE.legal_actions(state, 0)] == ["pass"]


def test_701_note_a_printed_react_seen_face_up_is_no_longer_a_face_down_possibility():
    state = _printed_pools(board())
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    aegis, _charm = give(state, "brannoc-1", "aegis_of_light", "fleetfoot_charm")
    aegis.face_up, aegis.ready = True, False  # played earlier: exhausted, and everyone saw it
    turn(state, "thrak-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[1] * 7)
    assert "hits" in keys(events) and ENGINE.decision(state).kind == "turn"


def test_701_note_a_react_that_cannot_fit_its_character_is_no_possibility():
    state = _printed_pools(board())
    put(state, "thrak-2", "C3")
    put(state, "elowen-1", "C4", ahead=3)
    give(state, "elowen-1", "fleetfoot_charm")
    state.pool[0] = [CardInstance(id="k900", defn=PACK.card("aegis_of_light").model_copy(deep=True))]
    assert not fits(PACK.card("aegis_of_light"), PACK.character("elowen"))  # a card for Brannoc's class only
    turn(state, "thrak-2")
    events = act(state, 1, "play", ability="main", targets=["elowen-1"], roll=[1] * 7)
    assert "hits" in keys(events) and ENGINE.decision(state).kind == "turn"


def test_101_2_a_party_on_its_printed_pools_says_so_and_a_custom_pool_does_not():
    printed = new()
    assert all(p.pool_public for p in printed.players)
    seats = [SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}", config={"party": party}) for i, party in
             enumerate(("elowen,brannoc,lyssara", "thrak,grushka,vorzul"))]
    seats[0].config["pool"] = [PACK.card(x).name for c in ("elowen", "brannoc", "lyssara")
                               for x in PACK.character(c).pool]
    custom_pool = ENGINE.new_game(Setup(seats=seats, options={"map": "proving_ground", "first": "1"}), SeededDice(1))
    assert [p.pool_public for p in custom_pool.players] == [False, True]
