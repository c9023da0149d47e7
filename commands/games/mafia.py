"""Forum Mafia verbs (seed 004, rule versions A, B and C, with the 34 listed public roles).

Orders: `night ABILITY [TARGET] [ARGS]` / `ночь` / `ніч` (also `use` / `применить`), and
`day ABILITY TARGET` / `день` — both verbs take any ability, the engine says when one is out of
its phase ("any time" abilities such as `двойная жизнь` work with either). `vote NAME` / `голос`,
`mail NAME|city TEXT` / `почта ИМЯ|город ТЕКСТ` (alone, `почта` is still the inbox), `orders` /
`заявки`, `cancel ABILITY|vote|mail|all` / `отмена`, `ready` / `готов`. The Mafia's channel:
`team TEXT` / `свои ТЕКСТ`. Before the start, at an open Mafia table: `class NAME` / `класс`
(the public role, «Класс» of the sign-up: commands/games/mafia_signup.py), `roles [A|B|C]` /
`роли` (the listed public roles: free ones at an open table, those in play at a running one).

Arguments after the target, in this order:

* a secret role (Снайперская винтовка, Арест, Кара, Суд присяжных, Информатор):
  `ночь снайпер Вася Босс`;
* a persona (Клевета, Саботаж, Маскировка, Двойная жизнь): `ночь клевета Вася Маньяк`,
  `ночь маскировка Агент` (Маскировка is on oneself: no target);
* two personas (Обыск): `ночь обыск Вася Киллер Агент`;
* Кровавая баня has no target: a public role, then a secret role. A public role of several
  words is written in quotes or followed by `|`: `ночь баня "Старый продавец" агент`,
  `ночь баня Старый продавец | агент`; without either, the last word(s) are the secret role;
* Запрет: three pairs role:ability of different non-Law roles (the role may be left out, each
  bannable ability names its role): `ночь запрет Вася агент:саботаж киллер:пистолет
  маньяк:нападение` or `ночь запрет Вася саботаж пистолет нападение`.
* Биржа труда (Безработный): a listed public role no seat holds, in any language (sent as its
  key): `день биржа труда Горец`, `day job centre Highlander`;
* the Ход (version A): the play, then its target (Пас) or persona (Блеф); the other plays are on
  oneself: `ночь ход пас Вася`, `ночь ход банк`, `ночь ход блеф Маньяк`, `ночь ход фолд`;
* Звонок (Босс, A): the target, then the text as typed: `ночь звонок Вася сдавайся`;
* Раздача (Джокер, A): one to three players: `ночь раздача Вася Петя`;
* Ва-банк (Джокер, A, any time): every seat's secret role, the dead included, as pairs
  `ИМЯ=РОЛЬ` (or `ИМЯ:РОЛЬ`) in any order, or only the roles in seat order:
  `ночь ва-банк Вася=Босс Петя=Злой Гений ...`, `ночь ва-банк Босс Киллер Офицер ...`.

Public roles' day abilities take their target like any other (`день обвинение Вася`,
`день пиво Вася`); those without one take nothing (`день аура`, `день компромат`).

Abilities, roles and personas are understood in Russian, English and Ukrainian, in any case,
by a unique start of the word (several words for names like «В свои руки», «Злой Гений»);
players by a unique start of their name (a Russian name in another case, «Васю», is found by
its stem), or by their public role.
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any

from games.collation import name_key
from games.mafia import public_roles as PR
from games.mafia import roles as R
from games.mafia import versions as V
from world.i18n import LANGUAGES, nested, nested_list, strip_marks, t
from world.messages import msg
from world.presenters import mafia as P
from world.presenters import mafia_names as N
from world.text import clean, clean_line

from ..base import REGISTRY, CommandError, Ctx, command
from ..table import ROLE_LISTS, game_action
from .seat import GameSeat

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


def _maybe(word: str, vocab: Vocab, allowed: Any = None) -> Any:
    close = difflib.get_close_matches(fold(word), vocab.words(allowed), n=3, cutoff=0.7)
    keys = list(dict.fromkeys(vocab.key_of(c) for c in close))
    if not keys:
        return ""
    names = [P.ability_name(k) if vocab is abilities_vocab() else P.role_name(k) for k in keys if k]
    return nested("mafia.cmd.maybe", words=nested_list(names))


# -- the seat --------------------------------------------------------------------------------

class Seat(GameSeat):
    """This player's seat at a running Mafia table: its view and legal actions right now."""

    game = GAME
    trim = ",.;:!?"

    @property
    def role(self) -> str:
        return self.view.get("role", "")

    @property
    def public_key(self) -> str:
        item = P.at_seat(self.view, "public_roles", self.number) or {}
        return item.get("key", R.OTHER)

    @property
    def version(self) -> str:
        return P.view_version(self.view)

    @property
    def rules(self) -> V.Ruleset:
        return V.RULESETS.get(self.version, V.C)

    @property
    def own(self) -> list[str]:
        return P.ordered_abilities(self.role, self.view.get("abilities") or (), self.version)

    def spec(self, key: str) -> R.Ability | None:
        return P.view_spec(self.view, key)

    def names(self, seats: list[int]) -> str:
        return ", ".join(self.table.seats[s].name for s in seats if s < len(self.table.seats)) or "-"

    def living(self) -> list[int]:
        return [s for s in range(len(self.table.seats)) if P.at_seat(self.view, "alive", s, True)]

    def targets(self, key: str) -> list[int]:
        """Seats ``legal`` offers as targets of this ability now (vote, mail, or an order)."""
        out = []
        for action in self.legal:
            kind = action.get("type")
            if (kind == key or (kind == "order" and action.get("ability") == key)) \
                    and isinstance(action.get("target"), int) and action["target"] not in out:
                out.append(action["target"])
        return out

    # players
    def find_player(self, word: str, preferred: list[int]) -> int | None:
        """As every game's (first among ``preferred``, then the living, then anyone; a name in
        another case by its stem), else by the public role's name, else a word for oneself."""
        found = super().find_player(word, preferred)
        word = word.lstrip("@").strip(self.trim)
        if found is None and word:
            found = self._public(word)
        if found is None and word and fold(word) in SELF_WORDS:
            found = self.number
        return found

    def _pools(self, preferred: list[int]) -> tuple[list[int], ...]:
        return preferred, self.living(), [s.number for s in self.table.seats]

    def _public(self, word: str) -> int | None:
        names = [P.public_name(self.view, s) for s in range(len(self.table.seats))]
        folded = word.casefold()
        exact = [s for s, n in enumerate(names) if n.casefold() == folded]
        if len(exact) == 1:
            return exact[0]
        starts = [s for s, n in enumerate(names) if n.casefold().startswith(folded) and len(folded) >= 2]
        if len(starts) == 1:
            return starts[0]
        listed = P.public_key_of(word)  # "Highlander" for the seat signed up as «Горец»
        keyed = [s for s in range(len(names)) if listed is not None and P.public_key_at(self.view, s) == listed]
        return keyed[0] if len(keyed) == 1 and not starts else None

    def is_me(self, word: str) -> bool:
        word = word.lstrip("@")
        return fold(word) in SELF_WORDS or word.casefold() == self.table.seats[self.number].name.casefold()


