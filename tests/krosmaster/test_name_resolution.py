"""Names as players type them: what the board shows, in either language, or a prefix (gm/games/names.py,
gm/games/krosmaster/names.py). Each test is named after the rule or the reported bug it pins down."""

from __future__ import annotations

import pytest

from common.i18n import Phrase, t
from engines.core.errors import TavoloError
from engines.krosmaster.content import builtin_pack
from engines.krosmaster.state import State
from gm.games.krosmaster import names
from gm.games.names import Name, NameKeys, fold, resolve, resolve_many
from tests.krosmaster.builders import fig, game, spell

KEYS = NameKeys(unknown="km.ui.unknown_name", ambiguous="km.ui.ambiguous_name")
WHAT = Phrase("km.ui.what.figurine")
CREW = [Name("bone_crusher", "Bone Crusher"), Name("shadow_rogue", "Shadow Rogue"),
        Name("iron_warden", "Iron Warden"), Name("iron_warden_veteran", "Iron Warden", ("Iron Warden veteran",)),
        Name("ember_witch", "Ember Witch"), Name("ember_monk", "Ember Monk Oru")]


def _message(err: pytest.ExceptionInfo[TavoloError], lang: str = "en") -> str:
    return t(err.value.key, lang, **err.value.params)


def test_fold_ignores_case_accents_and_separators() -> None:
    assert fold("  Piccinopicciò_Dash-Cut ") == "piccinopiccio dash cut"


def test_exact_id_beats_a_display_name_shared_by_two_figurines() -> None:
    assert resolve("Iron Warden", CREW, what=WHAT, keys=KEYS) == "iron_warden"
    assert resolve("iron warden veteran", CREW, what=WHAT, keys=KEYS) == "iron_warden_veteran"


def test_any_unambiguous_prefix_or_later_word_is_enough() -> None:
    assert resolve("bone", CREW, what=WHAT, keys=KEYS) == "bone_crusher"
    assert resolve("ROGUE", CREW, what=WHAT, keys=KEYS) == "shadow_rogue"


def test_an_ambiguous_prefix_lists_the_names_it_fits_and_never_guesses() -> None:
    with pytest.raises(TavoloError) as err:
        resolve("ember", CREW, what=WHAT, keys=KEYS)
    assert err.value.key == "km.ui.ambiguous_name"
    assert "Ember Witch" in _message(err) and "Ember Monk Oru" in _message(err) and "Bone" not in _message(err)


def test_an_unknown_name_lists_every_valid_name_in_the_readers_language() -> None:
    with pytest.raises(TavoloError) as err:
        resolve("gobbo", CREW, what=WHAT, keys=KEYS)
    assert "Bone Crusher, Shadow Rogue" in _message(err)
    assert _message(err, "it").startswith('"gobbo" non è una figurina di questo tavolo')


def test_a_name_shared_by_pieces_goes_to_the_only_legal_one() -> None:
    pieces = [Name("0a", "IRO1 (Iron Warden)", ("IRO1", "Iron Warden")),
              Name("0b", "IRO2 (Iron Warden)", ("IRO2", "Iron Warden"))]
    with pytest.raises(TavoloError):
        resolve("Iron Warden", pieces, what=WHAT, keys=KEYS)
    assert resolve("Iron Warden", pieces, what=WHAT, keys=KEYS, prefer={"0b"}) == "0b"


def test_team_list_refused_display_names_and_lists_without_commas() -> None:
    """Bug: `/km team` refused "Bone Crusher" and any list not separated by commas."""
    assert resolve_many("Bone Crusher, shadow_rogue; iron", CREW[:3], what=WHAT, keys=KEYS) == [
        "bone_crusher", "shadow_rogue", "iron_warden"]
    assert resolve_many("bone crusher shadow rogue", CREW, what=WHAT, keys=KEYS) == ["bone_crusher", "shadow_rogue"]
    assert resolve_many("bone shadow", CREW, what=WHAT, keys=KEYS) == ["bone_crusher", "shadow_rogue"]


def test_a_list_that_splits_two_ways_is_an_error_not_a_guess() -> None:
    crew = [Name("a", "Red"), Name("b", "Red Fox"), Name("c", "Fox"), Name("d", "Red Fox Fox")]
    assert resolve_many("red fox", crew, what=WHAT, keys=KEYS) == ["b"]  # one name first
    with pytest.raises(TavoloError) as err:
        resolve_many("ember bone", CREW, what=WHAT, keys=KEYS)  # "ember" fits two figurines
    assert err.value.key == "km.ui.ambiguous_name" and err.value.params["name"] == "ember"


