"""Text that cannot pretend (issue 13): what one player types reaches the others without hidden
characters, cannot fake a line of its own when it wraps, and a title a player chooses cannot pass
for a role, the Master or another player.

Pure pieces first (world.text.clean, server.render.layout, world.titles), then real sessions
over telnet and SSH against one server process shared by the module.
"""
from __future__ import annotations

import asyncio
import itertools
import random
import re
import unicodedata

import pytest
from wcwidth import wcswidth

from server.render import HANG, layout, visible_width
from tests.ssh_client import connect
from tests.telnet_client import log_in
from tests.test_telnet import tavern  # noqa: F401  (one server for the module)
from tests.wire import open_table
from world.i18n import strip_marks, t
from world.text import MAX_MARKS, clean, clean_controls
from world.titles import title_key, title_problem

# -- world.text.clean ------------------------------------------------------------------------------

# One sample of every class of invisible or format character clean() drops (outside emoji).
HIDDEN = {
    "zero-width space": "\u200b", "zero-width non-joiner": "\u200c", "zero-width joiner": "\u200d",
    "word joiner": "\u2060", "function application": "\u2061", "invisible times": "\u2062",
    "invisible separator": "\u2063", "invisible plus": "\u2064", "byte order mark": "\ufeff",
    "Mongolian vowel separator": "\u180e", "Hangul choseong filler": "\u115f",
    "Hangul jungseong filler": "\u1160", "Hangul filler": "\u3164", "halfwidth Hangul filler": "\uffa0",
    "combining grapheme joiner": "\u034f", "soft hyphen": "\u00ad", "tag letter A": "\U000e0041",
    "cancel tag": "\U000e007f", "language tag": "\U000e0001",
    "interlinear annotation anchor": "\ufff9", "interlinear annotation separator": "\ufffa",
    "interlinear annotation terminator": "\ufffb", "variation selector 1": "\ufe00",
    "variation selector 16 after a letter": "\ufe0f", "variation selector 17": "\U000e0100",
    "private use": "\ue000", "supplementary private use": "\U000f0000", "unassigned": "\U000e0080",
    "lone surrogate": "\ud800", "Arabic letter mark": "\u061c", "left-to-right mark": "\u200e",
    "Khmer vowel inherent": "\u17b4", "Mongolian free variation selector": "\u180b",
    "shorthand format control": "\U0001bca0", "musical symbol begin beam": "\U0001d173",
}
# Emoji sequences whose joiners, selectors, modifiers and tags are part of the picture.
EMOJI = {
    "family (ZWJ)": "👨\u200d👩\u200d👧", "rainbow flag (VS16 + ZWJ)": "🏳\ufe0f\u200d🌈",
    "skin tone": "👍🏽", "keycap": "1\ufe0f\u20e3", "hash keycap": "#\ufe0f\u20e3",
    "heart (VS16)": "❤\ufe0f", "Scotland (tag sequence)": "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "Ukraine (regional indicators)": "🇺🇦", "text-style (VS15)": "☺\ufe0e",
    "woman technologist, skin tone": "👩🏽\u200d💻", "a recent emoji": "\U0001fae9",
}


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_clean_drops_every_invisible_and_format_character(name):
    ch = HIDDEN[name]
    assert clean(f"а{ch}б{ch}") == "аб", name
    assert clean(f"{ch}Vasya{ch}") == "Vasya", name


@pytest.mark.parametrize("raw,expected", [
    ("a\u2028b", "a b"), ("a\u2029b", "a b"),  # line and paragraph separators: no line break
    ("a\u00a0\u00a0b", "a b"), ("a\u3000b", "a b"), ("a\u2003\u2009b", "a b"),  # odd spaces
    ("\u2800\u2800x", " x"),  # the blank Braille pattern, a favourite "invisible" name
    ("pad" + " " * 60 + "end", "pad end"),  # runs of spaces collapse
    ("ann\ufff9base\ufffatext\ufffb", "annbasetext"),
    ("x\u200d\U0001f525", "x\U0001f525"),  # a joiner after a letter joins nothing
    ("🏴\U000e0041\U000e0042", "🏴"),  # tags that spell no flag are hidden text
    ("tag\U000e0068\U000e0069\U000e007f", "tag"),
])
def test_clean_spaces_separators_and_stray_components(raw, expected):
    assert clean(raw) == expected