async def act(ctx: Ctx, action: dict[str, Any], table: Any = None) -> None:
    """Send the action; the engine's rule errors come back with names in the reader's language."""
    try:
        await game_action(ctx, action)
    except CommandError as err:
        message = err.message
        if message.key.startswith("mafia."):
            raise CommandError(message.key, **P.localize_params(table, message.params)) from err
        raise


# -- parsing ---------------------------------------------------------------------------------

def parse_ability(seat: Seat, tokens: list[str], i: int = 0, allowed: Any = None) -> tuple[str, int]:
    """The ability the words at ``i`` name: among one's own abilities (or ``allowed``) first,
    then among all (an ability one does not have is refused clearly)."""
    vocab = abilities_vocab()
    own = list(allowed) if allowed is not None else seat.own
    keys, used, exact = vocab.match_exact(tokens, i, own)
    if allowed is None and not exact:  # a whole name of an ability one does not have
        other, other_used, other_exact = vocab.match_exact(tokens, i)
        if other_exact and len(other) == 1 and not other & set(own) and other_used >= used:
            raise CommandError("mafia.cmd.not_your_ability", ability=P.ability_name(other.pop()),
                               abilities=P.ability_list(own))
    if len(keys) == 1:
        return keys.pop(), used
    if keys:
        raise CommandError("mafia.cmd.ambiguous_ability", word=tokens[i],
                           abilities=P.ability_list(P.ordered_abilities(seat.role, keys, seat.version)))
    if allowed is not None:
        raise CommandError("mafia.cmd.bad_ability", word=tokens[i], abilities=P.ability_list(own),
                           maybe=_maybe(tokens[i], vocab, own))
    keys, used = vocab.match(tokens, i)
    if len(keys) == 1:
        raise CommandError("mafia.cmd.not_your_ability", ability=P.ability_name(keys.pop()),
                           abilities=P.ability_list(own))
    raise CommandError("mafia.cmd.bad_ability", word=tokens[i], abilities=P.ability_list(own),
                       maybe=_maybe(tokens[i], vocab, None))


