"""Real play for the fuzz: open tables (the scripted game, two- and four-player lobbies,
manual dice), finish lobbies, and play live games on — legal moves from the engine or
the autoplay policy, near misses, manual dice, GM overrides, undo, resign, end.

Random lines alone rarely reach a live game's later turns; this is what makes the fuzz
meet them. Every line still goes through :meth:`Harness.execute` and is judged there.
"""

from __future__ import annotations

import random
import shlex
from typing import Any

from tests.fuzz import lines as L


class RealPlay:
    """Mixed into :class:`~tests.fuzz.harness.Harness`, which provides ``rng``, ``app``, ``console``,
    ``mutator``, ``execute`` and ``_out_of_budget``."""

    rng: random.Random
    app: Any
    console: Any
    mutator: L.Mutator

    async def _game(self) -> tuple[Any, list[Any]]:
        from db import games as repo

        conn = self.app.store.conn
        row = await repo.open_game(conn, self.console.channel.id)
        return row, (await repo.seats(conn, row.id) if row is not None else [])

    async def _as(self, name: str, gm: bool = False) -> None:
        if self.console.user.name.lower() != name.lower() or (gm and not self.console.user.is_gm):
            await self.execute(f"/as {shlex.quote(name)}" + (" gm" if gm else ""), "play")

    async def play_chunk(self) -> None:
        """Some real play in one of the fuzz channels: open a table, finish a lobby, or play on."""
        rng = self.rng
        channel = rng.choice(L.CHANNELS)
        await self.execute(f"/channel {channel}", "play")
        row, seats = await self._game()
        if row is None:
            await self.new_table()
        elif row.status == "lobby":
            await self.finish_lobby(row, seats)
        else:
            await self.play_on(rng.randint(3, 14))

    async def new_table(self) -> None:
        rng = self.rng
        kind = rng.random()
        if kind < 0.25:  # the scripted game, verbatim, as far as the dice still agree
            script = L.lines_of(L.FULL_GAME.read_text(encoding="utf-8"))
            for line in script[: rng.randint(6, 40)]:
                if self._out_of_budget():
                    return
                await self.execute(line, "play")
            return
        if kind < 0.6:
            options = rng.choice(("", "", "arena:frigost_rink", "scenery:destructible", "starting_gg:1",
                                  "dice:manual", "arena:old_ruins sides:fixed", "rewards:off",
                                  "dice:manual starting_gg:2", "format:limited", "arena:frigost_rink starting_gg:1",
                                  "pack:duelists arena:tiny_duel", "dice:manual rewards:off"))
            players = dict(L.TEAMS)
        else:
            options = rng.choice(("mode:ffa", "mode:teams", "mode:ffa dice:manual", "mode:teams starting_gg:1",
                                  "mode:ffa starting_gg:1 arena:frigost_rink"))
            players = dict(L.FOUR_TEAMS)
        if "dice:" not in options and rng.random() < 0.45:  # groups rolling their own dice
            options = (options + " dice:manual").strip()
        lines = []
        for i, (name, team) in enumerate(players.items()):
            lines.append(f"/as {name}")
            if i == 0:
                lines.append("/game new krosmaster" + (f' options:"{options}"' if options else ""))
            else:
                lines.append("/game join")
            lines.append(f'/km team figurines:"{team}"')
        lines.append("/game start")
        stop = len(lines) if rng.random() < 0.85 else rng.randint(2, len(lines))  # sometimes a lobby stays open
        for line in lines[:stop]:
            if self._out_of_budget():
                return
            await self.execute(line, "play")

    async def finish_lobby(self, row: Any, seats: list[Any]) -> None:
        rng = self.rng
        if rng.random() < 0.1:
            await self._as(L.GM_NAME, gm=True)
            await self.execute("/game end", "play")
            return
        four = str(row.options.get("mode", "")).lower() in ("ffa", "teams")
        players = L.FOUR_TEAMS if four else L.TEAMS
        if rng.random() < 0.15 and seats:
            await self._as(seats[-1].name)
            await self.execute(rng.choice(("/game leave", "/game kick user:@" + seats[0].name, "/game status",
                                           "/game join team:a")), "play")
        for name, team in players.items():
            await self._as(name)
            await self.execute("/game join", "play")
            await self.execute(f'/km team figurines:"{team}"', "play")
        host = next((s.name for s in seats if s.user_id == row.created_by), seats[0].name if seats else "alice")
        await self._as(host)
        await self.execute("/game start", "play")
        row, _ = await self._game()
        if row is not None and row.status == "lobby":  # strangers seated by the fuzz: clear the table
            await self._as(L.GM_NAME, gm=True)
            await self.execute("/game end", "play")

    async def play_on(self, steps: int) -> None:
        from engines import registry
        from gm.table.model import MANUAL_PENDING

        rng = self.rng
        for _ in range(steps):
            if self._out_of_budget():
                return
            row, seats = await self._game()
            if row is None or row.status != "active" or row.state is None:
                return
            names = {s.seat: s.name for s in seats}
            pending = row.options.get(MANUAL_PENDING)
            if pending:
                who = next((s.name for s in seats if s.user_id == pending.get("user_id")), L.GM_NAME)
                await self._as(who, gm=who == L.GM_NAME)
                request = pending.get("request") if isinstance(pending.get("request"), dict) else {}
                sides = _small_int(request.get("sides", pending.get("sides")), 6)
                count = _small_int(request.get("count"), 0) or rng.randint(1, 4)
                if rng.random() < 0.15:
                    count = max(1, count + rng.choice((-1, 1)))  # one die too many or too few
                faces = (" ".join(str(rng.randint(1, sides)) for _ in range(count))
                         if rng.random() < 0.65 else L.manual_faces(rng))
                await self.execute(f'/game dice values:"{faces}"', "play-dice")
                continue
            engine = registry.get(row.system)
            if engine is None:
                return
            state = engine.load_state(row.state)
            decision = engine.decision(state)
            if decision is None or not decision.seats:  # over, or stuck (the periodic scan reports that)
                return
            if rng.random() < 0.14:
                await self.special(state, names)
                continue
            seat = rng.choice(decision.seats) if rng.random() < 0.2 else decision.seats[0]
            legal = engine.legal_actions(state, seat)
            line = self._command_for(state, seat, legal)
            await self._as(names.get(seat, "alice"))
            if rng.random() < 0.15:  # a legal line, slightly wrong: the near misses players type
                await self.execute(self.mutator.line_from(rng, line), "play-mutated")
            else:
                await self.execute(line, "play")

    def _command_for(self, state: Any, seat: int, legal: list[Any]) -> str:
        from tools.km_autoplay import choose

        rng = self.rng
        if legal and rng.random() < 0.3:
            line = _command(rng.choice(legal))
            if line:
                return line
        try:
            return choose(state, seat, legal)
        except Exception:  # the policy is a helper, not the thing under test
            return "/km end"

    async def special(self, state: Any, names: dict[int, str]) -> None:
        """A GM override, undo, resign, end, or a look at the table."""
        rng = self.rng
        pieces = sorted(getattr(state, "pieces", {}) or {"0a": None})
        player = rng.choice(list(names.values()) or ["alice"])
        roll = rng.random()
        if roll < 0.35:  # GM overrides, often to odd places: the engine must cope afterwards
            await self._as(L.GM_NAME, gm=True)
            p = rng.choice(pieces)
            occupied = [getattr(x, "pos", None) for x in (getattr(state, "pieces", {}) or {}).values()]
            occupied = [q for q in occupied if q] or ["E7"]
            somewhere = rng.choice((L.square(rng), rng.choice(occupied), "A1", "L12", "F6"))
            await self.execute(rng.choice((
                f"/gm wounds piece:{p} wounds:{rng.choice((0, 1, 3, 8, 99))}",
                f"/gm place piece:{p} square:{somewhere}",
                f"/gm place piece:{p} square:{somewhere}",
                f"/gm place piece:{p}",
                f"/gm apmp piece:{p} ap:{rng.randint(0, 99)} mp:{rng.randint(0, 99)}"
                f" ap_tokens:{rng.randint(-99, 99)} mp_tokens:{rng.randint(-99, 99)}",
                f"/gm apmp piece:{p} ap:0 mp:0",
                f"/gm gg seat:{rng.randint(0, 4)} gg:{rng.choice((0, 1, 6, 99))}",
            )), "play")
        elif roll < 0.5:
            if rng.random() < 0.5:
                await self._as(L.GM_NAME, gm=True)
            else:
                await self._as(player)
            await self.execute("/game undo", "play")
        elif roll < 0.58:
            await self._as(player)
            await self.execute("/game resign", "play")
            await self.execute("/click 1", "play")  # the confirmation button
        elif roll < 0.64:
            if rng.random() < 0.5:
                await self._as(L.GM_NAME, gm=True)
                await self.execute("/game end", "play")
            else:
                for name in names.values():
                    await self._as(name)
                    await self.execute("/game end", "play")
        else:
            await self._as(player)
            await self.execute(rng.choice((
                "/game status", "/game log", "/game log count:50", "/km preview", "/km rewards",
                "/complete /km move square:", "/complete /km cast spell:", "/complete /km deploy piece:",
                f"/complete /km cast spell:{rng.choice(L.SPELLS)} target:", "/complete /km choose option:",
                "/complete /gm wounds piece:", "/click 1", "/click 2", "/click End turn", "/pick north",
                f"/km preview spell:{rng.choice(L.SPELLS)}", "/game help", "/game list", "/rules search query:lock",
            )), "play")


