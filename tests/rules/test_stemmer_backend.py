"""Rules search stems words with the C stemmers PyStemmer gives snowballstemmer (issue 33: a cold query
spent most of its time stemming in Python, ~40–120 µs a word against ~0.5 µs), and they give the very stems
of the pure Python ones, so an index built by either is read by the other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import Stemmer  # noqa: F401 - the requirement this checks is installed
from snowballstemmer import english_stemmer, italian_stemmer

from gm.rules import search

DIGESTS = Path(search.__file__).resolve().parent / "digests"


def _digest_words() -> list[str]:
    found: set[str] = set()
    for path in DIGESTS.rglob("*"):
        if path.is_file():
            found |= set(re.findall(r"\w+", path.read_text(encoding="utf-8", errors="ignore").lower()))
    return sorted(found)


def test_the_search_stems_with_the_c_stemmers() -> None:
    assert type(search._stemmer("it")).__module__ == "Stemmer"
    assert type(search._stemmer("en")).__module__ == "Stemmer"


@pytest.mark.parametrize(("language", "python_stemmer"), [("it", italian_stemmer.ItalianStemmer),
                                                         ("en", english_stemmer.EnglishStemmer)])
def test_the_c_stemmers_give_the_python_stems(language: str, python_stemmer: type) -> None:
    words = _digest_words()
    assert len(words) > 1000
    slow, fast = python_stemmer(), search._stemmer(language)
    differ = [w for w in words if slow.stemWord(w) != fast.stemWord(w)]
    assert differ == []
