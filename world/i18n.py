"""Message catalogs in Russian, English and Ukrainian, with CLDR plural rules from Babel.

Catalogs are TOML files in ``world/locale/<lang>/*.toml``. Nested tables flatten to dotted keys,
so ``[hall] say = "..."`` is the key ``hall.say``. A message is either a string or a plural table
``{count = "n", one = ..., few = ..., many = ..., other = ...}`` whose form is chosen by the CLDR
category of the named parameter (``n`` by default).

Inside a template, ``{n:#coin}`` prints the number with the right form of the noun from the
``plural.coin`` table ("1 монета", "2 монеты", "5 монет"), and ``{n:@coin}`` the noun alone;
``{n:#card:acc}`` the same in a case, from the morphology dictionary («берёт 1 карту»).
``{name:dat}`` puts a parameter (a player's name) into a case: nom, gen, dat, acc, ins, loc
(world/morph.py; a name the dictionary does not know stays as it is, and English ignores it).
Colour tags (``<b>``, ``<y>``, ``</>``...) are markup of the catalog only: they are turned into
zero-width markers before parameters are substituted, so text a player typed can never become
markup.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import string
import sys
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.numbers import format_decimal

from world import morph

LANGUAGES = ("ru", "en", "uk")
FALLBACK = {"ru": ("ru", "en"), "en": ("en", "ru"), "uk": ("uk", "en", "ru")}
PLURAL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
LOCALE_DIR = Path(__file__).with_name("locale")

# Zero-width style markers: \x1e + one letter. Player text has every control character removed
# on input (world.text.clean_controls), so it can never contain one.
MARK = "\x1e"
STYLE_TAGS = {"b": "b", "y": "y", "g": "g", "r": "r", "c": "c", "m": "m", "d": "d", "/": "0"}
_TAG_RE = re.compile(r"<(/[bygrcmd]?|[bygrcmd])>")


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, Any]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict) and not _is_plural(value):
            _flatten(full, value, out)
        else:
            out[full] = value


def _is_plural(value: dict[str, Any]) -> bool:
    keys = set(value) - {"count"}
    return "other" in keys and keys <= PLURAL_CATEGORIES


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, Any]:
    paths = sorted((LOCALE_DIR / lang).glob("*.toml"))
    compiled = _compiled_path(lang, paths)
    try:
        with compiled.open("rb") as fh:
            return pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError):
        pass
    out = _parse(paths)
    if not sys.dont_write_bytecode:
        write_compiled(compiled, out)
    return out


def _parse(paths: list[Path]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in paths:
        with path.open("rb") as fh:
            _flatten("", tomllib.load(fh), out)
    return out


# Parsed catalogs are kept like Python's own bytecode: in __pycache__, under a name made of the
# files' names, sizes and modification times, so an edited file is read again. Parsing the TOML
# files is a quarter of a second of every start (a test suite starts hundreds of servers);
# `python -m world.i18n` writes them even where PYTHONDONTWRITEBYTECODE is set (`make test`).
def _compiled_path(lang: str, paths: list[Path]) -> Path:
    stamp = hashlib.sha256()
    for path in paths:
        st = path.stat()
        stamp.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return LOCALE_DIR / "__pycache__" / f"{lang}-{stamp.hexdigest()[:16]}.pickle"


def write_compiled(path: Path, parsed: dict[str, Any]) -> None:
    """Keep ``parsed`` at ``path`` (atomically; a read-only tree is not an error)."""
    try:
        path.parent.mkdir(exist_ok=True)
        for old in path.parent.glob(path.name.split("-")[0] + "-*.pickle"):
            if old != path:  # made from files since edited
                old.unlink(missing_ok=True)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_bytes(pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(temp, path)
    except OSError:
        pass


def compile_catalogs() -> None:
    for lang in LANGUAGES:
        paths = sorted((LOCALE_DIR / lang).glob("*.toml"))
        write_compiled(_compiled_path(lang, paths), _parse(paths))


@lru_cache(maxsize=None)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_category(lang: str, n: Any) -> str:
    try:
        return _locale(lang).plural_form(abs(n))
    except (TypeError, ValueError):
        return "other"


def lookup(lang: str, key: str) -> Any:
    for candidate in FALLBACK.get(lang, (lang, "en")):
        value = catalog(candidate).get(key)
        if value is not None:
            return value
    return None


def has(key: str, lang: str = "en") -> bool:
    return key in catalog(lang)


def plural_noun(lang: str, noun: str, case: str, n: Any) -> str:
    """The form of the ``plural.<noun>`` table's noun for ``n``; in a ``case`` other than the
    nominative the table's "one" form is put into it by the dictionary (``{n:#card:acc}``: «1
    карту, 3 карты, 5 карт»), the table's own form where the dictionary does not know the noun."""
    forms = lookup(lang, f"plural.{noun}")
    if not isinstance(forms, dict):
        return noun
    category = plural_category(lang, n)
    if case and isinstance(n, int) and isinstance(forms.get("one"), str):
        agreed = morph.agree(lang, forms["one"], n, case, category)
        if agreed:
            return agreed
    return forms.get(category) or forms["other"]


