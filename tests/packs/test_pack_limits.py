"""A game's pack limits agree (issue 28.5): the value and text bounds never refuse a file that the
game's byte limit admits, a legitimate grown pack (the built-in WoW Board pack ×4) is accepted
whichever format it is sent in, and an over-limit message speaks of the format that was sent."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from common.i18n import t
from db.content_packs import list_packs
from engines.core.errors import TavoloError
from engines.krosmaster.content import MAX_PACK_BYTES as KM_BYTES
from engines.mageknight.content import MAX_PACK_BYTES as MK_BYTES
from engines.warlord.content import MAX_PACK_BYTES as WARLORD_BYTES
from engines.wowboard.content import DATA as WOWB_BUILTIN
from engines.wowboard.content import MAX_PACK_BYTES as WOWB_BYTES
from engines.wowminis.content import MAX_PACK_BYTES as WOWM_BYTES
from gm.app import App
from gm.context import Actor, Place
from gm.games.wowboard import presenter as wowb
from gm.packs import admin as pack_admin
from gm.packs.safe_data import DataLimits, check_plain, load_data
from tests.hostile import billion_laughs

ADMIN = Actor(user_id=1, name="alice", can_manage_guild=True)
PLACE = Place(channel_id=100, guild_id=2805)
GROWN_LISTS = ("class_cards", "items", "quests", "events", "bosses", "overlords", "ancestries", "creatures")


class _Anything(BaseModel):
    """A validator that accepts any object: only the data bounds are under test."""

    model_config = ConfigDict(extra="allow")


def _anything(data: Any) -> _Anything:
    return _Anything.model_validate(data)


def grown_wowboard_pack(times: int) -> dict[str, Any]:
    """The built-in WoW Board pack with each card list ``times`` over: the first copy keeps its ids
    (it replaces the built-in entries), the others are renamed ``<id>_2``… (new entries)."""
    base = json.loads(WOWB_BUILTIN.read_text(encoding="utf-8"))
    grown = copy.deepcopy(base)
    for key in GROWN_LISTS:
        grown[key] = [dict(entry, id=entry["id"] if n == 0 else f"{entry['id']}_{n + 1}")
                      for n in range(times) for entry in base[key]]
    return grown


@pytest.mark.parametrize("form", ["indented.json", "compact.json", "block.yaml"])
async def test_the_builtin_wowboard_pack_four_times_over_is_accepted(app: App, form: str) -> None:
    grown = grown_wowboard_pack(4)
    if form == "indented.json":
        text = json.dumps(grown, ensure_ascii=False, indent=2)
    elif form == "compact.json":
        text = json.dumps(grown, ensure_ascii=False, separators=(",", ":"))
    else:
        text = yaml.safe_dump(grown, allow_unicode=True, sort_keys=False)
    data = text.encode("utf-8")
    assert len(data) <= WOWB_BYTES  # within the byte limit, so every other limit must admit it too
    reply = await wowb.import_pack(app.store, PLACE, ADMIN, form, data, "grown")
    assert "**grown** saved" in (reply.text or "") and f"{4 * 38} quests" in (reply.text or "")
    assert await list_packs(app.store.conn, PLACE.guild_id, "wowboard") == ["grown"]


@pytest.mark.parametrize("max_bytes", [KM_BYTES, MK_BYTES, WARLORD_BYTES, WOWM_BYTES, WOWB_BYTES])
async def test_no_json_file_within_a_games_byte_limit_is_refused_for_its_values_or_text(max_bytes: int) -> None:
    """The densest JSON there is (one value per two characters) and the most text there is (one
    string), each exactly as long as the game's byte limit, pass the data bounds."""
    dense = '{"pad":[' + ",".join(["0"] * ((max_bytes - 9) // 2)) + "]}"
    text = '{"pad":"' + "x" * (max_bytes - 10) + '"}'
    for body in (dense, text):
        assert len(body) <= max_bytes
        await pack_admin.read_upload(PLACE, ADMIN, body.encode(), "pack.json", _anything, max_bytes=max_bytes,
                                     too_big="km.err.pack_too_big", not_text="km.ui.pack_not_text")
    assert len(json.loads(dense)["pad"]) > 100_000  # what the old fixed count refused


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=2), inner, max_size=6),
                    max_leaves=60))
