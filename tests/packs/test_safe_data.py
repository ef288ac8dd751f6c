"""gm.packs.safe_data: untrusted JSON/YAML is bounded before it is built (issue: no single request
can stall the bot). Each trap gets its own clear, localized error, never a MemoryError,
RecursionError or ValueError from deep inside a parser."""

from __future__ import annotations

import json

import pytest

from common.i18n import t
from engines.core.errors import TavoloError
from gm.packs.safe_data import DataLimits, check_plain, load_data
from tests.hostile import billion_laughs, deep_nesting


def _refused(text: str, filename: str = "pack.yaml", limits: DataLimits = DataLimits()) -> TavoloError:
    with pytest.raises(TavoloError) as err:
        load_data(text, filename, limits)
    for lang in ("en", "it"):  # the sentence is complete in both languages
        assert "{" not in t(err.value.key, lang, **err.value.params)
    return err.value


@pytest.mark.parametrize("levels", [8, 9])
def test_billion_laughs_is_refused_before_anything_is_expanded(levels: int) -> None:
    error = _refused(billion_laughs(levels))
    assert error.key == "data.too_many_values" and error.params == {"limit": 100_000}


def test_one_alias_of_a_long_text_repeated_is_refused_by_its_expanded_text() -> None:
    text = "big: &big " + "x" * 100_000 + "\ncopies: [" + ", ".join(["*big"] * 30) + "]\n"
    assert _refused(text).key == "data.too_much_text"


@pytest.mark.parametrize("filename", ["pack.json", "pack.yaml", "pack.txt"])
def test_deep_nesting_is_refused_as_too_deep(filename: str) -> None:
    error = _refused(deep_nesting(100_000), filename)
    assert error.key == "data.too_deep" and error.params == {"limit": 64}


def test_json_nested_within_the_recursion_limit_but_past_the_depth_bound_is_refused() -> None:
    assert _refused("[" * 200 + "]" * 200, "pack.json").key == "data.too_deep"
    assert load_data("[" * 64 + "]" * 64, "pack.json") is not None


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    error = _refused("figurines: &a [*a]\n")
    assert error.key == "data.recursive_alias" and error.params == {"alias": "a", "line": 1}


def test_numbers_too_long_to_convert_are_a_bad_value() -> None:
    assert _refused("hp: " + "9" * 5000).key == "data.bad_value"
    assert _refused("9" * 5000, "pack.json").key == "data.bad_value"


def test_syntax_errors_say_where() -> None:
    error = _refused('{"a": [1, 2', "pack.json")
    assert error.key == "data.syntax_json" and (error.params["line"], error.params["column"]) == (1, 12)
    assert _refused("a: [1, 2\nb: 3\n").key == "data.syntax"
    assert _refused("a: *nowhere\n").key == "data.syntax"
    assert _refused("a: !!python/object:os.system x\n").key == "data.syntax"


def test_legit_anchors_and_merge_keys_still_load() -> None:
    text = ("melee: &melee {type: melee}\n"
            "base: &base {ap: 6, mp: 3, hp: 9}\n"
            "figurines:\n"
            "  - {<<: *base, id: a, range: *melee}\n"
            "  - {<<: *base, id: b, range: *melee}\n"
            "  - {<<: *base, id: c, range: *melee, hp: 12}\n")
    data = load_data(text, "pack.yaml")
    assert [f["range"] for f in data["figurines"]] == [{"type": "melee"}] * 3
    assert [f["hp"] for f in data["figurines"]] == [9, 9, 12]
    assert load_data(json.dumps({"name": "j"}), "pack.json") == {"name": "j"}


def test_the_plain_data_check_counts_without_recursion() -> None:
    deep: list = []
    for _ in range(10_000):  # deeper than Python's recursion limit
        deep = [deep]
    with pytest.raises(TavoloError) as err:
        check_plain(deep)
    assert err.value.key == "data.too_deep"
    with pytest.raises(TavoloError) as err:
        check_plain(list(range(11)), DataLimits(max_values=10))
    assert err.value.key == "data.too_many_values_json"
