"""Grammar through the catalogs (issue 14), without a server: what world/i18n.py and world/morph.py
make of the ru/uk catalogs, and the Mafia engine's one reason for a refused target.

Plain pytest like tests/test_catalogs.py. The player-facing side, over telnet and SSH, is
tests/test_grammar.py.
"""
from __future__ import annotations

import inspect
import re

import pytest

from games.mafia import abilities as AB
from tests.test_mafia_engine import err, finish, game, order
from tests.test_mafia_public_roles import goto, pos
from world import morph
from world.i18n import catalog, nested, render_value, strip_marks, t

# Parameters that carry a player's (or a seat's) name in the catalogs.
NAME_PARAM = r"(?:name|names|seat|\w+_seat|target|actor|host|owner|winner|master|player|dealer|blocker|challenger|helper|fighter)"
# A letter glued to a name's placeholder: an ending written by hand («{name}у», «{seat}а»), which
# is right for one name and wrong for the next; the case belongs in the placeholder ({name:dat}).
GLUED_ENDING = re.compile(r"\{" + NAME_PARAM + r"(?::[a-z]+)?\}[а-яёіїєґ'ʼ]", re.I)
# A letter right before one, a hand-written prefix of the same kind («{name}» split by hand).
GLUED_BEFORE = re.compile(r"[а-яёіїєґ]\{" + NAME_PARAM + r"(?::[a-z]+)?\}", re.I)


def forms_of(value):
    return [v for k, v in value.items() if k != "count"] if isinstance(value, dict) else [value]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_hand_written_endings_on_names(lang):
    bad = [f"{key}: {text!r}" for key, value in catalog(lang).items() for text in forms_of(value)
           if isinstance(text, str) and (GLUED_ENDING.search(text) or GLUED_BEFORE.search(text))]
    assert not bad, "hand-written endings on a name (use {name:dat} and the like):\n" + "\n".join(bad)


@pytest.mark.parametrize("lang", ["ru", "en", "uk"])
def test_case_specs_are_known_cases(lang):
    """Every {param:case} names a case world/morph.py knows (nom, gen, dat, acc, ins, loc)."""
    import string

    bad = []
    for key, value in catalog(lang).items():
        for text in forms_of(value):
            if not isinstance(text, str):
                continue
            for _, field, spec, _ in string.Formatter().parse(text):
                if field and spec and spec.isalpha() and spec not in morph.CASES:
                    bad.append(f"{key}: {{{field}:{spec}}}")
    assert not bad, bad


def test_names_take_the_case_the_line_needs():
    said = {name: strip_marks(t("ru", "tell.to", name=name, text="x"))
            for name in ("Борис", "Фёдор", "Даша", "Бот-Евсей", "Старый продавец")}
    assert said == {"Борис": "Вы шепчете Борису: «x»", "Фёдор": "Вы шепчете Фёдору: «x»",
                    "Даша": "Вы шепчете Даше: «x»", "Бот-Евсей": "Вы шепчете Бот-Евсею: «x»",
                    "Старый продавец": "Вы шепчете Старому продавцу: «x»"}
    assert strip_marks(t("uk", "tell.to", name="Анна", text="x")) == "Ви шепочете Анні: «x»"
    assert strip_marks(t("uk", "tell.to", name="Тарас", text="x")) == "Ви шепочете Тарасові: «x»"
    assert t("ru", "mod.unbanned", name="Вася") == "Запрет для Васи снят."
    assert t("ru", "tell.kept", name="Борис") == "Бориса сейчас нет; сообщение ждёт во входящих."
    assert t("ru", "revolution.trade_closed", seat="Анна", target_seat="Борис").startswith(
        "Предложение обмена от Анны игроку Борис")
    # English has no cases: the same spec leaves the name alone.
    assert strip_marks(t("en", "tell.to", name="Борис", text="x")) == "You tell Борис: «x»"


def test_unknown_names_stay_as_they_are():
    """A Latin name, a made-up nickname, a phrase with an unknown word: never guessed at."""
    for name in ("Boris", "Ккк", "xX_Вася_Xx", "Dark Лорд", "Фёдор2"):
        assert strip_marks(t("ru", "tell.to", name=name, text="x")) == f"Вы шепчете {name}: «x»"
    assert morph.inflect("uk", "Фёдор", "dat") == "Фёдор"  # the Ukrainian dictionary has no ё


