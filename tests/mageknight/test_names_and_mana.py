"""Issue 26 through the console: one name resolver for every /mk option and /gm field, in both
languages (items 1 and 10), the mana a play is paid with when the player did not say (item 1), and
rule citations a player can look up (item 2)."""

from __future__ import annotations

from console.runner import Console
from tests.mageknight.test_cog_console import out, since, state_of

# Tier 3, seed 45: Mire Drake; Fire Lance in hand; a red die in the Source and a red crystal.
FIRE_LANCE = ["/as alice", '/game new mageknight options:"tier:3 site:rampaging seed:45"', "/game start",
              "/mk target enemies:mire"]


async def test_a_red_die_or_a_red_crystal_is_one_answer_the_die(console: Console) -> None:
    """M46: the Source die pays first (crystals keep from turn to turn); the reply says which paid."""
    await console.run(FIRE_LANCE)
    start = len(out(console))
    await console.execute('/mk play card:"fire lance" mana:red')
    text = since(console, start)
    assert console.errors == 0, text
    state = await state_of(console)
    assert [d.used for d in state.source if d.face == "red"] == [True] and state.hero.crystals["red"] == 1
    assert "Fire Lance is powered with a red die from the Source." in text
    assert "Paid with the red die" in text and "`mana:crystal`" in text


async def test_the_crystal_can_be_forced_in_either_language(console: Console) -> None:
    await console.run([*FIRE_LANCE, '/mk play card:"fire lance" mana:"red crystal"'])
    state = await state_of(console)
    assert state.hero.crystals.get("red", 0) == 0 and not any(d.used for d in state.source)
    assert "Fire Lance is powered with a red crystal." in out(console)
    assert "Paid with" not in out(console)  # the player chose: nothing to explain
    await console.run(["/game undo", "/lang it", '/mk play card:"lancia di fuoco" mana:cristallo'])
    state = await state_of(console)
    assert console.errors == 0 and state.hero.crystals.get("red", 0) == 0
    assert "Lancia di Fuoco è potenziata con un cristallo rosso." in out(console)
    await console.run(["/game undo", '/mk play card:"lancia di fuoco" mana:rosso'])
    assert "Pagata con il dado rosso" in out(console) and "`mana:cristallo`" in out(console)


async def test_every_option_takes_a_typo_an_italian_name_and_lists_a_miss(console: Console) -> None:
    await console.run(["/as alice", '/game new mageknight options:"tier:2 site:rampaging seed:2"', "/game start"])
    await console.run(["/mk target enemies:predoni", "/mk unit unit:archres"])  # Italian name; typo
    state = await state_of(console)
    assert console.errors == 0, out(console)
    assert state.staged is not None and [p.unit for p in state.staged.parts] == ["u4"]
    start = len(out(console))
    await console.execute("/mk unit unit:zzzz")
    assert "Village Pikes, Hill Archers" in since(console, start)  # a miss lists the candidates
    await console.run(["/mk commit", "/mk next", "/mk next"])
    start = len(out(console))
    await console.run(["/lang it", "/mk assign to:zzzz"])
    assert "Picche del Villaggio, Arcieri delle Colline, Eroe" in since(console, start)
    await console.run(["/mk info name:respiro", "/mk info name:calm brath"])
    assert out(console).count("== Respiro Calmo — carta ==") == 2


async def test_gm_fields_go_through_the_same_resolver(console: Console) -> None:
    await console.run(["/as alice gm", '/game new mageknight options:"tier:2 site:rampaging seed:2"', "/game start",
                       '/gm unit unit:"picche del vilaggio" wounds:1', "/gm enemy enemy:sciamani status:defeated"])
    state = await state_of(console)
    assert console.errors == 0, out(console)
    assert state.unit("u3").wounds == 1 and state.enemies[0].status == "defeated"
    start = len(out(console))
    await console.execute("/gm unit unit:zzzz wounds:1")
    assert "Village Pikes, Hill Archers" in since(console, start)


async def test_a_rule_is_cited_by_its_title_in_the_readers_language(console: Console) -> None:
    """Item 2: "(rule “Ranged and Siege attack phase”)", never the section id."""
    await console.run(["/as alice", '/game new mageknight options:"tier:2 site:rampaging seed:2"', "/game start",
                       "/mk target enemies:tusk", "/mk sideways card:calm"])
    text = out(console)
    assert "(rule “" in text and "ranged-siege-phase" not in text.replace("section:ranged-siege-phase", "")
    await console.run(["/lang it", "/mk sideways card:calm"])
    assert "(regola «" in out(console)


def test_every_builtin_thing_has_an_italian_name_and_a_user_pack_may_omit_it() -> None:
    import pytest

    from engines.core.errors import RuleError
    from engines.mageknight.content import builtin_pack, load_pack

    pack = builtin_pack()
    things = [*pack.enemies, *pack.cards, *pack.units]
    assert all(thing.name_it and thing.name_it != thing.name for thing in things)
    assert len({thing.name_it for thing in things}) == len(things)  # no two things share an Italian name
    own = load_pack({"name": "mine", "units": [{"id": "u_owls", "name": "Night Owls", "armor": 3}]})
    assert own.units[0].local_name("it") == "Night Owls"  # no name_it: the English name everywhere
    with pytest.raises(RuleError):
        load_pack({"name": "mine", "units": [{"id": "u_owls", "name": "Owls", "name_it": "G" * 61, "armor": 3}]})


def test_a_log_line_reads_in_italian_from_the_event_alone() -> None:
    """The event carries the Italian names (``names_it``), so ``/game log`` words it without the pack."""
    from gm.table.replies import event_text
    from tests.mageknight.builders import act, combat, event

    state = combat([("Mire Drake", {"status": "blocked"})], phase="attack", rampaging=True, mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=9)
    defeated = event(act(state, "commit"), "enemy_defeated")
    assert defeated.params["names_it"] == {"Mire Drake": "Drago del Pantano"}
    assert "Drago del Pantano" in event_text(defeated, "it", "mageknight")
    assert "Mire Drake" in event_text(defeated, "en", "mageknight")


def test_a_combat_saved_before_italian_names_reads_in_italian() -> None:
    """The frozen v1 fixture has no ``name_it``: loading fills the built-in pack's, nothing else changes."""
    from pathlib import Path

    from engines.mageknight import ENGINE

    text = (Path(__file__).resolve().parents[1] / "fixtures" / "states" / "mageknight.v1.json").read_text("utf-8")
    assert "name_it" not in text
    state = ENGINE.load_state(text)
    assert all(e.local_name("it") != e.name for e in state.enemies if e.token.id.startswith(("g_", "k_", "v_")))
    assert all(c.name_it for c in state.cards.values())
