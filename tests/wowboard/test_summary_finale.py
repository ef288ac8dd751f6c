"""The action that decides a WoW board game is a moment of its own in the end-of-game summary (issue 32,
"beyond the anchors"): the Overlord falling (victory.1) or the final battle after the End (victory.2–3),
whether its attackers win it, its defenders hold it (the attackers lose it) or both sides fall. Each
scenario is played through the engine from a built position, every action's ``summary_step`` recorded
as the table records it, and the summary composed and worded as the table does, in English and Italian.
The finale is always listed, and its action is never counted again as an ordinary swing of XP."""

from __future__ import annotations

from engines.core.contract import Action
from engines.core.dice import Dice, RecordedDice
from engines.core.summary import Finale, Step, decisive, finale_of
from engines.wowboard import rules_pvp as P
from engines.wowboard.combat_state import BoxState
from engines.wowboard.rules_fight import settle
from engines.wowboard.state import State
from gm.table.summary import compose, lines
from tests.wowboard.test_final_battle import last_turn
from tests.wowboard.test_turn import E, drafted

NAMES = {0: "alice", 1: "bob"}  # seat 0 plays the Horde (warden, arcanist), seat 1 the Alliance


class Steps:
    """The ``(seq, step, action kind)`` records the table keeps, for actions played through the engine."""

    def __init__(self, state: State) -> None:
        self.state, self.records = state, []

    def play(self, seat: int, action: Action | dict, dice: Dice | None = None) -> None:
        before = E.load_state(self.state.model_dump_json())
        move = E.parse_action(action) if isinstance(action, dict) else action
        events = E.apply(self.state, seat, move, dice or RecordedDice([]))
        step = E.summary_step(before, self.state, seat, events)
        if step is not None and (step.gains or step.finale is not None):  # what ``gm.table.summary`` stores
            self.records.append((len(self.records) + 1, step, move.kind))

    def words(self, lang: str) -> list[str]:
        return lines("wowboard", compose(self.records, NAMES, E.turns_played(self.state)), None, {}, lang)


def _final_battle_at_the_wounds(horde_hits: int, alliance_hits: int) -> Steps:
    """Turn 30 played to the End and through both final management steps (recorded), then the battle
    fast-forwarded to its first exchange of wounds: each side's damage box as given."""
    state = last_turn()
    steps = Steps(state)
    steps.play(1, {"kind": "management_done"})  # the marker reaches the End: the Horde (more XP) attacks
    steps.play(0, {"kind": "management_done"})
    steps.play(1, {"kind": "management_done"})
    assert state.phase == "final_battle" and state.final_attackers == "horde"
    wounds_step(state, horde_hits, alliance_hits)
    return steps


def test_victory_2_3_the_final_battle_won_by_its_attackers_is_the_decisive_moment_in_both_languages() -> None:
    # wowboard:victory.2 wowboard:victory.3
    steps = _final_battle_at_the_wounds(horde_hits=30, alliance_hits=3)
    steps.play(0, {"kind": "assign_wounds", "split": {"warden": 3, "arcanist": 0}})
    steps.play(1, {"kind": "assign_wounds", "split": {"ranger": 15, "cantor": 15}})
    assert steps.state.end_reason == "final_battle" and steps.state.winners == [0]
    assert steps.words("en") == [
        "📜 Game summary", "Turns played: 30.",
        "Decisive moment: turn 30, the Horde attacks the Alliance in the final battle and wins the game."]
    assert steps.words("it")[2] == ("Momento decisivo: turno 30, la fazione Orda attacca la fazione Alleanza nella "
                                    "battaglia finale e vince la partita.")


def test_victory_3_a_final_battle_its_attackers_lose_names_the_defenders_who_held() -> None:
    # wowboard:victory.3
    steps = _final_battle_at_the_wounds(horde_hits=3, alliance_hits=30)
    steps.play(0, {"kind": "assign_wounds", "split": {"warden": 15, "arcanist": 15}})
    steps.play(1, {"kind": "assign_wounds", "split": {"ranger": 3, "cantor": 0}})
    assert steps.state.end_reason == "final_battle" and steps.state.winners == [1]
    assert steps.words("en")[2] == ("Decisive moment: turn 30, the Alliance holds off the Horde's attack in the "
                                    "final battle and wins the game.")
    assert steps.words("it")[2] == ("Momento decisivo: turno 30, la fazione Alleanza respinge l'attacco della "
                                    "fazione Orda nella battaglia finale e vince la partita.")
    assert "No single move swung the score." not in steps.words("en")  # the battle was the game's moment