def number(lang: str, value: Any) -> Any:
    """A fraction as the language writes it (Babel: «1,5» in Russian and Ukrainian, "1.5" in
    English); whole numbers stay as they are (no digit grouping in game lines)."""
    if isinstance(value, float) and not value.is_integer():
        return format_decimal(value, locale=_locale(lang))
    return int(value) if isinstance(value, float) else value


def _noun_case(spec: str) -> tuple[str, str]:
    """``card:acc`` -> ("card", "acc"); ``card`` -> ("card", "")."""
    noun, _, case = spec.partition(":")
    return noun, case


SPAN_UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


def format_span(lang: str, seconds: Any, case: str = "") -> str:
    """``{s:~}`` / ``{s:~acc}``: a length of time in words, its two largest units ("2 дня 3 часа",
    "15 minutes 10 seconds"); seconds are left out from an hour up. ``acc``: the accusative forms
    where the language has them ("через 1 минуту")."""
    left = max(0, int(seconds))
    parts: list[str] = []
    for unit, size in SPAN_UNITS:
        n, left = divmod(left, size)
        if n and len(parts) < 2 and not (unit == "second" and parts and seconds >= 3600):
            noun = f"{unit}_{case}" if case and lookup(lang, f"plural.{unit}_{case}") else unit
            parts.append(f"{n} {plural_noun(lang, noun, '', n)}")
        elif parts:
            break  # "2 days 0 hours 5 minutes" reads as "2 days"
    if not parts:
        noun = f"second_{case}" if case else "second"
        return f"0 {plural_noun(lang, noun, '', 0)}"
    return " ".join(parts)


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, spec: str) -> str:
        if spec and isinstance(value, str) and value.startswith(FRAGMENT):
            return FRAGMENT + self.format_field(value.lstrip(FRAGMENT), spec)
        if spec.startswith("#"):
            return f"{number(self.lang, value)} {plural_noun(self.lang, *_noun_case(spec[1:]), value)}"
        if not spec and isinstance(value, float):
            return number(self.lang, value)
        if spec.startswith("@"):
            return plural_noun(self.lang, *_noun_case(spec[1:]), value)
        if spec.startswith("~"):
            return format_span(self.lang, value, spec[1:])
        if spec in morph.CASES:
            return morph.inflect(self.lang, str(value), spec)
        return super().format_field(value, spec)

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str):
            value = kwargs.get(key, "{" + key + "}")
            if isinstance(value, bool) or value is None:  # never Python's True/False/None on a screen
                value = nested("option.yes" if value else "option.no") if value is not None else "-"
            rendered = render_value(self.lang, value, marked=True)
            return FRAGMENT + rendered if _is_nested(value) else rendered
        return super().get_value(key, args, kwargs)


def nested(key: str, **params: Any) -> dict[str, Any]:
    """A message inside a parameter, as plain JSON-able data (it can wait in the inbox):
    rendered in the reader's language like a nested :class:`Msg`."""
    return {"$msg": key, "params": params}


