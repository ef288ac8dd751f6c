"""The /mk and /mk-admin commands through the console (real cog callbacks, fake interactions)."""

from __future__ import annotations

import json
from pathlib import Path

from console.runner import Console
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.state import State
from gm.context import Place
from gm.games.mageknight import choices

CHALLENGE = ["/as alice", '/game new mageknight options:"tier:2 site:rampaging seed:2"', "/game start"]


def out(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


def since(console: Console, start: int) -> str:
    return out(console)[start:]


async def state_of(console: Console) -> State:
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    table = await console.bot.app.tables.table_for(place) or await console.bot.app.tables.finished_game(place)
    assert table is not None and isinstance(table.state, State)
    return table.state


async def completions(console: Console, line: str) -> list[tuple[str, str]]:
    start = len(console.transcript.messages)
    await console.execute(line)
    return [(c.name, c.value) for c in console.transcript.messages[start].choices or []]


async def test_a_short_column_is_refused_privately_with_its_sums_and_the_rule_button(console: Console) -> None:
    await console.run([*CHALLENGE, "/mk next", "/mk target enemies:cinder", "/mk unit unit:pikes"])
    before = (await state_of(console)).model_dump()
    start = len(out(console))
    await console.execute("/mk commit")
    text = since(console, start)
    assert text.startswith("(only alice) ⚠️ Not enough. Block on Cinder Shamans: physical 3 (weak against a fire "
                           "attack) ÷ 2 → 1; + 0 = 1 of 3 — 2 short.")
    # issue 26.2: the citation is the section's title, not its id; the button still opens the section
    assert "(rule “Block phase”)" in text and "[buttons] 1) Rule “Block phase”" in text
    assert "block-phase" not in text
    assert (await state_of(console)).model_dump() == before
    await console.run(["/lang it", "/mk commit"])
    assert "Non basta. Blocco su Sciamani della Cenere: fisico 3 (poco efficace contro un attacco di fuoco)" \
        in out(console)
    assert "(regola «Fase di Blocco»)" in out(console) and "Regola «Fase di Blocco»" in out(console)


async def test_play_autocomplete_offers_exactly_the_legal_plays_with_their_totals(console: Console) -> None:
    await console.run([*CHALLENGE, "/mk target enemies:tusk"])
    state = await state_of(console)
    offered = await completions(console, "/complete /mk play card:")
    legal = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, A.Play)]
    assert offered == [("Quickstep ⚡ · Ranged Attack 3 (white die) → 3 vs armor 2 ✓ (1 wasted)",
                        "quickstep powered 1 die:2")]
    parsed = [A.Play(**{k: v for k, v in choices.parse_play_value(value).items() if k != "kind"})
              for _, value in offered]
    assert all(p in legal for p in parsed)
    units = await completions(console, "/complete /mk unit unit:")
    assert units == [("Hill Archers · Ranged Attack 3 → 3 vs armor 2 ✓ (1 wasted)", "u4 2 1")]
    assert await completions(console, "/complete /mk sideways card:") == []  # never in the ranged phase (NS)


async def test_names_and_values_are_read_in_either_language(console: Console) -> None:
    await console.run([*CHALLENGE, "/lang it", "/mk target enemies:tusk",
                       '/mk play card:quickstep side:potenziata mana:"dado bianco"', "/mk commit", "/mk next",
                       "/mk next", "/mk assign to:eroe"])
    assert console.errors == 0, out(console)
    state = await state_of(console)
    assert state.phase == "attack" and state.hero.combat_hand_wounds == 1
    await console.execute("/mk target enemies:cinder")
    await console.execute("/mk play card:improvise")
    choices_it = await completions(console, "/complete /mk choose option:")
    assert ("Respiro Calmo", "calm_breath") in choices_it
    await console.execute('/mk choose option:"calm"')
    await console.execute("/mk sideways card:intimidate")
    await console.execute("/mk commit")
    assert console.errors == 0, out(console)
    assert "🏆 Partita finita — vince: @alice" in out(console)


async def test_unknown_names_list_the_valid_ones(console: Console) -> None:
    await console.run([*CHALLENGE, "/mk target enemies:dragon"])
    assert ('"dragon" is not an enemy of this combat. Choose among: Cinder Shamans, Tusk Raiders.'
            in out(console))
    await console.run(["/mk target enemies:tusk", "/mk play card:nothing"])
    assert '"nothing" is not a card in your hand. Choose among: Calm Breath, Quickstep, Intimidate, Improvise.' \
        in out(console)
    await console.execute("/mk play card:quickstep side:sideways")
    assert '"sideways" is not a side of a card. Choose among: basic, powered.' in out(console)


