"""`rules GAME [SECTION]`: a game's rules text read by its sections.

A rules text (rules.<game> in world/locale) is one paragraph a line, each after the first
opening with a bold heading («<b>Подготовка.</b> ...»): those headings are its sections, in
every language alike. A section is asked by its number or by the start of a word of its
heading, in the player's language or in English (`rules coup commands` reads in Russian too).
"""
from __future__ import annotations

import re

from world.i18n import MARK, t

# A paragraph's heading as t() renders «<b>Подготовка.</b>»: between style markers.
HEADING = re.compile(MARK + "b([^" + MARK + "]*)" + MARK)
# A text of more lines than this shows the list of its sections first.
LONG = 6
MIN_WORD = 3


def sections(lang: str, key: str) -> list[tuple[str, str]]:
    """(heading, paragraph) of each section of rules.<key>, after the opening line; the
    paragraph as t() renders it (style markers kept: it is catalog text, shown by the
    `rules.part` message)."""
    out = []
    for line in t(lang, f"rules.{key}").split("\n")[1:]:
        found = HEADING.match(line)
        if found:
            out.append((found.group(1).strip(" .:"), line))
    return out


def _words(heading: str) -> list[str]:
    return [w for w in re.split(r"[^\w'-]+", heading.casefold()) if len(w) >= MIN_WORD]


def find(lang: str, key: str, word: str) -> list[str]:
    """The paragraphs of the sections ``word`` names (a number, or the start of a heading's
    word: «тайные» names both «Тайные роли» sections), or [] when none."""
    own = sections(lang, key)
    if word.isdigit():
        n = int(word)
        return [own[n - 1][1]] if 1 <= n <= len(own) else []
    folded = word.casefold()
    if len(folded) < MIN_WORD:
        return []
    english = sections("en", key) if lang != "en" else own
    hits = []
    for i, (heading, paragraph) in enumerate(own):
        names = _words(heading) + (_words(english[i][0]) if i < len(english) else [])
        if any(name.startswith(folded) for name in names):
            hits.append(paragraph)
    return hits


def listing(lang: str, key: str) -> str:
    """«1 Подготовка, 2 Общие действия, ...»: the sections, or "" for a short text."""
    if t(lang, f"rules.{key}").count("\n") + 1 <= LONG:
        return ""
    return ", ".join(f"{n} {heading}" for n, (heading, _) in enumerate(sections(lang, key), 1))


__all__ = ["find", "listing", "sections"]
