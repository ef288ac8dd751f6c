"""Turning failures into replies: domain errors explain themselves, bugs get an id."""

from __future__ import annotations

import logging
import uuid

from common.i18n import has, humanize, t
from engines.core.errors import RuleError, TavoloError
from gm.reply import Button, Reply

log = logging.getLogger("tavolo.errors")


def rule_button(system: str, section: str, lang: str) -> Button:
    """A button that opens the rules section an error cites (handled by the rules cog)."""
    return Button(label=t("common.show_rule", lang, rule=section),
                  custom_id=f"tv1:rules:show:{system}:{section}")


def worded(params: dict[str, object], lang: str) -> dict[str, object]:
    """Engines name things by locale key (``phase_key="km.phase.turn"``) so no internal word reaches
    a player: each ``<name>_key`` that is a known key fills ``<name>`` in the reader's language."""
    out = dict(params)
    plain = {k: v for k, v in params.items() if not k.endswith("_key")}
    for name, value in params.items():
        if name.endswith("_key") and isinstance(value, str) and has(value, lang):
            # the named text may use the others, game terms in the reader's words
            out[name[: -len("_key")]] = t(value, lang, **humanize(plain, lang, value.split(".", 1)[0]))
    return out


def error_reply(exc: TavoloError, lang: str, system: str | None = None) -> Reply:
    message = t(exc.key, lang, **worded(exc.params, lang))
    reply = Reply(text=t("common.error_prefix", lang, message=message), ephemeral=True, is_error=True)
    if isinstance(exc, RuleError) and exc.rule:
        reply.text += " " + t("common.rule_ref", lang, rule=exc.rule)
        if system:
            reply.buttons.append(rule_button(system, exc.rule, lang))
    return reply


def unexpected_reply(exc: BaseException, lang: str, where: str) -> Reply:
    """Log the traceback under a short id the user can quote; never show internals."""
    error_id = uuid.uuid4().hex[:8]
    log.error("unexpected error %s in %s", error_id, where, exc_info=exc)
    return Reply(text=t("common.unexpected", lang, error_id=error_id), ephemeral=True, is_error=True)