def parse_role(tokens: list[str], i: int, allowed: Any = None, kind: str = "role") -> tuple[str, int]:
    """A secret role (``kind`` "role") or a persona ("persona") named at ``i`` (one or two words)."""
    vocab = roles_vocab()
    pool = tuple(allowed) if allowed is not None else (R.ROLE_ORDER if kind == "role" else R.PERSONAS)
    keys, used = vocab.match(tokens, i, pool)
    if len(keys) == 1:
        return keys.pop(), used
    names = P.role_list([k for k in R.PERSONAS if k in pool])
    if keys:
        raise CommandError(f"mafia.cmd.ambiguous_{kind}", word=tokens[i],
                           roles=P.role_list([k for k in R.PERSONAS if k in keys]))
    raise CommandError(f"mafia.cmd.bad_{kind}", word=tokens[i], roles=names, maybe=_maybe(tokens[i], vocab, pool))


def _need(key: str, ability: str, **params: Any) -> CommandError:
    return CommandError(key, ability=P.ability_name(ability), **params)


def _skip_tokens(text: str, count: int) -> str:
    """``text`` after its first ``count`` arguments (as split_args splits them)."""
    pos = 0
    for n, m in enumerate(re.finditer(r'"[^"]*"|«[^»]*»|\S+', text)):
        if n == count:
            return text[m.start():]
        pos = m.end()
    return text[pos:] if count else text


def parse_use(seat: Seat, tokens: list[str], rest: str = "") -> dict[str, Any]:
    """`night ABILITY [TARGET] [ARGS]` (and `day ...`): the action it names."""
    if not tokens:
        raise CommandError("mafia.cmd.use_usage", abilities=P.ability_list(P.usable_now(seat.view)))
    key, used = parse_ability(seat, tokens)
    words = tokens[used:]
    if key == "vote":
        return parse_vote(seat, words)
    if key == "mail":
        return parse_mail(seat, _skip_tokens(rest, used) if rest else " ".join(words))
    if key == "card":
        return parse_card(seat, words)
    ab = seat.spec(key)
    if ab is None:  # pragma: no cover - every known key has a spec
        raise CommandError("mafia.error.no_such_ability", ability=P.ability_name(key))
    action: dict[str, Any] = {"type": "order", "ability": key}
    i = 0
    if ab.target == "self":
        if words and seat.is_me(words[0]):
            i = 1
        action["target"] = seat.number
    elif ab.target != "none":
        targets = seat.targets(key)
        if not words:
            pool = targets or [s for s in seat.living() if s != seat.number]
            raise _need("mafia.cmd.need_target", key, names=seat.names(pool))
        action["target"] = seat.player(words[0], targets)
        i = 1
    rules = seat.rules
    for arg in ab.args:
        if arg in (R.ARG_ROLE, R.ARG_ROLE_NONLAW):
            allowed = rules.non_law if arg == R.ARG_ROLE_NONLAW else rules.roles
            if i >= len(words):
                raise _need("mafia.cmd.need_role", key, roles=P.role_list(list(allowed)))
            action["role"], n = parse_role(words, i, allowed)
            i += n
        elif arg == R.ARG_PERSONA:
            if i >= len(words):
                raise _need("mafia.cmd.need_persona", key, roles=P.role_list(list(R.PERSONAS)))
            action["persona"], n = parse_role(words, i, kind="persona")
            i += n
        elif arg == R.ARG_PERSONAS2:
            picked = []
            while len(picked) < 2:
                while i < len(words) and fold(words[i]) in CONNECTORS:
                    i += 1
                if i >= len(words):
                    raise _need("mafia.cmd.need_personas", key, roles=P.role_list(list(R.PERSONAS)))
                persona, n = parse_role(words, i, kind="persona")
                picked.append(persona)
                i += n
            if picked[0] == picked[1]:
                raise _need("mafia.cmd.same_personas", key)
            action["personas"] = picked
        elif arg == R.ARG_PUBLIC and key == "bloodbath":
            action["public"], action["role"] = parse_bloodbath(seat, key, words[i:])
            i = len(words)
            break
        elif arg == R.ARG_PUBLIC:  # Биржа труда: a listed public role, in any language
            action["public"] = parse_listed_public(seat, key, words[i:])
            i = len(words)
        elif arg == R.ARG_BANS:
            action["bans"], n = parse_bans(key, words[i:], rules.bannable)
            i += n
        elif arg == V.ARG_TEXT:  # Звонок: the rest of the line, as typed
            text = clean(_skip_tokens(rest, used + i)).strip() if rest else " ".join(words[i:])
            if not text:
                raise _need("mafia.cmd.need_call_text", key)
            action["text"] = text
            i = len(words)
        elif arg == V.ARG_SEATS:
            action["seats"] = parse_seats(seat, key, words[i:])
            i = len(words)
        elif arg == V.ARG_MAPPING:
            action["mapping"] = parse_mapping(seat, key, words[i:])
            i = len(words)
    if i < len(words):
        raise CommandError("mafia.cmd.extra", words=" ".join(words[i:]))
    return action


