"""Turning failures into replies: domain errors explain themselves, bugs get an id."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from common.i18n import Phrase, has, humanize, local_names, t
from engines.core.errors import RuleError, TavoloError
from gm.reply import Button, Reply

log = logging.getLogger("tavolo.errors")


Citer = Callable[[str, str], str | None]  # (rule id an engine raised, reader's language) -> words
_CITERS: dict[str, Citer] = {}


def register_citation(system: str, citer: Citer) -> None:
    """A game whose rule ids are not what a player can look up (Mage Knight cites its digest's section
    ids, ``ranged-siege-phase``) words its citations itself: the section's title in the reader's
    language. Games that cite rule numbers players find in their rulebook (``313.1``) need nothing."""
    _CITERS[system] = citer


def cite(system: str | None, rule: str, lang: str) -> str:
    """What a player reads for ``rule``: the game's own words for it, else the id as the engine gave it."""
    citer = _CITERS.get(system or "")
    return (citer(rule, lang) if citer is not None else None) or rule


def rule_button(system: str, section: str, lang: str) -> Button:
    """A button that opens the rules section an error cites (handled by the rules cog)."""
    return Button(label=t("common.show_rule", lang, rule=cite(system, section, lang))[:80],
                  custom_id=f"tv1:rules:show:{system}:{section}")


def _joined(params: dict[str, object]) -> dict[str, object]:
    """A list of names (given as a list so each is worded in the reader's language) reads "a, b"."""
    return {k: ", ".join(str(x) for x in v) if isinstance(v, list | tuple) and not isinstance(v, Phrase) else v
            for k, v in params.items()}


def worded(params: dict[str, object], lang: str) -> dict[str, object]:
    """Engines name things by locale key (``phase_key="km.phase.turn"``) so no internal word reaches
    a player: each ``<name>_key`` that is a known key fills ``<name>`` in the reader's language."""
    params = local_names(params, lang)  # content names in the reader's language (``names_it``)
    out = dict(params)
    plain = {k: v for k, v in params.items() if not k.endswith("_key")}
    for name, value in params.items():
        if name.endswith("_key") and isinstance(value, str) and has(value, lang):
            # the named text may use the others, game terms in the reader's words
            out[name[: -len("_key")]] = t(value, lang, **humanize(plain, lang, value.split(".", 1)[0]))
    return out


def error_reply(exc: TavoloError, lang: str, system: str | None = None) -> Reply:
    message = t(exc.key, lang, **_joined(worded(exc.params, lang)))
    reply = Reply(text=t("common.error_prefix", lang, message=message), ephemeral=True, is_error=True)
    if isinstance(exc, RuleError) and exc.rule:
        reply.text += " " + t("common.rule_ref", lang, rule=cite(system, exc.rule, lang))
        if system:
            reply.buttons.append(rule_button(system, exc.rule, lang))
    return reply


def unexpected_reply(exc: BaseException, lang: str, where: str) -> Reply:
    """Log the traceback under a short id the user can quote; never show internals."""
    error_id = uuid.uuid4().hex[:8]
    log.error("unexpected error %s in %s", error_id, where, exc_info=exc)
    return Reply(text=t("common.unexpected", lang, error_id=error_id), ephemeral=True, is_error=True)
