"""Rules lookup quality (issue 33): do players' questions find the sections that answer them?

Run: ``python bench/rules_quality.py [--seeds DIR] [--postgres URL] [--misses]``. The built-in digests are
loaded and the five seed rulebooks imported as one server's rulebooks (as ``/rules-admin import`` would),
on SQLite and, with a URL (default ``TAVOLO_TEST_POSTGRES``), on PostgreSQL; then every question of
``QUESTIONS`` goes through ``RulesService.search`` with its game and the asker's language, and the first
three hits are checked against the sections that answer it. Prints hit@1 and hit@3 per game and per
language on each backend (target: hit@3 ≥ 95 % on every game, both backends), and the machine load.

The questions were written from the rulebooks (the seeds, ``../shared/seeds/README.md``) and the digests,
phrased as players type them in chat, before they were ever run: a question is never reworded to suit the
engine. An answer is one of:

- ``d:<id>``: the digest section with that id (either language's digest);
- ``s:<id>``: a section numbered ``<id>`` or under it (``s:310`` takes ``310.2b``), digest or rulebook;
- ``t:<words>``: a section of the imported rulebook whose title holds these words (case and accents
  aside), i.e. a heading a reader of that rulebook sees.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import unicodedata
from collections import defaultdict
from contextlib import AsyncExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.rules import ROOT, _seed_files, _store
from common.rules_model import SearchHit
from gm.rules.service import RulesService

GUILD = 1
TARGET = 0.95

# (game, language, question as typed, answers)
QUESTIONS: list[tuple[str, str, str, tuple[str, ...]]] = [
    # --- Krosmaster Arena (numbered rulebook 101–703, digests by number)
    ("krosmaster", "it", "come funziona il contrasto", ("s:310",)),
    ("krosmaster", "it", "quanti pm servono per uscire dal blocco", ("s:310",)),
    ("krosmaster", "it", "linea di tiro bloccata da ostacoli", ("s:311",)),
    ("krosmaster", "it", "cosa succede con il colpo critico", ("s:602",)),
    ("krosmaster", "it", "a cosa servono i kama", ("s:304",)),
    ("krosmaster", "it", "quanti gg costa una ricompensa demoniaca", ("s:306", "s:305")),
    ("krosmaster", "it", "come si evoca una creatura", ("s:315",)),
    ("krosmaster", "it", "lancio di tensione chi vince", ("s:402",)),
    ("krosmaster", "it", "a cosa serve il tiro armatura", ("s:602", "s:106")),
    ("krosmaster", "it", "quanti pa costa lanciare un incantesimo", ("s:601", "s:205")),
    ("krosmaster", "it", "preparazione della partita dove metto i personaggi", ("s:103",)),
    ("krosmaster", "it", "partita 2 contro 2", ("s:7", "s:701", "s:703")),
    ("krosmaster", "it", "quando un personaggio va ko", ("s:308",)),
    ("krosmaster", "en", "how does lock work", ("s:310",)),
    ("krosmaster", "en", "dodge roll how many dice", ("s:310",)),
    ("krosmaster", "en", "line of sight through obstacles", ("s:311",)),
    ("krosmaster", "en", "what are kamas for", ("s:304",)),
    ("krosmaster", "en", "how to summon", ("s:315",)),
    ("krosmaster", "en", "tension roll", ("s:402",)),
    ("krosmaster", "en", "critical hit", ("s:602",)),
    ("krosmaster", "en", "area of effect spells", ("s:312",)),
    ("krosmaster", "en", "who wins the game", ("s:104",)),
    ("krosmaster", "en", "team building level 12", ("s:101",)),
    # --- WoW Miniatures (numbered rulebook 100–709, digests by number)
    ("wowminis", "it", "come si forma il party", ("s:100",)),
    ("wowminis", "it", "quante volte posso ritirare i dadi", ("s:105",)),
    ("wowminis", "it", "personaggio distrutto dove riappare", ("s:403",)),
    ("wowminis", "it", "linea visiva e raggio", ("s:405",)),
    ("wowminis", "it", "come funziona il cooldown della barra azione", ("s:300",)),
    ("wowminis", "it", "quanto durano buff e debuff", ("s:301",)),
    ("wowminis", "it", "cosa sono i totem", ("s:303",)),
    ("wowminis", "it", "muoversi e teletrasportarsi", ("s:404",)),
    ("wowminis", "it", "master clock e scatti", ("s:408", "s:500")),
    ("wowminis", "it", "tiro di attacco e difesa", ("s:601",)),
    ("wowminis", "it", "danni critici", ("s:602",)),
    ("wowminis", "en", "how do i build my party", ("s:100",)),
    ("wowminis", "en", "can i reroll dice", ("s:105",)),
    ("wowminis", "en", "where does a defeated character respawn", ("s:403",)),
    ("wowminis", "en", "line of sight", ("s:405",)),
    ("wowminis", "en", "what is the personal clock", ("s:408",)),
    ("wowminis", "en", "stealth", ("s:708",)),
    ("wowminis", "en", "taunt rules", ("s:708",)),
    ("wowminis", "en", "pets", ("s:304",)),
    ("wowminis", "en", "area of effect targets", ("s:407",)),
    ("wowminis", "en", "how to win", ("s:102",)),
    ("wowminis", "en", "react abilities timing", ("s:701",)),
    # --- Warlord (unnumbered campaign rules sheet, digests by slug)
    ("warlord", "it", "fase di preparazione cosa si fa", ("d:ready-phase", "t:prepara il tuo esercito",
                                                          "t:fase di preparazione")),
    ("warlord", "it", "quante carte si pescano", ("d:draw-phase", "t:raccogli le tue risorse", "t:pescaggio")),
    ("warlord", "it", "chi prende l'iniziativa", ("d:initiative-phase", "t:iniziativa")),
    ("warlord", "it", "fase degli ordini", ("d:order-phase", "t:dare gli ordini", "t:fase degli ordini")),
    ("warlord", "it", "rango illegale cosa succede", ("d:ranks", "t:comandare il tuo esercito")),
    ("warlord", "it", "personaggio stordito", ("d:ready-spent-stunned", "t:pronti, spesi")),
    ("warlord", "it", "come si equipaggia un oggetto", ("d:equip", "t:equipaggiare")),
    ("warlord", "it", "colpo a distanza", ("d:ranged-strikes", "t:colpi a distanza")),
    ("warlord", "it", "tiro salvezza", ("d:skill-checks", "t:prove di abilita")),
    ("warlord", "it", "cosa vuol dire adiacente", ("d:adjacency", "t:vicinanza")),
    ("warlord", "it", "etereo e astrale", ("d:astral-ethereal", "t:astrale")),
    ("warlord", "it", "come si costruisce il mazzo", ("d:deck-building", "t:costruire il tuo mazzo",
                                                      "t:convenzioni sul mazzo", "t:formato campagna")),
    ("warlord", "it", "passare il turno", ("d:passing", "t:aspettare il momento")),
    ("warlord", "en", "ready phase", ("d:ready-phase", "t:prepara il tuo esercito")),
    ("warlord", "en", "how many cards do i draw", ("d:draw-phase", "t:raccogli le tue risorse")),
    ("warlord", "en", "who goes first initiative", ("d:initiative-phase", "t:iniziativa")),
    ("warlord", "en", "illegal rank", ("d:ranks", "t:comandare il tuo esercito")),
    ("warlord", "en", "natural 20", ("d:dice", "t:tiri di dado")),
    ("warlord", "en", "feats", ("d:feats", "t:talenti")),
    ("warlord", "en", "how do reacts work", ("d:reacts", "t:reazioni")),
    ("warlord", "en", "starting army", ("d:starting-army", "t:prepararsi alla battaglia")),
    ("warlord", "en", "maneuver a character", ("d:maneuver", "t:manovrare")),
    ("warlord", "en", "how do i win", ("d:victory", "t:vittoria")),
    # --- Mage Knight (combat flowchart, digests by slug)
    ("mageknight", "it", "come funziona il blocco", ("d:block-phase", "d:block-efficiency", "t:blocco")),
    ("mageknight", "it", "attacco a distanza contro fortificato", ("d:fortified", "d:ranged-siege-phase",
                                                                   "t:fortificato")),
    ("mageknight", "it", "nemico brutale", ("d:enemy-abilities", "t:brutale")),
    ("mageknight", "it", "veleno quante ferite", ("d:enemy-abilities", "t:veleno")),
    ("mageknight", "it", "paralisi", ("d:enemy-abilities", "t:paralisi")),
    ("mageknight", "it", "resistenza al fuoco del nemico", ("d:enemy-resistances", "t:resistenz")),
    ("mageknight", "it", "colpo di grazia", ("d:knock-out", "t:colpo di grazia")),
    ("mageknight", "it", "assegnare il danno alle unita", ("d:assign-damage", "d:wound-unit", "t:assegnare danno",
                                                           "t:ferire un'unita")),
    ("mageknight", "it", "combattere piu nemici insieme", ("d:multiple-enemies", "t:nemici multipli")),
    ("mageknight", "it", "carte giocate di fianco", ("d:sideways", "t:fianco")),
    ("mageknight", "it", "nemico che evoca", ("d:summon", "d:enemy-abilities", "t:evocare")),
    ("mageknight", "en", "block phase", ("d:block-phase", "t:blocco")),
    ("mageknight", "en", "siege attack on fortified enemy", ("d:fortified", "d:ranged-siege-phase")),
    ("mageknight", "en", "swift enemy block", ("d:enemy-abilities", "t:rapido")),
    ("mageknight", "en", "poison wounds", ("d:enemy-abilities", "t:veleno")),
    ("mageknight", "en", "ice resistance", ("d:enemy-resistances", "d:unit-resistances", "t:resistenz")),
    ("mageknight", "en", "hero knocked out", ("d:knock-out", "t:colpo di grazia")),
    ("mageknight", "en", "unit wounded twice", ("d:wound-unit", "d:units", "t:ferire un'unita")),
    ("mageknight", "en", "fighting multiple enemies", ("d:multiple-enemies", "t:nemici multipli")),
    ("mageknight", "en", "inefficient block halved", ("d:block-efficiency", "t:inefficient")),
    ("mageknight", "en", "fame after combat", ("d:end-of-combat", "d:rewards")),
    ("mageknight", "en", "are there dice in combat", ("d:no-dice",)),
    # --- WoW: The Board Game (unnumbered translated rulebook, digests by slug)
    ("wowboard", "it", "posso ritirare i dadi", ("d:reroll", "t:limiti dei dadi")),
    ("wowboard", "it", "rilanciare i dadi in combattimento", ("d:reroll", "t:limiti dei dadi")),
    ("wowboard", "it", "dove riappare un personaggio sconfitto", ("d:character-defeat",
                                                                   "t:sconfitte dei personaggi")),
    ("wowboard", "it", "azione di viaggio quanti spazi", ("d:travel", "t:azione di viaggio")),
    ("wowboard", "it", "riposo quanta salute recupero", ("d:rest", "t:azione di riposo")),
    ("wowboard", "it", "come si sale di livello", ("d:levels", "t:guadagnare un livello",
                                                   "t:guadagnare esperienza e livelli")),
    ("wowboard", "it", "quando si pescano le carte evento", ("d:events", "t:carte evento")),
    ("wowboard", "it", "combattimento pvp", ("d:pvp-combat", "t:giocatore contro giocatore", "t:pvp")),
    ("wowboard", "it", "chi e l'overlord", ("d:overlord", "t:overlord")),
    ("wowboard", "it", "gettoni stun", ("d:stun-curse", "t:stun")),
    ("wowboard", "it", "preparazione del gioco", ("d:setup", "t:preparazione del gioco")),
    ("wowboard", "it", "fase di difesa", ("d:defense-phase", "d:pvp-defense", "t:fase di difesa")),
    ("wowboard", "it", "giocare in 4", ("d:fewer-players", "t:meno di 6")),
    ("wowboard", "en", "can i reroll dice", ("d:reroll", "t:limiti dei dadi")),
    ("wowboard", "en", "where does my character respawn after defeat", ("d:character-defeat",
                                                                         "t:sconfitte dei personaggi")),
    ("wowboard", "en", "travel action", ("d:travel", "t:azione di viaggio")),
    ("wowboard", "en", "how do i level up", ("d:levels", "t:guadagnare un livello", "t:esperienza e livelli")),
    ("wowboard", "en", "quest rewards", ("d:quest-rewards", "d:quests", "t:premi di missione")),
    ("wowboard", "en", "merchant deck", ("d:merchant", "t:mercante")),
    ("wowboard", "en", "how to win the game", ("d:victory", "t:vincere il gioco")),
    ("wowboard", "en", "overlord", ("d:overlord", "t:overlord")),
    ("wowboard", "en", "dice pool limit", ("d:dice-pool", "t:limiti dei dadi", "t:piatto")),
    ("wowboard", "en", "pvp defense phase loot", ("d:pvp-defense", "t:fase di difesa")),
]


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower().replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def answers(hit: SearchHit, expected: tuple[str, ...]) -> bool:
    """Whether a hit is one of the sections that answer the question (the module docstring's kinds)."""
    for answer in expected:
        kind, _, value = answer.partition(":")
        if kind == "d" and hit.section_id == value and hit.document_id in _DIGESTS:
            return True
        if kind == "s" and (hit.section_id == value or hit.section_id.startswith(value + ".")):
            return True
        if kind == "t" and hit.document_id not in _DIGESTS and _fold(value) in _fold(hit.title):
            return True
    return False


_DIGESTS: set[int] = set()  # document ids of the built-in digests in the store being evaluated


async def _prepare(service: RulesService, seeds: Path) -> None:
    await service.load_builtin_digests()
    _DIGESTS.update(s.document_id for s in await service.sources(None) if s.source == "builtin")
    files = _seed_files(seeds)
    if not files:
        raise SystemExit(f"seed rulebooks not found in {seeds}")
    for system, path in files:
        await service.import_document(GUILD, system, path.name, path.read_bytes(), "it")


async def evaluate(service: RulesService, show_misses: bool = False) -> dict[tuple[str, str], list[int]]:
    """``{(game, language): [questions, hit@1, hit@3]}``."""
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for game, lang, query, expected in QUESTIONS:
        hits = await service.search(GUILD, query, game, lang)
        row = table[(game, lang)]
        row[0] += 1
        row[1] += bool(hits) and answers(hits[0], expected)
        found = any(answers(hit, expected) for hit in hits[:3])
        row[2] += found
        if show_misses and not found:
            print(f"  miss {game}/{lang} {query!r}: "
                  + "; ".join(f"{h.section_id} {h.title[:30]!r}" for h in hits[:3]))
    return table


def report(name: str, table: dict[tuple[str, str], list[int]]) -> bool:
    """Print the table; whether every game meets the target."""
    print(f"{name} (load {os.getloadavg()[0]:.1f})")
    print(f"{'':14} {'n':>4} {'hit@1':>7} {'hit@3':>7}")
    ok = True
    games = sorted({g for g, _ in table})
    for label, keys in ([(g, [k for k in table if k[0] == g]) for g in games]
                        + [(f"lang {lang}", [k for k in table if k[1] == lang]) for lang in ("it", "en")]
                        + [("all", list(table))]):
        n = sum(table[k][0] for k in keys)
        h1 = sum(table[k][1] for k in keys) / n
        h3 = sum(table[k][2] for k in keys) / n
        if label in games and h3 < TARGET:
            ok = False
        print(f"{label:14} {n:4d} {h1:7.1%} {h3:7.1%}")
    print(f"target hit@3 ≥ {TARGET:.0%} on every game: {'met' if ok else 'NOT met'}")
    print()
    return ok


async def main(seeds: Path, postgres: str | None, show_misses: bool) -> None:
    print(f"{len(QUESTIONS)} questions; machine load (1, 5, 15 min): "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    backends = [("SQLite", None)] + ([("PostgreSQL", postgres)] if postgres else [])
    async with AsyncExitStack() as stack:
        for name, url in backends:
            store = await stack.enter_async_context(_store(url))
            service = RulesService(store)
            _DIGESTS.clear()
            await _prepare(service, seeds)
            report(name, await evaluate(service, show_misses))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds")
    parser.add_argument("--postgres", metavar="URL", default=os.environ.get("TAVOLO_TEST_POSTGRES") or None)
    parser.add_argument("--misses", action="store_true", help="print the questions whose top three miss")
    args = parser.parse_args()
    asyncio.run(main(args.seeds, args.postgres, args.misses))