def _plays() -> Any:
    return P.nested_list([N.play_name(p) for p in V.PLAYS])


def parse_card(seat: Seat, words: list[str]) -> dict[str, Any]:
    """The Ход (A): `ход пас ИМЯ`, `ход банк`, `ход блеф ЛИЧИНА`, `ход вист|мизер|даве|фолд`."""
    if not words:
        raise _need("mafia.cmd.need_play", "card", plays=_plays())
    keys, n = plays_vocab().match(words, 0)
    if len(keys) != 1:
        raise CommandError("mafia.cmd.bad_play", word=words[0], plays=_plays())
    play = keys.pop()
    action: dict[str, Any] = {"type": "order", "ability": "card", "play": play}
    i = n
    if play == "pass":
        targets = [t for t in seat.targets("card") if t != seat.number]
        if i >= len(words):
            raise _need("mafia.cmd.need_target", "card",
                        names=seat.names(targets or [s for s in seat.living() if s != seat.number]))
        action["target"] = seat.player(words[i], targets)
        i += 1
    else:
        action["target"] = seat.number
        if i < len(words) and seat.is_me(words[i]):
            i += 1
        if play == "bluff":
            if i >= len(words):
                raise _need("mafia.cmd.need_persona", "card", roles=P.role_list(list(R.PERSONAS)))
            action["persona"], m = parse_role(words, i, kind="persona")
            i += m
    if i < len(words):
        raise CommandError("mafia.cmd.extra", words=" ".join(words[i:]))
    return action


def parse_seats(seat: Seat, key: str, words: list[str]) -> list[int]:
    """Раздача: one to three living players (not oneself), in the order typed."""
    names = [w.strip(",;") for w in words if fold(w) not in CONNECTORS and w.strip(",;")]
    pool = [s for s in seat.living() if s != seat.number]
    if not names:
        raise _need("mafia.cmd.need_seats", key, names=seat.names(pool))
    if len(names) > 3:
        raise _need("mafia.cmd.too_many_seats", key)
    out: list[int] = []
    for word in names:
        found = seat.player(word, pool)
        if found in out:
            raise _need("mafia.cmd.same_seat", key, name=seat.table.seats[found].name)
        out.append(found)
    return out


MAPPING_SEPARATORS = re.compile(r"[=:]")


