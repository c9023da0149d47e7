"""The web door's protocol (docs/web.md) over a real WebSocket (aiohttp's client) to a real
server, beside real telnet and SSH sessions: no browser here (tests/test_web_browser.py has one)."""
from __future__ import annotations

import asyncio
import json
import re
import socket
import sqlite3

import aiohttp
import pytest

from server.web.forwarded import ForwardedFor
from server.web.markup import to_html
from tests.ssh_client import connect as ssh_connect
from tests.telnet_client import log_in
from tests.web_client import WebClient, web_log_in

# The web door on any free port; a short login timeout, so the test of it is quick.
WEB = """
[web]
port = 0
"""


async def test_web_login_chat_gmcp_and_bad_frames(server_factory):
    srv = server_factory(WEB + "\n[accounts]\nlogin_timeout = 3\n")
    assert srv.web_port, "the READY line names the web port"
    # The page and its words are served by the same process.
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{srv.web_port}/") as page:
            assert page.status == 200 and "<script src=\"/static/app.js\"" in await page.text()
            assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        async with http.get(f"http://127.0.0.1:{srv.web_port}/texts") as words:
            texts = await words.json()
            assert texts["ru"]["send"] == "Отправить" and texts["en"]["send"] == "Send"
            assert texts["uk"]["send"] == "Надіслати"
        async with http.get(f"http://127.0.0.1:{srv.web_port}/static/app.js") as script:
            assert script.status == 200

    # A new name creates an account, as on telnet; no encoding menu; the password is hidden.
    # Her X-Forwarded-For is her own claim: no proxy is trusted here, so it is not believed.
    vera = await WebClient().connect(srv.web_port, "?lang=en", headers={"X-Forwarded-For": "198.51.100.1"})
    assert "encoding" not in vera.text.lower()
    await vera.login("Вера")
    assert vera.frames[0] == {"lang": "en"}, "the page is told the session's language first"
    assert not any("\x1b" in m for m in vera.markup), "colour is markup, never raw escapes"
    assert any("<span class=\"k-" in m for m in vera.markup), "styled text comes as spans"
    room = await vera.gmcp("Korchma.Room")
    assert room["room"] == "hall" and "Вера" in room["players"]

    # A say from the web is heard over telnet and SSH, and theirs in the browser.
    anna = await log_in(srv.telnet_port, "Анна", gmcp=True)
    boris = await ssh_connect(srv.ssh_port, "Boris", password="secret1")
    await boris.expect("Boris")
    await vera.wait_for(lambda: any(n == "Korchma.Room" and "Анна" in d["players"] for n, d in vera.gmcp_messages))
    vera.send_line("say <b>hello</b> & «привет»")
    await anna.expect("<b>hello</b> & «привет»")
    await boris.expect("<b>hello</b> & «привет»")
    # Escaped in the frame: what a player types never becomes markup in the page.
    await vera.expect("<b>hello</b> & «привет»")
    assert any("&lt;b&gt;hello&lt;/b&gt; &amp;" in m for m in vera.markup)
    anna.send_line("говорить добрый вечер")
    await vera.expect("добрый вечер")
    boris.send_line("say evening")
    await vera.expect("evening")

    # A second web user, who must not notice the first one's bad frames.
    gleb = await web_log_in(srv.web_port, "Глеб")
    # A binary frame: one clear line, the session goes on.
    await vera.send_bytes(b"\x00\x01say hi")
    await vera.expect("binary message was ignored")
    # A line over limits.max_line (2000): refused with the limit named, nothing said.
    vera.send_line("say " + "a" * 2100)
    await vera.expect("over 2000 characters")
    # JSON in a frame is just a typed line: an unknown command, not a crash.
    vera.send_line('{"gmcp": "Core.Ping", ')
    await vera.expect(re.compile(r"unknown|not understood|no such command|don.t know", re.I))
    vera.send_line("say still here")
    await gleb.expect("still here")
    # A flood: the guard warns, then mutes this session only.
    for _ in range(16):
        vera.send_line("look")
    await vera.expect(re.compile(r"(slow down|too fast).*|.*muted", re.I), timeout=10)
    gleb.send_line("say I am fine")
    await anna.expect("I am fine")
    # A frame over limits.input_buffer is not even read: the connection closes with 1009.
    vera.send_line("x" * 20000)
    await asyncio.wait_for(vera.closed.wait(), 5)
    assert vera.close_code == 1009
    gleb.send_line("say after the flood")
    await anna.expect("after the flood")
    await gleb.expect("after the flood")

    # `quit` says goodbye and closes the socket, as on telnet.
    gleb.send_line("quit")
    await asyncio.wait_for(gleb.closed.wait(), 5)
    assert "Счастливого пути" in gleb.text[gleb.mark:], gleb.text[-500:]
    # The password never reaches the log; the login timeout closes a silent page with its line.
    idle = await WebClient().connect(srv.web_port)
    await asyncio.wait_for(idle.closed.wait(), 8)
    assert re.search(r"вход|log in|login|время", idle.text, re.I), idle.text
    for client in (vera, gleb, idle):
        await client.close()
    await anna.close()
    await boris.close()
    srv.terminate()
    assert "secret1" not in srv.log()
    assert "web listening on" in srv.log()
    assert "198.51.100.1" not in srv.log() and re.search(r"login.*door=web.*address=127\.0\.0\.1", srv.log())


