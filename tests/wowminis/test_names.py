"""Every ``/wowm`` option that names something goes through the shared resolver (issue 26.1), and
Italian is a full language for the pack's names (issue 26.10): each command is tried with the
English name, the Italian one, a typo and a miss, which lists the candidates.

The position is the one ``full_game.txt`` reaches when Lyssara, alice's first character, has just
spawned and moved (tick 1): her main attack is Longbow Volley ("Raffica d'Arco Lungo").
"""

from __future__ import annotations

from console.runner import Console
from engines.wowminis.content import builtin_pack, italian_names, local_name, named_things
from tests.wowminis.test_console_game import _script

ITALIAN = ["/lang it"]


async def _at(console: Console, line: str) -> None:
    """Play the script up to (not including) ``line``."""
    lines = _script()
    await console.run(lines[:lines.index(line)])


def _out(console: Console, since: int) -> str:
    return console.output.getvalue()[since:]  # type: ignore[attr-defined]


def test_every_named_thing_of_the_builtin_pack_has_an_italian_name() -> None:
    """Characters, attacks, auras, triggers, cards and what they create, maps: all named in Italian
    (Teodric Vane is a surname, the same in both languages)."""
    pack = builtin_pack()
    things = list(named_things(pack))
    assert len(things) > 100
    missing = [t.name for t in things if not t.name_it]
    assert missing == []
    same = sorted({t.name for t in things if t.name_it == t.name})
    assert same == ["Teodric Vane"]
    assert local_name(pack.card("aegis_of_light"), "it") == "Egida di Luce"
    assert italian_names([pack])["Longbow Volley"] == "Raffica d'Arco Lungo"


async def test_preview_resolves_like_play(console: Console) -> None:
    """``/wowm preview ability:longbow`` works as ``/wowm play ability:longbow`` does: the name, the
    Italian name, a typo; a miss lists the active character's abilities."""
    await _at(console, "/wowm end")
    mark = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run(["/wowm preview ability:longbow", "/wowm preview ability:raffica",
                       "/wowm preview ability:longbwo", "/wowm preview ability:nonsense"])
    out = _out(console, mark)
    assert out.count("Lyssara Windquill: Longbow Volley — legal targets now") == 3, out
    assert "“nonsense” is not an ability of the active character. Choose among: Longbow Volley" in out
    assert console.errors == 1
    mark = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run([*ITALIAN, "/wowm preview ability:longbow"])
    assert "Lyssara Pennavento: Raffica d'Arco Lungo — bersagli legali ora" in _out(console, mark)


async def test_info_resolves_in_both_languages_and_lists_candidates(console: Console) -> None:
    """``/wowm info``: an ability's name finds its character; Italian names, typos; a miss lists."""
    await console.run(["/as alice", '/game new wowminis options:"first:1 goal:4"',
                       "/wowm info name:longbow", "/wowm info name:raffica", "/wowm info name:\"aegis of lihgt\"",
                       "/wowm info name:egida", "/wowm info name:zzzz"])
    out = _out(console, 0)
    assert out.count("**Lyssara Windquill · Alliance") == 2, out
    assert out.count("**Aegis of Light** · ") == 2
    assert "“zzzz” is not a character or an action card of this pack. Choose among: Brannoc Emberforge" in out
    assert console.errors == 1
    mark = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run([*ITALIAN, "/wowm info name:longbow", "/wowm info name:runed"])
    out = _out(console, mark)
    assert "**Lyssara Pennavento · Alleanza" in out and "**Freccia Runica** · " in out
    assert "solo per cacciatore" in out  # the restriction in Italian words


async def test_party_next_and_react_take_italian_names_and_typos(console: Console) -> None:
    """``/wowm party`` (Italian names, a typo), a miss listing the characters; ``/wowm next`` and
    ``/wowm react`` by Italian name."""
    await console.run(["/as alice", '/game new wowminis options:"first:1 goal:4"',
                       '/wowm party characters:"pennavento, forgiabrace, zzzz"',
                       '/wowm party characters:"pennavento, forgiabrace, elowen brightvwo"'])
    out = _out(console, 0)
    assert "“zzzz” is not a character of this pack. Choose among: Brannoc Emberforge" in out
    assert "alice's party: Lyssara Windquill, Brannoc Emberforge, Elowen Brightvow" in out
    assert console.errors == 1


async def test_gm_overrides_name_a_character_through_the_resolver(console: Console) -> None:
    """``/gm clock`` and ``/gm health`` take the board label, the Italian name or a typo; a miss lists."""
    await _at(console, "/wowm end")
    mark = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run(["/as alice gm", '/gm health piece:"lyssara pennavento" health:5',
                       '/gm clock piece:"Lysara Windquil" ahead:2', "/gm health piece:zzzz health:3"])
    out = _out(console, mark)
    assert "Lyssara Windquill now has 5 health" in out or "Lyssara Windquill: 5" in out, out
    assert "“zzzz” is not a character or a totem on the map. Choose among:" in out
    assert console.errors == 1


async def test_a_tie_answer_and_a_react_by_their_italian_names(console: Console) -> None:
    """``/wowm next`` by an Italian name; ``/wowm react`` by the card's Italian name."""
    lines = _script()
    await console.run(lines[:lines.index("/wowm next character:brannoc")])
    await console.run(["/wowm next character:forgiabrace"])
    assert "Brannoc Emberforge acts" in _out(console, 0)
    await console.run(lines[lines.index("/wowm next character:brannoc") + 1:lines.index("/wowm react card:aegis")])
    mark = len(console.output.getvalue())  # type: ignore[attr-defined]
    await console.run(['/wowm react card:"egida di luce"'])
    assert "Brannoc Emberforge plays Aegis of Light" in _out(console, mark)
    assert console.errors == 0, _out(console, 0)[-2000:]