def _small_int(value: Any, default: int) -> int:
    try:
        return max(1, min(int(value), 100))
    except (TypeError, ValueError):
        return default


def _command(action: Any) -> str | None:
    """The console line for one engine action (a random legal one, unlike the autoplay policy)."""
    kind = getattr(action, "kind", None)
    if kind == "move":
        return f"/km move square:{action.to}"
    if kind == "cast":
        target = action.target + (f" {action.direction}" if action.direction else "")
        return f'/km cast spell:{action.spell} target:"{target}"'
    if kind == "deploy":
        return f"/km deploy piece:{action.piece} square:{action.square}"
    if kind == "order_ties":
        return f"/km order piece:{action.piece}"
    if kind == "choose":
        return f'/km choose option:"{action.value}"'
    if kind == "inspire":
        names = ("first", "second")
        return " ".join(["/km inspire", *(f"{names[p.die]}:{p.piece}" for p in action.placements)])
    if kind == "end_turn":
        return "/km end"
    if kind == "collect":
        return "/km collect"
    if kind == "buy_gg":
        return "/km buy-gg"
    if kind == "buy_reward":
        return f"/km reward-buy pile:{action.pile}" + (" blind:true" if action.blind else "")
    if kind == "assign_reward":
        return f"/km reward-assign reward:{action.reward} piece:{action.piece}"
    if kind == "reveal_reward":
        return f"/km reward-reveal reward:{action.reward}"
    return None
