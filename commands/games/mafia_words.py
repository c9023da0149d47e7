"""Forum Mafia verbs: the words players type (abilities, roles, plays, personas) in ru/en/uk."""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any

from games.mafia import roles as R
from games.mafia import versions as V
from world.i18n import LANGUAGES, nested, nested_list, strip_marks, t
from world.presenters import mafia as P


GAME = "mafia"


def fold(word: str) -> str:
    return word.casefold().replace("ё", "е").strip(".,;!?«»\"'()“”„")


# -- words -----------------------------------------------------------------------------------

# Other words for abilities, besides their catalog names (in every language) and their keys.
ABILITY_EXTRA: dict[str, tuple[str, ...]] = {
    "vote": ("голос", "голосовать", "голосую", "голосувати", "voting", "вече"),
    "mail": ("письмо", "лист", "letter", "анонимка", "message"),
    "healing": ("лечиться", "heal", "лікуватися", "лечение"),
    "interrogation": ("допросить", "interrogate", "допитати"),
    "mastermind": ("мозговой", "мозковий"),
    "sawnoff": ("обрез", "обріз", "sawnoff", "sawn-off", "sawn off", "shotgun"),
    "sniper": ("снайпер", "винтовка", "sniper", "rifle", "гвинтівка"),
    "tommygun": ("томми-ган", "томмиган", "томми", "tommy", "tommygun", "tommy-gun", "tommy gun",
                 "томмі-ган", "томмі", "томміган"),
    "militia": ("ополчение", "ополчення", "call to arms"),
    "autopsy": ("вскрытие", "розтин"),
    "revolver": ("наган", "nagant", "revolver"),
    "arrest": ("арестовать", "арештувати"),
    "own_hands": ("свои руки", "свої руки", "own hands", "own_hands"),
    "jury": ("присяжные", "присяжні", "суд"),
    "assist": ("помощь", "assist", "допомога", "помочь"),
    "double_life": ("двойная", "подвійне", "double life", "double_life"),
    "bloodbath": ("баня", "лазня", "bloodbath", "blood bath"),
    "kidnap": ("похитить", "викрасти", "kidnapping"),
    "zombify": ("зомби", "зомбі", "zombie"),
    "disinformation": ("дезинфа", "дезінфа"),
    "bribe": ("подкуп",),
    "card": ("карта", "card", "cards", "карты", "карти", "move"),
    "call": ("позвонить", "звонить", "phone", "подзвонити"),
    "backstab": ("нож", "backstab", "knife", "ніж"),
    "sabotage_investigation": ("срыв", "зрив", "derail"),
    "investigation": ("investigate", "расследовать", "розслідувати"),
    "evidence": ("улика", "доказ", "clues"),
    "deal": ("раздать", "роздати"),
    "buy_in": ("прикупить", "talon", "buy-in", "buy in"),
    "all_in": ("ва-банк", "вабанк", "va-bank", "all-in", "allin", "all in"),
    "indictment": ("приговор", "вирок", "verdict"),
    "detention": ("задержать", "затримати", "detain"),
    "labour_exchange": ("биржа", "біржа", "job centre", "job center", "labour exchange", "labor exchange"),
    "somersault": ("кульбит", "кульбіт"),
    "graverobbing": ("гробокопатель", "grave robbing", "graverobbing", "grave-robbing", "гробокопання"),
    "exhumation": ("эксгумировать", "exhume"),
    "binge": ("попойка", "пиятика", "бухать"),
    "open_vote": ("открыто", "відкрито", "openly", "open"),
    "hack": ("взлом", "злам", "hack", "dossier"),
    "beer": ("угостить", "пригостити"),
    "fake_beer": ("surrogate", "fake", "подделка", "підробка"),
    "abuse": ("abuse",),
    "reportage": ("репортаж", "report", "reportage"),
    "diversion": ("диверсия", "diversion"),
    "cooking": ("кулинария", "кулінарія", "cook", "готовить"),
    "accusation": ("обвинить", "звинуватити", "accuse"),
    "raid": ("маски", "raid", "masks"),
    "seance": ("сеанс", "seance", "séance"),
    "aura": ("аура", "aura"),
    "acquittal": ("оправдать", "виправдати", "acquit"),
    "riot": ("бунт", "riot"),
    "compromise": ("компромат", "kompromat", "compromise"),
}
# Other words for the card plays of the Ход (version A), besides their catalog names and keys.
PLAY_EXTRA: dict[str, tuple[str, ...]] = {
    "pass": ("pas", "пасс"),
    "misere": ("misere", "мизере", "мізере"),
    "dave": ("даве",),
    "fold": ("сброс", "скинуть"),
}
# Other forms of role and persona names (Russian and Ukrainian cases, English variants).
ROLE_EXTRA: dict[str, tuple[str, ...]] = {
    "boss": ("босса", "боссу", "боссом", "боса", "босу", "босом", "don", "дон"),
    "killer": ("киллера", "киллеру", "киллером", "кілера", "кілеру", "кілером", "hitman"),
    "agent": ("агента", "агенту", "агентом"),
    "officer": ("офицера", "офицеру", "офицером", "офіцера", "офіцеру", "офіцером"),
    "forensic": ("криминалиста", "криминалисту", "криминалистом", "криміналіста", "криміналісту",
                 "forensics", "forensic expert", "coroner"),
    "policeman": ("полицейского", "полицейскому", "полицейским", "поліцейського", "поліцейському",
                  "police", "cop", "policeman", "полицейский", "поліцейський", "мент"),
    "vigilante": ("вигиланте", "вігіланте", "віджиланте", "vigilante"),
    "civilian": ("гражданского", "гражданскому", "гражданским", "цивільного", "цивільному",
                 "citizen", "гражданин", "громадянин", "громадянина"),
    "maniac": ("маньяка", "маньяку", "маньяком", "маніяка", "маніяку", "маніяком"),
    "genius": ("гений", "гения", "гению", "злого гения", "злому гению", "злым гением", "злого", "генія",
               "злого генія", "геній", "evil genius", "genius", "злой гений", "злий геній"),
    "traitor": ("предателя", "предателю", "зрадника", "зраднику"),
    "detective": ("сыщика", "сыщику", "детектива", "нишпорка"),
    "joker": ("джокера", "джокеру"),
}
SELF_WORDS = {"себя", "себе", "сам", "сама", "self", "me", "myself", "себе", "собі"}
CITY_WORDS = {"город", "городу", "city", "town", "всем", "всім", "місто", "місту", "all", "город:"}
ALL_WORDS = {"all", "все", "всё", "усі", "всі", "everything"}
CONNECTORS = {"и", "and", "і", "та", "+", ",", ";", "&", "з", "с", "with"}
BAN_SEPARATORS = re.compile(r"[:=/,;]")


