"""Message catalogs: en, ru and uk agree on keys, plural forms and placeholders, and the code uses
only keys that exist.

Plain pytest, no server and no asyncio: these tests read world/locale/<lang>/*.toml through
world.i18n and scan the source tree.

A failure that says "MISSING IN CATALOG" lists keys the code uses but a catalog lacks; a failure
that says "KEY PARITY" lists keys one language has and another lacks. The message names the
language and the keys, so whoever owns that catalog file can add them.
"""
from __future__ import annotations

import bisect
import functools
import io
import re
import string
import tokenize
from pathlib import Path
from typing import Any, Iterator

import pytest

from world import i18n
from world.i18n import catalog, plural_category, strip_marks, t
from world.morph import CASES

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "ru", "uk")
SOURCE_DIRS = ("server", "commands", "world", "games")

# Plural categories each catalog must give in every plural table (CLDR: ru and uk have
# one/few/many/other, en has one/other). "zero" is optional everywhere (i18n.t uses it for 0).
REQUIRED_FORMS = {
    "en": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "uk": {"one", "few", "many", "other"},
}

# A message key as it appears in code: lowercase words joined by dots ("table.full",
# "bids.error.no_such_card").
KEY = r"[a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)+"
KEY_RE = re.compile(rf"^{KEY}$")

# Calls whose first argument is a message key. The (?<![\w.]) before the quote plus the quote
# right after "(" mean an f-string (f"...") never matches: its quote is preceded by "f".
# ``text`` is Session.text(key, ...), which renders a key to a string.
KEY_CALLS = ("msg", "send", "reply", "CommandError", "RuleError", "TableError", "Msg", "text")
CALL_RE = re.compile(
    rf"\b(?:{'|'.join(KEY_CALLS)})\(\s*(?P<q>[\"'])(?P<key>{KEY})(?P=q)")
# Event(audience, "key", params): the key is the second argument; the audience may contain one
# level of parentheses, e.g. Event(Audience.only(seat), "bids.hand", {...}).
EVENT_RE = re.compile(
    rf"\bEvent\((?:[^,()]|\([^()]*\))*,\s*(?P<q>[\"'])(?P<key>{KEY})(?P=q)")

# Dynamic key families: keys the code builds at run time with f-strings, so the literal scan
# above cannot see them. Each is checked separately below (test_dynamic_*):
#   help.short.<command key>   commands/hall.py (help list and help COMMAND)
#   help.usage.<command key>   commands/hall.py, commands/table.py (_table_number), admin.py
#   role.<role>                commands/hall.py (who), commands/admin.py (role)
#   table.state.<state>        commands/table.py (state_msg)
#   game.<game>                commands/table.py, world/runner.py
#   rules.<game>               commands/hall.py (rules GAME)
# Also dynamic but deliberately not checked: help.topic.<topic> (looked up with i18n.has, a
# missing topic is a normal "no such topic"), and keys carried in data (Event.key, Msg.key,
# RuleError.key, InboxItem.key) which come from the literals scanned above.
ROLES = ("player", "moderator", "admin")  # commands.base.ROLE_RANK
TABLE_STATES = ("open", "running", "finished", "closed")  # world.tables.Table.state_name

# String literals that look like keys and start with a catalog namespace but are not message
# keys (none so far); add here with a reason if the bare-literal scan ever misfires.
NOT_KEYS: set[str] = set()


# Helpers ------------------------------------------------------------------------------------

def forms_of(value: Any) -> dict[str, str]:
    """The text forms of a message: {"": text} for a string, the plural forms for a table."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "count"}
    return {"": value}


MALFORMED = "<malformed template>"


def fields_of(text: str) -> list[tuple[str, str]]:
    """(placeholder name, format spec) for every {field} in a template."""
    out = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:  # unbalanced braces: reported by test_templates_well_formed
        return [(MALFORMED, "")]
    for _, name, spec, _ in parsed:
        if name is None:
            continue
        base = re.split(r"[.\[]", name, maxsplit=1)[0]
        out.append((base, spec or ""))
    return out


def placeholders(value: Any) -> set[str]:
    names: set[str] = set()
    for text in forms_of(value).values():
        if isinstance(text, str):
            names.update(name for name, _ in fields_of(text))
    return names


def source_files() -> Iterator[Path]:
    for folder in SOURCE_DIRS:
        yield from sorted((ROOT / folder).rglob("*.py"))


def strip_comments(text: str) -> str:
    """Source without comments (so a key mentioned in a comment is not a use)."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            continue
        out.append(tok)
    return tokenize.untokenize(out)