def test_krosmaster_team_accepts_pack_names_and_ids() -> None:
    ids = names.resolve_figurines("bone crusher shadow rogue, cloud_sage, mire, Root Druid", None)
    assert ids == ["bone_crusher", "shadow_rogue", "cloud_sage", "mire_imp", "root_druid"]
    assert {f.id for f in builtin_pack().figurines} >= set(ids)


def _duel() -> State:
    rogue = fig("shadow_rogue", name="Shadow Rogue", spells=[spell("fire_bolt", name="Fire Bolt")])
    warden = fig("iron_warden", name="Iron Warden")
    return game([("0a", warden, 0, "C3"), ("0b", rogue, 0, None), ("1a", rogue, 1, "C6")], active="0a")


def test_103_9_deploy_accepts_the_short_label_the_board_shows() -> None:
    """Bug: `/km deploy piece:SHA` failed ("SHA is not one of your pieces"); it needed `0b`."""
    state = _duel()
    state.pieces["0b"].short = "SHA"
    mine = state.pieces_of(0)
    assert names.resolve_piece(state, "SHA", mine, what="km.ui.what.your_piece") == "0b"
    assert names.resolve_piece(state, "shadow", mine, what="km.ui.what.your_piece") == "0b"
    assert names.resolve_piece(state, "0b", mine, what="km.ui.what.your_piece") == "0b"  # ids still work
    with pytest.raises(TavoloError) as err:
        names.resolve_piece(state, "1A", mine, what="km.ui.what.your_piece")  # the opponent's piece
    assert "SHA (Shadow Rogue)" in _message(err) and "1A" not in err.value.params["names"]


@pytest.mark.parametrize(("typed", "expected"), [
    ("D8 S", ("D8", "S")), ("d8 sud", ("D8", "S")), ("D8 ovest", ("D8", "W")), ("D8 O", ("D8", "W")),
    ("D8 west", ("D8", "W")), ("D8 — SHA Shadow Rogue (enemy)", ("D8", None)), ("d8", ("D8", None))])
def test_312_3_directions_are_accepted_in_either_language(typed: str, expected: tuple[str, str | None]) -> None:
    assert names.parse_target(_duel(), typed) == expected


def test_a_target_may_be_named_by_the_piece_standing_on_it() -> None:
    assert names.parse_target(_duel(), "IRO") == ("C3", None)


def test_103_2_the_side_offered_in_italian_is_accepted() -> None:
    """Bug: autocomplete offered `nord`, and typing `nord` was refused."""
    state = _duel()
    state.phase = "choose_side"
    assert names.resolve_option(state, "nord") == "north"
    assert names.resolve_option(state, "Sud") == "south"
    assert names.resolve_option(state, "north") == "north"
    with pytest.raises(TavoloError) as err:
        names.resolve_option(state, "est", "it")
    assert _message(err, "it") == '"est" non è una delle risposte. Scegli tra: nord, sud.'


def test_spells_are_named_by_their_card_name_and_punch_in_italian() -> None:
    state = _duel()
    assert names.resolve_spell(state, "Pugno") == "punch"
    with pytest.raises(TavoloError) as err:
        names.resolve_spell(state, "Fire Bolt")  # the active Iron Warden does not have it
    assert "Hit" in _message(err) and "Punch" in _message(err)


def test_engine_errors_name_pieces_and_directions_as_players_read_them() -> None:
    from engines.core.errors import RuleError

    state = _duel()
    state.pieces["0b"].short = "SHA"
    err = names.name_error(RuleError("km.err.already_deployed", rule="103.9", piece="0b"), state, "en")
    assert t(err.key, "en", **err.params) == "SHA (Shadow Rogue) is already on the board."
    err = names.name_error(RuleError("km.err.bad_direction", rule="312.3", direction="W", options=["N", "S"]),
                           state, "it")
    assert t(err.key, "it", **err.params) == "La direzione ovest non è possibile qui; scegli tra nord, sud."


def test_402_tension_faces_are_accepted_by_their_names_in_either_language() -> None:
    state = _duel()
    state.phase = "tension_faces"
    state.tension_options = [["critical", "armor"], ["dodge", "lock"]]
    assert names.resolve_option(state, "Critico e Armatura") == "critical,armor"
    assert names.resolve_option(state, "fuga contrasto") == "dodge,lock"
    assert names.resolve_option(state, "dodge, lock") == "dodge,lock"
    assert names.resolve_option(state, "critical,armor") == "critical,armor"


def test_a_direction_list_written_as_text_is_translated_too() -> None:
    from engines.core.errors import RuleError

    err = names.name_error(RuleError("km.err.direction_needed", rule="312.3", options="N, S"), _duel(), "it")
    assert err.params["options"] == "nord, sud"
