"""Issue 33: ranking as players ask, on SQLite and PostgreSQL (the ``store`` fixture runs both when
TAVOLO_TEST_POSTGRES names a server): question words, verbs through the glossary, empty headings below
their children, the digest and the rulebook both in the top three; and ``/rules show`` of a parent."""

from __future__ import annotations

from pathlib import Path

import yaml

from db.store import Store
from gm.rules.search import Glossary
from gm.rules.service import RulesService, first_line

GUILD = 7
GLOSSARY = {
    "common": [
        {"it": ["ritiro", "rilancio", "ritirare", "rilanciare"], "en": ["reroll", "re-roll"]},
        {"it": ["riappare", "riapparire", "risorgere"], "en": ["respawn", "respawns"]},
        {"it": ["dado", "dadi"], "en": ["die", "dice"]},
    ],
}
# A synthetic rulebook shaped like the unnumbered seeds: an empty heading over two sections, a reroll
# section whose heading is the noun, a defeat section that says where a hero comes back.
RULEBOOK = """PREPARATIVI

IL TABELLONE
Il tabellone va al centro del tavolo con le tessere delle terre girate a faccia in giù; ogni
tessera si scopre quando una pedina la raggiunge per la prima volta durante il proprio turno.

LE PEDINE
Ogni giocatore prende le pedine del proprio colore e una plancia con i segnalini, poi mette la
pedina del suo eroe nella città di partenza indicata dalla plancia stessa.

ALTRE REGOLE

IL RILANCIO
Una carta può permettere a un eroe di prendere qualsiasi dado già tirato e tirarlo di nuovo una volta.
Il nuovo risultato sostituisce il vecchio anche quando è peggiore, e nessun dado si ritira due volte.

LA CADUTA DEGLI EROI
Un eroe caduto torna sul tabellone nella sua città di partenza all'inizio del turno seguente, e risorge
con metà della sua salute.

IL MERCATO
Al mercato si comprano pozioni e mantelli con le monete d'oro guadagnate nelle missioni; ogni
oggetto comprato va nella borsa dell'eroe, che ne contiene al massimo quattro alla volta.
"""
DIGEST = {  # five short answers that say "ritirare i dadi" in title and text: each outranks the rulebook
    "system": "wowboard",
    "language": "it",
    "title": "Digest di prova",
    "sections": [
        {"id": f"reroll-{n}", "title": f"Ritirare i dadi ({topic})",
         "text": f"Ritirare i dadi {topic}: i dadi ritirati si ritirano una volta sola."}
        for n, topic in enumerate(("carte", "limiti", "tempi", "combattimento", "mercante"), start=1)
    ] + [  # other answers, so that the reroll words are rare in the corpus (bm25 discounts common words)
        {"id": f"other-{n}", "title": topic, "text": f"{topic}: una regola che non parla di quella cosa."}
        for n, topic in enumerate(("Viaggio", "Riposo", "Missioni", "Livelli", "Oro", "Borsa", "Eventi", "Fazioni",
                                   "Sfida", "Città", "Mappa", "Vittoria"), start=1)
    ],
}


async def _service(store: Store, tmp_path: Path, digest: dict | None = None) -> RulesService:
    folder = tmp_path / "digests"
    folder.mkdir()
    if digest:
        (folder / "wowboard.it.yaml").write_text(yaml.safe_dump(digest, allow_unicode=True), encoding="utf-8")
    service = RulesService(store, digests_dir=folder, glossary=Glossary.from_data(GLOSSARY))
    await service.load_builtin_digests()
    await service.import_document(GUILD, "wowboard", "regole.txt", RULEBOOK.encode(), "it")
    return service


async def test_issue33_question_words_and_verbs_find_the_reroll_section(store: Store, tmp_path: Path) -> None:
    service = await _service(store, tmp_path)
    for query in ("posso ritirare i dadi", "come si rilanciano i dadi", "can i reroll dice"):
        hits = await service.search(GUILD, query, "wowboard", "it")
        assert hits and hits[0].section_id == "il-rilancio", (query, [h.section_id for h in hits])