def _variants(form: str) -> set[tuple[str, ...]]:
    """A name as tuples of folded words: "Томми-ган" is ("томми-ган",), ("томми", "ган") and
    ("томмиган",); "Злой Гений" is ("злой", "гений")."""
    base = fold(" ".join(form.split()))
    out = set()
    for text in {base, base.replace("-", " "), base.replace("-", ""), base.replace("_", " ")}:
        words = tuple(fold(w) for w in text.split())
        if words and all(words):
            out.add(words)
    return out


class Vocab:
    """Names of keys (abilities, roles) in every language, matched by a unique start of each word."""

    def __init__(self, forms: dict[str, set[tuple[str, ...]]]) -> None:
        self.forms = [(key, words) for key, all_words in forms.items() for words in sorted(all_words)]
        # The forms by their first letter: a typed word names a form only by a start of its first
        # word, so only forms with that letter can match (each command reads hundreds of forms).
        self.by_initial: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for key, words in self.forms:
            self.by_initial.setdefault(words[0][0], []).append((key, words))

    def candidates(self, tokens: list[str], i: int, allowed: Any = None) -> list[tuple[str, int, bool]]:
        typed = [fold(token) for token in tokens[i:]]
        if not typed or not typed[0]:
            return []
        found = []
        for key, words in self.by_initial.get(typed[0][0], ()):
            if allowed is not None and key not in allowed:
                continue
            n = 0
            while n < len(words) and n < len(typed):
                word = typed[n]
                if not word or not words[n].startswith(word):
                    break
                n += 1
            if n:
                exact = n == len(words) and all(typed[k] == words[k] for k in range(n))
                found.append((key, n, exact))
        return found

    def match(self, tokens: list[str], i: int, allowed: Any = None) -> tuple[set[str], int]:
        """(keys, words used): one key when the words name one; several when ambiguous; none."""
        keys, used, _ = self.match_exact(tokens, i, allowed)
        return keys, used

    def match_exact(self, tokens: list[str], i: int, allowed: Any = None) -> tuple[set[str], int, bool]:
        """Like :meth:`match`, and whether the words are a whole name (not only its start)."""
        found = self.candidates(tokens, i, allowed)
        exact = [c for c in found if c[2]]
        if exact:
            most = max(c[1] for c in exact)
            return {c[0] for c in exact if c[1] == most}, most, True
        if not found:
            return set(), 0, False
        most = max(c[1] for c in found)
        return {c[0] for c in found if c[1] == most}, most, False

    def words(self, allowed: Any = None) -> list[str]:
        return [" ".join(w) for k, w in self.forms if allowed is None or k in allowed]

    def key_of(self, text: str) -> str | None:
        for key, words in self.forms:
            if " ".join(words) == text:
                return key
        return None


