"""Seeded generators of console lines for the fuzz harness.

Everything here is a pure function of a ``random.Random``: the same seed gives the same
lines, so a failure found by the harness is reproduced by running the same seed again.
Three families:

- ``RandomLines``: commands taken from the real command tree (names, options, types,
  choices, ranges) filled with plausible, boundary and hostile values;
- ``Mutator``: real lines (``tests/krosmaster/full_game.txt``, the README) changed a
  little: tokens dropped, duplicated, swapped, values moved to a neighbour, case
  flipped, truncated, random characters inserted;
- meta lines of the console itself (``/as``, ``/channel``, ``/lang``, ``/click``,
  ``/pick``, ``/complete``, ``/help``).

Real play (live games, lobbies, manual dice, GM overrides…) is driven by the harness,
which reads the game it plays; see ``real_play.py``.
"""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FULL_GAME = ROOT / "tests" / "krosmaster" / "full_game.txt"
README = ROOT / "README.md"

# ------------------------------------------------------------------ vocabulary
PLAYERS = ("alice", "bob", "carol", "dave")
GM_NAME = "judge"
CHANNELS = ("table", "fz1", "fz2", "fz3", "fz4", "fz5")
TEAMS = {
    "alice": "iron_warden, ember_witch, gale_archer, tide_healer",
    "bob": "bone_crusher, shadow_rogue, cloud_sage, mire_imp, root_druid",
}
FOUR_TEAMS = {
    "alice": "vesk_grifter, sage_baltus",
    "bob": "rimewarden, sleet_sprite",
    "carol": "iron_warden, ember_witch",
    "dave": "beast_caller, coinpurse",
}
FIGURINES = ("iron_warden", "ember_witch", "gale_archer", "tide_healer", "stone_golem", "shadow_rogue",
             "bone_crusher", "mire_imp", "cloud_sage", "root_druid", "lucky_gambler", "frost_monk",
             "iron_warden_veteran", "beast_caller", "gear_tinker", "snare_setter", "rimewarden", "sleet_sprite",
             "ember_monk", "coinpurse", "sage_baltus", "vesk_grifter")
SPELLS = ("backstab", "blood_price", "build_turret", "call_bristlepup", "chill", "cleave", "coin_toss",
          "crooked_jab", "crush", "dash_cut", "drop_keg", "fire_bolt", "flame_breath", "focus", "frost_grip",
          "glacial_gust", "ground_slam", "grow", "hearth_glow", "hex", "hour_hand", "jackpot", "lancet_jab",
          "lay_snare", "meditate", "mending_wave", "mind_spark", "nip", "palm", "pull_gust", "pyre", "quake",
          "recoil_blast", "repel_shot", "rime_lance", "rock_fist", "root_grasp", "shadow_step", "shield_bash",
          "shovel_toss", "spanner", "splash", "swindle", "thorn_dart", "thorns", "tide_gift", "volley",
          "whip_crack", "wind_arrow")
ARENAS = ("sunlit_glade", "old_ruins", "frigost_rink")
SYSTEMS = ("krosmaster", "wowminis", "warlord", "mageknight", "wowboard", "race", "chess", "KROSMASTER",
           " krosmaster", "krosmaster ", "kros", "")
CHOOSE_WORDS = ("north", "south", "east", "west", "lock", "dodge", "armor", "critical", "lock,armor",
                "armor,critical", "critical,critical", "dodge,armor", "0", "1", "yes", "no", "pass")
REWARD_WORDS = ("granite1", "granite2", "granite", "ivory1", "ebony1", "r0", "reward", "1", "0")
FACE_WORDS = ("lock", "dodge", "armor", "critical", "blank", "ar", "crit", "Lock", "LOCK", "schivata",
              "blocco", "armatura", "critico", "tension")
DICE_VALID = ("1d6", "4d6kh3", "4d6kh3 + 2", "2d20kl1", "d20", "3d6!", "d%", "10d10>7", "4dF", "1d6 # hit",
              "2d6+1d8-3", "(2d6+3)*2", "d100", "8d6ro1", "5d6r<2", "1d20 + 5 fire", "3d6e6", "2d6kh1kl1",
              "1000d6", "100d100", "1d1", "0d6")