def test_the_bounds_for_n_characters_hold_every_json_document_of_n_characters(data: Any) -> None:
    """Why ``DataLimits.for_bytes`` may promise it: a JSON text of n characters holds at most
    n // 2 + 1 values and n characters of text, as ``check_plain`` counts them."""
    n = len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    check_plain(data, DataLimits(max_values=n // 2 + 1, max_text=n))
    limits = DataLimits.for_bytes(n)
    assert limits.max_values >= n // 2 + 1 and limits.max_text >= n


def _message(error: TavoloError, lang: str = "en") -> str:
    return t(error.key, lang, **error.params)


def _refused(text: str, filename: str, limits: DataLimits = DataLimits()) -> TavoloError:
    with pytest.raises(TavoloError) as err:
        load_data(text, filename, limits)
    return err.value


def test_a_json_files_limit_messages_speak_of_json_not_of_yaml_aliases() -> None:
    for error in (_refused(json.dumps(list(range(11))), "pack.json", DataLimits(max_values=10)),
                  _refused(json.dumps(["x" * 3000]), "pack.txt", DataLimits(max_text=2000)),
                  _refused('{"a": [1, 2', "pack.json")):
        english, italian = _message(error), _message(error, "it")
        assert "JSON" in english and "YAML" not in english and "alias" not in english, english
        assert "JSON" in italian and "YAML" not in italian and "alias" not in italian, italian


def test_a_yaml_files_limit_messages_speak_of_yaml_and_its_aliases() -> None:
    text = "big: &big " + "x" * 3000 + "\ncopies: [*big, *big]\n"
    for error in (_refused(billion_laughs(8), "pack.yaml"), _refused(text, "pack.yaml", DataLimits(max_text=5000))):
        for lang in ("en", "it"):
            assert "YAML" in _message(error, lang) and "alias" in _message(error, lang), _message(error, lang)


def test_a_pack_is_measured_as_compact_json_not_as_re_serialized_with_spaces() -> None:
    """An upload within the byte limit is not refused for the spaces ``json.dumps`` would add."""
    from engines.core.packs import compact_size, validate_pack

    data = {"rows": [{"a": i, "b": [1, 2, 3]} for i in range(2000)]}
    spaced = len(json.dumps(data))
    limit = compact_size(data) + 10
    assert spaced > limit
    assert validate_pack(_Anything, data, "wowboard", limit) is not None
    with pytest.raises(TavoloError):
        validate_pack(_Anything, data, "wowboard", compact_size(data) - 1)


def test_a_wowboard_upload_within_its_limit_is_not_refused_for_the_built_in_pack_it_joins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The merged pack holds the built-in one too: only the upload itself counts against the limit."""
    from engines.core.packs import compact_size
    from engines.wowboard import content

    upload = {"quests": copy.deepcopy(json.loads(WOWB_BUILTIN.read_text(encoding="utf-8"))["quests"][:3])}
    for i, quest in enumerate(upload["quests"]):
        quest["id"] = f"grown_{i}"
    monkeypatch.setattr(content, "MAX_PACK_BYTES", compact_size(upload) + 1)  # the built-in pack alone is over it
    assert content.checked_server_pack(upload) is not None
    monkeypatch.setattr(content, "MAX_PACK_BYTES", compact_size(upload) - 1)
    with pytest.raises(TavoloError) as refused:
        content.checked_server_pack(upload)
    assert refused.value.key == "wowboard.err.pack_too_big" and refused.value.params["size"] == compact_size(upload)