async def test_the_hand_is_private_with_a_picture_and_hidden_from_spectators(console: Console) -> None:
    await console.run(CHALLENGE)
    start = len(console.transcript.messages)
    await console.execute("/mk hand")
    message = console.transcript.messages[start]
    text = "".join(e.description or "" for e in message.embeds)
    assert message.ephemeral and message.files and "Improvise (red): discard another card: Attack 3" in text
    public = [m for m in console.transcript.messages if not m.ephemeral]
    assert not any("Improvise" in (m.content or "") + "".join(e.description or "" for e in m.embeds) for m in public)
    await console.run(["/as bob", "/mk hand"])
    assert "(only bob) ⚠️ The hand is private" in out(console)


async def test_open_hand_shows_the_hand_to_everyone(console: Console) -> None:
    await console.run(["/as alice", '/game new mageknight options:"seed:2 tier:2 open_hand:true"', "/game start"])
    assert "Your hand: Calm Breath" in out(console) and "(only alice) Your hand" not in out(console)
    await console.run(["/as bob", "/mk hand"])
    assert "(only bob) == alice: your hand and options ==" in out(console)


async def test_buttons_commit_take_back_next_and_the_damage_menu(console: Console) -> None:
    await console.run([*CHALLENGE, "/mk target enemies:tusk", "/mk play card:quickstep"])
    assert "[buttons] 1) Commit · 2) Take back · 3) Show my hand / My options" in out(console)
    await console.run(["/click Commit", "/click Next phase", "/click Next phase"])
    assert console.errors == 0, out(console)
    assert "[buttons] 1) All to hero · 2) Assign damage… · 3) Show my hand / My options" in out(console)
    await console.run(["/click Assign damage…"])
    assert "(only alice) Who takes the damage?" in out(console)
    await console.execute("/pick e1>u3")
    state = await state_of(console)
    assert state.unit("u3").wounds == 1 and state.damage is not None and state.damage.remaining == 1
    await console.run(["/click All to hero"])
    assert (await state_of(console)).phase == "attack" and console.errors == 0, out(console)


async def test_a_button_from_an_older_board_is_stale(console: Console) -> None:
    await console.run([*CHALLENGE, "/mk target enemies:tusk", "/mk play card:quickstep"])
    board = next(m for m in reversed(console.transcript.messages) if m.view is not None and not m.ephemeral)
    await console.run(["/mk takeback"])
    button = next(c for c in board.view.children if "commit" in getattr(getattr(c, "item", c), "custom_id", ""))
    start = len(console.transcript.messages)
    await button.callback(console._interaction(message=board))
    answer = console.transcript.messages[start]
    assert answer.ephemeral and "This button no longer does anything here" in (answer.content or "")
    assert (await state_of(console)).staged is None  # the take back stands; the old Commit did nothing


async def test_the_private_panel_lists_each_card_and_what_it_does_now(console: Console) -> None:
    await console.run([*CHALLENGE, "/mk next", "/mk target enemies:cinder", "/click Show my hand / My options"])
    text = out(console)
    assert "(only alice) == alice: your hand and options ==" in text
    assert ("Improvise (red): discard another card: Attack 3 or Block 3 · powered (red mana): Attack 5 or Block 5"
            in text)
    assert "now: basic: Block 3 → 1 vs 3 to block; powered: Block 5 (red die) → 2 vs 3 to block; sideways" in text
    assert "• Village Pikes: Block 3 → 1 vs 3 to block" in text and "[buttons] 1) Picture of my hand" in text


async def test_pack_import_play_and_remove(console: Console, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "broken", "enemies": [{"id": "x"}]}), encoding="utf-8")
    await console.run(["/as alice", f"/mk-admin pack file:{bad}"])
    assert "Invalid pack at enemies.0" in out(console)
    good = tmp_path / "ogres.json"
    good.write_text(json.dumps({"name": "ogres", "enemies": [
        {"id": "g_ogre", "name": "Swamp Ogre", "colour": "green", "armor": 5, "attack": 6, "fame": 5}]}),
        encoding="utf-8")
    await console.execute(f"/mk-admin pack file:{good}")
    assert 'Content pack "ogres" saved: 1 enemies, 0 cards, 0 units.' in out(console)
    await console.run(['/game new mageknight options:"pack:ogres mode:assist enemies:swamp"', "/game start"])
    assert "Combat against Swamp Ogre." in out(console)
    await console.run(["/mk-admin pack-remove name:ogres"])
    assert "used by the table" in out(console)
    await console.run(["/game end", "/mk-admin pack-remove name:ogres", "/mk-admin packs"])
    assert "was removed" in out(console) and "No mageknight packs in this server yet" in out(console)


