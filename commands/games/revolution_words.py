"""«Революция» verbs: the words of a typed line (tokens, numbers, side words, connectors)."""
from __future__ import annotations

import re
from functools import lru_cache


GAME = "revolution"

SIDE_WORDS = {
    "players": {"for", "players", "player", "us", "pro", "за", "игрокам", "игроков", "игроку", "нам", "себе",
                "своим", "гравцям", "гравців", "+"},
    "opponent": {"against", "opponent", "enemy", "vs", "против", "противнику", "противника", "врагу",
                 "проти", "супротивнику", "ворогу", "-"},
}
WORD_SIDE = {w: side for side, words in SIDE_WORDS.items() for w in words}
# Little words between the parts: `play X on Boris`, `сыграть X у Бориса`, `offer Anna 2 cards`.
CONNECTORS = {"on", "to", "from", "at", "of", "with", "the", "на", "у", "с", "со", "к", "ко", "от", "в",
              "в", "до", "від", "з", "із", "для"}
SHARE_NOUNS = {"card", "cards", "loot", "карта", "карты", "карт", "карту", "карти", "штуки", "шт"}
_TOKEN = re.compile(r'"([^"]*)"|«([^»]*)»|(\S+)')
_NUMBER = re.compile(r"^[#№]?(\d{1,3})[.)]?$")


@lru_cache(maxsize=8192)  # on every word of every typed line, and of every card name it is matched to
def fold(text: str) -> str:
    """Lower case, ё as е, every non-letter/digit a space, spaces collapsed."""
    text = text.casefold().replace("ё", "е").replace("ї", "і")
    text = "".join(ch if ch.isalnum() else " " for ch in text)
    return " ".join(text.split())


def tokens(rest: str) -> list[tuple[str, int]]:
    """(word, the offset where it starts in the typed text) for every argument."""
    out = []
    for m in _TOKEN.finditer(rest or ""):
        word = next(g for g in m.groups() if g is not None)
        out.append((word, m.start()))
    return out


def number_of(word: str) -> int | None:
    m = _NUMBER.match(word.strip())
    return int(m.group(1)) if m else None