@functools.lru_cache(maxsize=1)  # one scan of the sources for the three languages' tests
def keys_in_calls() -> dict[str, list[str]]:
    """Message keys passed as plain string literals to msg/send/reply/...Error/Msg/Event."""
    found: dict[str, list[str]] = {}
    for path in source_files():
        text = strip_comments(path.read_text(encoding="utf-8"))
        newlines = [i for i, c in enumerate(text) if c == "\n"]
        for regex in (CALL_RE, EVENT_RE):
            for m in regex.finditer(text):
                line = bisect.bisect_left(newlines, m.start()) + 1
                found.setdefault(m.group("key"), []).append(f"{path.relative_to(ROOT)}:{line}")
    return found


@functools.lru_cache(maxsize=1)  # (the three languages' tests ask with the same namespaces)
def bare_key_literals(namespaces: frozenset[str]) -> dict[str, list[str]]:
    """Every plain (non-f) string literal shaped like a key whose first word is a catalog
    namespace: catches keys chosen before the call, e.g. ``key = "a.b" if x else "a.c"`` or
    ``return "account.name_taken"``."""
    found: dict[str, list[str]] = {}
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.STRING:
                continue
            prefix = re.match(r"^[A-Za-z]*", tok.string).group(0).lower()
            if "f" in prefix or "b" in prefix or tok.string[len(prefix):][:3] in ('"""', "'''"):
                continue
            value = tok.string[len(prefix) + 1:-1]
            if KEY_RE.match(value) and value.split(".")[0] in namespaces and value not in NOT_KEYS:
                found.setdefault(value, []).append(f"{path.relative_to(ROOT)}:{tok.start[0]}")
    return found


def missing_report(lang: str, missing: dict[str, list[str]] | list[str]) -> str:
    if isinstance(missing, dict):
        lines = [f"  {key}   (used at {', '.join(where[:3])})" for key, where in sorted(missing.items())]
    else:
        lines = [f"  {key}" for key in sorted(missing)]
    return (f"MISSING IN CATALOG {lang!r} ({len(lines)} keys) - add them to world/locale/{lang}/:\n"
            + "\n".join(lines))


def sample_counts(lang: str) -> dict[str, Any]:
    """One count value for each plural category the language has (0 stands for "zero")."""
    out: dict[str, Any] = {"zero": 0}
    for n in (1, 2, 3, 5, 11, 21, 22, 25, 100, 1.5):
        out.setdefault(plural_category(lang, n), n)
    return out


def test_templates_well_formed():
    """Every message is a string or a plural table of strings, with balanced {braces}."""
    bad = []
    for lang in LANGS:
        for key, value in catalog(lang).items():
            for form, text in forms_of(value).items():
                if not isinstance(text, str):
                    bad.append(f"  {lang}:{key}[{form}] is {type(text).__name__}, not text")
                elif any(name == MALFORMED for name, _ in fields_of(text)):
                    bad.append(f"  {lang}:{key}[{form}] has unbalanced braces: {text!r}")
    assert not bad, "malformed messages:\n" + "\n".join(bad)


# (a) the same keys in every language ----------------------------------------------------------

@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_key_parity_with_english(lang):
    en, other = set(catalog("en")), set(catalog(lang))
    only_en = sorted(en - other)
    only_other = sorted(other - en)
    assert not only_en and not only_other, (
        f"KEY PARITY en <-> {lang}:\n"
        f"  in en but not in {lang} ({len(only_en)}): {only_en}\n"
        f"  in {lang} but not in en ({len(only_other)}): {only_other}")


