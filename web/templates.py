"""The page's HTML: every text that reaches it passes through ``esc`` (``html.escape`` with quotes).

No template engine: the page is one fixed shape, and a helper that escapes everything it is given is
easier to check than a language with a way around escaping. The page carries no inline script or
style (the Content-Security-Policy forbids both): the timeline's behaviour is ``static/web.js`` and
reads what it needs from ``data-`` attributes, themselves escaped.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from common.i18n import t
from gm.table.model import system_name
from web.pages import LogEntry

LANGS = ("en", "it")
# Glyphs the common fonts hold (DejaVu has them; the media-control block U+23E9-23EF is missing from many
# systems without an emoji font and showed as empty boxes in Debian's Chromium).
BUTTONS = (("first", "first", "&#x21E4;"), ("prev-turn", "prev_turn", "&#x25C0;&#x25C0;"),
           ("prev", "prev", "&#x25C0;"), ("play", "play", "&#x25B6;&#x275A;&#x275A;"), ("next", "next", "&#x25B6;"),
           ("next-turn", "next_turn", "&#x25B6;&#x25B6;"), ("last", "last", "&#x21E5;"))


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _log(entries: Iterable[LogEntry], step: int, lang: str) -> str:
    items = []
    for entry in entries:
        lines = "".join(f"<li>{esc(line)}</li>" for line in entry.lines)
        hidden = " hidden" if entry.step > step else ""
        items.append(f'<li data-step="{entry.step}"{hidden}><span class="who">{esc(entry.who)}</span> '
                     f'<span class="act">{esc(entry.action)}</span>'
                     + (f"<ul>{lines}</ul>" if lines else "") + "</li>")
    return "".join(items) or f'<li class="empty">{esc(t("web.log_empty", lang))}</li>'


def _panels(panels: list[dict[str, Any]], lang: str) -> str:
    if not panels:
        return ""
    blocks = "".join(f'<h3>{esc(p["name"])}</h3><pre>{esc(p["text"])}</pre>' for p in panels)
    return f'<h2>{esc(t("web.panels", lang))}</h2>{blocks}'


def page(*, token: str, lang: str, system: str, game_id: int, audience_line: str, info: dict[str, Any],
         players: list[dict[str, Any]], entries: list[LogEntry], turn_starts: list[int]) -> str:
    """The whole page of one game at its latest position (the timeline's script moves it from there)."""
    step, count = info["step"], info["count"]
    title = t("web.title", lang, game=system_name(system), id=game_id)
    base = f"/g/{esc(token)}"
    switch = " ".join(
        f'<a href="?lang={code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="true"' if code == lang else "") + f">{esc(t('web.language', code))}</a>"
        for code in LANGS)
    player_items = "".join(
        f'<li data-seat="{p["seat"]}"' + (' class="turn"' if p["seat"] in info["waiting"] else "")
        + f'>{esc(p["name"])}' + (f' <span class="team">({esc(p["team"])})</span>' if p["team"] else "") + "</li>"
        for p in players)
    labels = {key: esc(t(f"web.{key}", lang)) for key in (
        "first", "prev_turn", "prev", "next", "next_turn", "last", "play", "pause", "speed", "timeline", "slider",
        "players", "log", "keys", "live", "read_only")}
    buttons = "\n".join(
        f'<button type="button" id="{ident}"' + (' aria-pressed="false"' if ident == "play" else "")
        + f' aria-label="{labels[label]}" title="{labels[label]}">{glyph}</button>' for ident, label, glyph in BUTTONS)
    speed = (f'<label class="speed">{labels["speed"]} <select id="speed">'
             + "".join(f'<option value="{x}">{x}&#xD7;</option>' for x in (1, 2, 4)) + "</select></label>")
    position = esc(t("web.position", lang, n="{n}", count="{count}"))  # the script fills it in
    return f"""<!doctype html>
<html lang="{esc(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{esc(title)}</title>
<link rel="stylesheet" href="/static/web.css">
<script src="/static/web.js" defer></script>
</head>
<body data-base="{base}" data-lang="{esc(lang)}" data-step="{step}" data-count="{count}"
 data-turns="{esc(",".join(map(str, turn_starts)))}" data-position="{position}"
 data-play="{labels["play"]}" data-pause="{labels["pause"]}">
<header>
<h1>{esc(title)}</h1>
<nav aria-label="{esc(t("web.language_nav", lang))}">{switch}</nav>
<p class="audience">{esc(audience_line)}</p>
</header>
<main>
<section class="board" aria-labelledby="summary">
<figure>
<img id="board" src="{base}/img/{step}.png?lang={esc(lang)}" alt="{esc(info["alt"])}">
<figcaption id="summary">{esc(info["summary"])}</figcaption>
</figure>
<p id="status" aria-live="polite">{esc(info["status"])}</p>
<div class="timeline" role="group" aria-label="{labels["timeline"]}">
{buttons}
{speed}
<input type="range" id="slider" min="0" max="{max(count - 1, 0)}" value="{step}" aria-label="{labels["slider"]}">
<output id="position" aria-live="polite">{esc(t("web.position", lang, n=step + 1, count=count))}</output>
</div>
<p class="keys">{labels["keys"]}</p>
</section>
<aside>
<section><h2>{labels["players"]}</h2><ul id="players">{player_items}</ul></section>
<section id="panels">{_panels(info["panels"], lang)}</section>
<section><h2>{labels["log"]} <span id="live" hidden>{labels["live"]}</span></h2>
<ol id="log">{_log(entries, step, lang)}</ol></section>
</aside>
</main>
<footer><p>{labels["read_only"]}</p></footer>
</body>
</html>
"""