async def test_issue33_respawn_verbs_find_the_defeat_section(store: Store, tmp_path: Path) -> None:
    service = await _service(store, tmp_path)
    for query in ("dove riappare un eroe", "where does a hero respawn"):
        hits = await service.search(GUILD, query, "wowboard", "it")
        assert "la-caduta-degli-eroi" in [h.section_id for h in hits[:3]], (query, [h.section_id for h in hits])


async def test_issue33_an_empty_heading_never_ranks_above_its_children(store: Store, tmp_path: Path) -> None:
    service = await _service(store, tmp_path)
    hits = [h.section_id for h in await service.search(GUILD, "preparativi tabellone pedine", "wowboard", "it")]
    assert "preparativi" not in hits or all(
        hits.index("preparativi") > hits.index(kid) for kid in ("il-tabellone", "le-pedine") if kid in hits), hits
    hits = [h.section_id for h in await service.search(GUILD, "altre regole rilancio", "wowboard", "it")]
    assert {"altre-regole", "il-rilancio"} <= set(hits) and hits.index("il-rilancio") < hits.index("altre-regole"), hits


async def test_issue33_digest_and_rulebook_share_the_top_three(store: Store, tmp_path: Path) -> None:
    service = await _service(store, tmp_path, DIGEST)
    hits = await service.search(GUILD, "ritirare i dadi", "wowboard", "it")
    digests = {s.document_id for s in await service.sources(GUILD) if s.source == "builtin"}
    top = [(h.document_id in digests, h.section_id) for h in hits[:3]]
    assert any(digest for digest, _ in top), top
    assert (False, "il-rilancio") in top, top


async def test_issue33_show_of_a_parent_lists_its_children_with_their_first_line(
    store: Store, tmp_path: Path
) -> None:
    service = await _service(store, tmp_path)
    for lang, label in (("en", "Sections under it"), ("it", "Sezioni contenute")):
        reply = await service.show_reply(GUILD, "altre-regole", "wowboard", lang)
        text = reply.text or ""
        assert label in text
        for title, sid in (("IL RILANCIO", "il-rilancio"), ("LA CADUTA DEGLI EROI", "la-caduta-degli-eroi"),
                           ("IL MERCATO", "il-mercato")):
            assert f"**{title}** ({sid})" in text, text
        # one line of each child, not its whole text
        assert "Una carta può permettere" in text and "metà della sua salute" not in text


def test_first_line_stops_at_a_sentence_or_a_word() -> None:
    assert first_line("Uno. Due.") == "Uno."
    assert first_line("riga uno\nriga due") == "riga uno"
    long = "parola " * 40
    cut = first_line(long, 50)
    assert cut.endswith("…") and len(cut) <= 51 and " parol…" not in cut
    assert first_line("") == ""


MERCHANT_BOOK = "\n\n".join(
    ["IL MERCANTE\nIl mercante vende oggetti rari a chi visita la sua bottega in città, e compra quelli che "
     "gli eroi non vogliono più portare con sé."]
    + [f"{title}\nDurante {what} si pesca la prima carta dal mazzo del mercante e la si mette scoperta "
       f"accanto al tabellone, dove resta fino alla fine del turno."
       for title, what in (("LA PREPARAZIONE", "la preparazione"), ("GLI EVENTI", "un evento"),
                           ("IL RIPOSO", "il riposo"), ("LE MISSIONI", "una missione"),
                           ("IL VIAGGIO", "un viaggio"), ("LA CITTÀ", "una visita in città"))]
)


async def test_issue33_a_heading_naming_the_question_outranks_passing_mentions(store: Store, tmp_path: Path) -> None:
    """"mazzo mercante": six sections say both words in passing; the one headed by the merchant says one."""
    folder = tmp_path / "none"
    folder.mkdir()
    service = RulesService(store, digests_dir=folder, glossary=Glossary.from_data(GLOSSARY))
    await service.import_document(GUILD, "wowboard", "mercante.txt", MERCHANT_BOOK.encode(), "it")
    hits = await service.search(GUILD, "mazzo del mercante", "wowboard", "it")
    assert hits and hits[0].section_id == "il-mercante", [h.section_id for h in hits]