def test_catalogs_not_empty():
    for lang in LANGS:
        assert catalog(lang), f"no messages for {lang}: world/locale/{lang}/*.toml"


# (b) plural tables have the categories the language needs ---------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_plural_tables_complete(lang):
    bad = {}
    for key, value in catalog(lang).items():
        if isinstance(value, dict):
            missing = REQUIRED_FORMS[lang] - set(value)
            if missing:
                bad[key] = sorted(missing)
    assert not bad, f"plural tables in {lang} lacking forms: {bad}"


def test_plural_tables_count_same_parameter():
    """When a key is a plural table in several languages, all count the same parameter."""
    bad = {}
    for key in catalog("en"):
        counts = {lang: catalog(lang)[key].get("count", "n") for lang in LANGS
                  if isinstance(catalog(lang).get(key), dict)}
        if len(set(counts.values())) > 1:
            bad[key] = counts
    assert not bad, f"plural tables counting different parameters: {bad}"


def test_plural_nouns_exist():
    """Every {x:#noun} / {x:@noun} names a plural.noun table present in all three languages."""
    bad = []
    for lang in LANGS:
        for key, value in catalog(lang).items():
            for text in forms_of(value).values():
                for name, spec in fields_of(text):
                    if spec[:1] in ("#", "@"):
                        noun, _, case = spec[1:].partition(":")  # {n:#card:acc}
                        if case and case not in CASES:
                            bad.append(f"{lang}:{key} uses {{{name}:{spec}}}: no case {case}")
                        for target in LANGS:
                            if not isinstance(catalog(target).get(f"plural.{noun}"), dict):
                                bad.append(f"{lang}:{key} uses {{{name}:{spec}}} but "
                                           f"plural.{noun} is missing in {target}")
    assert not bad, "\n".join(sorted(set(bad)))


# (c) the same placeholders in every language ---------------------------------------------------

def test_placeholders_match_across_languages():
    bad = []
    keys = set(catalog("en")) & set(catalog("ru")) & set(catalog("uk"))
    for key in sorted(keys):
        sets = {lang: placeholders(catalog(lang)[key]) for lang in LANGS}
        if len({frozenset(s) for s in sets.values()}) > 1:
            bad.append(f"  {key}: " + "; ".join(f"{lang}={sorted(s)}" for lang, s in sets.items()))
    assert not bad, "placeholders differ between languages:\n" + "\n".join(bad)


# (d) every key the code uses exists -------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_literal_keys_in_calls_exist(lang):
    used = keys_in_calls()
    assert used, "the source scan found no keys at all: the regex or the paths are wrong"
    missing = {key: where for key, where in used.items() if key not in catalog(lang)}
    assert not missing, missing_report(lang, missing)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_bare_key_literals_exist(lang):
    namespaces = {key.split(".")[0] for key in catalog("en")} | {key.split(".")[0] for key in catalog("ru")}
    used = bare_key_literals(frozenset(namespaces))
    missing = {key: where for key, where in used.items() if key not in catalog(lang)}
    assert not missing, missing_report(lang, missing)


def _registry():
    import commands.load_all  # noqa: F401  (registers every command)
    from commands.base import REGISTRY

    assert REGISTRY, "no commands registered"
    return REGISTRY


@pytest.mark.parametrize("lang", LANGS)
def test_dynamic_help_for_every_command(lang):
    """help.short.<key> and help.usage.<key> for every registered command."""
    missing = []
    for cmd in _registry():
        missing += [k for k in (f"help.short.{cmd.key}", f"help.usage.{cmd.key}") if k not in catalog(lang)]
    assert not missing, missing_report(lang, sorted(set(missing)))


@pytest.mark.parametrize("lang", LANGS)
def test_dynamic_game_names_and_rules(lang):
    """game.<name> and rules.<name> for every game in the registry."""
    from games.registry import all_games

    games = list(all_games())
    assert games, "no games registered"
    missing = [k for name in games for k in (f"game.{name}", f"rules.{name}") if k not in catalog(lang)]
    assert not missing, missing_report(lang, missing)