DICE_HOSTILE = ("500d10000kh1kh1kh1", "1d0", "0d0", "d%", "(((((", ")))))", "1d6" * 40, "1d" + "9" * 60,
                "9" * 400 + "d6", "999999999d999999999", "1d6!!!!!!", "1d1!", "1d2!!", "d", "dd", "kh", "1d6kh",
                "1d6kh-1", "1d6kh99999999999", "1d6r1r2r3r4r5r6", "1d6r<7", "2d6>0", "1d6/0", "1/0", "0/0",
                "2**99999", "2^99999", "9" * 5000, "-" * 300, "+" * 300, "(" * 300, "1d6" + "+1d6" * 74,
                "1d6e1", "1d1e1", "1dF!", "4d6kh3kl1dh1dl1", "1e9d6", "1.5d6", "-1d6", "1d-6", "d-1",
                "1d6 #" + "x" * 290, "1d6\x00", "𝟙d𝟞", "１d６", "²d⁶", "1d6 ‮", "NaN", "inf", "1d6 % 0",
                "{1d6}", "[1d6]", "1d6,1d6", "1d6;1d6", "1d6 && 1d6", "1d6kh1" * 50)
SECTIONS = ("310", "310.2e", "101", "103.2", "306.4", "701.1", "0", "-1", "999999", "310.2e.4.5.6", "..",
            "a.b.c", "x" * 200, "3" * 400, "310 ", " 310", "3١٠", "**", "%", "'", '"', "lock", "§310",
            "krosmaster:310", "../../etc/passwd", "a\x00b", "310\x07", "\x1b[31m310")  # NUL: issue 28.3
QUERIES = ("lock", "tackle", "blocco", "AND", "OR", "NOT", "NEAR(a b, -1)", "lock*", "*", "\"", "\"lock", "a:b",
           "title:lock", "body:lock", "{title}:x", "^lock", "-lock", "lock -", "(", ")", "NEAR", "lo\"ck",
           "x" * 300, "🎲", "é", "310.2e", "310", "lock OR OR", "'", "\\", "%", "_", "lock AND NOT dodge",
           "\x00", "\u200b", "ab" * 150, "NEAR(lock dodge, 99999999999)", "lock + dodge")
OPTION_WORDS = {
    "mode": ("duel", "ffa", "teams", "FFA", "x", "", "2v2"),
    "arena": (*ARENAS, "x", "", "../old_ruins"),
    "format": ("limited", "constructed", "x", ""),
    "pack": ("nothere", "duelists", "", "x" * 100),
    "dice": ("manual", "bot", "x", ""),
    "scenery": ("destructible", "fixed", "x"),
    "sides": ("choose", "fixed", "x"),
    "starting_gg": ("1", "12", "0", "13", "-1", "x", "1" * 50, "²"),
    "rewards": ("on", "off", "maybe"),
}
# Values a user could reach for; the space-free ones are hostile without the quotes.
UNICODE = ("é", "È", "ß", "ñ", "🎲", "👩‍👩‍👧", "🏳️‍🌈", "\u202e", "\u202d", "مرحبا", "שלום", "\x00", "\u200b",
           "\u200d", "\ufeff", "e\u0301", "𝔘𝔫𝔦", "Ω", "ｆｕｌｌ", "\t", "\\", "'", '"', "`", "*", "_", "~", "||",
           "@everyone", "@here", "<@123>", "<#1>", "<@!99999999999999999999999>", "<@&5>", "{error_id}", "{0}",
           "{}", "{x|y|z}", "%s", "%(x)s", "${x}", "..", "/", ";", "--", "\x07", "\x1b[31m", "²", "³", "½", "٣",
           "߀", "Ⅻ", "ℵ", "\u0085", "\u00a0", "\u3000", "\ud7ff", "\U0010ffff", "\uffff", "\ufffd", "ǅ", "İ",
           "ﬃ", "ᾏ", "ⓐ", "ｌｏｃｋ")
FILES_ABSURD = ("~nouser/x", "~nouser", "~", "~/", "/nonexistent/x.json", "nothere.json", "x" * 300 + ".json",
                "/" + "a" * 5000, ("a/" * 2100) + "x", "\x00", "a\x00b.json", "/dev/null", "/", ".", "..",
                "/tmp", "C:\\x.json", "file:///etc/passwd", "http://example.com/x.json", "-", "*", "~root/../x",
                "é.json", "🎲.yaml", "")


# Digits that are not ASCII: superscripts and circled ones (str.isdigit() but int() refuses
# them), and Arabic-Indic, fullwidth and mathematical ones (int() reads some of them).
LOOKALIKES = {d: ("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(d)], "⓪①②③④⑤⑥⑦⑧⑨"[int(d)], "٠١٢٣٤٥٦٧٨٩"[int(d)], "０１２３４５６７８９"[int(d)],
                  "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"[int(d)]) for d in "0123456789"}


