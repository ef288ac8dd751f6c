"""One name resolver for everything a player types (issue 26, convention 1): case and accents ignored,
the display name, a label, any word or piece of a word, a close typo; nothing or several → the names."""

from __future__ import annotations

import pytest

from common.i18n import Phrase
from console.runner import Console
from engines.core.errors import TavoloError
from engines.wowminis.content import builtin_pack as wowminis_pack
from gm.games.names import ECHO, SUBSTRING, TYPO, Name, NameKeys, echo, find, resolve, resolve_many
from gm.games.wowminis.text import find_info

KEYS = NameKeys(unknown="common.unknown_name", ambiguous="common.ambiguous_name")
WHAT = Phrase("warlord.ui.what.level2")
CARDS = [Name("k1", "Hired Crossbowman"), Name("k2", "Runic Warhammer"), Name("k3", "Axe Sergeant"),
         Name("k4", "Hearth Acolyte"), Name("k5", "Runecarver Adept")]


def test_a_piece_of_a_word_is_enough() -> None:
    assert find("hammer", CARDS) == (SUBSTRING, [CARDS[1]])
    assert resolve("HAMMER", CARDS, what=WHAT, keys=KEYS) == "k2"


@pytest.mark.parametrize("typed", ["crosbowman", "Crossbowmen", "hired crosbowman"])
def test_a_close_typo_finds_the_name(typed: str) -> None:
    tier, found = find(typed, CARDS)
    assert tier == TYPO and [n.value for n in found] == ["k1"]


def test_a_typo_between_two_names_lists_both_and_never_guesses() -> None:
    twins = [Name("a", "Gale Archer"), Name("b", "Gale Archen")]
    with pytest.raises(TavoloError) as refused:
        resolve("Gale Archet", twins, what=WHAT, keys=KEYS)
    assert refused.value.key == "common.ambiguous_name" and "Archer" in refused.value.params["names"]


def test_nonsense_is_refused_with_every_valid_name() -> None:
    with pytest.raises(TavoloError) as refused:
        resolve("zorro", CARDS, what=WHAT, keys=KEYS)
    assert refused.value.key == "common.unknown_name" and "Axe Sergeant" in refused.value.params["names"]
    assert find("ax", CARDS)[1] == [CARDS[2]]  # short pieces still work as a prefix of a word…
    assert find("ep", CARDS)[1] == []  # …but not as a piece in the middle of one


def test_wow_miniatures_info_finds_a_character_by_its_ability() -> None:
    """Bug: ``/wowm info name:longbow`` found nothing (Longbow Volley is Lyssara's main attack)."""
    found = find_info(wowminis_pack(), "longbow")
    assert found is not None and found[0] == "char" and found[1].id == "lyssara"
    found = find_info(wowminis_pack(), "cinder ran")  # a typo
    assert found is not None and found[1].id == "cinder_rain"


async def test_warlord_army_takes_the_names_people_type(console: Console) -> None:
    """Bug: ``/warlord army warlord:thane`` answered "There is no card thane there"."""
    await console.run(["/as alice", "/game new system:warlord", "/warlord deck deck:stonewardens", "/as bob",
                       "/game join", "/warlord deck deck:ashen_horde", "/game start", "/as alice",
                       '/warlord army warlord:"thane b" level1:"shieldwal, shieldwall recruit, shieldwall" '
                       'level2:"runecarver, runecarvr"'])
    text = console.output.getvalue()  # type: ignore[attr-defined]
    assert "There is no card" not in text and console.errors == 0
    await console.run(["/warlord army warlord:zorro"])
    assert "is not a Warlord of your deck. Choose among: Thane Brannoc Ironvow" in \
        console.output.getvalue()  # type: ignore[attr-defined]


async def test_wow_board_gm_give_takes_the_card_name(console: Console) -> None:
    """Bug: ``/gm wowb-give card:"militia axe"`` was refused; only ``militia_axe`` worked."""
    await console.run(["/as alice", '/game new system:wowboard options:"duel:on"', "/as bob", "/game join",
                       "/game start", "/as alice", "/wowb class name:warden", "/as bob", "/wowb class name:ranger",
                       "/as judge gm", '/gm wowb-give character:warden card:"militia axe"'])
    text = console.output.getvalue()  # type: ignore[attr-defined]
    assert "Militia Axe" in text.splitlines()[-1] or "Militia Axe" in text[-600:]
    assert "No card" not in text[-600:] and "No item" not in text[-600:]


def test_mage_knight_two_alike_source_dice_are_one_payment() -> None:
    """``/mk play card:"fire lance" mana:red`` stayed ambiguous when two red dice could pay."""
    from types import SimpleNamespace
    from typing import Any, cast

    from gm.games.mageknight.choices import parse_play_value
    from gm.games.mageknight.payment import same_payment

    state = cast(Any, SimpleNamespace(source=[SimpleNamespace(face=f) for f in ("red", "blue", "red")]))
    dice = [Name("fire_lance powered 1 die:0", "die 1"), Name("fire_lance powered 1 die:2", "die 3")]
    assert same_payment(state, dice, [parse_play_value(n.value) or {} for n in dice]) == dice[:1]
    mixed = [dice[0], Name("fire_lance powered 1 crystal:red", "crystal")]  # a real choice: still asked
    assert same_payment(state, mixed, [parse_play_value(n.value) or {} for n in mixed]) == mixed


LONG_TYPO = "crossbow " * 60  # 540 characters that fit no card


@pytest.mark.parametrize("typed", [LONG_TYPO, "Gale Arche" + "t" * 300])
def test_a_refusal_quotes_at_most_40_characters_of_what_was_typed_and_keeps_its_list(typed: str) -> None:
    """A playtester's very long typo pushed the choices out of Discord's message (Warlord cut it alone;
    the cut is the shared resolver's now, for every game)."""
    names = [*CARDS, Name("a", "Gale Archer"), Name("b", "Gale Archen")]
    with pytest.raises(TavoloError) as refused:
        resolve(typed, names, what=WHAT, keys=KEYS)
    quoted = refused.value.params["name"]
    assert len(quoted) <= ECHO and quoted.endswith("…") and typed.strip().startswith(quoted[:-1])
    assert "Crossbowman" in refused.value.params["names"] or "Gale Archer" in refused.value.params["names"]


def test_a_list_refused_quotes_its_part_cut_too() -> None:
    with pytest.raises(TavoloError) as refused:
        resolve_many("Hired Crossbowman, " + "zz" * 100, CARDS, what=WHAT, keys=KEYS)
    assert refused.value.params["name"] == "z" * (ECHO - 1) + "…" and "Axe Sergeant" in refused.value.params["names"]


def test_a_short_typo_is_quoted_whole() -> None:
    assert echo("  zorro  ") == "zorro" and echo("x" * ECHO) == "x" * ECHO


async def test_every_game_refuses_a_long_typo_with_its_choices_in_the_message(console: Console) -> None:
    """Krosmaster's team and the WoW board game's class were refused through their own words; both quote
    the typo cut and still list what would have worked."""
    await console.run(["/as alice", "/game new system:krosmaster", f'/km team figurines:"{LONG_TYPO}"'])
    refusal = console.output.getvalue().splitlines()[-1]  # type: ignore[attr-defined]
    assert LONG_TYPO[:60] not in refusal and LONG_TYPO.strip()[:ECHO - 1].rstrip() + "…" in refusal
    assert "Shadow Rogue" in refusal