async def test_daily_challenge_is_the_same_deal_and_its_score_reaches_the_leaderboard(console: Console) -> None:
    await console.run(["/as alice", "/mk daily"])
    assert "Daily challenge of" in out(console) and console.errors == 0, out(console)
    first = await state_of(console)
    for _ in range(12):  # pass every phase; the hero takes all the damage, enemy by enemy
        state = await state_of(console)
        if state.phase == "over":
            break
        hero = await completions(console, "/complete /mk assign to:hero") if state.phase == "assign_damage" else []
        await console.execute(f"/mk assign to:{hero[0][1]}" if hero else "/mk next")
        if state.phase == "attack":  # ending with enemies standing asks first (issue 27.2)
            await console.execute("/click End the combat")
    assert (await state_of(console)).phase == "over"
    await console.run(["/mk leaderboard"])
    assert "1. @alice: score" in out(console)
    await console.run(["/channel other", "/as bob", "/mk daily"])
    again = await state_of(console)
    assert (again.seed, again.tier, again.site) == (first.seed, first.tier, first.site)
    assert [e.name for e in again.enemies] == [e.name for e in first.enemies]
    await console.run(["/mk leaderboard day:yesterday"])
    assert "Cannot read the day" in out(console)


async def test_duel_die_is_secret_until_revealed(console: Console) -> None:
    await console.run(["/as alice", '/game new mageknight options:"mode:duel tier:1 seed:4"', "/as bob", "/game join",
                       "/as alice", "/game start"])
    assert "❓ @bob, a choice is needed: Set the combat die in secret on the hidden enemy" in out(console)
    assert "Burrow Diggers" not in out(console)  # hidden until the die is set, from the public and the fighter
    await console.run(["/as alice", "/mk info name:burrow", "/as bob", "/click Show my hand / My options"])
    assert "Burrow Diggers — enemy in this combat" not in out(console)  # alice's /mk info: only the pack's token
    assert "(only bob) == bob: your hand and options ==" in out(console) and "• Burrow Diggers: armor 4" in out(console)
    await console.run(["/lang it", "/mk choose option:rosso"])
    assert "(only bob) Hai impostato il dado su rosso." in out(console)
    assert "Il nemico viene rivelato: Scavatori delle Tane." in out(console)
    await console.run(["/lang en", "/as alice", "/game status", "/click Show my hand / My options"])
    panel = out(console).rsplit("== alice: your hand and options ==", 1)[1]
    assert "combat die" not in panel.split("[buttons]")[0]  # the fighter is not told the colour
    await console.run(["/as bob", "/click Show my hand / My options"])
    assert "You set the combat die to red." in out(console)


async def test_lobby_card_says_what_the_seat_fights(console: Console) -> None:
    await console.run(["/as alice", '/game new mageknight options:"tier:3 site:keep seed:9"', "/game status"])
    assert "fights a tier 3 challenge (hero level 5): keep, day · seed 9" in out(console)


async def test_info_in_either_language_with_autocomplete(console: Console) -> None:
    await console.run(["/as alice", "/lang it", "/mk info name:brutale"])
    assert "== Brutale — abilità dei nemici ==" in out(console)
    assert "Se non è bloccato infligge il doppio del suo attacco." in out(console)
    offered = await completions(console, "/complete /mk info name:rime")
    assert offered[0][0].startswith("Adepti della Brina (segnalino nemico) · Armatura 5")
    await console.execute("/mk info name:quickstep")
    assert "Potenziata: Attacco a Distanza 3 (con mana bianco)" in out(console)


async def test_scores_keep_each_members_best_daily_game_once(console: Console) -> None:
    from db import mageknight_scores as repo

    store = console.bot.app.store

    def row(game: int, user: int, score: int, *, daily: bool = True, day: str = "2025-03-01") -> repo.ScoreRow:
        return repo.ScoreRow(game_id=game, guild_id=1, channel_id=9, user_id=user, user_name=f"u{user}", day=day,
                             daily=daily, seed=5, tier=2, site="keep", score=score, fame=score, wounds=0, won=True)

    for entry in (row(1, 10, 4), row(2, 10, 9), row(3, 20, 6), row(4, 30, 12, daily=False),
                  row(5, 40, 20, day="2025-03-02"), row(3, 20, 7)):  # game 3 finished again (a GM undo): replaced
        await repo.record(store, entry)
    board = await repo.daily_board(store, 1, "2025-03-01")
    assert [(r.user_id, r.score, r.game_id) for r in board] == [(10, 9, 2), (20, 7, 3)]
    assert (await repo.for_game(store, 3)) == row(3, 20, 7)