async def test_web_gmcp_of_a_table_arrives_as_json(server_factory):
    # Behind a trusted proxy (here 127.0.0.1): the address it names is the player's.
    # One connection an address, and 127.0.0.1 not exempt: the proxy's players are told apart.
    srv = server_factory(WEB + 'proxy_trusted = ["127.0.0.1"]\n'
                         + '[limits]\nconnections_per_address = 1\nconnections_exempt = []\n'
                         + '[metrics]\nport = 0\n')
    # `korchma status` names the web door's port.
    from tests.test_metrics import status

    shown = await status(srv)
    assert shown.returncode == 0 and f", web {srv.web_port}" in shown.stdout, shown
    dana = await WebClient().connect(srv.web_port, headers={"X-Forwarded-For": "203.0.113.7"})
    await dana.login("Дана")
    twin = await WebClient().connect(srv.web_port, headers={"X-Forwarded-For": "203.0.113.7"})
    await asyncio.wait_for(twin.closed.wait(), 5)
    assert "слишком много соединений" in twin.text and twin.frames and set(twin.frames[0]) == {"text"}, twin.text
    other = await WebClient().connect(srv.web_port, headers={"X-Forwarded-For": "203.0.113.8"})
    await other.expect(re.compile(r"Имя|Name", re.I))
    await twin.close()
    dana.send_line("открыть переворот")
    await dana.wait_for(lambda: any(n == "Korchma.Table" and d["tables"] and d["tables"][0]["game"] == "coup"
                                    for n, d in dana.gmcp_messages))
    dana.send_line("боты 2")
    await dana.expect("За стол садятся 2 бота")
    count = len(dana.gmcp_messages)
    dana.send_line("начать")
    view = await dana.gmcp("Korchma.Game.View", timeout=10, after=count)
    assert view["seat"] == 0 and len(view["view"]["hand"]) == 2
    # The game's words in the player's language came before it, for the page's cards and buttons.
    words = next(f["words"] for f in dana.frames if "words" in f)
    assert dana.frames.index({"words": words}) < next(i for i, f in enumerate(dana.frames)
                                                      if f.get("gmcp") == "Korchma.Game.View")
    assert words["game"] == "coup" and words["role"]["duke"] == "Губернатор"
    assert words["action"]["tax"] == "Налог"
    awaiting = await dana.gmcp("Korchma.Game.Awaiting", timeout=10, after=count)
    assert awaiting["seat"] == 0 and isinstance(awaiting["legal"], list)
    # Beside each answer, the line to type for it, in her language (the page's buttons).
    asked = lambda: [d for n, d in dana.gmcp_messages if n == "Korchma.Game.Awaiting" and d["legal"]]  # noqa: E731
    await dana.wait_for(asked, 10)
    awaiting = asked()[0]
    lines = [line["line"] for line in awaiting["lines"]]
    kinds = {action["type"] for action in awaiting["legal"]}
    if "income" in kinds:  # her turn
        assert "доход" in lines and "налог" in lines
    else:  # a window in a bot's turn first: let it pass, or challenge
        assert "allow" in kinds and "пропустить" in lines
    assert not any(line.get("more") for line in awaiting["lines"])
    assert len(lines) == len(set(lines)) <= len(awaiting["legal"])
    # Every GMCP frame is {"gmcp": name, "data": ...} and nothing else.
    assert all(set(f) == {"gmcp", "data"} for f in dana.frames if "gmcp" in f)
    # A telnet player who chose KOI8-R logs in on the web: the web login keeps that encoding.
    kira = await log_in(srv.telnet_port, "Кира", encoding="koi8-r")
    await kira.close()
    kira_web = await web_log_in(srv.web_port, "Кира", create=False)
    kira_web.send_line("кодировка")
    await kira_web.expect("кодировка: utf-8")
    await kira_web.close()
    # A clean stop with browsers connected: each is told, its socket closed, the process exits 0.
    assert srv.terminate() == 0
    for client in (dana, other):
        await asyncio.wait_for(client.closed.wait(), 5)
        await client.close()
    await dana.expect(re.compile(r"останавливается|перезапуск|выключ", re.I))
    db = sqlite3.connect(srv.data_dir / "korchma.sqlite3", timeout=10)
    try:
        assert db.execute("SELECT encoding FROM account WHERE name = 'Кира'").fetchone() == ("koi8-r",)
    finally:
        db.close()
    assert re.search(r"login.*door=web.*address=203\.0\.113\.7", srv.log()), srv.log()[-3000:]


