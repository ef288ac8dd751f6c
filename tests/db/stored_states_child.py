"""The child process of ``test_stored_state_bytes.py``: every game's full console script, each on a
fresh SQLite file, as ``python bot.py --console --seed 1 --script …`` plays it.

Run as ``python -m tests.db.stored_states_child FOLDER`` with the PYTHONHASHSEED under test. The
board pictures are left out: they are drawn from the stored state and never written into it, and
they are nine tenths of the time (about 40 s of pictures for the six scripts on two cores, against
about 4 s for the games alone). ``--pictures`` draws them, into ``FOLDER/out``
(``tests/renderers/test_picture_bytes.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

SCRIPTS: dict[str, Path] = {
    "krosmaster": ROOT / "tests" / "krosmaster" / "full_game.txt",
    "mageknight_challenge": ROOT / "tests" / "mageknight" / "challenge.txt",
    "mageknight_assist": ROOT / "tests" / "mageknight" / "assist.txt",
    "wowminis": ROOT / "tests" / "wowminis" / "full_game.txt",
    "warlord": ROOT / "tests" / "warlord" / "full_game.txt",
    "wowboard": ROOT / "tests" / "wowboard" / "full_game.txt",
}


def play_in_two_processes(folder: Path, hash_seeds: tuple[str, str], *, pictures: bool = False,
                          timeout: float = 300) -> dict[str, Path]:
    """Every script played by this module in two processes at once (two cores), one per hash seed, each
    in its own folder under ``folder``; the folders by seed, once both children ended well."""
    runs = {seed: folder / f"hashseed-{seed}" for seed in hash_seeds}
    children = {}
    for seed, run in runs.items():
        run.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        env.pop("DATABASE_URL", None)
        flags = ["--pictures"] if pictures else []
        command = [sys.executable, "-m", "tests.db.stored_states_child", str(run), *flags]
        children[seed] = subprocess.Popen(command, cwd=run, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for seed, child in children.items():
        _out, err = child.communicate(timeout=timeout)
        assert child.returncode == 0, f"PYTHONHASHSEED={seed}: {err.decode()[-3000:]}"
    return runs


async def _no_picture(self: object, fn: Any, *args: Any, **kwargs: Any) -> None:
    """``RenderPool.call`` without the drawing: every reply goes out as text."""
    return None


def main(folder: Path, pictures: bool = False) -> int:
    import bot
    from gm.workers import render_pool

    if not pictures:
        render_pool.RenderPool.call = _no_picture  # type: ignore[method-assign,assignment]
    for name, script in SCRIPTS.items():
        code = bot.main(["--console", "--seed", "1", "--script", str(script),
                         "--db", str(folder / f"{name}.sqlite3"), "--out", str(folder / "out")])
        if code != 0:
            print(f"{name}: the console exited with {code}", file=sys.stderr)
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]), pictures="--pictures" in sys.argv[2:]))
