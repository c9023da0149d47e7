"""Small pure pieces: names and look-alikes, text cleaning, wrapping, the verb parser, durations."""
from __future__ import annotations

import pytest

from commands.base import split_args
from commands.names import match_name
from commands.parser import resolve, split_verb
from server.render import layout, visible_width
from world import accounts, login_guard
from world.i18n import t
from world.text import clean


@pytest.mark.parametrize("name", ["Вася", "Petya", "ab", "Ivan_2", "Мария-Луиза", "x" * 20, "Ботаник", "Botan12"])
def test_good_names(name):
    assert accounts.name_problem(name) is None


@pytest.mark.parametrize("name,problem", [
    ("a", "account.name_length"), ("x" * 21, "account.name_length"), ("2pac", "account.name_chars"),
    ("bad name", "account.name_chars"), ("emoji😀", "account.name_chars"), ("Мастер", "account.name_reserved"),
    ("MASTER", "account.name_reserved"),
    ("Бот-Вася", "account.name_reserved"), ("Bot-Alfred", "account.name_reserved"),  # bots' names
    ("bot_alfred", "account.name_reserved"), ("Bot7", "account.name_reserved"), ("бот12", "account.name_reserved"),
])
def test_bad_names(name, problem):
    assert accounts.name_problem(name) == problem


def test_names_unique_without_case_and_lookalikes():
    # Latin "a", "o", "c", "e", "p" against Cyrillic "а", "о", "с", "е", "р"
    assert accounts.name_key("Anna") == accounts.name_key("аnna")
    assert accounts.name_key("Oscar") == accounts.name_key("Оsсаr")
    assert accounts.name_key("POPE") == accounts.name_key("рорe")
    assert accounts.name_key("Вася") == accounts.name_key("вася")
    assert accounts.name_key("Petya") != accounts.name_key("Petra")


def test_passwords_are_argon2():
    hasher = login_guard.Hasher()
    stored = hasher.hash("секрет")
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert hasher.check(stored, "секрет") == login_guard.Checked(True)
    assert not hasher.check(stored, "секреТ").ok
    assert not hasher.check(None, "x").ok


def test_login_throttle_grows():
    th = login_guard.LoginThrottle(attempts=5, backoff=5, backoff_max=300)
    for _ in range(4):
        th.failed("Vasya", "1.2.3.4", clock=100.0)
    assert th.wait_left("Vasya", "1.2.3.4", clock=100.0) == 0
    th.failed("Vasya", "1.2.3.4", clock=100.0)
    assert th.wait_left("Vasya", "1.2.3.4", clock=100.0) == 5
    assert th.wait_left("Vasya", "9.9.9.9", clock=100.0) == 0  # the owner elsewhere is not held up
    assert th.wait_left("Other", "1.2.3.4", clock=100.0) == 5  # by address, any name
    th.failed("Vasya", "1.2.3.4", clock=100.0)
    assert th.wait_left("Vasya", "1.2.3.4", clock=100.0) == 10
    for _ in range(20):
        th.failed("Vasya", "1.2.3.4", clock=100.0)
    assert th.wait_left("Vasya", "1.2.3.4", clock=100.0) == 300
    assert th.succeeded("Vasya", "1.2.3.4", clock=100.0) == (26, 1)
    assert th.wait_left("Other", "1.2.3.4", clock=100.0) == 300  # the address keeps its count


def test_durations():
    assert accounts.parse_duration("30m").total_seconds() == 1800
    assert accounts.parse_duration("2ч").total_seconds() == 7200
    assert accounts.parse_duration("7d").days == 7
    assert accounts.parse_duration("45").total_seconds() == 45 * 60
    assert accounts.parse_duration("soon") is None


def test_public_key_parsing():
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519", comment="me@home")
    line = key.export_public_key().decode().strip()
    algorithm, blob, comment, fingerprint = accounts.parse_public_key(line)
    assert algorithm == "ssh-ed25519" and comment == "me@home"
    assert fingerprint.startswith("SHA256:")
    assert accounts.parse_public_key("ssh-rsa AAAAB3NzaC1lZDI1NTE5AAAAIA== x") is None  # wrong type inside
    assert accounts.parse_public_key("not a key") is None