def nested_list(items: list[Any], sep: str = ", ") -> dict[str, Any]:
    """A list of values (nested messages or plain values) rendered joined by ``sep``."""
    return {"$list": list(items), "sep": sep}


def _is_nested(value: Any) -> bool:
    """A nested message or list: catalog text, unlike a name or words a player typed."""
    if hasattr(value, "key") and hasattr(value, "params"):
        return True
    return isinstance(value, dict) and (isinstance(value.get("$msg"), str) or isinstance(value.get("$list"), list))


def render_value(lang: str, value: Any, marked: bool = False) -> Any:
    """A parameter as it reads in ``lang``: a nested Msg, a ``{"$msg": key, "params": {...}}``
    dict or a ``{"$list": [...], "sep": ", "}`` dict becomes text; anything else is itself.
    ``marked`` (inside :func:`t`): each nested item of a list starts with FRAGMENT."""
    if hasattr(value, "key") and hasattr(value, "params"):  # a nested Msg
        return t(lang, value.key, **value.params)
    if isinstance(value, dict):
        if isinstance(value.get("$msg"), str):
            params = value.get("params")
            return t(lang, value["$msg"], **(params if isinstance(params, dict) else {}))
        if isinstance(value.get("$list"), list):
            sep = value.get("sep")
            return (sep if isinstance(sep, str) else ", ").join(
                (FRAGMENT if marked and _is_nested(item) else "") + str(render_value(lang, item))
                for item in value["$list"])
    return value


# Where a catalog fragment (a nested message) begins inside a line being rendered: a fragment
# that opens a sentence («Живы 5 из 5. {statuses}») gets its capital letter there, whichever
# message it came from. Player text never holds control characters (world.text.clean_controls),
# and the mark never leaves t(). Names and typed words are not fragments: never re-cased.
FRAGMENT = "\x1f"
_SENTENCE_OPENS_RE = re.compile(r"([.!?](?:\x1e.)*\s+)((?:\x1e.|\x1f)*\x1f(?:\x1e.|\x1f)*)(\w)")


def _capitalize_sentences(text: str) -> str:
    if FRAGMENT not in text:
        return text
    text = _SENTENCE_OPENS_RE.sub(lambda m: m.group(1) + m.group(2) + m.group(3).upper(), text)
    return text.replace(FRAGMENT, "")


@lru_cache(maxsize=4096)
def _template(lang: str, key: str) -> tuple[Any, str]:
    value = lookup(lang, key)
    if value is None:
        return None, ""
    if isinstance(value, dict):
        return {k: _mark_tags(v) for k, v in value.items() if k != "count"}, value.get("count", "n")
    return _mark_tags(value), ""


def _mark_tags(text: str) -> str:
    return _TAG_RE.sub(lambda m: MARK + STYLE_TAGS[m.group(1)[0]], text)


def t(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang``, with parameters filled in (may contain style markers)."""
    template, count_param = _template(lang, key)
    if template is None:
        return key  # a missing key shows itself; the catalog tests keep this from shipping
    if isinstance(template, dict):
        n = params.get(count_param, 0)
        # "zero" is used for 0 in every language (like ICU's "=0"), when the catalog has it.
        form = "zero" if n == 0 and "zero" in template else plural_category(lang, n)
        template = template.get(form) or template["other"]
    try:
        return _capitalize_sentences(_Formatter(lang).vformat(template, (), params))
    except (ValueError, IndexError, KeyError, AttributeError):
        return template


def strip_marks(text: str) -> str:
    return re.sub(MARK + ".", "", text)


def normalize_lang(code: str) -> str | None:
    code = (code or "").strip().lower()
    aliases = {"ru": "ru", "рус": "ru", "русский": "ru", "en": "en", "eng": "en", "english": "en",
               "англ": "en", "uk": "uk", "ua": "uk", "укр": "uk", "українська": "uk", "украинский": "uk"}
    return aliases.get(code)


if __name__ == "__main__":  # `python -m world.i18n`: keep the parsed catalogs (see _compiled_path)
    compile_catalogs()
