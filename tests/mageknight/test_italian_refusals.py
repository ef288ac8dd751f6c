"""Issue 27: an engine refusal read in Italian lists its candidates in Italian ("Sciamani della Cenere (e1)",
never "Cinder Shamans (e1)"). The engine words the lists in English and attaches the Italian pairs; the
presenter's ``error_params`` words them for the reader."""

from __future__ import annotations

import pytest

from console.runner import Console
from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from gm.errors import error_reply
from gm.games.mageknight.presenter import PRESENTER
from tests.mageknight.test_cog_console import out, since
from tests.mageknight.test_duel_pick import picking

DAMAGE = ["/as alice", '/game new mageknight options:"tier:2 site:rampaging seed:2"', "/game start",
          "/mk target enemies:predoni", "/mk unit unit:archres", "/mk commit", "/mk next", "/mk next"]


async def test_a_stale_damage_pick_lists_enemies_and_units_in_italian(console: Console) -> None:
    """An autocomplete value ``<enemy>><to>`` goes to the engine as it is; its refusal listed English names."""
    await console.run([*DAMAGE, "/lang it"])
    start = len(out(console))
    await console.execute('/mk assign to:"zzzz>eroe"')
    enemies = since(console, start)
    assert "Sciamani della Cenere (e1)" in enemies and "Cinder Shamans" not in enemies, enemies
    start = len(out(console))
    await console.execute('/mk assign to:"e1>zzzz"')
    units = since(console, start)
    assert "Picche del Villaggio (u3), Arcieri delle Colline (u4)" in units, units
    assert "Village Pikes" not in units and "Hill Archers" not in units, units
    await console.run(["/lang en", '/mk assign to:"e1>zzzz"'])
    assert "Village Pikes (u3), Hill Archers (u4)" in since(console, start)  # English readers unchanged


def test_the_duel_token_pick_refusal_names_the_tokens_in_italian() -> None:
    state = picking(tier=2, site="rampaging")
    ENGINE.apply(state, 1, A.Choose(value="g_brutes"), RecordedDice([]))
    with pytest.raises(RuleError) as err:  # over the Fame left: refused with the tokens still in budget
        ENGINE.apply(state, 1, A.Choose(value="r_elder"), RecordedDice([]))
    exc = err.value
    english = {n.split(" (")[0] for n in str(exc.params["known"]).split(", ")}
    exc.params = PRESENTER.error_params(dict(exc.params), "it")
    said = error_reply(exc, "it", "mageknight").text
    italian = {state.bestiary[t].name_it for t in state.bestiary if state.bestiary[t].name in english}
    assert italian and all(name in said for name in italian), said
    assert not [name for name in english if name in said and name not in italian], said