@pytest.mark.parametrize("raw,expected", [
    ("plain текст", "plain текст"),
    ("\x1b[31mred\x1b[0m", "red"),
    ("a\x1b]0;title\x07b", "ab"),
    ("\x9b2Jx", "x"),
    ("bell\x07 null\x00 del\x7f", "bell null del"),
    ("rtl\u202eevil\u202c", "rtlevil"),
    ("iso\u2066late\u2069", "isolate"),
    ("c1\x85\x8d", "c1"),
    ("tab\there", "tab here"),
])
def test_clean_removes_controls_and_escapes(raw, expected):
    assert clean(raw) == expected


def test_wrap_respects_width_and_markers():
    text = t("en", "rules.bids")
    for width in (30, 50, 80):
        for line in layout(text, width, color=True, newline="\n").split("\n"):
            plain = line.replace("\x1b[1m", "").replace("\x1b[0m", "")
            assert visible_width(plain) <= width
    colored = layout(t("en", "login.welcome", name="Вася"), 80, color=True)
    assert "\x1b[32m" in colored and "\x1b[0m" in colored
    plain = layout(t("en", "login.welcome", name="Вася"), 80, color=False)
    assert "\x1b" not in plain and "\x1e" not in plain


def test_player_text_cannot_become_markup():
    out = layout(t("en", "say.other", name="X", text="<r>red</> \x1eb"), 80, color=True)
    assert "\x1b[31m" not in out  # the tag typed by a player stays text
    assert "<r>red</>" in out


def test_plurals_ru():
    forms = [t("ru", "mod.muted_you", minutes=n) for n in (1, 2, 5, 11, 21, 22, 25)]
    assert ["минуту" in forms[0], "минуты" in forms[1], "минут." in forms[2], "минут." in forms[3],
            "минуту" in forms[4], "минуты" in forms[5], "минут." in forms[6]] == [True] * 7
    assert t("ru", "bids.final_score", seat="A", score=1).endswith("1 очко")
    assert t("ru", "bids.final_score", seat="A", score=3).endswith("3 очка")
    assert t("ru", "bids.final_score", seat="A", score=7).endswith("7 очков")
    assert t("en", "bids.final_score", seat="A", score=1).endswith("1 point")
    assert t("en", "bids.final_score", seat="A", score=2).endswith("2 points")


def test_split_verb_and_args():
    assert split_verb("'привет") == ("say", "привет")
    assert split_verb(":smiles") == ("emote", "smiles")
    assert split_verb("tell Вася hi there") == ("tell", "Вася hi there")
    assert split_args('open bids "rounds=3" «два слова»') == ["open", "bids", "rounds=3", "два слова"]


def test_resolve_prefix_and_suggestions():
    import commands.load_all  # noqa: F401
    from commands.base import REGISTRY

    hall = [c for c in REGISTRY if c.game is None and c.role == "player"]
    cmd, _ = resolve("wh", hall)
    assert cmd is not None and cmd.key == "who"
    cmd, _ = resolve("КТО", hall)
    assert cmd is not None and cmd.key == "who"
    cmd, suggestions = resolve("helo", hall)
    assert cmd is None and "help" in suggestions
    cmd, suggestions = resolve("s", hall)  # say, start...: ambiguous
    assert cmd is None and len(suggestions) > 1
    for typed in ("ещё", "еще", "ЕЩЁ", "Еще"):  # ё and е are one letter to the parser
        cmd, _ = resolve(typed, hall)
        assert cmd is not None and cmd.key == "rematch", typed