def parse_mapping(seat: Seat, key: str, words: list[str]) -> list[str]:
    """Ва-банк: a secret role for every seat, the dead included: `ИМЯ=РОЛЬ ...` in any order
    (also `ИМЯ:РОЛЬ`, or `ИМЯ = РОЛЬ`), or just the roles in seat order."""
    everyone = list(range(len(seat.table.seats)))
    roles = seat.rules.roles
    tokens: list[str] = []
    for word in words:
        for n, part in enumerate(MAPPING_SEPARATORS.split(word)):
            if n:
                tokens.append("=")
            part = part.strip(",;")
            if part and fold(part) not in CONNECTORS:
                tokens.append(part)
    if not tokens:
        raise _need("mafia.cmd.need_mapping", key, names=seat.names(everyone))
    mapping: dict[int, str] = {}
    if "=" not in tokens:  # the roles in seat order
        found: list[str] = []
        i = 0
        while i < len(tokens):
            role, n = parse_role(tokens, i, roles)
            found.append(role)
            i += n
        if len(found) != len(everyone):
            raise _need("mafia.cmd.mapping_count", key, n=len(found), players=len(everyone))
        return found
    marks = [i for i, tok in enumerate(tokens) if tok == "="]
    if marks[0] != 1:
        raise _need("mafia.cmd.need_mapping", key, names=seat.names(everyone))
    for k, mark in enumerate(marks):
        stop = marks[k + 1] - 1 if k + 1 < len(marks) else len(tokens)
        player = seat.player(tokens[mark - 1], everyone)
        role_words = tokens[mark + 1:stop]
        if not role_words:
            raise _need("mafia.cmd.need_role", key, roles=P.role_list(list(roles)))
        role, n = parse_role(role_words, 0, roles)
        if n < len(role_words):
            raise CommandError("mafia.cmd.extra", words=" ".join(role_words[n:]))
        if player in mapping:
            raise _need("mafia.cmd.mapping_twice", key, name=seat.table.seats[player].name)
        mapping[player] = role
    missing = [s for s in everyone if s not in mapping]
    if missing:
        raise _need("mafia.cmd.mapping_missing", key, names=seat.names(missing))
    return [mapping[s] for s in everyone]


def parse_listed_public(seat: Seat, key: str, words: list[str]) -> str:
    """Биржа труда: a listed public role no seat holds, named in any language (its key)."""
    taken = {P.public_key_at(seat.view, s) for s in range(len(seat.table.seats))}
    free = [k for k in P.PUBLIC_KEYS if k not in taken]
    names = P.nested_list([P.public_title(k) for k in free]) if free else P.nested("mafia.view.nothing")
    text = " ".join(words).strip().strip("\"«»")
    if not text:
        raise _need("mafia.cmd.need_listed_public", key, names=names)
    found = P.public_key_of(text)
    if found is None:  # a unique start of a listed role's name, in any language
        folded = N.fold_name(text)
        starts = {k for form, k in N.public_forms().items() if form.startswith(folded)}
        found = starts.pop() if len(starts) == 1 else None
    if found is None or found in taken:  # not a listed role, or one in play
        raise CommandError("mafia.cmd.bad_listed_public", word=text, names=names)
    return found


def parse_bloodbath(seat: Seat, key: str, words: list[str]) -> tuple[str, str]:
    """Кровавая баня: a public role (as written at the table; quotes or `|` for several words),
    then a secret role (the last word or two)."""
    publics = [P.public_name(seat.view, s) for s in range(len(seat.table.seats))]
    pool = seat.rules.roles
    roles = P.role_list(list(pool))
    joined = " ".join(words)
    if "|" in joined:
        left, _, right = joined.partition("|")
        role_words = right.split()
        if not left.strip():
            raise _need("mafia.cmd.need_public", key, names=", ".join(n for n in publics if n) or "-")
        if not role_words:
            raise _need("mafia.cmd.need_role", key, roles=roles)
        role, n = parse_role(role_words, 0, pool)
        if n < len(role_words):
            raise CommandError("mafia.cmd.extra", words=" ".join(role_words[n:]))
        return _public_name(left.strip(), publics), role
    if len(words) < 2:
        if not words:
            raise _need("mafia.cmd.need_public", key, names=", ".join(n for n in publics if n) or "-")
        raise _need("mafia.cmd.need_role", key, roles=roles)
    for k in range(min(3, len(words) - 1), 0, -1):
        keys, n = roles_vocab().match(words[-k:], 0, pool)
        if len(keys) == 1 and n == k:
            return _public_name(" ".join(words[:-k]), publics), keys.pop()
    parse_role(words, len(words) - 1, pool)  # says what is wrong with the last word
    raise _need("mafia.cmd.need_role", key, roles=roles)  # pragma: no cover


def _public_name(text: str, publics: list[str]) -> str:
    """A public-role name as written at the table: exact (any case), else a unique start."""
    text = " ".join(text.strip().strip("\"«»").split())
    folded = text.casefold()
    exact = [n for n in publics if n and n.casefold() == folded]
    if exact:
        return exact[0]
    starts = [n for n in publics if n and n.casefold().startswith(folded)]
    if len(starts) == 1 and folded:
        return starts[0]
    listed = P.public_key_of(text)  # a listed role in another language: its name as written
    same = [n for n in publics if n and listed is not None and P.public_key_of(n) == listed]
    if len(same) == 1 and not starts:
        return same[0]
    raise CommandError("mafia.cmd.no_public", word=text or "-", names=", ".join(n for n in publics if n) or "-")


