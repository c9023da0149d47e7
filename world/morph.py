"""Russian and Ukrainian word forms from a morphology library (pymorphy3 with the OpenCorpora
and LanguageTool dictionaries), never from endings written by hand.

Three uses: a catalog asks for a case of a parameter (``{name:dat}``: «Вы шепчете Борису»), a
number agrees with its noun in a case (``{n:#card:acc}``: «берёт втёмную 1 карту»), and a name
typed in any case is read back to its dictionary form («фёдору», «Бориса» -> «фёдор», «борис»).

A word the dictionary does not know as a noun in the nominative (a Latin name, a nickname made
of other parts of speech) stays as it is: an unchanged name reads oddly at worst, a wrongly
inflected one reads as another person. The analyzers are loaded once (about a second each) and
every answer is cached; the server loads them at start-up (server/startup.py).
"""
from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

MORPH_LANGUAGES = ("ru", "uk")

# The catalog's names of the cases (short, readable in a template) -> pymorphy3's grammemes.
CASES = {"nom": "nomn", "gen": "gent", "dat": "datv", "acc": "accs", "ins": "ablt", "loc": "loct"}

_lock = threading.Lock()
_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def analyzer(lang: str) -> Any:
    """The language's analyzer, made once (thread-safe: the server warms them in a thread)."""
    with _lock:
        return _analyzer(lang)


@lru_cache(maxsize=None)
def _analyzer(lang: str) -> Any:
    import logging

    import pymorphy3  # imported here: loading the dictionaries is the slow part, done on demand

    # Its "Loading dictionaries from ..." lines are INFO: not the host's business at every start.
    logging.getLogger("pymorphy3").setLevel(logging.WARNING)
    return pymorphy3.MorphAnalyzer(lang=lang)


def warm() -> None:
    """Load both analyzers now (the server calls this in a thread at start-up, so the first
    whisper does not wait a second for the dictionaries)."""
    for lang in MORPH_LANGUAGES:
        analyzer(lang)


def _nominative_parse(lang: str, word: str) -> Any:
    """The best reading of ``word`` as a noun or adjective in the nominative singular: a
    first name (``Name``) wins over other nouns, as player names are names first."""
    parses = [p for p in analyzer(lang).parse(word) if p.is_known  # a guess is not a name's form
              and p.tag.POS in ("NOUN", "ADJF") and p.tag.case == "nomn" and "plur" not in p.tag]
    names = [p for p in parses if "Name" in p.tag or "Surn" in p.tag or "Patr" in p.tag]
    return (names or parses or [None])[0]


def _keep_shape(original: str, form: str) -> str:
    """``form`` written like ``original``: Capitalised, UPPER or lower; ё kept out if it was."""
    if "ё" not in original.lower() and "ё" in form:
        form = form.replace("ё", "е")
    if original.isupper() and len(original) > 1:
        return form.upper()
    if original[:1].isupper():
        return form[:1].upper() + form[1:]
    return form


@lru_cache(maxsize=8192)
def _word_case(lang: str, word: str, grammeme: str) -> str | None:
    """One word in the case, or None when the dictionary does not know it as a nominative."""
    parse = _nominative_parse(lang, word)
    if parse is None:
        return None
    if parse.tag.POS == "NOUN" and "Fixd" in parse.tag:
        return word  # an indeclinable noun (Анне, Мари): the same in every case
    form = parse.inflect({grammeme})
    return _keep_shape(word, form.word) if form is not None else None


@lru_cache(maxsize=8192)
def inflect(lang: str, text: str, case: str) -> str:
    """``text`` (a name, one or a few words) in ``case`` (a key of CASES). A hyphenated name
    changes the parts that are names («Бот-Евсей» -> «Бот-Евсею»); a phrase changes only when
    every word of it is known («Старый продавец» -> «Старому продавцу»); else it stays."""
    grammeme = CASES.get(case)
    if lang not in MORPH_LANGUAGES or grammeme is None or not text or grammeme == "nomn":
        return text
    words = text.split(" ")
    if len(words) > 1:
        changed = [_word_case(lang, w, grammeme) for w in words]
        return text if None in changed else " ".join(changed)  # type: ignore[arg-type]
    if "-" in text:
        parts = text.split("-")
        out = []
        for part in parts:
            parse = _nominative_parse(lang, part) if part else None
            is_name = parse is not None and ("Name" in parse.tag or "Surn" in parse.tag)
            out.append((_word_case(lang, part, grammeme) or part) if is_name else part)
        return "-".join(out)
    return _word_case(lang, text, grammeme) or text


@lru_cache(maxsize=4096)
def agree(lang: str, noun: str, n: int, case: str, category: str) -> str | None:
    """The form of ``noun`` (its nominative singular) that goes with the number ``n`` in
    ``case``: «1 карту», «3 карты», «5 карт» in the accusative. ``category`` is the CLDR
    plural category of ``n`` (Babel's), which picks singular, "few" or "many" the same way in
    both languages; the case and number come from the dictionary. None: not known."""
    grammeme = CASES.get(case)
    if lang not in MORPH_LANGUAGES or grammeme is None:
        return None
    parse = _nominative_parse(lang, noun)
    if parse is None:
        return None
    if lang == "ru":  # pymorphy3's own rule knows Russian (and animate accusatives)
        form = parse.inflect({grammeme})
        form = form.make_agree_with_number(abs(int(n))) if form is not None else None
    else:  # its Ukrainian tags lack the numbers that rule reads: the same rule, spelled out
        if category == "one":
            wanted = {grammeme}
        elif grammeme in ("nomn", "accs"):
            wanted = {"plur", "nomn"} if category == "few" else {"plur", "gent"}
        else:
            wanted = {"plur", grammeme}
        form = parse.inflect(wanted)
    return _keep_shape(noun, form.word) if form is not None else None


@lru_cache(maxsize=8192)
def lemmas(word: str) -> frozenset[str]:
    """Every dictionary form one typed word may be of (a noun in any case, Russian or Ukrainian),
    lower case with ё as е: what «фёдору», «Бориса» or «даше» can name. Only words the
    dictionaries know: a guessed reading of an unknown word would name strangers."""
    word = word.strip().casefold()
    if not _WORD_RE.fullmatch(word):
        return frozenset()
    out: set[str] = set()
    for lang in MORPH_LANGUAGES:
        for parse in analyzer(lang).parse(word):
            if parse.is_known and parse.tag.POS == "NOUN" and "plur" not in parse.tag:
                out.add(parse.normal_form.replace("ё", "е"))
    return frozenset(out)


__all__ = ["CASES", "analyzer", "warm", "inflect", "agree", "lemmas"]
