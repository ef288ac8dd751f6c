"""The choice of a reward's item on the public board (issue 26): the board's view hides the drawn cards
(W22), so its buttons once read "?" and sent "?"; now one "Answer…" opens the choice privately, named
from the clicker's own view, and the public prompt says how many cards there are, not which."""

from __future__ import annotations

import pytest

from engines.wowboard import ENGINE
from engines.wowboard.state import Pending, State
from gm.games.wowboard import presenter, text
from renderers.kit_glyphs import label_problem
from tests.wowboard.test_turn import drafted

REF = "1.1"


def _offered() -> tuple[State, list[str]]:
    state = drafted()
    drawn = [state.item_decks["triangle"].pool.pop(), state.item_decks["triangle"].pool.pop()]
    state.pending.insert(0, Pending(kind="keep_item", seats=[0], character="warden", options=drawn,
                                    default=drawn[0]))
    return state, drawn


@pytest.mark.parametrize("lang", ["en", "it"])
def test_w22_the_public_board_offers_answer_and_the_private_menu_names_the_cards(lang: str) -> None:
    # wowboard:W22
    state, drawn = _offered()
    public = ENGINE.view(state, None)
    for seat in (0, None):  # one deciding seat, or the shared buttons
        buttons = presenter.decision_buttons(public, seat, lang, REF)
        assert [b.custom_id for b in buttons] == [f"tv1:wb:{REF}:menu:answer"]
        assert all(label_problem(b.label) is None for b in buttons)
    own = ENGINE.view(state, 0)
    menu = presenter.menu(own, 0, "answer", lang, REF)
    labels = [o.label for o in menu.selects[0].options]
    assert labels == [text.name(own, card, lang) for card in drawn]
    assert all(label_problem(label) is None for label in labels)
    panel = presenter.panel(own, 0, lang, REF)  # "My options": the seat's own buttons name the cards too
    assert [b.label for b in panel.buttons] == [text.name(own, card, lang) for card in drawn]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_w22_the_public_prompt_counts_the_drawn_cards_without_naming_them(lang: str) -> None:
    state, drawn = _offered()
    decision = ENGINE.decision(state)
    assert decision is not None
    public = ENGINE.view(state, None)
    shown = presenter.WowBoardPresenter().prompt_params(public, dict(decision.params), lang)["options"]
    assert "2" in shown and not any(text.name(public, card, lang) in shown for card in drawn)
    own = presenter.WowBoardPresenter().prompt_params(ENGINE.view(state, 0), dict(decision.params), lang)
    assert own["options"] == ", ".join(text.name(state, card, lang) for card in drawn)