def parse_bans(key: str, words: list[str], bannable: dict[str, tuple[str, ...]] | None = None
               ) -> tuple[list[list[str]], int]:
    """Запрет: three pairs role:ability (different non-Law roles of the version); the role may
    be left out (each bannable ability names its role)."""
    bannable = bannable or R.BANNABLE
    ban_role = {ability: role for role, keys in bannable.items() for ability in keys}
    tokens: list[str] = []
    for word in words:
        parts = BAN_SEPARATORS.split(word)
        for n, part in enumerate(parts):
            if n:
                tokens.append(":")
            if part:
                tokens.append(part)
    pairs: list[list[str]] = []
    i = 0
    roles = P.role_list(list(bannable))
    while len(pairs) < 3:
        while i < len(tokens) and (tokens[i] == ":" or fold(tokens[i]) in CONNECTORS):
            i += 1
        if i >= len(tokens):
            raise _need("mafia.cmd.need_bans", key, roles=roles)
        role_keys, n = roles_vocab().match(tokens, i, tuple(bannable))
        if len(role_keys) == 1:
            role = next(iter(role_keys))
            j = i + n
            if j < len(tokens) and tokens[j] == ":":
                j += 1
            if j >= len(tokens):
                raise CommandError("mafia.cmd.ban_ability", role=P.role_name(role), word="-",
                                   abilities=P.ability_list(bannable[role]))
            ab_keys, m = abilities_vocab().match(tokens, j, bannable[role])
            if len(ab_keys) == 1:
                pairs.append([role, ab_keys.pop()])
                i = j + m
                continue
            alone, _ = abilities_vocab().match(tokens, i, tuple(ban_role))
            if len(alone) != 1:
                raise CommandError("mafia.cmd.ban_ability", role=P.role_name(role), word=tokens[j],
                                   abilities=P.ability_list(bannable[role]))
        ab_keys, m = abilities_vocab().match(tokens, i, tuple(ban_role))
        if len(ab_keys) != 1:
            raise CommandError("mafia.cmd.bad_ban", word=tokens[i], roles=roles)
        ability = ab_keys.pop()
        pairs.append([ban_role[ability], ability])
        i += m
    seen = [p[0] for p in pairs]
    for role in seen:
        if seen.count(role) > 1:
            raise CommandError("mafia.cmd.ban_same_role", role=P.role_name(role))
    left = [w for w in tokens[i:] if w != ":"]
    if left:
        raise CommandError("mafia.cmd.extra", words=" ".join(left))
    return pairs, len(words)


def parse_vote(seat: Seat, words: list[str]) -> dict[str, Any]:
    words = [w for w in words if fold(w) not in ("за", "против", "against", "for", "проти")] or words
    targets = seat.targets("vote")
    if not words:
        raise _need("mafia.cmd.need_target", "vote", names=seat.names(targets or seat.living()))
    target = seat.player(words[0], targets)
    if len(words) > 1:
        raise CommandError("mafia.cmd.extra", words=" ".join(words[1:]))
    return {"type": "vote", "target": target}


def parse_mail(seat: Seat, text: str) -> dict[str, Any]:
    """`mail NAME|city TEXT`: the text is the player's, kept as typed (cleaned)."""
    text = clean(text).strip()
    first, _, body = text.partition(" ")
    if not first:
        raise CommandError("mafia.cmd.mail_usage", names=seat.names(seat.targets("mail")))
    word = first.rstrip(":,")
    named = any(s.name.casefold() == word.lstrip("@").casefold() for s in seat.table.seats)
    if fold(word) in CITY_WORDS and not named:
        target: Any = "city"
    else:
        target = seat.player(word, seat.targets("mail"))
    body = body.strip()
    if not body:
        raise CommandError("mafia.cmd.need_text")
    return {"type": "mail", "target": target, "text": body}