def test_forwarded_for_only_from_trusted_proxies():
    gate = ForwardedFor(["10.0.0.1", "192.168.0.0/16"])
    assert gate.client("203.0.113.9", ["198.51.100.7"]) == "203.0.113.9"  # not a proxy: ignored
    assert gate.client("10.0.0.1", ["198.51.100.7"]) == "198.51.100.7"
    # The right-most address no trusted proxy is: a client's own claim to its left is ignored.
    assert gate.client("10.0.0.1", ["1.2.3.4, 198.51.100.7, 192.168.1.5"]) == "198.51.100.7"
    assert gate.client("10.0.0.1", ["1.2.3.4", "198.51.100.7"]) == "198.51.100.7"
    assert gate.client("10.0.0.1", ["junk"]) == "10.0.0.1"
    assert gate.client("10.0.0.1", []) == "10.0.0.1"
    assert ForwardedFor([]).client("127.0.0.1", ["1.2.3.4"]) == "127.0.0.1"


def test_markup_escapes_and_spans():
    from world.i18n import MARK

    text = f"{MARK}yАнна{MARK}0 says: <script>&\"\nnext {MARK}bline"
    out = to_html(text, True)
    assert out == ('<span class="k-y">Анна</span> says: &lt;script&gt;&amp;&quot;\n'
                   'next <span class="k-b">line</span>')
    assert to_html(text, False) == 'Анна says: &lt;script&gt;&amp;&quot;\nnext line'
    json.dumps(out)


def test_a_busy_web_port_is_one_line_at_start(server_factory):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(RuntimeError) as failed:
            server_factory(f"[web]\nport = {port}\n")
    assert f"web port {port} is already in use" in str(failed.value)
    assert "web.port or --web-port" in str(failed.value) and "Traceback" not in str(failed.value)


@pytest.mark.parametrize("lang", ["ru", "en", "uk"])
def test_a_button_types_a_verb_its_command_knows(lang):
    """The lines to type for answers (commands/games/answers.py) start with the command's verb of
    ``verbs_in``: for every game command, in every language, that word must be one of the
    command's own verbs."""
    from commands import load_all  # noqa: F401  (registers every command)
    from commands.base import REGISTRY
    from commands.games.answers import verbs_in
    from server.web.words import game_words

    wrong = []
    for cmd in REGISTRY:
        if cmd.game is None or not cmd.usage:
            continue
        word = verbs_in(lang).get(cmd.key)
        if word is None or word.casefold() not in {v.casefold() for v in cmd.verbs}:
            wrong.append(f"{cmd.game}.{cmd.key}: {word!r} not in {cmd.verbs}")
    assert not wrong, "\n".join(wrong)
    # And the roles a Coup button names (``block губернатор``) are read back as those roles.
    from commands.games.coup import parse_role

    for key, name in game_words("coup", lang)["role"].items():
        assert parse_role(name.lower()) == key, (lang, key, name)
