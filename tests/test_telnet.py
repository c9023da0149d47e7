"""The telnet front door, over real sockets against a real server process.

Most tests share one server (module scope) and use fresh account names; the login-timeout
test starts its own server with a short timeout.
"""
from __future__ import annotations

import asyncio
import itertools
import random
import re
import time

import pytest

from tests.conftest import TEST_CONFIG, ServerProcess, merge_toml
from tests.telnet_client import ENCODING_MENU, NAME_PROMPT, TelnetClient, gmcp_bytes
from world.i18n import strip_marks, t

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_names = itertools.count(1)


def new_name(prefix: str = "Гость") -> str:
    return f"{prefix}{next(_names)}{random.randint(100, 999)}"


@pytest.fixture(scope="module")
def tavern(tmp_path_factory):
    """One server for the module (starting one costs about a second)."""
    base = tmp_path_factory.mktemp("telnet")
    data = base / "data"
    data.mkdir()
    cfg = base / "config.toml"
    cfg.write_text(merge_toml(TEST_CONFIG, ""))
    srv = ServerProcess(data_dir=data, config=cfg).start()
    yield srv
    srv.terminate()


@pytest.fixture
async def clients():
    made: list[TelnetClient] = []

    async def make(port: int, **options) -> TelnetClient:
        client = TelnetClient(**options)
        await client.connect("127.0.0.1", port)
        made.append(client)
        return client

    yield make
    await asyncio.gather(*(c.close() for c in made))


async def logged_in(clients, port: int, name: str | None = None, password: str = "secret1", **options):
    client = await clients(port, **options)
    name = name or new_name()
    await client.login(name, password)
    await client.expect("> ")  # the first prompt after the welcome, and its GA/EOR
    if not client.gmcp_on or client.prompt_marks:
        await client.wait_for(lambda: bool(client.text_at_marks) and client.text_at_marks[-1] >= client.mark)
    client.name = name
    return client


async def command(client: TelnetClient, line: str, timeout: float = 5.0) -> str:
    """Send a line and return what came back up to the next prompt mark (GA/EOR)."""
    n = len(client.prompt_marks)
    client.send_line(line)
    start = client.mark
    found: list[int] = []

    def answered() -> bool:
        for pos in client.text_at_marks[n:]:
            if pos > start and client.text[:pos].endswith("> "):
                found.append(pos)
                return True
        return False

    await client.wait_for(answered, timeout)
    return client.text[start:found[0]]


def no_telnet_errors(srv: ServerProcess) -> None:
    log = srv.log()
    for marker in ("level=error logger=korchma.telnet", "level=error logger=korchma.session", "Traceback"):
        assert marker not in log, log[-4000:]


# -- login -------------------------------------------------------------------------------


async def test_create_account_then_log_in_again(tavern, clients):
    name = new_name("Вася")
    first = await clients(tavern.telnet_port)
    text = await first.login(name, "пароль1")
    assert ENCODING_MENU.search(first.text)  # no CHARSET: the menu was shown
    assert name in text
    # the password was hidden: WILL ECHO after the name, WONT ECHO once it was typed
    assert ("WILL", "ECHO") in first.events and ("WONT", "ECHO") in first.events
    assert first.events.index(("WILL", "ECHO")) < first.events.index(("WONT", "ECHO"))
    assert not first.server_echo
    first.send_line("quit")
    await asyncio.wait_for(first.closed.wait(), 5)

    again = await clients(tavern.telnet_port)
    await again.login(name.upper(), "пароль1", create=False)  # names are case-insensitive
    await again.expect("> ")
    out = await command(again, "who")
    assert name in out


async def test_wrong_password_is_refused(tavern, clients):
    name = new_name("Петя")
    c = await logged_in(clients, tavern.telnet_port, name)
    c.send_line("quit")
    other = await clients(tavern.telnet_port)
    with pytest.raises(AssertionError, match="refused"):
        await other.login(name, "wrong-one", create=False)