def test_plurals_agree_with_the_noun_in_its_case():
    drew = {n: t("ru", "revolution.drew_hidden", seat="Анна", n=n, deck_from="из колоды") for n in (1, 2, 5, 11, 21)}
    assert drew == {1: "Анна берёт втёмную 1 карту из колоды.", 2: "Анна берёт втёмную 2 карты из колоды.",
                    5: "Анна берёт втёмную 5 карт из колоды.", 11: "Анна берёт втёмную 11 карт из колоды.",
                    21: "Анна берёт втёмную 21 карту из колоды."}
    uk = [t("uk", "revolution.drew_hidden", seat="Анна", n=n, deck_from="з колоди") for n in (1, 3, 5)]
    assert uk == ["Анна бере наосліп 1 карту з колоди.", "Анна бере наосліп 3 карти з колоди.",
                  "Анна бере наосліп 5 карт з колоди."]
    assert morph.agree("ru", "жизнь", 3, "acc", "few") == "жизни"  # «у вас 3 жизни»


def test_typed_names_are_read_back_in_any_case():
    from commands.names import match_name

    names = ["Фёдор", "Даша", "Борис", "Павел", "Пётр", "Бот-Глафира", "Анна", "Аня", "Аника"]
    assert match_name("фёдору", names) == ("Фёдор", [])
    assert match_name("Бориса", names) == ("Борис", [])
    assert match_name("даше", names) == ("Даша", [])
    assert match_name("павлу", names) == ("Павел", [])  # a cut stem («павл») named nobody
    assert match_name("петру", names) == ("Пётр", [])
    assert match_name("глафиру", names) == ("Бот-Глафира", [])
    assert match_name("Бот-Глафиру", names) == ("Бот-Глафира", [])
    assert match_name("ани", names) == (None, ["Аня", "Аника"])  # a case form and a start: asks
    assert match_name("Аня", names) == ("Аня", [])  # the exact name first


def test_a_sentence_opened_by_a_fragment_starts_with_a_capital():
    line = t("ru", "mafia.status.line", when="ночь 1", alive=5, players=5, statuses=nested("mafia.status.all_well"))
    assert strip_marks(line).endswith("Живы 5 из 5. Все на свободе и здоровы.")
    line = t("en", "mafia.status.line", when="night 1", alive=5, players=5, statuses=nested("mafia.status.all_well"))
    assert strip_marks(line).endswith("5 of 5. Everyone is free and well.")
    # A name or typed text is never re-cased, whatever stands before it.
    assert strip_marks(t("ru", "tell.to", name="вася", text="ну. да")) == "Вы шепчете васе: «ну. да»"


def test_booleans_and_none_never_reach_a_screen():
    assert t("ru", "option.pair", name="шёпот", value=False) == "шёпот=нет"
    assert t("en", "option.pair", name="tell", value=True) == "tell=yes"
    assert t("uk", "option.pair", name="шепіт", value=True) == "шепіт=так"
    assert t("ru", "option.pair", name="x", value=None) == "x=-"


# -- Mafia: the one reason a target is refused ---------------------------------------------------

def why(fn, *args, **kw) -> str:
    error = err(fn, *args, **kw)
    assert error.key == "mafia.error.bad_target", error.key
    return error.params["why"]


def test_a_refused_target_gives_its_one_reason():
    s = game(["boss", "killer", "agent", "officer", "maniac"], index=2)
    s.alive[4] = False
    assert why(order, s, 1, "pistol", 4) == "dead"
    assert why(order, s, 1, "pistol", 1) == "self"
    assert why(order, s, 1, "pistol", 9) == "not_a_player"
    order(s, 2, "cover", 3)
    order(s, 1, "pistol", 3)
    finish(s)
    finish(s)
    assert why(order, s, 2, "cover", 3) == "again"

    s = pos({3: "Электрик"}, 3)  # Диверсия: not on a character in Hospital or in Jail
    s.hp[2], s.jail[1] = 1, 5
    goto(s, 3)
    assert why(order, s, 3, "diversion", 2) == "hospital"
    assert why(order, s, 3, "diversion", 1) == "jailed"


def test_every_reason_has_its_line_in_every_language():
    from games.mafia import targets as T

    source = "".join(inspect.getsource(f) for f in (AB.target_refusal, T.seat_refusal, T._rules, T.protection))
    reasons = set(re.findall(r'return (?:None if .*? else )?"(\w+)"', source))
    reasons |= set(re.findall(r'out\.append\(\("(\w+)"', source))  # (targets._rules: reason, seats)
    from games.mafia import public_roles as P  # the public roles' refusals, each with its reason
    refused = inspect.getsource(P.refused)
    reasons |= set(re.findall(r'setdefault\(\w+, "(\w+)"\)', refused)) | set(re.findall(r'\), "(\w+)"\)', refused))
    reasons |= {"self", "not_self", "other"}  # the mail and card checks, and the fallback
    assert {"dead", "jailed", "hospital", "again", "taken"} <= reasons, reasons
    for lang in ("ru", "en", "uk"):
        missing = [r for r in reasons if f"mafia.target_why.{r}" not in catalog(lang)]
        assert not missing, (lang, missing)
    line = t("ru", "mafia.error.bad_target", ability="Пистолет", target="Вася", why=nested("mafia.target_why.dead"))
    assert line == "Пистолет: цель Вася выбрать нельзя — она мертва."