def parse_cancel(seat: Seat, tokens: list[str]) -> list[dict[str, Any]]:
    orders = list((seat.view.get("orders") or {}).keys())
    if not orders:
        raise CommandError("mafia.cmd.no_orders")
    if not tokens:
        if len(orders) == 1:
            return [{"type": "cancel", "ability": orders[0]}]
        raise CommandError("mafia.cmd.which_cancel",
                           abilities=P.ability_list(P.ordered_abilities(seat.role, orders, seat.version)))
    if fold(tokens[0]) in ALL_WORDS:
        return [{"type": "cancel", "ability": k} for k in P.ordered_abilities(seat.role, orders, seat.version)]
    keys, used = abilities_vocab().match(tokens, 0, orders)
    if len(keys) == 1:
        key = keys.pop()
    else:
        key, used = parse_ability(seat, tokens)
    if used < len(tokens):
        raise CommandError("mafia.cmd.extra", words=" ".join(tokens[used:]))
    return [{"type": "cancel", "ability": key}]


# -- verbs -----------------------------------------------------------------------------------

@command("night", "ночь", "ночью", "ніч", "вночі", "use", "применить", "застосувати", game=GAME,
         completes=("player",))
async def night(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_use(seat, ctx.args, ctx.rest), seat.table)


@command("day", "день", "днём", "днем", "вдень", game=GAME, completes=("player",))
async def day(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_use(seat, ctx.args, ctx.rest), seat.table)


@command("vote", "голос", "голосовать", "голосую", "голосувати", game=GAME, completes=("player",))
async def vote(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, parse_vote(seat, ctx.args), seat.table)


@command("mail", "почта", "пошта", "письмо", "лист", "letter", game=GAME, completes=("player",))
async def mail(ctx: Ctx) -> None:
    if not ctx.args:  # `почта` alone is still the inbox
        from ..hall import inbox

        await inbox(ctx)
        return
    seat = Seat(ctx)
    await act(ctx, parse_mail(seat, ctx.rest), seat.table)


@command("orders", "заявки", "приказы", "накази", game=GAME)
async def orders(ctx: Ctx) -> None:
    seat = Seat(ctx)
    view = seat.view
    ctx.reply_msg(P.orders_msg(seat.table, view))
    usable = P.usable_now(view)
    if usable:
        ctx.reply_msg(msg("mafia.view.usable", abilities=P.ability_list(usable, with_left={"mail": view.get("mail_left", 0)})))
    elif P.at_seat(view, "alive", seat.number, True):
        ctx.reply_msg(msg("mafia.view.nothing_now"))
    if view.get("ready"):
        ctx.reply_msg(msg("mafia.view.ready"))


@command("cancel", "отмена", "отменить", "отмени", "скасувати", "скасуй", "withdraw", game=GAME)
async def cancel(ctx: Ctx) -> None:
    seat = Seat(ctx)
    for action in parse_cancel(seat, ctx.args):
        await act(ctx, action, seat.table)


@command("ready", "готов", "готова", "готово", "готовий", "done", game=GAME)
async def ready(ctx: Ctx) -> None:
    seat = Seat(ctx)
    await act(ctx, {"type": "ready"}, seat.table)
    # The engine says nothing until the phase ends; the player is told it counted. (When this
    # was the last one the phase is over, and its news is the answer.)
    table = seat.table
    if table.game is not None and table.engine.view(table.game, seat.number).get("ready"):
        ctx.reply_msg(msg("mafia.view.ready"))


@command("team", "свои", "свої", "своим", "своїм", game=GAME)
async def team(ctx: Ctx) -> None:
    """The Mafia's private channel: to the living members of the team, kept for the away ones."""
    from ..hall import check_muted

    seat = Seat(ctx)
    if "team" not in seat.view:
        raise CommandError("mafia.cmd.team_only")
    if not P.at_seat(seat.view, "alive", seat.number, True):
        raise CommandError("mafia.cmd.team_dead")
    text = clean_line(ctx.rest)
    if not text:
        raise CommandError("mafia.cmd.team_what")
    check_muted(ctx)
    table = seat.table
    message = msg("mafia.cmd.team_say", name=ctx.account.name, text=text)
    for member in seat.view["team"]:
        number = member.get("seat")
        if number == seat.number or not P.at_seat(seat.view, "alive", number, True):
            continue
        account_id = table.seats[number].account_id if number < len(table.seats) else None
        if account_id is None:
            continue
        if not ctx.world.deliver(account_id, message):
            await ctx.world.keep(account_id, message, "game", table.number)
    ctx.reply("mafia.cmd.team_you", text=text)


# -- the public roles of the rules («Явные роли») ----------------------------------------------