async def test_password_asked_with_echo_off(tavern, clients):
    """`пароль` alone asks for the old and the new password with the echo off (a telnet client
    would show `password OLD NEW` as typed); an empty line cancels, a mismatch changes nothing."""
    name = new_name("Оля")
    c = await logged_in(clients, tavern.telnet_port, name)
    events = len(c.events)
    out = await command(c, "пароль")
    assert "Старый пароль (пустая строка — отмена):" in out
    assert ("WILL", "ECHO") in c.events[events:] and c.server_echo
    assert "Пароль не менялся." in await command(c, "")
    assert not c.server_echo  # WONT ECHO: typing shows again
    await command(c, "пароль")
    assert "Старый пароль неверен." in await command(c, "не-тот")
    assert not c.server_echo
    await command(c, "пароль")
    assert "Новый пароль (не короче 4 знаков):" in await command(c, "secret1")
    assert "Пароль слишком короткий" in await command(c, "abc")
    assert "Новый пароль ещё раз:" in await command(c, "новый-пароль")
    assert "Пароли не совпали; пароль не менялся." in await command(c, "другой")
    await command(c, "пароль")
    await command(c, "secret1")
    await command(c, "новый-пароль")
    assert "Пароль изменён." in await command(c, "новый-пароль")
    assert not c.server_echo
    out = await command(c, "who")  # the parser has the lines again
    assert name in out
    c.send_line("quit")
    other = await clients(tavern.telnet_port)
    with pytest.raises(AssertionError, match="refused"):
        await other.login(name, "secret1", create=False)
    again = await clients(tavern.telnet_port)
    await again.login(name, "новый-пароль", create=False)


# -- NAWS ----------------------------------------------------------------------------------


def widest(text: str) -> int:
    return max(len(ANSI.sub("", line)) for line in text.replace("\r\n", "\n").split("\n"))


async def test_naws_width_and_live_resize(tavern, clients):
    c = await logged_in(clients, tavern.telnet_port, naws=(40, 24))
    narrow = await command(c, "help")
    assert narrow.count("\n") > 10
    assert widest(narrow) <= 40
    c.resize(100, 30)
    wide = await command(c, "help")
    assert 40 < widest(wide) <= 100
    assert wide.count("\n") < narrow.count("\n")
    c.resize(0, 0)  # "unknown" falls back to 80 columns
    default = await command(c, "help")
    assert 40 < widest(default) <= 80


# -- encodings -----------------------------------------------------------------------------


async def test_charset_negotiation_skips_the_menu(tavern, clients):
    c = await clients(tavern.telnet_port, charset=["UTF-8"])
    await c.expect(NAME_PROMPT)
    assert c.charset_chosen == "UTF-8"
    assert not ENCODING_MENU.search(c.text)
    k = await clients(tavern.telnet_port, charset=["KOI8-R"], encoding="koi8-r")
    await k.expect(NAME_PROMPT)
    assert k.charset_chosen == "KOI8-R"
    assert not ENCODING_MENU.search(k.text)
    assert re.search("[А-Яа-я]{4}", k.text)  # Cyrillic decoded as KOI8-R reads as Cyrillic
    refused = await clients(tavern.telnet_port, charset=[])  # answers REJECTED
    await refused.expect(ENCODING_MENU)


async def test_koi8r_cp1251_and_utf8_clients_talk(tavern, clients):
    port = tavern.telnet_port
    koi = await logged_in(clients, port, encoding="koi8-r")  # menu: answers 3
    cp = await logged_in(clients, port, charset=["WINDOWS-1251", "UTF-8"], encoding="cp1251")
    utf = await logged_in(clients, port, charset=["UTF-8"])
    assert cp.charset_chosen == "WINDOWS-1251"

    # "Ъ" is 0xFF in KOI8-R and "я" is 0xFF in CP1251: both must survive IAC doubling.
    for speaker, phrase in ((koi, "Съешь ещё этих мягких булок, Ъ!"), (cp, "яблоко и ягода, ЯЪ"),
                            (utf, "ёжик в тумане: Ёё Ъъ Яя")):
        for listener in (koi, cp, utf):
            listener.mark_here()
        speaker.send_line(f"say {phrase}")
        for listener in (koi, cp, utf):
            await listener.expect(phrase)
    assert b"\xff\xff" in bytes(koi.raw) and b"\xff\xff" in bytes(cp.raw)
    for c in (koi, cp, utf):
        assert "\ufffd" not in c.text
    # KOI8-R has no guillemets or dashes: they arrive as ASCII look-alikes, not as "?"
    line = next(ln for ln in koi.text.splitlines() if "ёжик в тумане" in ln)
    assert "?" not in line


