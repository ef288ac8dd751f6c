"""Discord's limits, checked on what the bot sends: messages, embeds, components,
autocomplete choices and application commands (a useful subset of the documented ones).

A payload Discord would reject must fail the test, not pass silently against a lenient
fake; the server raises :class:`Invalid` from here and answers 400 like Discord.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord.protocol import COMMAND_NAME, DISCORD_LOCALES, OPT_GROUP, OPT_SUB


class Invalid(Exception):
    """A request Discord would reject with 400 Invalid Form Body."""

    def __init__(self, errors: list[str], code: int = 50035) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors
        self.code = code



def _check_len(errors: list[str], where: str, value: Any, low: int, high: int) -> None:
    n = len(value) if isinstance(value, str) else -1
    if not (low <= n <= high):
        errors.append(f"{where}: length must be {low}..{high}, got {n if n >= 0 else type(value).__name__}")


def validate_message(data: dict[str, Any], n_files: int, *, creating: bool) -> list[str]:
    """Errors Discord would report for a message create/edit payload."""
    errors: list[str] = []
    content = data.get("content")
    if content is not None and len(str(content)) > 2000:
        errors.append(f"content: must be 2000 or fewer in length (got {len(str(content))})")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        errors.append("embeds: must be 10 or fewer")
    for i, e in enumerate(embeds):
        total = 0
        for key, limit in (("title", 256), ("description", 4096)):
            if e.get(key) is not None:
                if len(str(e[key])) > limit:
                    errors.append(f"embeds[{i}].{key}: must be {limit} or fewer in length")
                total += len(str(e[key]))
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embeds[{i}].fields: must be 25 or fewer")
        for j, f in enumerate(fields):
            _check_len(errors, f"embeds[{i}].fields[{j}].name", f.get("name"), 1, 256)
            _check_len(errors, f"embeds[{i}].fields[{j}].value", f.get("value"), 1, 1024)
            total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
        footer = (e.get("footer") or {}).get("text")
        if footer is not None:
            if len(footer) > 2048:
                errors.append(f"embeds[{i}].footer.text: must be 2048 or fewer in length")
            total += len(footer)
        author = (e.get("author") or {}).get("name")
        if author is not None:
            if len(author) > 256:
                errors.append(f"embeds[{i}].author.name: must be 256 or fewer in length")
            total += len(author)
        if total > 6000:
            errors.append(f"embeds[{i}]: total text must be 6000 or fewer (got {total})")
    components = data.get("components") or []
    is_v2 = bool(int(data.get("flags") or 0) & (1 << 15))
    if not is_v2:
        if len(components) > 5:
            errors.append("components: must be 5 or fewer action rows")
        seen: set[str] = set()
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errors.append(f"components[{i}]: top-level components must be action rows")
                continue
            children = row.get("components") or []
            kinds = {c.get("type") for c in children}
            if not children:
                errors.append(f"components[{i}]: an action row cannot be empty")
            if kinds <= {2} and len(children) > 5:
                errors.append(f"components[{i}]: must be 5 or fewer buttons")
            if kinds - {2} and len(children) != 1:
                errors.append(f"components[{i}]: a select must be alone in its row")
            for j, c in enumerate(children):
                errors += _validate_component(c, f"components[{i}].components[{j}]", seen)
    attachments = data.get("attachments")
    if creating and not (content or embeds or components or n_files or data.get("sticker_ids") or attachments):
        errors.append("Cannot send an empty message")
    return errors


def _validate_component(c: dict[str, Any], where: str, seen: set[str]) -> list[str]:
    errors: list[str] = []
    if "custom_id" in c:
        _check_len(errors, f"{where}.custom_id", c["custom_id"], 1, 100)
        if c["custom_id"] in seen:
            errors.append(f"{where}.custom_id: duplicate custom_id {c['custom_id']!r}")
        seen.add(c["custom_id"])
    if c.get("type") == 2:
        if c.get("style") == 5:
            if not c.get("url") or "custom_id" in c:
                errors.append(f"{where}: link buttons need a url and no custom_id")
        elif "custom_id" not in c:
            errors.append(f"{where}: buttons need a custom_id")
        if c.get("label") is not None and len(c["label"]) > 80:
            errors.append(f"{where}.label: must be 80 or fewer in length")
        if not c.get("label") and not c.get("emoji"):
            errors.append(f"{where}: a button needs a label or an emoji")
    elif c.get("type") == 3:
        options = c.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.append(f"{where}.options: must be 1..25 options (got {len(options)})")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.append(f"{where}.options: values must be unique")
        for k, o in enumerate(options):
            _check_len(errors, f"{where}.options[{k}].label", o.get("label"), 1, 100)
            _check_len(errors, f"{where}.options[{k}].value", o.get("value"), 1, 100)
            if o.get("description") is not None:
                _check_len(errors, f"{where}.options[{k}].description", o["description"], 0, 100)
        if c.get("placeholder") is not None and len(c["placeholder"]) > 150:
            errors.append(f"{where}.placeholder: must be 150 or fewer in length")
        lo, hi = int(c.get("min_values", 1)), int(c.get("max_values", 1))
        if not (0 <= lo <= hi <= 25) or hi > max(len(options), 1):
            errors.append(f"{where}: min_values/max_values {lo}/{hi} invalid for {len(options)} options")
    return errors


def validate_choices(choices: Any) -> list[str]:
    errors: list[str] = []
    if not isinstance(choices, list):
        return ["data.choices: must be a list"]
    if len(choices) > 25:
        errors.append(f"data.choices: must be 25 or fewer (got {len(choices)})")
    for i, ch in enumerate(choices):
        _check_len(errors, f"data.choices[{i}].name", ch.get("name"), 1, 100)
        value = ch.get("value")
        if isinstance(value, str):
            _check_len(errors, f"data.choices[{i}].value", value, 1, 100)
        for loc in ch.get("name_localizations") or {}:
            if loc not in DISCORD_LOCALES:
                errors.append(f"data.choices[{i}].name_localizations: invalid locale {loc!r}")
    return errors


def validate_command(cmd: dict[str, Any]) -> list[str]:
    """Errors Discord would report when syncing one chat-input command."""
    errors: list[str] = []
    name = cmd.get("name", "")
    where = f"command {name!r}"
    kind = cmd.get("type", 1)

    def check_name(value: Any, place: str) -> None:
        if kind == 1 and (not isinstance(value, str) or not COMMAND_NAME.match(value) or value != value.lower()):
            errors.append(f"{place}: invalid name {value!r} (1-32 lowercase letters, digits, - or _)")

    def check_localizations(item: dict[str, Any], place: str) -> None:
        for key in ("name_localizations", "description_localizations"):
            for loc, text in (item.get(key) or {}).items():
                if loc not in DISCORD_LOCALES:
                    errors.append(f"{place}.{key}: invalid locale {loc!r}")
                if key == "name_localizations":
                    check_name(text, f"{place}.{key}.{loc}")
                else:
                    _check_len(errors, f"{place}.{key}.{loc}", text, 1, 100)

    def size(item: dict[str, Any], key: str) -> int:
        values = [str(item.get(key) or ""), *map(str, (item.get(f"{key}_localizations") or {}).values())]
        return max(len(v) for v in values)

    total = 0

    def walk_options(options: list[dict[str, Any]], place: str) -> None:
        nonlocal total
        if len(options) > 25:
            errors.append(f"{place}.options: must be 25 or fewer")
        errors.extend(duplicate_names(options, f"{place}.options"))
        required_done = False
        for opt in options:
            oplace = f"{place}.{opt.get('name')}"
            check_name(opt.get("name"), oplace)
            _check_len(errors, f"{oplace}.description", opt.get("description"), 1, 100)
            check_localizations(opt, oplace)
            total += size(opt, "name") + size(opt, "description")
            if opt.get("type") in (OPT_SUB, OPT_GROUP):
                walk_options(opt.get("options") or [], oplace)
                continue
            if opt.get("required"):
                if required_done:
                    errors.append(f"{oplace}: required options must come before optional ones")
            else:
                required_done = True
            choices = opt.get("choices") or []
            if len(choices) > 25:
                errors.append(f"{oplace}.choices: must be 25 or fewer")
            if choices and opt.get("autocomplete"):
                errors.append(f"{oplace}: autocomplete and choices are exclusive")
            for ch in choices:
                total += size(ch, "name") + len(str(ch.get("value")))
                _check_len(errors, f"{oplace}.choices.name", ch.get("name"), 1, 100)

    check_name(name, where)
    if kind == 1:
        _check_len(errors, f"{where}.description", cmd.get("description"), 1, 100)
    check_localizations(cmd, where)
    total += size(cmd, "name") + size(cmd, "description")
    walk_options(cmd.get("options") or [], where)
    if total > 4000:
        errors.append(f"{where}: name/description/choice text totals {total} characters (max 4000)")
    return errors


def duplicate_names(items: list[dict[str, Any]], place: str) -> list[str]:
    """Siblings must have distinct names in every locale (a localized name falls back to the default)."""
    errors = []
    locales = {loc for item in items for loc in item.get("name_localizations") or {}}
    for loc in sorted(locales | {""}):
        seen: dict[str, str] = {}
        for item in items:
            name = (item.get("name_localizations") or {}).get(loc, item.get("name")) if loc else item.get("name")
            if name in seen:
                errors.append(
                    f"{place}: {item.get('name')!r} and {seen[name]!r} are both named {name!r} in {loc or 'default'}"
                )
            seen[str(name)] = str(item.get("name"))
    return errors



def require_valid_message(data: dict[str, Any], n_files: int, *, creating: bool) -> None:
    """Raise :class:`Invalid` with what Discord would report about a message create/edit payload."""
    errors = validate_message(data, n_files, creating=creating)
    if errors:
        raise Invalid(errors)