@pytest.mark.parametrize("name", sorted(EMOJI))
def test_emoji_sequences_survive(name):
    emoji = EMOJI[name]
    assert clean(emoji) == emoji, name
    assert clean(f"ура {emoji}!") == f"ура {emoji}!", name


@pytest.mark.parametrize("text", ["йод", "ёлка", "їжак", "Ґанок", "café", "Ærøskøbing", "ệ", "ᾇ", "naïve"])
def test_letters_with_marks_are_kept_composed_or_not(text):
    assert clean(text) == unicodedata.normalize("NFC", text)
    assert clean(unicodedata.normalize("NFD", text)) == unicodedata.normalize("NFC", text)


def test_combining_marks_are_capped_per_letter():
    zalgo = "Z" + "\u0301\u0300\u0302\u0303\u0304\u0306\u0307\u0308" * 6 + "a" + "\u0489" * 20 + "l"
    cleaned = unicodedata.normalize("NFD", clean(zalgo))
    assert cleaned == "Z\u0301\u0300\u0302" + "a" + "\u0489" * MAX_MARKS + "l"
    assert clean("и" + "\u0306" * 10) == unicodedata.normalize("NFC", "и\u0306\u0306\u0306")


def test_clean_is_idempotent_and_controls_stay_out():
    samples = list(HIDDEN.values()) + list(EMOJI.values()) + ["\x1b[31mred\x1b[0m", "a\tb", "bell\x07"]
    text = " ".join(samples)
    once = clean(text)
    assert clean(once) == once
    assert "\x1b" not in once and "\x07" not in once and "\t" not in once


def test_secrets_are_only_stripped_of_controls():
    """A password is compared as typed: the session takes only controls out of a line; the rest
    of the cleaning is for text others read (commands.parser.parse_line keeps the arguments of
    `password OLD NEW` as typed)."""
    import commands.load_all  # noqa: F401
    from commands.base import REGISTRY
    from commands.parser import parse_line

    secret = "pa\u200bss  word\u00ad"
    assert clean_controls(secret) == secret
    parsed = parse_line(f"pass\u200bword {secret} new1", list(REGISTRY))
    assert parsed.command.key == "password" and parsed.secret and parsed.rest == f"{secret} new1"
    parsed = parse_line(f"say {secret}", list(REGISTRY))
    assert parsed.command.key == "say" and not parsed.secret and parsed.rest == "pass word"


def test_account_names_cannot_carry_hidden_characters():
    """Names are held to their own rule (world.accounts.NAME_RE: Latin or Cyrillic letters, digits,
    - and _), which no hidden character, emoji or mark passes: checked, not changed."""
    from world import accounts

    for ch in [*HIDDEN.values(), *EMOJI.values(), "\u0301", "\u2028", "\u00a0"]:
        assert accounts.name_problem(f"Бо{ch}рис") == "account.name_chars", repr(ch)


# -- server.render: wrapped lines --------------------------------------------------------------------

WORDS = ["Мастер", "шепчет", "вам:", "x", "yy", "слово", "❤\ufe0f", "👨\u200d👩\u200d👧", "1\ufe0f\u20e3",
         "中文", "йод", "a" * 30, "б" * 75]


def test_no_wrapped_line_starts_at_column_0_at_any_width():
    """Seeded texts (words, runs of spaces, emoji, words longer than the line) in a say line, at
    widths 20..500: every continuation line is indented by HANG, and no line is wider than the
    terminal, however the terminal counts an emoji (joined or part by part)."""
    rng = random.Random(13)
    for _ in range(400):
        width = rng.choice([20, 21, 33, 40, 57, 80, 120, 200, 500])
        parts = [rng.choice(WORDS) + " " * rng.choice([1, 1, 1, 2, 7, width]) for _ in range(rng.randint(1, 40))]
        text = clean("".join(parts))
        for lang in ("ru", "en"):
            lines = layout(t(lang, "say.other", name="Борис", text=text), width, False, "\n").split("\n")
            for i, line in enumerate(lines):
                assert visible_width(line) <= width, (width, line)
                assert wcswidth(line) <= width, (width, line)
                if i:
                    assert line.startswith(" " * HANG) and line.strip(), (width, lines)


