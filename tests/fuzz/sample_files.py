"""The sample files the fuzz passes to ``file:`` options: content packs good and bad,
rulebooks, hostile payloads (deep nesting, billion laughs, a self-referencing PDF) and
junk — small, real, and written fresh for every run.
"""

from __future__ import annotations

import json
from pathlib import Path


def make_files(root: Path) -> list[str]:
    """Write the sample files into ``root / "files"``; return their paths."""
    from tests import hostile

    folder = root / "files"
    folder.mkdir(parents=True, exist_ok=True)
    arena = None
    try:
        from engines.krosmaster.content import builtin_pack

        arena = builtin_pack().arenas[0].model_dump(mode="json")
    except Exception:  # the pack format is someone else's work in progress
        arena = {"id": "x"}
    files = {
        "duel.json": json.dumps({"name": "duelists", "figurines": [],
                                 "arenas": [{**arena, "id": "tiny_duel", "name": "Tiny Duel"}]}),
        "bad.json": json.dumps({"name": "broken", "figurines": [{"id": "x"}]}),
        "empty.json": "",
        "list.json": "[1, 2, 3]",
        "null.json": "null",
        "deep.json": hostile.deep_nesting(5000),
        "laughs.yaml": hostile.billion_laughs(6),
        "pack.yaml": "name: yamlpack\nfigurines: []\narenas: []\n",
        "tabs.yml": "\t- x: [\n",
        "rules.txt": "310 Locking\n310.2 A locked piece loses AP.\n\n311 Dodge\nRoll the dice.\n",
        "rules.md": "# 1 Intro\nHello\n## 1.1 More\nText é 🎲\n",
        "notes.pdf": "%PDF-1.4 not really",
        "bomb.pdf": hostile.self_referencing_pdf(),
        "image.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 64,
        "latin1.txt": "caf\xe9".encode("latin-1"),
        "noext": "310 x",
        "weird name é 🎲.json": "{}",
    }
    paths = []
    for name, data in files.items():
        path = folder / name
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
        paths.append(str(path))
    return paths