async def test_bad_bytes_are_replaced_not_fatal(tavern, clients):
    c = await logged_in(clients, tavern.telnet_port, charset=["UTF-8"])
    c.send_raw(b"say broken \xd0 \xc3\x28 utf8\r\n")
    await c.expect("utf8")
    # line ends: CR NUL (RFC 854), bare CR, bare LF, and CR LF split across packets
    c.send_raw(b"say one\r\x00say two\rsay three\nsay four\r")
    await asyncio.sleep(0.1)
    c.send_raw(b"\nsay five\r\n")
    said = await c.expect(re.compile(r"one.*two.*three.*four.*five", re.S))
    assert "\x00" not in said and "\ufffd" not in said
    assert not re.search(r"(one|two|three|four)[^\n]*(two|three|four|five)", said)  # separate lines
    out = await command(c, "look")
    assert out.strip()


# -- colour --------------------------------------------------------------------------------


async def test_colour_follows_terminal_type_and_colour_command(tavern, clients):
    port = tavern.telnet_port
    xterm = await logged_in(clients, port, ttype="XTERM-256COLOR")  # Debian telnet upper-cases it
    mtts = await logged_in(clients, port, ttype=["SOMECLIENT", "dumb", "MTTS 137"])
    vt100 = await logged_in(clients, port, ttype="VT100")
    plain = await logged_in(clients, port)  # no TTYPE at all
    assert "\x1b[" in xterm.text
    assert "\x1b[" in mtts.text
    assert "\x1b[" not in vt100.text
    assert "\x1b[" not in plain.text

    await command(xterm, "color off")
    assert "\x1b[" not in await command(xterm, "help")
    await command(vt100, "color on")
    assert "\x1b[" in await command(vt100, "help")


# -- prompts -------------------------------------------------------------------------------


async def test_prompts_end_with_eor_or_ga(tavern, clients):
    eor = await logged_in(clients, tavern.telnet_port, eor=True)
    ga = await logged_in(clients, tavern.telnet_port, eor=False)
    for c, mark in ((eor, "EOR"), (ga, "GA")):
        n = len(c.prompt_marks)
        await command(c, "look")
        assert c.prompt_marks[n] == mark
        assert c.text[:c.text_at_marks[n]].endswith("> ")
        assert set(c.prompt_marks) == {mark}  # login prompts too, and only the agreed kind


async def test_prompt_follows_another_players_say_with_its_mark(tavern, clients):
    """Output the player did not ask for (someone else's say, over SSH) is followed by the prompt
    again, marked with the agreed GA or EOR, so a MUD client shows `>` below it and the line the
    player was typing goes on there; one prompt for the burst, not one per line."""
    from tests.ssh_client import connect

    eor = await logged_in(clients, tavern.telnet_port, eor=True)
    ga = await logged_in(clients, tavern.telnet_port, eor=False)
    speaker = await connect(tavern.ssh_port, new_name("Говорун"), password="secret1")
    for listener in (eor, ga):
        await listener.settle(0.3)
        listener.mark_here()
    before = {eor: len(eor.prompt_marks), ga: len(ga.prompt_marks)}
    speaker.send_line("say перебивка-за-столом")
    for listener, mark in ((eor, "EOR"), (ga, "GA")):
        await listener.expect("перебивка-за-столом")
        heard = listener.mark

        def prompted() -> bool:
            return any(pos > heard for pos in listener.text_at_marks[before[listener]:])

        await listener.wait_for(prompted)
        await listener.settle(0.3)
        new = list(zip(listener.prompt_marks[before[listener]:], listener.text_at_marks[before[listener]:]))
        assert len(new) == 1, (mark, new, listener.text[heard - 60:])  # one prompt for the say
        kind, pos = new[0]
        assert kind == mark and pos > heard
        assert listener.text[:pos].endswith("> "), repr(listener.text[heard - 60:pos])
    await speaker.close()


# -- MSSP and GMCP ---------------------------------------------------------------------------