def test_emoji_count_as_wide_as_a_terminal_draws_them():
    """❤ + VS16 is two columns in a terminal; counted as one, 30 of them overflowed a 40-column
    line and the terminal's own wrap put the rest of the line at column 0."""
    for emoji in ("❤\ufe0f", "1\ufe0f\u20e3", "🏳\ufe0f\u200d🌈"):
        for line in layout(emoji * 30 + " Мастер шепчет вам", 40, False, "\n").split("\n"):
            assert wcswidth(line) <= 40, (emoji, line)


def test_width_0_never_wraps():
    text = t("ru", "say.other", name="Борис", text="слово " * 200)
    assert "\n" not in layout(text, 0, False, "\n")


# -- world.titles --------------------------------------------------------------------------------------

def test_title_keys_fold_case_look_alikes_spaces_and_accents():
    assert len({title_key(x) for x in ("Доктор", "Д0ктор", "ДОКТОР!", "д о к т о р", "Дoктoр", "Доќтор",
                                        "Доктор\u200b")}) == 1
    assert title_key("Ｍонах") == title_key("Монах") == title_key("𝐌онах")  # fullwidth, mathematical
    assert title_key("Горец") != title_key("Гонец")
    assert title_problem("Σωκράτης") == ("title.chars", {})  # other scripts' look-alikes are refused
    assert title_problem("Кот Бегемот") is None
    assert title_problem("Мастер Йода")[0] == "title.like_staff"
    assert title_problem("Бот Вася")[0] == "title.like_staff"
    assert title_problem("Вася 2", players=["Вася"])[0] == "title.like_player"
    assert title_problem("Друг Васи", players=["Вася"]) is None
    assert title_problem("я" * 33) == ("title.too_long", {"n": 32})
    assert title_problem("!!!") == ("title.no_letters", {})


# -- over the wire ---------------------------------------------------------------------------------------

_names = itertools.count(1)


def unique(prefix: str) -> str:
    return f"{prefix}{next(_names)}{random.randint(10, 99)}"


def text(lang: str, key: str, **params) -> str:
    return strip_marks(t(lang, key, **params))


def telnet_lines(client) -> list[str]:
    return client.text.replace("\r\n", "\n").split("\n")


HOSTILE = "".join(HIDDEN.values()).replace("\ud800", "")  # a lone surrogate cannot travel as UTF-8


async def test_invisible_characters_never_reach_another_player(tavern):
    """Анна (telnet) and Boris (SSH) say, tell and emote with every hidden character, spaces, a
    line separator and a Zalgo letter mixed in; the other sees the text cleaned, emoji intact."""
    anna_name, boris_name = unique("Анна"), unique("Boris")
    anna = await log_in(tavern.telnet_port, anna_name, naws=(250, 50))
    boris = await connect(tavern.ssh_port, boris_name, password="secret1", width=250)
    try:
        await boris.expect(text("ru", "login.welcome", name=boris_name))
        emoji = " ".join(EMOJI.values())
        zalgo = "Z" + "\u0301" * 12
        typed = f"при{HOSTILE}вет\u2028  {emoji}  {zalgo} конец"
        shown = f"привет {emoji} " + unicodedata.normalize("NFC", "Z\u0301\u0301\u0301") + " конец"
        assert clean(typed) == shown

        anna.send_line(f"say {typed}")
        await boris.expect(text("ru", "say.other", name=anna_name, text=shown), timeout=10)
        boris.send_line(f"tell {anna_name} {typed}")
        await anna.expect(text("ru", "tell.from", name=boris_name, text=shown), timeout=10)
        boris.send_line(f"emote {typed}")
        await anna.expect(text("ru", "emote.line", name=boris_name, text=shown), timeout=10)
        anna.send_line(f"tell {boris_name} {typed}")
        await boris.expect(text("ru", "tell.from", name=anna_name, text=shown), timeout=10)
        await anna.settle(0.2)
        for received in (anna.text, boris.text):
            for sequence in EMOJI.values():  # their joiners, selectors and tags belong to them
                received = received.replace(sequence, "")
            assert not any(ch in received for ch in HOSTILE + "\u2028\u2029"), \
                [unicodedata.name(ch, hex(ord(ch))) for ch in set(received) & set(HOSTILE + "\u2028")]
            assert "Z" + "\u0301" * (MAX_MARKS + 1) not in unicodedata.normalize("NFD", received)
    finally:
        await anna.close()
        await boris.close()