# -------------------------------------------------------------- the command tree
@dataclass(frozen=True)
class ParamSpec:
    name: str
    kind: str  # discord.AppCommandOptionType name: string, integer, number, boolean, user, attachment…
    required: bool
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    autocomplete: bool = False


@dataclass(frozen=True)
class CommandSpec:
    path: tuple[str, ...]
    params: tuple[ParamSpec, ...]

    @property
    def text(self) -> str:
        return "/" + " ".join(self.path)


def command_specs(tree: Any) -> list[CommandSpec]:
    """Every leaf command of the bot's real tree, in a stable order."""
    from discord import app_commands

    specs = []
    for command in tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        params = tuple(
            ParamSpec(name=p.display_name, kind=p.type.name, required=p.required,
                      choices=tuple(str(c.value) for c in (p.choices or ())), low=p.min_value, high=p.max_value,
                      autocomplete=bool(p.autocomplete))
            for p in command._params.values())
        specs.append(CommandSpec(tuple(command.qualified_name.split()), params))
    return sorted(specs, key=lambda s: s.path)


# ------------------------------------------------------------------ value kits
def huge(rng: random.Random, low: int = 1, high: int = 5000) -> str:
    size = rng.randint(low, high)
    alphabet = rng.choice(("x", "ab ", "é🎲", "0123456789", "A1 ", "\u200b", "'\"", "lock ", "d6+"))
    return (alphabet * (size // len(alphabet) + 1))[:size]


def random_text(rng: random.Random, size: int | None = None) -> str:
    """Characters from anywhere in Unicode but surrogates (no UTF-8 input can hold one)
    and line breaks (a console line is one line)."""
    size = rng.randint(1, 12) if size is None else size
    out = []
    for _ in range(size):
        band = rng.random()
        if band < 0.45:
            code = rng.randint(0x20, 0x7E)
        elif band < 0.6:
            code = rng.randint(0, 0x1F)
        elif band < 0.85:
            code = rng.randint(0xA0, 0x2FFF)
        else:
            code = rng.randint(0x3000, 0x10FFFF)
        if 0xD800 <= code <= 0xDFFF or chr(code) in "\n\r":
            code = 0x20
        out.append(chr(code))
    return "".join(out)


def hostile(rng: random.Random) -> str:
    """A value no user should type, but some will."""
    roll = rng.random()
    if roll < 0.14:
        return ""
    if roll < 0.26:
        return huge(rng)
    if roll < 0.45:
        return rng.choice(UNICODE) * rng.randint(1, 3)
    if roll < 0.60:
        return random_text(rng)
    if roll < 0.70:
        return rng.choice(("'", '"', "\"abc", "'abc", "a\"b", "\\", "\\\"", "\"\"\"", "''"))
    if roll < 0.82:
        return rng.choice(("-1", "0", "-0", str(2**63), str(-(2**63) - 1), "9" * rng.randint(20, 5000), "1e308",
                           "-1e308", "1e-320", "nan", "NaN", "inf", "-inf", "0x10", "1_000", "+5", " 5 ", "５",
                           "²", "١٢", "3.5", "1/2", "true", "None", "null"))
    if roll < 0.9:
        return rng.choice(("<@123>", "<@!123>", "<@0>", "<@" + "9" * 40 + ">", "<#501>", "@alice", "@", "<@>"))
    return rng.choice(FILES_ABSURD)


def square(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.75:
        return f"{rng.choice('ABCDEFGHIJKL')}{rng.randint(1, 12)}"
    if roll < 0.85:
        return f"{rng.choice('ABCDEFGHIJKLMZaeé')}{rng.choice((0, 13, 99, -1, 1, 12, 100000))}"
    return rng.choice(("E7 N", "E7 S", "E7 W", "E7 E", "E7 north", "E7 X", "E7  N", "A", "1", "AA11", "E07",
                       " E7", "E7,E8", "A1 A2", "e7", "Ｅ７", "E٧", "E²", "A1²", "C⑤", "E" + "9" * 5000, "E-1", "E+1"))


def piece(rng: random.Random) -> str:
    if rng.random() < 0.85:
        return f"{rng.randint(0, 3)}{rng.choice('abcde')}"
    return rng.choice(("9z", "0", "a0", "0A", "0aa", "-1a", "4a", "", "0 a", "٠a", "1ａ"))


def figurines(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return rng.choice(list(TEAMS.values()) + list(FOUR_TEAMS.values()))
    names = [rng.choice(FIGURINES) if rng.random() < 0.85 else rng.choice(("x", "", "iron", "IRON_WARDEN"))
             for _ in range(rng.randint(0, 9))]
    return rng.choice((", ", ",", " ", ";")).join(names)


def table_options(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        key = rng.choice([*OPTION_WORDS, "x", "", "mode:"])
        value = rng.choice(OPTION_WORDS.get(key, ("1", "", "x")))
        parts.append(f"{key}:{value}" if rng.random() < 0.92 else rng.choice((key, f"{key}=", f"{key}::{value}")))
    return " ".join(parts)


def dice_expression(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(DICE_VALID)
    if roll < 0.85:
        return rng.choice(DICE_HOSTILE)
    # random arithmetic of dice
    terms = [f"{rng.randint(0, 30)}d{rng.choice((0, 1, 2, 6, 20, 100, 'F', '%'))}"
             f"{rng.choice(('', 'kh1', 'kl2', 'dh1', '!', 'r1', '>4', 'e6', 'ro1'))}"
             for _ in range(rng.randint(1, 6))]
    return rng.choice(("+", "-", "*", " + ")).join(terms)


def manual_faces(rng: random.Random) -> str:
    words = []
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        if roll < 0.5:
            words.append(str(rng.randint(1, 6)))
        elif roll < 0.75:
            words.append(rng.choice(FACE_WORDS))
        else:  # numbers that are not quite numbers: out of range, or digits int() refuses (²)
            words.append(rng.choice(("0", "7", "-1", "²", "¹", "³", "⑤", "٣", "１", "1.5", "6" * 30, "", "d6", "x",
                                     "🎲")))
    return rng.choice((" ", ", ", ",")).join(words)


def file_path(rng: random.Random, files: list[str]) -> str:
    if files and rng.random() < 0.35:
        return rng.choice(files)
    return rng.choice(FILES_ABSURD)


# --------------------------------------------------------------- line building
def quote(rng: random.Random, key: str, value: str) -> str:
    """``key:value`` as a user would type it, usually quoted right, sometimes not."""
    roll = rng.random()
    needs = not value or any(c.isspace() or c in "'\"\\" for c in value)
    if not needs and roll < 0.7:
        return f"{key}:{value}"
    if roll < 0.55:
        return shlex.quote(f"{key}:{value}")
    if roll < 0.8 and '"' not in value and "\\" not in value:
        return f'{key}:"{value}"'
    if roll < 0.9:
        return f"{key}:{value}"  # spaces split it, quotes may not close
    return f'{key}:"{value}'  # a quote that never closes


@dataclass
class RandomLines:
    """Commands of the real tree with random and boundary values."""

    specs: list[CommandSpec]
    files: list[str] = field(default_factory=list)

    def value(self, rng: random.Random, command: CommandSpec, param: ParamSpec) -> str:
        if rng.random() < 0.2:
            return hostile(rng)
        name = param.name
        if param.choices and rng.random() < 0.7:
            choice = rng.choice(param.choices)
            return choice if rng.random() < 0.8 else rng.choice((choice.upper(), choice[:-1], choice + "x"))
        if param.kind == "integer" or param.kind == "number":
            low = int(param.low) if param.low is not None else -10
            high = int(param.high) if param.high is not None else 10
            return str(rng.choice((low, high, low - 1, high + 1, rng.randint(low, high), rng.randint(low, high), 0,
                                   -1, 10**rng.randint(3, 40))))
        if param.kind == "boolean":
            return rng.choice(("true", "false", "yes", "no", "sì", "vero", "1", "0", "maybe", "", "TRUE"))
        if param.kind == "attachment":
            return file_path(rng, self.files)
        if param.kind in ("user", "mentionable"):
            return rng.choice(("<@101>", "<@123>", "@alice", "bob", "carol", "@judge", GM_NAME, "<@!102>"))
        domain = _DOMAINS.get(name)
        if (command.path[:2] == ("roll",) and name != "label") or name == "expression":
            return dice_expression(rng)
        if command.path == ("game", "dice"):
            return manual_faces(rng)
        if domain is not None:
            return domain(rng)
        return rng.choice(("x", "1", "lock", "krosmaster", "é", "A1", "0a", "fire_bolt"))

    def line(self, rng: random.Random) -> str:
        command = rng.choice(self.specs)
        head = command.text
        roll = rng.random()
        if roll < 0.04:
            head = head.upper()
        elif roll < 0.07:
            head = "/" + command.path[0]  # the group without its subcommand
        elif roll < 0.09:
            head = head + " " + rng.choice(("x", "help", "é", ""))
        tokens = [head]
        for param in command.params:
            wanted = 0.9 if param.required else 0.45
            if rng.random() < wanted:
                tokens.append(quote(rng, param.name if rng.random() < 0.95 else param.name.upper(),
                                    self.value(rng, command, param)))
        extra = rng.random()
        if extra < 0.08:
            tokens.append(quote(rng, rng.choice(("x", "foo", "square", "target", "")), hostile(rng)))
        elif extra < 0.14:
            tokens.append(hostile(rng) or "loose")
        elif extra < 0.18 and len(tokens) > 1:
            tokens.append(tokens[-1])  # the same option twice
        if len(tokens) > 2 and rng.random() < 0.1:
            rng.shuffle(tokens)
        return " ".join(tokens)


def _sections(rng: random.Random) -> str:
    return rng.choice(SECTIONS)


def _figurine_or_team(rng: random.Random) -> str:
    return figurines(rng)


def _target(rng: random.Random) -> str:
    return square(rng) if rng.random() < 0.8 else piece(rng)


_DOMAINS: dict[str, Callable[[random.Random], str]] = {
    "square": square,
    "target": _target,
    "piece": piece,
    "first": piece,
    "second": piece,
    "spell": lambda rng: rng.choice(SPELLS) if rng.random() < 0.9 else rng.choice(("", "FIRE_BOLT", "fire bolt")),
    "figurines": _figurine_or_team,
    "system": lambda rng: rng.choice(SYSTEMS),
    "options": table_options,
    "section": _sections,
    "query": lambda rng: rng.choice(QUERIES),
    "option": lambda rng: rng.choice(CHOOSE_WORDS),
    "pile": lambda rng: rng.choice(REWARD_WORDS),
    "reward": lambda rng: rng.choice(REWARD_WORDS),
    "name": lambda rng: rng.choice(("duelists", "nothere", "rules", "x" * 200, "é", "../x", "")),
    "language": lambda rng: rng.choice(("en", "it", "xx", "", "EN", "en-US")),
    "label": lambda rng: rng.choice(("attack", "fire damage", "é" * 100, "x" * 101, "", "a\x00b", "\x7f\x85x")),
    "team": lambda rng: rng.choice(("red", "blue", "1", "0", "a", "", "x" * 100)),
    "values": manual_faces,
}


# ------------------------------------------------------------------- mutations
def corpus() -> list[str]:
    """Real lines: the scripted game and every command the README shows."""
    lines = [ln.strip() for ln in FULL_GAME.read_text(encoding="utf-8").splitlines()
             if ln.strip().startswith("/")]
    readme = README.read_text(encoding="utf-8") if README.exists() else ""
    for raw in readme.splitlines():
        raw = raw.strip()
        if raw.startswith("/"):
            lines.append(raw.split("  #")[0].strip())
    lines += [m.strip() for m in re.findall(r"`(/[^`\n]+)`", readme)]
    seen: dict[str, None] = {}
    for line in lines:
        seen.setdefault(line, None)
    return list(seen)


_SQUARE = re.compile(r"\b([A-L])(\d{1,2})\b")
_PIECE = re.compile(r"\b([0-3])([a-e])\b")
_NUMBER = re.compile(r"-?\d+")


def _neighbour(rng: random.Random, line: str) -> str:
    matches = [("sq", m) for m in _SQUARE.finditer(line)] + [("pc", m) for m in _PIECE.finditer(line)]
    matches += [("num", m) for m in _NUMBER.finditer(line)]
    if not matches:
        return line
    kind, match = rng.choice(matches)
    if kind == "sq":
        col = chr(ord(match.group(1)) + rng.choice((-1, 1, 0)))
        row = int(match.group(2)) + rng.choice((-1, 1, 0, 12, -12))
        new = f"{col}{row}"
    elif kind == "pc":
        new = f"{int(match.group(1)) + rng.choice((-1, 1, 0))}{chr(ord(match.group(2)) + rng.choice((-1, 1)))}"
    else:
        number = int(match.group(0))
        new = str(rng.choice((number - 1, number + 1, -number, number * 1000, 0, 2**64)))
    return line[:match.start()] + new + line[match.end():]


@dataclass
class Mutator:
    lines: list[str]

    def mutate_once(self, rng: random.Random, line: str) -> str:
        tokens = line.split(" ")
        op = rng.randrange(12)
        if op == 11:  # a digit that only looks like one: "E7" -> "E⑦", "3" -> "³"
            digits = [i for i, c in enumerate(line) if c.isascii() and c.isdigit()]
            if digits:
                i = rng.choice(digits)
                return line[:i] + rng.choice(LOOKALIKES[line[i]]) + line[i + 1:]
            op = 6
        if op == 0 and len(tokens) > 1:
            del tokens[rng.randrange(len(tokens))]
        elif op == 1:
            i = rng.randrange(len(tokens))
            tokens.insert(i, tokens[i])
        elif op == 2 and len(tokens) > 1:
            i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == 3:
            return _neighbour(rng, line)
        elif op == 4:
            i, j = sorted((rng.randrange(len(line) + 1), rng.randrange(len(line) + 1)))
            return line[:i] + line[i:j].swapcase() + line[j:]
        elif op == 5:
            return line[:rng.randrange(len(line) + 1)]
        elif op == 6:
            i = rng.randrange(len(line) + 1)
            return line[:i] + random_text(rng, rng.randint(1, 4)) + line[i:]
        elif op == 7:
            other = rng.choice(self.lines).split(" ")
            tokens[rng.randrange(len(tokens))] = rng.choice(other)
        elif op == 8:
            i = rng.randrange(len(line) + 1)
            junk = ('"', "'", "\\", ":", " ", "::", "\x00", "\u200b", " #", " # note", "#")
            return line[:i] + rng.choice(junk) + line[i:]
        elif op == 9:
            tokens.append(rng.choice(UNICODE))
        else:
            return line.upper() if rng.random() < 0.5 else line.lower()
        return " ".join(tokens)

    def line(self, rng: random.Random) -> str:
        return self.line_from(rng, rng.choice(self.lines))

    def line_from(self, rng: random.Random, line: str) -> str:
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
            line = self.mutate_once(rng, line)
        return line


# --------------------------------------------------------------- console meta
def meta_line(rng: random.Random, specs: list[CommandSpec]) -> str:
    roll = rng.random()
    if roll < 0.2:
        name = rng.choice((*PLAYERS, *PLAYERS, GM_NAME, "gm", "GM", "Alice", hostile(rng) or "x"))
        extra = rng.choice(("", "", "", " gm", " GM", " gm gm", " x"))
        return f"/as {name}{extra}".rstrip() if name else "/as"
    if roll < 0.3:
        return "/channel " + rng.choice((*CHANNELS, "#table", "TABLE", hostile(rng)))
    if roll < 0.38:
        return "/lang " + rng.choice(("it", "en", "xx", "IT", "en-US", "it_IT", "", "e", "it-XX", "ﬁ"))
    if roll < 0.58:
        return "/click " + rng.choice(("1", "2", "3", "4", "5", "0", "-1", "99", "9" * 5000, "²", "١", "End turn",
                                       "end turn", "Undo", "Answer", "Status", "", "[", hostile(rng)))
    if roll < 0.66:
        return "/pick " + rng.choice(("x", "1", "north", "lock", "", "0a", hostile(rng)))
    if roll < 0.96:
        with_ac = [s for s in specs if any(p.autocomplete for p in s.params)] or specs
        command = rng.choice(with_ac)
        params = [p for p in command.params if p.autocomplete] or list(command.params)
        parts = ["/complete", command.text]
        if params:
            focus = rng.choice(params)
            others = [p for p in command.params if p is not focus and rng.random() < 0.3]
            gen = RandomLines(specs)
            parts += [quote(rng, p.name, gen.value(rng, command, p)) for p in others]
            prefix = gen.value(rng, command, focus) if rng.random() < 0.5 else ""
            parts.append(quote(rng, focus.name, prefix[: rng.randint(0, 4)] if rng.random() < 0.8 else prefix))
        return " ".join(parts)
    return rng.choice(("/help", "/commands", "/complete", "/complete /km", "/complete /nothing x:", "/as",
                       "/channel", "/lang", "/click", "/pick", "/", "//", "/ /", "#comment", "", "   ",
                       "hello", "km move", "\\", "'", '"'))


def lines_of(text: str) -> Iterable[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
