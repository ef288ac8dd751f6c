"""The two console scripts, played to the end through the real cogs, with the board of every
phase (and the private hand) checked against golden images; and every line a player reads
checked for internal words.

``challenge.txt``: a tier 2 challenge (seed 2) through all four phases to a victory.
``assist.txt``: an assist combat with a custom enemy and a summoner whose token the players
enter, switching to Italian half way. ``UPDATE_GOLDEN=1`` rewrites the pictures (look at
them at 500 px wide before committing)."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from console.runner import Console
from engines.mageknight.state import State
from gm.context import Place
from tests.renderers import golden

HERE = Path(__file__).resolve().parent
GOLDEN_DIR = HERE / "golden"
INTERNAL = re.compile(r"\b(?:mk|render|cmd)\.[a-z_]+\.|\b(?:ranged_siege|assign_damage|cold_fire|take_back|"
                      r"gain_mana|summon_token|improvise_discard|interactive_die|None|True|False)\b")


async def _phase(console: Console) -> str:
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    tables = console.bot.app.tables
    table = await tables.table_for(place) or await tables.finished_game(place)
    return table.state.phase if table is not None and isinstance(table.state, State) else "lobby"


async def play_script(console: Console, script: Path) -> dict[str, Path]:
    """Run the script line by line; the last board posted or updated in each phase, and the hand."""
    shots: dict[str, Path] = {}
    seen: set[Path] = set()
    for line in script.read_text(encoding="utf-8").splitlines():
        await console.execute(line)
        phase = await _phase(console)
        for path in sorted(console.out_dir.glob("*.png")) if console.out_dir.is_dir() else []:
            if path in seen:
                continue
            seen.add(path)
            shots["hand" if "-mk-hand-" in path.name else phase] = path
    return shots


def check_golden(name: str, path: Path, tmp_path: Path, folder: Path = GOLDEN_DIR) -> None:
    """``tests/renderers/golden``'s tolerance, with the pictures kept next to the scripts (``folder``)."""
    target = folder / f"{name}.png"
    if golden.updating():
        folder.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
        return
    assert target.is_file(), f"missing golden {target.name}: run with UPDATE_GOLDEN=1 and look at the picture"
    actual, expected = Image.open(path).convert("RGB"), Image.open(target).convert("RGB")
    assert actual.size == expected.size, f"{name}: size {actual.size} != golden {expected.size}"
    overall, worst, where = golden.difference(actual, expected)
    if overall > golden.MEAN_LIMIT or worst > golden.TILE_LIMIT:
        kept = tmp_path / f"{name}.actual.png"
        kept.write_bytes(path.read_bytes())
        raise AssertionError(f"{name}: differs from golden (mean {overall:.2f}, tile {worst:.1f} at {where}); "
                             f"actual picture kept at {kept}")


def readable_lines(output: str) -> list[str]:
    """What players read: autocomplete values (never shown on Discord) and image paths left out."""
    lines = []
    for line in output.splitlines():
        if "  →  " in line:
            line = line.split("  →  ")[0]
        if "[image]" in line:
            continue
        lines.append(line)
    return lines


async def test_challenge_script_plays_to_victory_with_a_board_per_phase(console: Console, tmp_path: Path) -> None:
    shots = await play_script(console, HERE / "challenge.txt")
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "🏆 Game over — winner: @alice (Every enemy is defeated: 5 Fame, score 5)." in output
    assert "Block on Cinder Shamans: physical 4 (weak against a fire attack) ÷ 2 → 2; + 0 = 2 of 3 — 1 short" in output
    assert "Quickstep ⚡ · Ranged Attack 3 (white die) → 3 vs armor 2 ✓" in output
    assert "5 Fame + 3 for defeating every enemy − 2 (2 per Wound card taken: 1) − 1 (Wounds on units)" in output
    assert set(shots) == {"ranged_siege", "block", "assign_damage", "attack", "over", "hand"}
    for phase, path in sorted(shots.items()):
        check_golden(f"challenge_{phase}", path, tmp_path)
    internal = [line for line in readable_lines(output) if INTERNAL.search(line)]
    assert internal == []
    boards = [p for p in console.out_dir.glob("*.png") if "-mk-hand-" not in p.name]
    posted = output.count("[image]") - output.count("(board above updated)") - 1  # the hand is private
    assert posted == 7 and len(boards) == 17  # a new board per phase, defeat and damage; the rest edit it