@pytest.mark.parametrize(("lang", "seconds", "said"), [
    ("ru", 61, " (осталась 61 секунда)"), ("ru", 45, " (осталось 45 секунд)"),
    ("ru", 60, " (осталась 1 минута)"), ("ru", 1260, " (осталась 21 минута)"),
    ("ru", 540, " (осталось 9 минут)"), ("ru", 3600, " (остался 1 час)"),
    ("ru", 7200, " (осталось 2 часа)"), ("ru", 21 * 3600, " (остался 21 час)"),
    ("uk", 60, " (залишилася 1 хвилина)"), ("uk", 3600, " (залишилася 1 година)"),
    ("uk", 180, " (залишилося 3 хвилини)"), ("uk", 25, " (залишилося 25 секунд)"),
    ("en", 60, " (1 minute left)"), ("en", 7200, " (2 hours left)"), ("en", 1, " (1 second left)"),
])
def test_the_time_left_of_a_mafia_phase_agrees_with_its_number(lang, seconds, said):
    from world.presenters.mafia_names import time_left

    assert strip_marks(render_value(lang, time_left(seconds))) == said


# A name's placeholder, then (in the same clause) a word: a verb in the masculine past tense
# («{name} отошёл», «её выбрал {player}») is right for one player and wrong for the next.
# The name as the subject: not after a word that puts it in another role («гравця {seat}»,
# «у игрока {player}»: the verb there agrees with another noun); the clause ends at punctuation.
NOT_SUBJECT = r"(?<!гравця )(?<!гравцем )(?<!гравцю )(?<!гравцеві )(?<!игрока )(?<!игроком )(?<!игроку )"
NAME_NEAR_WORD = re.compile(NOT_SUBJECT + r"\{" + NAME_PARAM + r"(?::[a-z]+)?\}((?:[^.;:!?{}«»()]){0,40})")
WORD_BEFORE_NAME = re.compile(r"([а-яёіїєґ'ʼ]+) \{" + NAME_PARAM + r"(?::[a-z]+)?\}", re.I)


def _subject_verb(clause: str) -> list[str]:
    """The verb that would agree with a name at the start of ``clause``: its first word (after «не»)."""
    words = re.findall(r"[а-яёіїєґ'ʼ]+", clause, re.I)
    while words and words[0].lower() in ("не", "ні", "уже", "вже", "все", "всё", "теж", "тоже", "також"):
        words = words[1:]
    return words[:1]


def _gendered_past(lang: str, word: str) -> bool:
    """The dictionary reads ``word`` only as a past-tense verb of one gender (no other reading)."""
    parses = [p for p in morph.analyzer(lang).parse(word) if p.is_known and p.score > 0.1]
    return bool(parses) and all(p.tag.POS == "VERB" and p.tag.tense == "past" and p.tag.gender in ("masc", "femn")
                                for p in parses)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_gendered_past_tense_next_to_a_name(lang):
    """Players' genders are unknown: a line with a player's name needs forms without gender
    (issue 14): «{name} отходит», «она у игрока {player}», not «{name} отошёл», «её выбрал {player}»."""
    bad = []
    for key, value in catalog(lang).items():
        for text in forms_of(value):
            if not isinstance(text, str):
                continue
            words = [w for m in NAME_NEAR_WORD.finditer(text) for w in _subject_verb(m.group(1))]
            words += [m.group(1) for m in WORD_BEFORE_NAME.finditer(text)]
            gendered = [w for w in words if _gendered_past(lang, w.lower())]
            if gendered:
                bad.append(f"{key}: {gendered} in {text!r}")
    assert not bad, "gendered past tense next to a player's name:\n" + "\n".join(bad)


def test_a_worn_item_reads_in_the_accusative():
    """«надевает «Гимнастёрку»», not «надевает «Гимнастёрка»» (the card's name through the dictionary)."""
    from world.presenters.revolution import card_name, deck_of

    deck = deck_of("default")
    by_name = {deck.cards[c].name["ru"]: c for c in deck.cards}
    said = {name: strip_marks(t("ru", "revolution.equipped", seat="Анна", card=card_name(deck, by_name[name])))
            for name in ("Гимнастёрка", "Бескозырка", "Наган")}
    assert said == {"Гимнастёрка": "Анна надевает «Гимнастёрку».", "Бескозырка": "Анна надевает «Бескозырку».",
                    "Наган": "Анна надевает «Наган»."}