def _message(lines: list[str], first: str, last: str) -> list[str]:
    """The screen lines of the latest message that begins with ``first`` and ends with ``last``."""
    start = max(i for i, line in enumerate(lines) if first in line)
    end = next(i for i in range(start, len(lines)) if last in lines[i])
    return lines[start:end + 1]


async def test_padded_text_cannot_start_a_line_at_column_0(tavern):
    """Анна pads say, emote and tell so that «Мастер шепчет вам: …» (or "The Master whispers to
    you: …") would begin the next line at column 0 on Борис's telnet screen (NAWS 40 columns,
    Russian) and on Vera's SSH screen (a 50-column pty, English): once with a word that fills the
    line to its last column, once with spaces. Both see every continuation line indented, and the
    spaces collapsed."""
    anna_name, boris_name, vera_name = unique("Анна"), unique("Борис"), unique("Vera")
    anna = await log_in(tavern.telnet_port, anna_name, naws=(250, 50))
    boris = await log_in(tavern.telnet_port, boris_name, naws=(40, 24))
    vera = await connect(tavern.ssh_port, vera_name, password="secret1", width=50)
    try:
        await vera.expect(re.compile(r"\n> ?$"))  # logged in: the first prompt
        vera.send_line("lang en")
        await vera.expect("English")
        readers = ((boris, boris_name, "ru", 40, "Мастер шепчет вам: отдай карту", lambda: telnet_lines(boris)),
                   (vera, vera_name, "en", 50, "The Master whispers to you: pass", vera.screen.text_lines))
        for reader, reader_name, lang, width, fake, screen in readers:
            for verb, key in (("say", "say.other"), ("emote", "emote.line"), ("tell", "tell.from")):
                before = text(lang, key, name=anna_name, text="\x00").split("\x00")[0]
                target = f"{reader_name} " if verb == "tell" else ""
                room = width - visible_width(before)
                for padded in ("x" * room + " " + fake,  # a word to the last column, then the fake
                               "x" + " " * (room - 1) + fake):  # spaces to the last column
                    anna.send_line(f"{verb} {target}{padded}")
                    await reader.expect(fake.split()[-1], timeout=10)
                    await reader.settle(0.2)
                    lines = _message(screen(), before, fake.split()[-1])
                    assert all(line.startswith(" " * HANG) for line in lines[1:]), (verb, lang, lines)
                    joined = " ".join(line.strip() for line in lines)
                    assert fake in joined and "  " not in joined, (verb, lang, lines)
    finally:
        await anna.close()
        await boris.close()
        await vera.close()


async def test_width_0_ssh_gets_one_line_per_message(tavern):
    """A script's SSH session (no pty, width 0) is never wrapped, and player text carries no line
    break of any kind into it (U+2028, U+2029, NEL, vertical tab, form feed)."""
    anna_name, bot_name = unique("Анна"), unique("Script")
    anna = await log_in(tavern.telnet_port, anna_name)
    script = await connect(tavern.ssh_port, bot_name, password="secret1", term=False)
    try:
        await script.expect(text("ru", "login.welcome", name=bot_name))
        anna.send_line("say раз\u2028Мастер шепчет вам: два\u2029три\x85четыре\x0bпять\x0cшесть " + "слово " * 40)
        await script.expect("шесть", timeout=10)
        await script.settle(0.2)
        line = next(line for line in script.raw.split("\n") if "раз" in line)
        assert "Мастер шепчет вам: два" in line and "шесть" in line and line.rstrip("\r").endswith("»"), line
        assert not set(line) & set("\u2028\u2029\x85\x0b\x0c")
    finally:
        await anna.close()
        await script.close()