def test_victory_3_a_final_battle_where_both_sides_fall_is_a_drawn_moment() -> None:
    # wowboard:victory.3 wowboard:pvp-defense.5
    steps = _final_battle_at_the_wounds(horde_hits=40, alliance_hits=40)
    steps.play(0, {"kind": "assign_wounds", "split": {"warden": 20, "arcanist": 20}})
    steps.play(1, {"kind": "assign_wounds", "split": {"ranger": 20, "cantor": 20}})
    assert steps.state.end_reason == "draw"
    assert steps.words("en")[2] == ("Decisive moment: turn 30, the Horde attacks the Alliance in the final battle "
                                    "and both fall together: a draw.")
    assert steps.words("it")[2].endswith("nella battaglia finale e cadono entrambe: la partita è pari.")


def test_victory_1_beating_the_overlord_is_the_decisive_moment_named_in_each_language() -> None:
    # wowboard:victory.1 wowboard:overlord.2
    state = drafted()
    state.figures = {}
    for cid in ("warden", "arcanist"):
        state.characters[cid].region = "old_quarry"
    assert state.overlord is not None
    state.overlord.region = "old_quarry"
    steps = Steps(state)
    steps.play(0, {"kind": "challenge", "character": "warden", "target": "overlord:ash_wyrm"})
    assert state.combat is not None
    state.combat.opponents[0].health = 1  # most of the fight already fought: one hit carried over
    state.combat.boxes.damage = 1
    dice = RecordedDice([8] * 12)
    while (d := E.decision(state)) is not None and d.kind in ("pool", "reroll"):
        steps.play(0, E.legal_actions(state, 0)[0], dice)
    assert state.end_reason == "overlord"
    assert [s.finale is not None for _, s, _ in steps.records] == [True]  # the challenge itself moved nothing
    assert steps.words("en")[2] == ("Decisive moment: turn 1, the Horde defeats the Overlord, Ash Wyrm, and wins "
                                    "the game.")
    assert steps.words("it")[2] == ("Momento decisivo: turno 1, la fazione Orda sconfigge il Capo Supremo, "
                                    "Serpe di Cenere, e vince la partita.")


def test_victory_1_losing_to_the_overlord_is_no_finale_the_game_goes_on() -> None:
    # wowboard:victory.1 wowboard:character-defeat.1
    state = drafted()
    state.figures = {}
    state.characters["warden"].region = "old_quarry"
    assert state.overlord is not None
    state.overlord.region = "old_quarry"
    state.characters["warden"].health = 1  # the Overlord's scorch at the start of the round fells it
    before = E.load_state(state.model_dump_json())
    events = E.apply(state, 0, E.parse_action({"kind": "challenge", "character": "warden",
                                               "target": "overlord:ash_wyrm"}), RecordedDice([]))
    assert "wowboard.ev.combat_lost" in [e.key for e in events] and state.phase == "play"
    assert E.decision(state).kind == "respawn"  # type: ignore[union-attr]
    step = E.summary_step(before, state, 0, events)
    assert step is not None and step.finale is None


def test_the_finale_is_never_counted_again_as_a_swing_and_a_swing_elsewhere_stays_listed() -> None:
    """An ending action that also moved XP (the Overlord's fall in a fight that paid a quest, say): the swing
    is the biggest among the other actions, worded as the biggest swing under the finale."""
    finale = Finale("wowboard.summary.finale.overlord",
                    {"faction": "alliance", "overlord": "Ash Wyrm", "names_it": {"Ash Wyrm": "Serpe di Cenere"}})
    records = [(4, Step(6, {0: 2}), "challenge"), (9, Step(14, {1: 5}, finale), "roll")]
    assert decisive([(s, step) for s, step, _ in records], NAMES).seq == 4  # type: ignore[union-attr]
    assert finale_of([(s, step) for s, step, _ in records]) == (9, records[1][1])
    summary = compose(records, NAMES, 14)
    assert summary["moment"]["seq"] == 4 and summary["finale"]["seq"] == 9
    assert lines("wowboard", summary, None, {}, "en")[2:] == [
        "Decisive moment: turn 14, the Alliance defeats the Overlord, Ash Wyrm, and wins the game.",
        "Biggest swing: turn 6, alice gained 2 XP (challenge), a swing of 2 XP."]
    italian = lines("wowboard", summary, None, {}, "it")
    assert italian[3].startswith("Scarto maggiore: turno 6, alice ha guadagnato 2 PE")
    assert Step.from_params(records[1][1].as_params()) == records[1][1]  # stored and read back with its finale


def wounds_step(state: State, horde_hits: int, alliance_hits: int) -> None:
    """The final battle's first round scored with these hits, at the wounds step (pvp-defense.2)."""
    state.characters["cantor"].energy = 0  # no Mend to pay for: no last chance (character-defeat.1)
    combat = state.combat
    assert combat is not None
    combat.attack, combat.step = None, "attack"
    combat.pvp_boxes = {"horde": BoxState(damage=horde_hits), "alliance": BoxState(damage=alliance_hits)}
    P.begin_defense(state)
    settle(state, RecordedDice([]), combat)
