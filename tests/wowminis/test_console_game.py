"""The WoW Miniatures table through the real cogs in the console (issue 15): a scripted two-player
game from the lobby to victory, its Italian opening, and what autocomplete offers.

``full_game.txt``: parties, secret bars (bob through the private menu, alice typed), spawning,
moves, attacks with Taunt and a critical, a react (Aegis of Light negates Grushka's attack) and
the destruction that reaches the 4 VP goal. No seat's bar may reach the channel before both are in.
"""

from __future__ import annotations

import re
from pathlib import Path

from console.runner import Console

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "full_game.txt"
INTERNAL = re.compile(r"\b(?:wowm|cmd)\.[a-z_]+\.|\b(?:None|True|False|choose_bar|react_window|next_character|"
                      r"first_character|spawn_point|end_turn)\b|\bk\d+\b|[a-z]+-[12]\b")
# Every card of both pools: none may be named in public before "Both parties have chosen".
POOL_CARDS = ("Sweeping Cleave", "Riposte", "Rallying Shout", "Shadowstep", "Cold Focus", "Feint", "Ursine Form",
              "Stag Form", "Rejuvenating Bloom", "Runed Arrow", "Call Ridgecat", "Thicket Ward", "Aegis of Light",
              "Veil of Sanctuary", "Bulwark Blessing", "Renewing Light", "Umbral Form", "Mind Lance")


def _script(italian: bool = False) -> list[str]:
    lines = [line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if line.strip()]
    if italian:  # buttons carry Italian labels: click them through their commands instead
        swap = {"/click Pass": "/wowm pass", "/click End turn": "/wowm end"}
        lines = ["/lang it", *[swap.get(line, line) for line in lines]]
    return lines


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


def readable_lines(output: str) -> list[str]:
    """What players read: autocomplete values (never shown on Discord) and image paths left out."""
    return [line.split("  →  ")[0] for line in output.splitlines() if "[image]" not in line]


async def test_console_game_plays_from_the_lobby_to_victory(console: Console) -> None:
    await console.run(_script())
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "🏆 Game over — winner: @alice" in output
    assert "Sereth Duskblade is destroyed" in output and "alice scores 4 VP" in output
    assert "Twin Cleave of Grushka Bonesplitter is negated." in output  # the react
    assert "I11 · 2 MP · breaks Stealth" in output and "H10 · 2 MP" in output  # 708.4a, 404.1
    # The bars stay secret until both are in: bob's own bar reaches him alone.
    before = "\n".join(public_lines(output.split("Both parties have chosen", 1)[0]))
    assert [card for card in POOL_CARDS if card in before] == []
    assert "(only bob) Your bars: Grushka Bonesplitter: Sweeping Cleave, Riposte" in output
    assert [line for line in readable_lines(output) if INTERNAL.search(line)] == []
    posted = output.count("[image]") - output.count("board above updated")
    assert posted <= 16, posted  # turn starts, K.O. and set-up; moves and windows edit the board


async def test_full_game_final_board_matches_its_golden(console: Console, tmp_path: Path) -> None:
    """The last board of ``full_game.txt`` (issue 15), looked at by eye at 500 px when regenerated."""
    from tests.mageknight.test_console_scripts import check_golden

    await console.run(_script())
    assert console.errors == 0
    boards = sorted(console.out_dir.glob("*wowminis*.png"))
    assert boards, "no board was written"
    check_golden("full_game_final", boards[-1], tmp_path, HERE / "golden")


async def test_italian_opening_reads_in_italian(console: Console) -> None:
    await console.run(_script(italian=True)[:40])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "Gruppo di @alice: Lyssara Pennavento, Brannoc Forgiabrace, Elowen Votolucente (Onore 13" in output
    assert "Master Clock allo scatto 1" in output and "salute 6/6" in output
    mine = "\n".join(line for line in readable_lines(output) if "wowm" not in line)
    # ("round" is the Italian rulebook's own word, 408.1c: it may appear)
    assert not re.search(r"\b(?:health|enemy|ally|Armor|Resist|Acting|Your|cost|hexes|off the map)\b", mine)


def _offered(text: str) -> list[tuple[str, str]]:
    """(label, value) of each autocomplete line the console printed."""
    found = []
    for line in text.splitlines():
        if "  →  " in line:
            label, value = line.split("  →  ", 1)
            found.append((label.split("· ", 1)[-1].strip(), value.strip()))
    return found


async def test_autocomplete_offers_only_legal_choices(console: Console) -> None:
    def out() -> str:
        return console.output.getvalue()  # type: ignore[attr-defined]

    lines = _script()
    await console.run(lines[:lines.index('/complete /wowm next character:')])
    mark = len(out())
    await console.run(["/complete /wowm party characters:\"Lyssara Windquill, \""])
    party = _offered(out()[mark:])
    assert party and all("Alliance" in label for label, _ in party)  # one faction after the first pick (100.2)
    stop = lines.index('/wowm play ability:"twin daggers" target:LYS')
    await console.run(lines[lines.index('/complete /wowm next character:'):stop])
    mark = len(out())
    await console.run(["/complete /wowm play ability:"])
    plays = _offered(out()[mark:])
    assert plays[0][1] == "main" and plays[0][0].startswith("Twin Daggers 3 → tick 4")  # cost → resulting tick
    assert sorted(label.split(" ")[0] for label, _ in plays) == ["Feint", "Shadowstep", "Twin"]
    mark = len(out())
    await console.run(["/complete /wowm play ability:main target:"])
    assert [value for _, value in _offered(out()[mark:])] == ["lyssara-1"]  # the only enemy in reach
    mark = len(out())
    await console.run(["/complete /wowm move to:", "/complete /wowm spawn point:", "/as alice",
                       "/complete /wowm play ability:"])
    assert _offered(out()[mark:]) == []  # moved already, no spawn question, not alice's turn
    assert console.errors == 0, out()[-2000:]


async def test_preview_of_an_ability_shows_its_legal_targets_in_both_languages(console: Console) -> None:
    """``/wowm preview ability:`` (spec 7.1): what the ability reaches, privately, with a picture."""
    lines = _script()
    await console.run([*lines[:lines.index("/wowm move to:I11") + 1], "/complete /wowm preview ability:",
                       "/wowm preview ability:main", "/wowm preview ability:nonsense", "/lang it",
                       "/wowm preview ability:main"])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert "(only bob)   · Twin Daggers 3 → tick 4" in output
    assert "(only bob) Sereth Duskblade: Twin Daggers — legal targets now: Lyssara Windquill." in output
    assert ("(only bob) ⚠️ “nonsense” is not an ability of the active character. Choose among: Twin Daggers, "
            "Shadowstep, Feint.") in output  # the shared resolver lists the candidates (issue 26.1)
    assert "bersagli legali ora: Lyssara Pennavento." in output
    assert console.errors == 1  # the unknown name only
