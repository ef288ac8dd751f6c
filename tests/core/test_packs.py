"""The shared pack helpers (engines.core.packs): every game's look-ups, id checks and merges go through them,
so their messages and results are pinned here once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel, Field, ValidationError, model_validator

from engines.core.errors import RuleError
from engines.core.packs import check_unique_ids, find_by_id, merge_by_id, read_pack_file, validate_pack


class Item(BaseModel):
    id: str
    value: int = 0


class Pack(BaseModel):
    name: str = "pack"
    items: list[Item] = Field(default_factory=list)
    others: list[Item] = Field(default_factory=list)
    limit: int = 10

    @model_validator(mode="after")
    def _check(self) -> Pack:
        check_unique_ids(self, ("items", "others"))
        if len(self.items) > self.limit:
            raise ValueError("items: too many")
        return self


def test_find_by_id_returns_the_item_or_names_the_valid_ids_under_the_games_own_parameter() -> None:
    items = [Item(id="b"), Item(id="a")]
    assert find_by_id(items, "a", "x.err.unknown_item", "item") is items[1]
    with pytest.raises(RuleError) as exc:
        find_by_id(items, "zz", "x.err.unknown_item", "item")
    assert exc.value.key == "x.err.unknown_item"
    assert exc.value.params == {"item": "zz", "known": "a, b"}
    with pytest.raises(RuleError) as exc:
        find_by_id([], "zz", "x.err.unknown_item", "name")
    assert exc.value.params == {"name": "zz", "known": "—"}


def test_check_unique_ids_names_the_first_list_and_all_its_repeated_ids() -> None:
    with pytest.raises(ValidationError, match="items: duplicate ids a, b"):
        Pack(items=[Item(id="b"), Item(id="a"), Item(id="b"), Item(id="a")], others=[Item(id="c"), Item(id="c")])
    with pytest.raises(ValidationError, match="others: duplicate ids c"):
        Pack(items=[Item(id="a")], others=[Item(id="c"), Item(id="c")])


def test_merge_by_id_replaces_and_adds_by_id_and_judges_the_merged_whole() -> None:
    base = Pack(name="builtin", items=[Item(id="a"), Item(id="b")], others=[Item(id="o")], limit=2)
    assert merge_by_id(base, None, ("items", "others")) is base
    merged = merge_by_id(base, Pack(name="srv", items=[Item(id="b", value=5)]), ("items", "others"))
    assert merged.name == "builtin+srv"
    assert [(i.id, i.value) for i in merged.items] == [("a", 0), ("b", 5)]
    assert [o.id for o in merged.others] == ["o"]
    assert merged.limit == 10  # a field not named keeps its default
    with pytest.raises(ValidationError, match="items: too many"):
        merge_by_id(Pack(items=[Item(id=str(n)) for n in range(10)]), Pack(items=[Item(id="new")]), ("items",))


def test_read_pack_file_hands_the_json_to_the_games_loader(tmp_path: Path) -> None:
    path = tmp_path / "builtin.json"
    path.write_text(json.dumps({"name": "shipped", "items": [{"id": "a"}]}), encoding="utf-8")
    pack = read_pack_file(path, lambda data: validate_pack(Pack, data, "x", 10_000))
    assert pack.name == "shipped"
    assert [i.id for i in pack.items] == ["a"]