def test_a_line_is_secret_as_dispatch_reads_it():
    """One reading of a line (commands.parser.parse_line) says which command runs and whether
    the line holds secrets: a verb that runs `password` (any unique start of it, in the session's
    commands), or that may have meant it (several commands start so, or a near miss). At a Coup
    table `pass` is `allow`, no secret; in the hall it is `password`."""
    from commands.parser import parse_line
    from tests.offline import game_commands

    hall, coup = game_commands(None), game_commands("coup")
    # ("p": `password` or `pagelength` now; its arguments are kept secret all the same)
    for line, commands, key in (("pas old new", hall, "password"), ("p old new", hall, None),
                                ("pass old new", hall, "password"), ("пар old new", hall, "password"),
                                ("pas old new", coup, "password"), ("passwrd old new", hall, None),
                                ("па old new", coup, None)):
        parsed = parse_line(line, commands)
        assert parsed.secret and parsed.rest == "old new", line
        assert (parsed.command.key if parsed.command else None) == key, line
    for line, commands, key in (("pass", coup, "allow"), ("пас", coup, "allow"), ("say password x", hall, "say"),
                                ("allow", hall, None), ("не верю", coup, "challenge"), ("", hall, None)):
        parsed = parse_line(line, commands)
        assert not parsed.secret, line
        assert (parsed.command.key if parsed.command else None) == key, line


def test_phrase_verbs_are_matched_whole():
    """«не верю» is a verb of two words (the Coup challenge): typed whole it is the command and
    the words after it are its arguments; its first word alone is no command and no prefix."""
    from commands.parser import phrase_verb
    from tests.offline import game_commands

    coup = game_commands("coup")
    for line, rest in (("не верю", ""), ("НЕ ВЕРЮ", ""), ("Не  верю", ""), ("не вірю", ""),
                       ("не верю Вася", "Вася")):
        verb, args = phrase_verb(*split_verb(line), coup)
        cmd, _ = resolve(verb, coup)
        assert cmd is not None and cmd.key == "challenge" and args == rest, line
    for line in ("проверка", "проверить", "оспорить", "оскаржити"):  # seed 000's and the status line's words
        cmd, _ = resolve(split_verb(line)[0], coup)
        assert cmd is not None and cmd.key == "challenge", line
    verb, rest = phrase_verb(*split_verb("не"), coup)
    assert resolve(verb, coup)[0] is None and rest == ""
    verb, rest = phrase_verb(*split_verb("не знаю"), coup)
    assert (verb, rest) == ("не", "знаю") and resolve(verb, coup)[0] is None
    hall = game_commands(None)  # no phrase there: the line is split as always
    assert phrase_verb(*split_verb("не верю"), hall) == ("не", "верю")


def test_match_name():
    names = ["Вася", "Василиса", "Petya"]
    assert match_name("пат", names) == (None, [])
    assert match_name("пет", names) == ("Petya", [])  # the other script, when nothing else matches
    assert match_name("pet", names) == ("Petya", [])
    assert match_name("вас", names) == (None, ["Вася", "Василиса"])
    assert match_name("ВАСЯ", names) == ("Вася", [])
    bots = ["Бот-Евсей", "Бот-Ефим", "Евгения", "Анна-Мария"]
    assert match_name("евс", bots) == ("Бот-Евсей", [])  # a bot by its own name
    assert match_name("Евсей", bots) == ("Бот-Евсей", [])
    assert match_name("ев", bots) == ("Евгения", [])  # a name that starts so comes first
    assert match_name("ефим", bots) == ("Бот-Ефим", [])
    assert match_name("мар", bots) == ("Анна-Мария", [])
    assert match_name("бот", bots) == (None, ["Бот-Евсей", "Бот-Ефим"])
    assert match_name("е", ["Бот-Евсей", "Бот-Ефим"]) == (None, ["Бот-Евсей", "Бот-Ефим"])


def test_match_name_across_scripts():
    """An English keyboard reaches the Russian bots, and a Russian one the Latin names."""
    from commands.names import latin_fold
    from world.bot_names import BOT_NAMES

    bots = list(BOT_NAMES["ru"])
    for typed, name in (("glaf", "Бот-Глафира"), ("Afanasy", "Бот-Афанасий"), ("afanasiy", "Бот-Афанасий"),
                        ("Yevsey", "Бот-Евсей"), ("evsej", "Бот-Евсей"), ("prokhor", "Бот-Прохор"),
                        ("Ustinya", "Бот-Устинья"), ("ustinja", "Бот-Устинья"), ("Fyokla", "Бот-Фёкла"),
                        ("fekla", "Бот-Фёкла"), ("tikh", "Бот-Тихон"), ("Dunya", "Бот-Дуня"),
                        ("pelageya", "Бот-Пелагея"), ("bot-mar", "Бот-Марфа")):
        assert match_name(typed, bots) == (name, []), typed
    assert match_name("борис", ["Boris", "Анна"]) == ("Boris", [])
    assert match_name("anna", ["Boris", "Анна"]) == ("Анна", [])
    assert match_name("bot", bots)[0] is None  # every bot: ambiguous, as «бот» is
    assert match_name("Анна", ["Анна", "Anna"]) == ("Анна", [])  # the same script wins
    assert latin_fold("Щука Хрущёв") == "shuka hrushev"


