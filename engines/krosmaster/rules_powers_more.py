"""Powers 307.25-307.26 and 307.31-307.35: conditions, K.O. bonuses, kamas and cheaper rewards.

Who put a piece K.O.: the piece that caused it (``rules_gg.cause_of``: whose spell or power
placed the wound that reached the HP, a counterattack, a trap or a bomb included), when it
belongs to an opponent of the victim. A K.O. a piece causes to itself or to an ally (a wound
cost, one's own bomb) credits nobody, so no K.O. power triggers on it.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.krosmaster import rules_frost
from engines.krosmaster.content import Keyword, RewardRank, Spell
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_gg import cause_of, take_gg
from engines.krosmaster.state import PieceState, State

CREATOR_COST: dict[RewardRank, int] = {  # 307.33
    RewardRank.GRANITE: 3,
    RewardRank.JADE: 5,
    RewardRank.GOLD: 10,
    RewardRank.RUBY: 15,
}
CREATOR_MARK = "power:creator"  # in ``used_turn``: the first reward of this activation was bought
COLLECTOR_MARK = "power:collected"  # in ``used_turn``: a kama was picked up this activation
# 307.25/307.26: the classes counted by each condition (English and Italian spellings).
CONDITION_CLASSES: dict[Keyword, frozenset[str]] = {
    Keyword.BLAME: frozenset({"vigilante", "justicier", "giustiziere"}),
    Keyword.REVENGE: frozenset({"villain", "cattivo"}),
}


def _is_krosmaster(piece: PieceState) -> bool:
    return piece.summoner is None and piece.figurine.summon is None


def x_of(piece: PieceState, power: Keyword) -> int:
    """The X of a power like Loot X (printed on the card), 1 when not given."""
    return piece.figurine.power_x.get(power, 1)


# -- 307.25/307.26 -----------------------------------------------------------------------
def condition_counts(state: State) -> dict[Keyword, int]:
    """How many vigilantes (Blame) and villains (Revenge) are on the board, allied or opposing."""
    return {condition: sum(1 for p in state.pieces.values()
                           if p.in_play and any(c.lower() in classes for c in p.figurine.classes))
            for condition, classes in CONDITION_CLASSES.items()}


def refresh_conditionals(state: State) -> None:
    """307.25a/307.26a, 314.2b: grant the powers written after Blame X / Revenge X as soon as X such
    pieces are on the board and for as long as they are,
    allied or opposing (the piece itself counts). Also keeps frozen wounds within wounds."""
    counts = condition_counts(state)
    for piece in state.pieces.values():
        piece.frozen_wounds = min(piece.frozen_wounds, piece.wounds)
        if not piece.figurine.conditional_powers and not piece.granted:
            continue
        granted = {str(k) for block in piece.figurine.conditional_powers if counts[block.condition] >= block.x
                   for k in block.powers}
        piece.granted = sorted(granted) if piece.in_play else []


def effects_in_force(state: State, spell: Spell) -> tuple[Spell, list[Event]]:
    """307.25/307.26 on a spell: additional effects written after Blame X / Revenge X apply only
    while X such pieces are on the board. Counted once, when the spell is cast (602.2): the
    seed does not say when the count is taken, and counting once keeps every step of one
    cast reading the same card. Returns the spell as it resolves and one event per dropped effect."""
    if not any(e.requires for e in spell.effects):
        return spell, []
    counts = condition_counts(state)
    kept, events = [], []
    for effect in spell.effects:
        need = effect.requires
        if need is None or counts[Keyword(need.condition)] >= need.x:
            kept.append(effect)
        else:
            events.append(ev("condition_unmet", spell=spell.name, spell_it=spell.name_it, effect=effect.kind.value,
                             condition=need.condition, x=need.x, have=counts[Keyword(need.condition)]))
    return spell.model_copy(update={"effects": kept}), events


# -- K.O. (307.31, 307.32, 307.35) ---------------------------------------------------------
def ko_credit(state: State, piece: PieceState) -> PieceState | None:
    """The opposing piece that K.O.'d ``piece`` (307.31, 307.32, 307.35), or None."""
    cause = cause_of(state, piece)
    return cause if cause is not None and state.enemies(cause.owner, piece.owner) else None


def on_knock_out(state: State, piece: PieceState) -> list[Event]:
    """Called by 308.1a right after the GG of the K.O. are taken, before the piece leaves."""
    rules_frost.clear(piece)
    piece.powers_lost = False  # 314.4: a continuous effect lasts only while its piece is on the board
    killer = ko_credit(state, piece)
    if killer is None or not _is_krosmaster(piece):
        return []
    events: list[Event] = []
    seat = killer.owner
    player = state.player(seat)
    if _is_krosmaster(killer):
        extra = killer.has(Keyword.WISDOM) + piece.has(Keyword.WISDOM)  # 307.31, from either side
        if extra:
            wild, taken = take_gg(state, seat, extra)
            events.append(ev("wisdom", seat=seat, wild=wild, taken=taken, total=wild + taken))
        prospectors = sum(1 for p in state.pieces_of(seat)
                          if p.in_play and _is_krosmaster(p) and p.has(Keyword.PROSPECTING))  # 307.32
        if prospectors:
            player.kamas += prospectors
            events.append(ev("prospecting_kamas", seat=seat, kamas=prospectors, total=player.kamas))
    if piece.has(Keyword.LOOT):  # 307.35: any of the team's pieces, summons too
        loot = x_of(piece, Keyword.LOOT)
        player.kamas += loot
        events.append(ev("loot_kamas", seat=seat, kamas=loot, total=player.kamas))
    return events


# -- 307.33 Creator ------------------------------------------------------------------------
def creator_applies(piece: PieceState) -> bool:
    return piece.has(Keyword.CREATOR) and CREATOR_MARK not in piece.used_turn


def reward_terms(piece: PieceState, rank: RewardRank, price: int, ap: int) -> tuple[int, int]:
    """(kamas, AP) the piece pays for a reward of ``rank``: Creator's first buy of each activation
    costs no AP and less (granite unchanged). 105.1: the card's power wins over 306.4's price."""
    if creator_applies(piece):
        return CREATOR_COST[rank], 0
    return price, ap


def note_reward_bought(piece: PieceState) -> None:
    if piece.has(Keyword.CREATOR) and CREATOR_MARK not in piece.used_turn:
        piece.used_turn.append(CREATOR_MARK)


# -- 307.34 Collector ----------------------------------------------------------------------
def note_collected(piece: PieceState) -> None:
    if COLLECTOR_MARK not in piece.used_turn:
        piece.used_turn.append(COLLECTOR_MARK)


def collector_bonus(state: State, piece: PieceState) -> list[Event]:
    """307.34: at the end of its turn, a Collector that picked up a kama brings one more."""
    if not (piece.has(Keyword.COLLECTOR) and COLLECTOR_MARK in piece.used_turn and _is_krosmaster(piece)):
        return []
    player = state.player(piece.owner)
    player.kamas += 1
    return [ev("collector_kamas", seat=player.seat, kamas=1, total=player.kamas)]
