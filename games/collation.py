"""Alphabetical order of names as a Russian or Ukrainian reader sorts them, the same on every
machine (a game's tie-break must replay identically, so no system locale and no ICU build whose
data changes with its version; see docs/mafia-protocol.md, Decisions).

Code-point order is wrong for Cyrillic: «Ё» (U+0401) and the Ukrainian «Ґ Є І Ї» come after «Я».
Here every Cyrillic letter takes its place in one alphabet that holds both languages' orders:

    а б в г ґ д е(ё) є ж з и і ї й к л м н о п р с т у ф х ц ч ш щ ъ ы ь э ю я

«ё» sorts as «е» (Russian dictionaries do), the difference only breaking a tie («Елка» before
«Ёлка»); case and accents likewise only break ties. Latin letters keep their order, before the
Cyrillic ones; digits and punctuation before letters.
"""
from __future__ import annotations

import unicodedata

ALPHABET = "абвгґдеєжзиіїйклмнопрстуфхцчшщъыьэюя"
_BASE = 0xE000  # a private-use block above Latin and punctuation: Cyrillic sorts after them
_PRIMARY = {ord(letter): chr(_BASE + i) for i, letter in enumerate(ALPHABET)}
_PRIMARY[ord("ё")] = _PRIMARY[ord("е")]
_KEEP = frozenset(ALPHABET + "ё")  # letters whose diacritics make a letter of its own (й, ї)


def _primary(text: str) -> str:
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text.casefold()):
        if char in _KEEP:
            out.append(_PRIMARY[ord(char)])
        else:  # é -> e: accents of other scripts only break ties
            out.extend(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
    return "".join(out)


def name_key(text: str) -> tuple[str, str, str]:
    """Sort key for a name: the letters in the alphabet above, then ё/accents, then case."""
    text = " ".join(text.split())
    folded = unicodedata.normalize("NFC", text.casefold())
    return _primary(text), folded, text