# A rule version as typed: Latin or Cyrillic look-alike letters (А, Б/В, С), any case.
RULESET_WORDS = {"a": "A", "а": "A", "b": "B", "б": "B", "в": "B", "c": "C", "с": "C"}


def ruleset_word(word: str) -> str | None:
    word = fold(word)
    for prefix in ("version=", "ruleset=", "версия=", "версія="):
        if word.startswith(prefix):
            word = word[len(prefix):]
    return RULESET_WORDS.get(word)


def public_free(signup: dict[str, Any]) -> list[str]:
    """The listed public roles nobody at the table has chosen, in the rules' order."""
    taken = {P.public_key_of(chosen) for chosen in signup.values() if isinstance(chosen, str)}
    return [key for key in P.PUBLIC_KEYS if key not in taken]


def public_in_play(table: Any, view: dict[str, Any]) -> list[Any]:
    """Lines of the public roles in a game: the listed ones in the rules' order (the tie
    priority), then the custom names alphabetically (4.6 #12) by the engine's own tie key
    (games.collation: «Ёлка» before «Жаба»), each with its player."""
    version = P.ruleset_of(table.options, view)
    listed: list[tuple[int, Any]] = []
    custom: list[tuple[str, Any]] = []
    for info in table.seats:
        key = P.public_key_at(view, info.number)
        if key in P.PUBLIC_KEYS:
            listed.append((P.PUBLIC_KEYS.index(key), N.public_line(key, version, info.name)))
        else:
            name = P.public_name(view, info.number) or info.name
            custom.append(((name_key(name), info.number), nested("mafia.public_list.line_custom", name=name, player=info.name,
                                                   text=nested("mafia.public_desc.other"))))
    by_order = [line for _, line in sorted(listed, key=lambda x: x[0])]
    return by_order + [line for _, line in sorted(custom, key=lambda x: x[0])]


@command("roles", "роли", "ролі")
async def roles(ctx: Ctx) -> None:
    """roles [A|B|C]: the listed public roles with their abilities: at an open Mafia table the
    free ones (with the table's rule version), at a running one those in play, elsewhere all."""
    table = ctx.table
    if table is not None and table.game_name != GAME and not ctx.args:
        # At another game's table «роли» asks for that game's roles, not Mafia's.
        shown = ROLE_LISTS.get(table.game_name)
        if shown is not None:
            shown(ctx, table)
        else:
            ctx.reply(f"rules.{table.game_name}")
        return
    asked = None
    if ctx.args:
        asked = ruleset_word(ctx.args[0])
        if asked is None or len(ctx.args) > 1:
            raise CommandError("mafia.public_list.bad_version", word=ctx.rest)
    if table is not None and table.game_name == GAME and table.state_name == "open":
        version = asked or P.ruleset_of(table.options)
        free = public_free(table.options.get("signup") or {})
        items = nested_list([N.public_line(k, version) for k in free], sep="\n") if free \
            else nested("mafia.public_list.none_free")
        ctx.reply("mafia.public_list.free", number=table.number, version=version, n=len(free), items=items)
        return
    if table is not None and table.game_name == GAME and table.game is not None:
        view = table.engine.view(table.game, -1)
        ctx.reply("mafia.public_list.in_play", number=table.number, version=P.ruleset_of(table.options, view),
                  items=nested_list(public_in_play(table, view), sep="\n"))
        return
    version = asked or "C"
    ctx.reply("mafia.public_list.all", version=version,
              items=nested_list([N.public_line(k, version) for k in P.PUBLIC_KEYS], sep="\n"))


def _mail_before_inbox() -> None:
    """`почта ИМЯ ТЕКСТ` is Почта at a Mafia table: its command must come before the inbox's
    (the first command with a verb wins); `почта` alone still shows the inbox."""
    mine = next(c for c in REGISTRY if c.key == "mail" and c.game == GAME)
    inbox_at = next((i for i, c in enumerate(REGISTRY) if c.key == "inbox"), None)
    if inbox_at is not None and REGISTRY.index(mine) > inbox_at:
        REGISTRY.remove(mine)
        REGISTRY.insert(inbox_at, mine)


_mail_before_inbox()


__all__ = ["parse_use", "parse_vote", "parse_mail", "parse_cancel", "parse_bans", "parse_bloodbath",
           "parse_card", "parse_seats", "parse_mapping", "parse_listed_public",
           "abilities_vocab", "roles_vocab", "Seat", "public_free",
           "ruleset_word"]
