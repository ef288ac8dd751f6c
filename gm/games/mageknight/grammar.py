"""Words that agree with the enemy or unit a line is about: "Tusk Raiders are defeated", "Megere della
Palude sono sconfitte", "Arcieri delle Colline prendono 1 Ferita".

A template cannot tell a plural or a feminine name from its letters, so the content says it
(``Named.plural`` for English, ``Named.form_it`` for Italian) and events carry it (``forms``, from
``rules_base.name_forms``: a line read later, with the pack gone, still agrees). A template whose subject
is ``{enemy}`` or ``{unit}`` picks its verbs with ``{enemy_n|…|…}`` (1 singular, 2 plural) and takes the
words that also have a gender ready made: ``{enemy_defeated}`` is ``mk.agree.defeated.<form>`` in the
reader's language ("sconfitte" for a feminine plural).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from common.i18n import normalize, t
from engines.mageknight.content import Form, Named

Word = Literal["defeated", "blocked", "discarded", "wounded"]  # mk.agree.<word>.<form>
FORMS: tuple[str, ...] = get_args(Form)
# The subject parameters, with the form an Italian reader assumes when the content says nothing: an enemy is
# "il nemico", a unit "l'Unità". English words have no gender: singular unless the name is a plural.
DEFAULT_IT: dict[str, Form] = {"enemy": "ms", "unit": "fs"}
WORDS: dict[str, tuple[Word, ...]] = {"enemy": ("defeated", "blocked", "discarded"), "unit": ("wounded",)}


def number(form: str) -> int:
    """For a ``{x|singular|plural}`` selector: 1 for a singular form, 2 for a plural one."""
    return 2 if form.endswith("p") else 1


def agreeing(word: Word, form: Form, lang: str) -> str:
    """"sconfitte": the word in the form of the name it goes with."""
    return t(f"mk.agree.{word}.{form}", lang)


def words(subject: str, form: Form, lang: str) -> dict[str, Any]:
    """The parameters a line about ``subject`` (``enemy`` or ``unit``) of that form agrees with."""
    out: dict[str, Any] = {f"{subject}_n": number(form)}
    for word in WORDS[subject]:
        out[f"{subject}_{word}"] = agreeing(word, form, lang)
    return out


def default_form(subject: str, lang: str) -> Form:
    return DEFAULT_IT[subject] if normalize(lang) == "it" else "ms"


def of_thing(subject: str, thing: Named | None, lang: str) -> dict[str, Any]:
    """Agreement with a token or unit card the caller holds (lines worded from the position)."""
    form = thing.form(normalize(lang)) if thing is not None else default_form(subject, lang)
    return words(subject, form, lang)


def of_event(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """Agreement with the enemy and the unit an event names, from the ``forms`` it carries (names not in it
    have the usual form); {} when it names neither."""
    forms = params.get("forms")
    known: dict[str, Any] = forms if isinstance(forms, dict) else {}
    out: dict[str, Any] = {}
    for subject in WORDS:
        name = params.get(subject)
        if not isinstance(name, str) or not name:
            continue
        own = known.get(name)
        form = own.get(normalize(lang)) if isinstance(own, dict) else None
        out.update(words(subject, form if form in FORMS else default_form(subject, lang), lang))
    return out


__all__ = ["number", "of_event", "of_thing", "words"]