@pytest.mark.parametrize("lang", LANGS)
def test_dynamic_roles_and_table_states(lang):
    """role.<role> (who, role) and table.state.<state> (table listings)."""
    from commands.base import ROLE_RANK

    assert set(ROLES) == set(ROLE_RANK), "roles changed: update ROLES in this test"
    missing = [f"role.{r}" for r in ROLES if f"role.{r}" not in catalog(lang)]
    missing += [f"table.state.{s}" for s in TABLE_STATES if f"table.state.{s}" not in catalog(lang)]
    assert not missing, missing_report(lang, missing)


# (e) plural rendering ----------------------------------------------------------------------------

MUTED_CASES = (1, 2, 5, 11, 21, 22, 25)


@pytest.mark.parametrize("lang, forms", [
    ("ru", ("минуту", "минуты", "минут", "минут", "минуту", "минуты", "минут")),
    ("uk", ("хвилину", "хвилини", "хвилин", "хвилин", "хвилину", "хвилини", "хвилин")),
    ("en", ("minute", "minutes", "minutes", "minutes", "minutes", "minutes", "minutes")),
])
def test_muted_minutes_plural(lang, forms):
    for n, form in zip(MUTED_CASES, forms):
        text = strip_marks(t(lang, "mod.muted", name="X", minutes=n))
        assert re.search(rf"\b{n} {form}\b", text), f"{lang} n={n}: expected '{n} {form}' in {text!r}"


@pytest.mark.parametrize("lang, expected", [
    ("ru", {1: "1 стол", 2: "2 стола", 5: "5 столов", 21: "21 стол"}),
    ("uk", {1: "1 стіл", 2: "2 столи", 5: "5 столів", 21: "21 стіл"}),
])
def test_plural_table_choice(lang, expected):
    for n, text in expected.items():
        assert strip_marks(t(lang, "tables.header", n=n)) == f"{text}:"


def test_zero_form_used_for_zero():
    for lang in LANGS:
        value = catalog(lang).get("hall.look_people")
        if isinstance(value, dict) and "zero" in value:
            assert "{names}" not in t(lang, "hall.look_people", n=0, names="")


# (f) every message renders -----------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders(lang):
    """Each message, in each of its plural forms, renders with every placeholder set to 1.

    i18n.t never raises: on a formatting error it returns the raw template. So a message
    rendered with all its parameters must come out with no "{...}" left and no colour tag left.
    """
    bad = []
    for key, value in catalog(lang).items():
        params = {name: 1 for name in placeholders(value)}
        if isinstance(value, dict):
            count = value.get("count", "n")
            cases = [(form, n) for form, n in sample_counts(lang).items() if form in value]
        else:
            count, cases = None, [("", None)]
        for form, n in cases:
            args = dict(params)
            if count is not None:
                args[count] = n
            try:
                out = t(lang, key, **args)
            except Exception as err:  # noqa: BLE001 - report every failure at once
                bad.append(f"  {key}[{form}]: raised {err!r}")
                continue
            plain = strip_marks(out)
            if re.search(r"\{[^}]*\}", plain) or re.search(r"</?[bygrcmd]?>", plain):
                bad.append(f"  {key}[{form}]: {plain!r}")
    assert not bad, f"messages in {lang} that do not render:\n" + "\n".join(bad)


def test_colour_tags_balanced_like_source():
    """Colour tags are the catalog's markup: uk and ru use the same tags as en for each key."""
    tag_re = re.compile(r"</?[bygrcmd]?>")
    bad = []
    for key in set(catalog("en")) & set(catalog("ru")) & set(catalog("uk")):
        tags = {lang: sorted(set(tag_re.findall(" ".join(forms_of(catalog(lang)[key]).values()))))
                for lang in LANGS}
        if tags["ru"] != tags["en"] or tags["uk"] != tags["en"]:
            bad.append(f"  {key}: {tags}")
    assert not bad, "colour tags differ:\n" + "\n".join(sorted(bad))


def test_i18n_module_languages():
    assert set(LANGS) <= set(i18n.LANGUAGES)
