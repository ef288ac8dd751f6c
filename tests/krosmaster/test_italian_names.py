"""Issue 26.10 and 26.1 for Krosmaster: every named thing of the built-in pack has an Italian name, shown
wherever Italian is the language and accepted in either language; names are read from the seat's view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from console.runner import Console
from engines.core.events import Event
from engines.krosmaster.content import builtin_pack, load_pack, name_in
from engines.krosmaster.state import RewardCard
from gm.context import Actor, Place
from gm.games.krosmaster import actions, names
from gm.games.krosmaster.presenter import PRESENTER
from tests.krosmaster.conftest import console_output as _out
from tests.krosmaster.conftest import console_state as _state
from tests.krosmaster.test_cog_console import LOBBY, _as_active_player

ROOT = Path(__file__).resolve().parents[2]


def _named() -> list[Any]:
    pack = builtin_pack()
    things: list[Any] = [*pack.figurines, *pack.arenas, *pack.rewards, *pack.summons]
    for holder in [*pack.figurines, *pack.summons]:
        things += holder.spells
    for fig in pack.figurines:
        things += fig.custom_powers
    return things


def test_every_named_thing_of_the_builtin_pack_has_an_italian_name() -> None:
    missing = [thing.name for thing in _named() if not thing.name_it]
    assert missing == []
    assert name_in(builtin_pack().figurine("shadow_rogue"), "it") == "Ladro delle Ombre"
    assert name_in(builtin_pack().figurine("shadow_rogue"), "en") == "Shadow Rogue"


def test_a_user_pack_may_leave_the_italian_name_out_and_reads_its_own_name() -> None:
    fig = builtin_pack().figurine("mire_imp").model_dump(mode="json", exclude={"name_it"})
    fig["spells"] = [{k: v for k, v in s.items() if k != "name_it"} for s in fig["spells"]]
    pack = load_pack({"name": "mine", "figurines": [{**fig, "id": "my_imp", "name": "My Imp"}]})
    assert pack.figurines[0].name_it == "" and name_in(pack.figurines[0], "it") == "My Imp"


def test_the_glossary_records_every_name_pair() -> None:
    glossary = yaml.safe_load((ROOT / "gm" / "rules" / "glossary.yaml").read_text(encoding="utf-8"))
    pairs = {(p["it"][0], p["en"][0]) for p in glossary["krosmaster"]}
    for thing in _named():
        english, italian = (n.split(" (")[0] for n in (thing.name, thing.name_it))  # "Drop Keg (2)"
        assert english.casefold() == italian.casefold() or (italian, english) in pairs, thing.name


def test_log_lines_name_spells_rewards_and_arenas_in_the_readers_language() -> None:
    cast = Event(key="km.cast", params={"name": "EMB", "spell": "fire_bolt", "spell_name": "Fire Bolt",
                                        "spell_name_it": "Dardo di Fuoco", "target": "C4"})
    assert PRESENTER.event_text(cast, "it") == "EMB lancia Dardo di Fuoco su C4."
    assert PRESENTER.event_text(cast, "en") is None  # the template says "casts Fire Bolt"
    bought = Event(key="km.reward_revealed", params={"name": "SHA", "reward": "Healing Herb",
                                                    "reward_it": "Erba Curativa"})
    assert PRESENTER.event_text(bought, "it") == "SHA scopre Erba Curativa."
    user_pack = Event(key="km.reward_revealed", params={"name": "SHA", "reward": "Mug", "reward_it": ""})
    assert PRESENTER.event_text(user_pack, "it") is None  # no Italian name: the pack's own name stands


def test_pieces_spells_and_figurines_are_named_in_either_language_or_with_a_typo() -> None:
    assert names.resolve_figurines("guardiano di fero, strega delle braci", None) == ["iron_warden", "ember_witch"]
    assert names.resolve_figurines("Iron Warden, ladro", None, "it") == ["iron_warden", "shadow_rogue"]


async def test_italian_players_type_and_read_italian_names_and_a_miss_lists_them(console: Console) -> None:
    """A typo, an Italian name and a miss, through the commands: the miss lists the candidates in Italian."""
    await console.run(["/as alice", "/lang it", "/game new krosmaster",
                       '/km team figurines:"guardiano di fero, strega delle braci, arciere, guaritrice"'])
    assert console.errors == 0, _out(console)
    assert "Guardiano di Ferro, Strega delle Braci, Arciere del Vento, Guaritrice Marina" in _out(console)
    await console.execute("/complete /km team figurines:ladro")
    assert "Ladro delle Ombre · liv. 3" in _out(console)
    await console.execute("/km info name:Frantumazione")
    assert "== Frantumazione — incantesimo ==" in _out(console) and "Spaccaossa" in _out(console)
    await console.execute("/km info name:zzzzz")
    assert '"zzzzz" non è qualcosa che /km info conosce. Scegli tra: ' in _out(console)


async def test_a_spell_miss_lists_the_active_pieces_spells_in_italian(console: Console) -> None:
    state, _active, _ = await _as_active_player(console)
    piece = state.pieces[state.active_piece or ""]
    await console.run(["/lang it", '/km cast spell:"nulla di simile" target:A1'])
    listed = ", ".join(name_in(s, "it") for s in piece.figurine.spells)
    assert f'"nulla di simile" non è un incantesimo di {piece.short}. Scegli tra: {listed}, Pugno' in _out(console)
    italian = name_in(piece.figurine.spells[0], "it")
    before = len(_out(console))
    await console.execute(f'/km cast spell:"{italian.lower()}" target:"Z99"')
    assert "Z99" in _out(console)[before:] and "non è un incantesimo di" not in _out(console)[before:]


async def test_names_are_read_from_the_seats_view_so_a_hidden_reward_is_never_offered(console: Console) -> None:
    """Issue 26.1: autocomplete and resolution read the seat's view. A face-down reward on the other
    seat's piece (306.6b) is neither in what ``current`` returns nor offered nor accepted by name."""
    await console.run(LOBBY.splitlines())
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    table = await console.bot.app.tables.table_for(place)
    assert table is not None
    state = await _state(console)
    bob_piece = next(p for p in state.pieces.values() if p.owner == 1)
    herb = next(r for r in builtin_pack().rewards if r.id == "healing_herb")
    bob_piece.rewards.append(RewardCard(id="secret", reward=herb, seat=1))
    alice = Actor(user_id=table.seats[0].user_id, name="alice")
    view, seat, _ = await actions.current(console.bot.app, place, alice)
    assert view is not None and seat == 0
    hidden = next(c for c in view.pieces[bob_piece.id].rewards if c.id == "secret")
    assert hidden.reward is None  # alice's view: face down
    bob = Actor(user_id=table.seats[1].user_id, name="bob")
    own, _, _ = await actions.game(console.bot.app, place, bob)
    assert next(c for c in own.pieces[bob_piece.id].rewards if c.id == "secret").reward is not None
    assert names.card_label(hidden, "it") == "?"
    await console.run(["/as alice", "/complete /km info name:erba", "/complete /km reward-reveal reward:erba"])
    assert "secret" not in _out(console)