async def test_mssp_answers_crawlers(tavern, clients):
    crawler = await clients(tavern.telnet_port, mssp=True, naws=None)
    await crawler.wait_for(lambda: "UPTIME" in crawler.mssp)
    mssp = crawler.mssp
    assert mssp["NAME"] == "Korchma"
    assert mssp["PLAYERS"].isdigit()
    assert abs(int(mssp["UPTIME"]) - time.time()) < 24 * 3600
    assert mssp["CODEBASE"] == "Korchma"
    assert "KOI8-R" in mssp["CHARSET"]
    assert mssp["PORT"] == str(tavern.telnet_port)

    plain = await clients(tavern.telnet_port, naws=None)
    await plain.expect(ENCODING_MENU)
    plain.send_line("MSSP-REQUEST")
    reply = await plain.expect(re.compile(r"MSSP-REPLY-START.*?MSSP-REPLY-END", re.S))
    assert re.search(r"\nPLAYERS\t\d+", reply)


async def test_gmcp_room_and_tables_after_login(tavern, clients):
    port = tavern.telnet_port
    first = await logged_in(clients, port, gmcp=True, charset=["UTF-8"])
    room = await first.gmcp("Korchma.Room")
    assert room["room"] == "hall" and first.name in room["players"]
    tables = await first.gmcp("Korchma.Table")
    assert isinstance(tables["tables"], list)

    seen = len(first.gmcp_messages)
    second = await logged_in(clients, port, gmcp=True)
    room = await first.gmcp("Korchma.Room", after=seen)  # the room changed: both are told
    assert {first.name, second.name} <= set(room["players"])

    second.send_gmcp("Core.Ping")
    await second.gmcp("Core.Ping")
    second.send_raw(b"\xff\xfa\xc9Core.Supports.Add {not json\xff\xf0")  # junk GMCP: ignored
    assert (await command(second, "look")).strip()

    nogmcp = await logged_in(clients, port)
    assert not nogmcp.gmcp_messages and b"\xff\xfa\xc9" not in bytes(nogmcp.raw)


def ru(key: str, **params) -> str:
    return strip_marks(t("ru", key, **params))


def said(line: str) -> bytes:
    """A GMCP Korchma.Game.Command that says ``line`` in the room."""
    return gmcp_bytes("Korchma.Game.Command", {"line": f"say {line}"})


async def test_a_gmcp_command_right_after_a_typed_password_is_no_password(tavern, clients):
    """A Korchma.Game.Command goes into the session's queue behind the lines typed before it,
    and runs as a command in its turn: sent right after a typed `password` (which opens the
    hidden-input dialogue) it is not taken as the old password, and the dialogue still waits for
    the typed one."""
    port = tavern.telnet_port
    speaker = await logged_in(clients, port, gmcp=True)
    listener = await logged_in(clients, port)
    speaker.send_raw(b"password\r\n" + said("между-строк"))  # in one packet
    await speaker.expect(ru("password.ask_old"))
    await listener.expect("между-строк")
    speaker.send_line("secret1")  # the typed old password is still what the dialogue takes
    await speaker.expect(ru("password.ask_new"))
    speaker.send_line("")
    await speaker.expect(ru("password.cancelled"))
    assert ru("password.wrong") not in speaker.text


async def test_typed_and_gmcp_lines_run_in_the_order_they_came(tavern, clients):
    port = tavern.telnet_port
    speaker = await logged_in(clients, port, gmcp=True)
    listener = await logged_in(clients, port)
    start = len(listener.text)
    speaker.send_raw("say раз\r\nsay два\r\n".encode() + said("три") + "say четыре\r\n".encode())
    await listener.expect("четыре")
    heard = re.findall(r"(раз|два|три|четыре)", listener.text[start:])
    assert heard == ["раз", "два", "три", "четыре"], heard


async def test_gmcp_commands_sent_at_once_pass_the_flood_guard(tavern, clients):
    """Thirty GMCP commands in one packet wait in the session's queue like typed lines and meet
    the same flood guard: about a burst's worth run, then the sender is muted."""
    port = tavern.telnet_port
    speaker = await logged_in(clients, port, gmcp=True)
    listener = await logged_in(clients, port)
    start = len(listener.text)
    speaker.send_raw(b"".join(said(f"залп-{i}") for i in range(30)))
    await speaker.expect(ru("input.flood_muted", seconds=10))
    await listener.settle(0.5)
    heard = set(re.findall(r"залп-\d+", listener.text[start:]))
    assert 10 <= len(heard) < 20, sorted(heard)


# -- hostile input ---------------------------------------------------------------------------