async def test_assist_script_switches_to_italian_and_plays_to_the_end(console: Console, tmp_path: Path) -> None:
    shots = await play_script(console, HERE / "assist.txt")
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "Drum Callers summon Moon Howler: Attack 6, Swift." in output
    assert "Ogre is blocked: 5 + 6 (weak against a fire attack) ÷ 2 → 5 + 3 = 8 against 8." in output
    assert "l'Eroe prende 6: 2 Ferite in mano (Colpo di Grazia 2/5)" in output
    assert ("Attacco a Suonatori di Tamburo, Ogre: 6 + 4 resistiti (resistenza: fuoco) ÷ 2 → 6 + 2 = 8 "
            "contro Armatura 8." in output)
    assert "🏆 Partita finita — vince: @bob" in output
    assert set(shots) == {"ranged_siege", "block", "assign_damage", "attack", "over"}
    for phase, path in sorted(shots.items()):
        check_golden(f"assist_{phase}", path, tmp_path)
    italian = output.split("Lingua: it.", 1)[1]
    assert not re.search(r"\b(?:Attack|Block|damage|Wound|Hero|enemy)\b", "\n".join(readable_lines(italian)))
    assert [line for line in readable_lines(output) if INTERNAL.search(line)] == []


async def test_undo_and_log_name_actions_in_words_in_both_languages(console: Console) -> None:
    """Issue 12: undo said "took back action #2 (target)" and the log showed raw action kinds."""
    await console.run(["/as alice", '/game new mageknight options:"mode:challenge tier:2 site:rampaging seed:2"',
                       "/game start", "/mk target enemies:tusk", "/game undo", "/game log"])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert re.search(r"took back action #\d+ \(Choosing targets\)", output), output[-2000:]
    assert re.search(r"#\d+ alice: Choosing targets ↩", output), output[-2000:]
    await console.run(["/lang it", "/mk target enemies:tusk", "/game undo"])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert "(Scegliere i bersagli)" in output, output[-2000:]
    assert "(target)" not in output


async def test_gm_overrides_reach_mage_knight_units_enemies_fame_and_wounds(console: Console) -> None:
    """Issue 12: the /gm group only knew Krosmaster pieces; Mage Knight's gm_* actions had no command."""
    await console.run(["/as alice", '/game new mageknight options:"mode:challenge tier:2 site:rampaging seed:2"',
                       "/game start", "/as judge gm", "/complete /gm enemy enemy:",
                       "/gm enemy enemy:tusk status:defeated",
                       "/gm fame fame:12 reputation:-2", "/gm hand-wounds add:2",
                       '/gm unit unit:"village pikes" wounds:1', "/game log"])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "Tusk Raiders" in output and "Changing an enemy (GM)" in output
    assert "Setting Fame (GM)" in output and "Setting wounds (GM)" in output and "Changing a unit (GM)" in output
    await console.run(["/as alice", "/gm fame fame:99"])
    assert console.errors == 1  # a player is not the GM


async def test_both_scripts_replay_in_the_other_language(console: Console) -> None:
    """Issue 27: each script is replayed in both languages. The challenge in Italian from the first line
    (no English word reaches the reader), the assist game in English to the end."""
    challenge = ["/lang it", *(HERE / "challenge.txt").read_text(encoding="utf-8").splitlines()]
    await console.run(challenge)
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "🏆 Partita finita — vince: @alice" in output
    italian = "\n".join(readable_lines(output))
    assert not re.search(r"\b(?:Attack|Block|damage|Wound|Hero|enemy|wasted|Reputation|Cinder|Tusk)\b", italian)
    assert [line for line in readable_lines(output) if INTERNAL.search(line)] == []


async def test_the_assist_script_replays_in_english(console: Console) -> None:
    lines = [line for line in (HERE / "assist.txt").read_text(encoding="utf-8").splitlines() if line != "/lang it"]
    await console.run(lines)
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "🏆 Game over — winner: @bob" in output and "Lingua" not in output
    assert [line for line in readable_lines(output) if INTERNAL.search(line)] == []