async def test_mafia_labels_cannot_pass_for_a_role_a_player_or_the_master(tavern):
    """A real Mafia sign-up: Анна (telnet, Russian, GMCP) and Boris (SSH, English). Labels that look
    like a role (any language, look-alike letters, spacing), a seated player or the Master are
    refused with a line saying why; a label is cleaned like all player text, and GMCP shows it
    cleaned once the game starts."""
    anna_name, boris_name = unique("Анна"), unique("Boris")
    anna = await log_in(tavern.telnet_port, anna_name, gmcp=True, naws=(250, 50))
    boris = await connect(tavern.ssh_port, boris_name, password="secret1", width=250)
    try:
        await boris.expect(text("ru", "login.welcome", name=boris_name))
        boris.send_line("lang en")
        await boris.expect("English")
        number = await open_table(anna, "открыть мафия")
        boris.send_line(f"join {number}")
        await boris.expect("You sit down")

        for label, role in (("Д0ктор", "mafia.classic_role.doctor"), ("д о к т о р", "mafia.classic_role.doctor"),
                            ("Мирный  житель", "mafia.classic_role.townsman"), ("Г0рец", "mafia.public.highlander"),
                            ("Настоящий Горец", "mafia.public.highlander"), ("Босс", "mafia.role_name.boss")):
            await asyncio.sleep(0.3)  # a person's pace: the flood guard allows 5 commands a second
            anna.send_line(f"класс {label}")
            shown = " ".join(label.split())
            await anna.expect(text("ru", "title.like_role", title=shown, role=text("ru", role)), timeout=10)
        for label, role in (("DOCTOR", "mafia.classic_role.doctor"), ("Hіghlander", "mafia.public.highlander")):
            boris.send_line(f"class {label}")
            await boris.expect(text("en", "title.like_role", title=label, role=text("en", role)), timeout=10)
        latin_a = "A" + anna_name[1:]  # Latin A, the rest Cyrillic
        boris.send_line(f"class {latin_a}")
        await boris.expect(text("en", "title.like_player", title=latin_a, name=anna_name), timeout=10)
        await asyncio.sleep(1)
        anna.send_line("класс Мастер Йода")
        await anna.expect(text("ru", "title.like_staff", title="Мастер Йода", name="Мастер"), timeout=10)
        anna.send_line("класс " + "я" * 33)
        await anna.expect(text("ru", "title.too_long", n=32), timeout=10)

        anna.send_line("класс Кот\u200b  Бегемот\u2060")
        await anna.expect(text("ru", "mafia.cmd.class_set", name="Кот Бегемот"), timeout=10)
        await boris.expect(text("en", "mafia.cmd.class_other", player=anna_name, name="Кот Бегемот"), timeout=10)
        boris.send_line("class Кoт Бегемoт")  # Latin o: the same label
        await boris.expect(text("en", "mafia.cmd.class_taken", name="Кот Бегемот", player=anna_name), timeout=10)

        await asyncio.sleep(1)
        anna.send_line("боты 3")
        await anna.expect("За стол садятся 3 бота", timeout=10)
        after = len(anna.gmcp_messages)
        anna.send_line("начать")
        view = await anna.gmcp("Korchma.Game.View", timeout=20, after=after)
        names = [item.get("name") for item in view["view"]["public_roles"]]
        assert "Кот Бегемот" in names, names
    finally:
        await anna.close()
        await boris.close()


async def test_a_label_that_a_later_player_s_name_looks_like_stops_the_start(tavern):
    """A label is checked against the players seated when it is chosen, and again at `start`
    against those who sat down after: the host hears whose choice it is, on either door."""
    anna_name, vika_name = unique("Анна"), unique("Вика")
    anna = await log_in(tavern.telnet_port, anna_name, naws=(250, 50))
    vika = await connect(tavern.ssh_port, vika_name, password="secret1", width=250)
    try:
        await vika.expect(text("ru", "login.welcome", name=vika_name))
        number = await open_table(anna, "открыть мафия")
        anna.send_line(f"класс {vika_name}")  # nobody of that name at the table yet
        await anna.expect(text("ru", "mafia.cmd.class_set", name=vika_name), timeout=10)
        vika.send_line(f"сесть {number}")
        await vika.expect("Вы садитесь")
        anna.send_line("боты 3")
        await anna.expect("За стол садятся 3 бота", timeout=10)
        anna.send_line("начать")
        await anna.expect(text("ru", "title.clash_at_start", title=vika_name, owner=anna_name, name=vika_name),
                          timeout=10)
        anna.send_line("класс -")
        await anna.expect(text("ru", "mafia.cmd.class_cleared"), timeout=10)
        vika.send_line(f"класс {anna_name}")  # the other way round: refused at once
        await vika.expect(text("ru", "title.like_player", title=anna_name, name=anna_name), timeout=10)
        anna.send_line("начать")
        await vika.expect(f"Мастер начинает игру за столом {number}", timeout=20)
    finally:
        await anna.close()
        await vika.close()