async def test_escape_and_control_sequences_never_reach_others(tavern, clients):
    port = tavern.telnet_port
    evil = await logged_in(clients, port)
    victim = await logged_in(clients, port)
    victim.mark_here()
    evil.send_line("say \x1b[31mred\x1b]0;owned\x07 \u202eevil\u202c \x08\x07bell \x1bc reset")
    said = await victim.expect(re.compile(r"red.*reset"))
    for bad in ("\x1b", "\x07", "\u202e", "\u202c", "\x08", "owned"):
        assert bad not in said
    assert "\x1b" not in victim.text  # a colourless terminal gets no escape at all


async def test_junk_from_one_client_does_not_disturb_others(tavern, clients):
    port = tavern.telnet_port
    alice = await logged_in(clients, port)
    bob = await logged_in(clients, port)
    junk = await logged_in(clients, port)

    async def spam() -> None:
        rnd = random.Random(7)
        junk.send_raw(b"\xff" * 1000)  # escaped IACs: 500 data bytes 0xFF
        junk.send_raw(b"\xff\xfa\xc9" + b"G" * 200_000 + b"\xff\xf0")  # oversized GMCP
        junk.send_raw(b"\xff\xfa\x18" + b"T" * 100_000)  # TTYPE subnegotiation left open...
        junk.send_raw(b"\xff\xf0\r\n")  # ...and closed
        for _ in range(5):  # random telnet commands, but no line ends (that would be a flood)
            chunk = rnd.randbytes(20_000).replace(b"\r", b"r").replace(b"\n", b"n")
            junk.send_raw(chunk.replace(b"\xff\xfd\x12", b"\xff\xfd\x00"))  # not DO LOGOUT
            await asyncio.sleep(0.05)
        junk.send_raw(b"\xff\xf0\xff\xf0\r\n")
        junk.send_raw(b"z" * 300_000)  # a line that never ends
        await junk.writer.drain()

    spammer = asyncio.get_running_loop().create_task(spam())
    for i in range(5):
        bob.mark_here()
        started = time.monotonic()
        alice.send_line(f"say ping {i}")
        await bob.expect(f"ping {i}", timeout=3)
        assert time.monotonic() - started < 2
        await asyncio.sleep(0.1)
    await spammer
    await junk.expect(re.compile("обрезан|has been cut|обрізано"), timeout=10)
    junk.send_line("")
    bob.mark_here()
    junk.send_line("say still here")
    await bob.expect("still here", timeout=5)
    for c in (alice, bob):
        assert "zzzzzzzzzz" not in c.text and "GGGGGGGGGG" not in c.text and "\ufffd" not in c.text
    no_telnet_errors(tavern)


async def test_disconnect_is_announced_once(tavern, clients):
    port = tavern.telnet_port
    leaver = await logged_in(clients, port)
    stayer = await logged_in(clients, port)
    await stayer.settle(0.2)
    stayer.mark_here()
    await leaver.close()  # no quit: the socket just goes away
    await stayer.expect(leaver.name)
    await stayer.settle(0.5)
    assert stayer.text_since_mark().count(leaver.name) == 0
    assert leaver.name not in await command(stayer, "who")


async def test_login_timeout_closes_idle_connections(server_factory, clients):
    srv = server_factory("[accounts]\nlogin_timeout = 3")
    started = time.monotonic()
    idle = await clients(srv.telnet_port)
    await idle.expect(ENCODING_MENU)
    player = await logged_in(clients, srv.telnet_port)  # logs in in time: stays
    await asyncio.wait_for(idle.closed.wait(), 8)
    assert 2.5 < time.monotonic() - started < 6
    assert re.search("слишком долго|too long|надто довго", idle.text)
    await asyncio.sleep(1)
    assert not player.closed.is_set()
    assert (await command(player, "look")).strip()
    no_telnet_errors(srv)


async def test_mccp2_compresses_after_login(server):
    client = TelnetClient(mccp=True, charset=["UTF-8"])
    await client.connect("127.0.0.1", server.telnet_port)
    transcript = await client.login("Сжатый", "secret1")
    assert "Сжатый" in transcript  # the login itself went uncompressed and was readable
    assert client._inflate is not None  # compression began at login, before the welcome
    client.send_line("look")
    await client.expect(re.compile("Зал корчмы"))
    assert client._inflate is not None and client.compressed_bytes > 0
    client.send_line("say " + "длинная строка " * 20)
    await client.expect("длинная строка длинная")
    await client.close()