def _catalog_name(lang: str, key: str) -> str:
    return strip_marks(t(lang, key))


@lru_cache(maxsize=1)
def abilities_vocab() -> Vocab:
    forms: dict[str, set[tuple[str, ...]]] = {}
    for key in P.ABILITIES:
        names = {key, *ABILITY_EXTRA.get(key, ())}
        names.update(_catalog_name(lang, f"mafia.ability.{key}") for lang in LANGUAGES)
        forms[key] = set().union(*(_variants(n) for n in names))
    return Vocab(forms)


@lru_cache(maxsize=1)
def plays_vocab() -> Vocab:
    forms: dict[str, set[tuple[str, ...]]] = {}
    for key in V.PLAYS:
        names = {key, *PLAY_EXTRA.get(key, ())}
        names.update(_catalog_name(lang, f"mafia.play.{key}") for lang in LANGUAGES)
        forms[key] = set().union(*(_variants(n) for n in names))
    return Vocab(forms)


@lru_cache(maxsize=1)
def roles_vocab() -> Vocab:
    forms: dict[str, set[tuple[str, ...]]] = {}
    for key in R.PERSONAS:
        names = {key, *ROLE_EXTRA.get(key, ())}
        names.update(_catalog_name(lang, f"mafia.role_name.{key}") for lang in LANGUAGES)
        forms[key] = set().union(*(_variants(n) for n in names))
    return Vocab(forms)


# Each ability a Запрет may name belongs to one non-Law role: the ability alone names its role.
BAN_ROLE: dict[str, str] = {ability: role for role, keys in R.BANNABLE.items() for ability in keys}


def maybe_key(word: str, vocab: Vocab, allowed: Any = None) -> Any:
    close = difflib.get_close_matches(fold(word), vocab.words(allowed), n=3, cutoff=0.7)
    keys = list(dict.fromkeys(vocab.key_of(c) for c in close))
    if not keys:
        return ""
    names = [P.ability_name(k) if vocab is abilities_vocab() else P.role_name(k) for k in keys if k]
    return nested("mafia.cmd.maybe", words=nested_list(names))