def test_a_name_with_a_line_break_at_its_end_is_no_name():
    from world.accounts import name_problem

    assert name_problem("Anna") is None
    assert name_problem("Anna\n") == "account.name_chars"  # `$` alone would let it through


def test_an_exact_name_wins_and_looser_matches_of_accounts_ask():
    from commands.names import loose_matches

    # Exact once case and look-alike letters are folded (as at account creation), before any
    # start of a name or other-script match: Cyrillic «В» and «о» in "Вoris" are Boris's letters.
    assert match_name("Вoris", ["Борис", "Boris"]) == ("Boris", [])
    assert match_name("boris", ["Борис", "Boris"]) == ("Boris", [])
    assert match_name("борис", ["Boris", "Борис"]) == ("Борис", [])
    # Accounts: every looser way counts at once, so a start that fits two people is ambiguous
    # even when one fits by its letters and the other only in the other script.
    assert loose_matches("bor", ["Boris", "Борис", "Анна"]) == ["Boris", "Борис"]
    assert loose_matches("мар", ["Марина", "Анна-Мария"]) == ["Марина", "Анна-Мария"]
    assert loose_matches("ann", ["Анна", "Борис"]) == ["Анна"]
    assert loose_matches("zz", ["Анна", "Борис"]) == []


def test_creation_limit_window_and_exempt_addresses():
    from world.accounts import CreationLimit

    limit = CreationLimit(per_address=2, window=100.0, exempt=frozenset({"127.0.0.1"}))
    for t in (0.0, 10.0):
        assert limit.wait_left("10.0.0.1", clock=t) == 0
        limit.record("10.0.0.1", clock=t)
    assert limit.wait_left("10.0.0.1", clock=20.0) == 80.0  # until the first one ages out
    assert limit.wait_left("10.0.0.2", clock=20.0) == 0  # per address
    assert limit.wait_left("10.0.0.1", clock=100.5) == 0
    for _ in range(5):
        limit.record("127.0.0.1", clock=1.0)
    assert limit.wait_left("127.0.0.1", clock=2.0) == 0
    assert CreationLimit(per_address=0).wait_left("10.0.0.1") == 0  # 0: no limit


def test_time_spans_read_as_words():
    from world.i18n import format_span, t

    assert format_span("ru", 0) == "0 секунд"
    assert format_span("ru", 61, "acc") == "1 минуту 1 секунду"
    assert format_span("ru", 3725) == "1 час 2 минуты"
    assert format_span("ru", 2 * 86400 + 5 * 3600) == "2 дня 5 часов"
    assert format_span("uk", 3600, "acc") == "1 годину"
    assert format_span("en", 86400 + 60) == "1 day"  # the second unit is skipped when it is 0
    assert format_span("en", 172800) == "2 days"
    assert t("ru", "master.extended", number=3, added=1800, seconds=5400) == \
        "Мастер продлил фазу за столом 3 на 30 минут: осталось 1 час 30 минут."


async def test_a_gmcp_wait_id_belongs_to_its_command_alone():
    """The wait a Korchma.Game.Command names holds while its command runs, in that task: a task
    it starts (a bot's move after the answer) does not inherit it (world/task_local.py)."""
    import asyncio

    from commands.table import ANSWERING_WAIT

    seen: list = []

    async def started_meanwhile() -> None:
        await asyncio.sleep(0)
        seen.append(ANSWERING_WAIT.get())

    with ANSWERING_WAIT.bound(41):
        task = asyncio.get_running_loop().create_task(started_meanwhile())
        await asyncio.sleep(0.01)
        assert ANSWERING_WAIT.get() == 41
    await task
    assert seen == [None] and ANSWERING_WAIT.get() is None and len(ANSWERING_WAIT) == 0
