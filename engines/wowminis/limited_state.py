"""The limited formats' part of the state and their two actions (100.3: sealed and booster draft).

Why a model of its own: a limited game spends its first stretch opening boosters and picking, before any
party exists. That stretch is kept in ``State.limited`` (``None`` in a constructed game, and again once every
party is built), so a constructed game's state is unchanged and the rest of the engine never sees a draft.

- Items are ``c:<character id>`` and ``k:<card id>``: one namespace for what a booster holds.
- ``characters`` / ``cards`` are copies of the definitions dealt, so the build reads them without the
  server's pack (the game stores no pack key; a changed pack cannot change a draft in progress).
- Hidden: ``hands`` (each seat's booster), ``unopened``, ``picked`` (each seat's pool), ``answers``
  (this pick's secret answers) and ``built`` (secret builds). ``limited_draft.hide`` blanks other seats'.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engines.core.contract import Action, StateModel
from engines.wowminis.content import ActionCardDef, CharacterDef

Format = Literal["sealed", "draft"]
RoundKind = Literal["characters", "cards"]


class Build(StateModel):
    """A seat's secret build: its party (character ids, the seat's picks) and each one's bar (card ids)."""

    party: list[str]
    bars: dict[str, list[str]] = Field(default_factory=dict)


class LimitedState(StateModel):
    """Where a sealed or draft table stands before the game proper (100.3)."""

    format: Format
    stage: Literal["draft", "build"] = "draft"
    order: list[int]  # the seats clockwise, as seated: boosters pass along it
    rounds: list[RoundKind] = Field(default_factory=list)
    picks: list[int] = Field(default_factory=list)  # picks per round (the rest of each booster is burned)
    round: int = 0
    pick: int = 0  # picks made in this round
    hands: dict[int, list[str]] = Field(default_factory=dict)  # the booster each seat holds now
    unopened: dict[int, list[list[str]]] = Field(default_factory=dict)  # each seat's boosters of later rounds
    picked: dict[int, list[str]] = Field(default_factory=dict)  # each seat's pool, in pick order
    answers: dict[int, str] = Field(default_factory=dict)  # this pick's secret answers
    built: dict[int, Build] = Field(default_factory=dict)  # secret builds, until every seat has built
    burned: int = 0  # items left in boosters at the end of a round (never seen again)
    characters: dict[str, CharacterDef] = Field(default_factory=dict)
    cards: dict[str, ActionCardDef] = Field(default_factory=dict)


class DraftPick(Action):
    """100.3, booster draft: take one item of the booster you hold (by name or id), in secret."""

    kind: Literal["draft_pick"] = "draft_pick"
    item: str = Field(min_length=1, max_length=80)


class BuildParty(Action):
    """100.3: your party from your pool and each character's cards, in secret (mixed factions allowed)."""

    kind: Literal["build_party"] = "build_party"
    party: list[str] = Field(min_length=1, max_length=6)
    bars: dict[str, list[str]] = Field(default_factory=dict)


LIMITED_KINDS: dict[str, type[Action]] = {"draft_pick": DraftPick, "build_party": BuildParty}
