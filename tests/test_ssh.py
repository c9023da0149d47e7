"""The SSH front door, against a real server process: accounts by SSH, keys, the line editor.

Expected texts come from the catalogs (world.i18n), so rewording a message does not break these
tests; the server's default language is Russian. Clients use a wide terminal so that no message
is wrapped.
"""
from __future__ import annotations

import asyncio
import re

import asyncssh
import pytest

from tests.ssh_client import connect
from tests.telnet_client import TelnetClient
from world.i18n import strip_marks, t

PW = "secret1"
WIDE = 200


def ru(key: str, **params) -> str:
    return strip_marks(t("ru", key, **params))


async def test_new_account_login_again_and_wrong_password(server):
    port = server.ssh_port
    first = await connect(port, "Вася", password=PW, width=WIDE)
    await first.expect(ru("login.created", name="Вася"))
    await first.expect(ru("login.welcome", name="Вася"))
    first.send_line("keys list")
    await first.expect(ru("keys.none"))
    first.send_line("quit")
    await first.expect(ru("quit.bye"))
    await first.wait_closed()
    assert first.exit_status == 0
    await first.close()

    again = await connect(port, "вася", password=PW, width=WIDE)  # names are case-insensitive
    await again.expect(ru("login.welcome", name="Вася"))
    assert ru("login.created", name="Вася") not in again.text
    again.send_eof()  # Ctrl-D / EOF ends the session cleanly too
    await again.wait_closed()
    await again.close()

    with pytest.raises(asyncssh.PermissionDenied):
        await connect(port, "Вася", password="wrong-password")
    with pytest.raises(asyncssh.IllegalUserName):  # not a valid name: no account is made, and
        await connect(port, "x", password=PW)     # the server says how to connect (test_ssh_name.py)
    with pytest.raises(asyncssh.PermissionDenied):  # a new name with a too short password
        await connect(port, "Новичок", password="12")


async def test_keys_add_login_by_key_list_remove(server):
    port = server.ssh_port
    key = asyncssh.generate_private_key("ssh-ed25519", comment="petya@laptop")
    public = key.export_public_key().decode().strip()
    fingerprint = key.get_fingerprint()

    with pytest.raises(asyncssh.PermissionDenied):  # no such account yet, so no key works
        await connect(port, "Петя", key=key)

    c = await connect(port, "Петя", password=PW, width=WIDE)
    await c.expect(ru("login.welcome", name="Петя"))
    c.send_line("keys add ssh-ed25519 notbase64")
    await c.expect(ru("keys.bad_key"))
    c.send_line("keys add " + public)
    await c.expect(ru("keys.added", fingerprint=fingerprint))
    c.send_line("keys add " + public)
    await c.expect(ru("keys.exists", fingerprint=fingerprint))
    await c.close()

    k = await connect(port, "Петя", key=key, width=WIDE)  # no password at all
    await k.expect(ru("login.welcome", name="Петя"))
    k.send_line("ключи список")
    await k.expect(ru("keys.header", n=1))
    await k.expect(ru("keys.line", number=1, algorithm="ssh-ed25519", fingerprint=fingerprint,
                      comment="petya@laptop"))
    k.send_line("ключи удалить 2")
    await k.expect(ru("keys.no_such", number=2))
    k.send_line("ключи удалить 1")
    await k.expect(ru("keys.removed", number=1, fingerprint=fingerprint))
    k.send_line("keys list")
    await k.expect(ru("keys.none"))
    await k.close()

    with pytest.raises(asyncssh.PermissionDenied):
        await connect(port, "Петя", key=key)


async def test_password_change_is_masked_and_works(server):
    port = server.ssh_port
    c = await connect(port, "Маша", password=PW, width=WIDE)
    await c.expect(ru("login.welcome", name="Маша"))
    c.send_line("password wrong-old newpass1")
    await c.expect(ru("password.wrong"))
    c.send_line(f"пароль {PW} newpass1")
    await c.expect(ru("password.changed"))
    assert "newpass1" not in c.text, "the password was shown on the screen"
    assert "пароль ******* ********" in c.text
    await c.close()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(port, "Маша", password=PW)
    c = await connect(port, "Маша", password="newpass1", width=WIDE)
    await c.expect(ru("login.welcome", name="Маша"))
    await c.close()


async def test_password_dialogue_masks_every_line(server):
    port = server.ssh_port
    c = await connect(port, "Даша", password=PW, width=WIDE)
    await c.expect(ru("login.welcome", name="Даша"))
    c.send_line("пароль")
    await c.expect(ru("password.ask_old"))
    c.send_line(PW)
    await c.expect(ru("password.ask_new"))
    c.send_line("newpass2")
    await c.expect(ru("password.ask_again"))
    c.send_line("newpass2")
    await c.expect(ru("password.changed"))
    assert PW not in c.text and "newpass2" not in c.text, "a password was shown on the screen"
    assert "> ********" in c.text
    c.send_line("кто")
    await c.expect("Даша")  # the lines go to the parser again, and are shown again
    assert "> кто" in c.text
    await c.close()
    c = await connect(port, "Даша", password="newpass2", width=WIDE)
    await c.expect(ru("login.welcome", name="Даша"))
    await c.close()


async def test_a_password_line_is_masked_by_any_verb_that_runs_it(server):
    """`pas OLD NEW` runs `password` in the hall (a unique start of it), so it is masked while
    typed, kept out of the history, and works; the line before it is what Up brings back."""
    port = server.ssh_port
    c = await connect(port, "Глаша", password=PW, width=WIDE)
    await c.expect(ru("login.welcome", name="Глаша"))
    c.send_line("кто")
    await c.expect(ru("who.header", n=1))
    c.send_line(f"pas {PW} newpass3")
    await c.expect(ru("password.changed"))
    assert PW not in c.text and "newpass3" not in c.text, "a password was shown on the screen"
    assert "pas ******* ********" in c.text
    c.send("\x1b[A")  # Up: the last line kept in history
    await c.expect("кто")
    await c.settle(0.2)
    assert [line for line in c.screen.text_lines() if line][-1] == "> кто"
    c.send("\x03")  # Ctrl-C: an empty line again
    await c.close()
    c = await connect(port, "Глаша", password="newpass3", width=WIDE)
    await c.expect(ru("login.welcome", name="Глаша"))
    await c.close()


async def test_telnet_and_ssh_players_talk(server):
    tel = TelnetClient()
    await tel.connect("127.0.0.1", server.telnet_port)
    await tel.login("Таня", PW)
    ssh = await connect(server.ssh_port, "Вова", password=PW, width=WIDE)
    await ssh.expect(ru("login.welcome", name="Вова"))
    await tel.expect("Вова")  # comes into the hall
    ssh.send_line("say привет-из-ssh")
    await tel.expect("привет-из-ssh")
    tel.send_line("say привет-из-telnet")
    await ssh.expect("привет-из-telnet")
    await ssh.close()
    await tel.close()


async def test_message_while_typing_appears_above_the_prompt(server):
    port = server.ssh_port
    typist = await connect(port, "Аня", password=PW, width=WIDE)
    other = await connect(port, "Боря", password=PW, width=WIDE)
    await typist.expect(ru("login.welcome", name="Аня"))
    await other.expect(ru("login.welcome", name="Боря"))
    await typist.settle(0.3)

    typist.send("say начало-строки ")  # typed, no Enter yet
    await typist.expect("начало-строки")  # (a trailing space is a cursor move, not a character)
    other.send_line("say перебивка-42")
    await typist.expect("перебивка-42")
    await typist.expect("say начало-строки")  # the half-typed line is drawn again below it
    await typist.settle(0.2)
    lines = [line for line in typist.screen.text_lines() if line]
    assert lines[-1] == "> say начало-строки", lines[-4:]
    assert "перебивка-42" in lines[-2] and "начало-строки" not in lines[-2], lines[-4:]

    typist.send("конец\r")
    await other.expect("начало-строки конец")  # the command ran with the whole line
    await typist.settle(0.2)
    lines = [line for line in typist.screen.text_lines() if line]
    assert "> say начало-строки конец" in lines, lines[-5:]
    assert lines.index("> say начало-строки конец") > max(i for i, l in enumerate(lines) if "перебивка-42" in l)
    await typist.close()
    await other.close()


async def test_tab_completion_and_resize(server):
    port = server.ssh_port
    c = await connect(port, "Гоша", password=PW, width=WIDE)
    friend = await connect(port, "Гена", password=PW, width=WIDE)
    await c.expect(ru("login.welcome", name="Гоша"))
    await friend.expect(ru("login.welcome", name="Гена"))
    c.send("tel\t")  # a unique verb start completes, with a space after it
    await c.expect("tell")
    c.send("Ген\t")  # a player name completes (tell completes players)
    await c.expect("Гена")
    c.send("привет-по-табу\r")
    await friend.expect("привет-по-табу")  # "tell Гена привет-по-табу" reached Гена
    c.resize(40)
    await asyncio.sleep(0.2)
    c.send_line("say " + "слово " * 20)
    await c.expect("слово")
    await c.settle(0.3)
    said = [line for line in c.screen.text_lines() if "слово" in line and not line.startswith(">")]
    assert said and all(len(line) <= 40 for line in said), said  # wrapped to the new width
    await c.close()
    await friend.close()


async def test_without_pty_lines_and_exec(server):
    port = server.ssh_port
    c = await connect(port, "Скрипт", password=PW, term=False)
    await c.expect(ru("login.welcome", name="Скрипт"))
    c.send_line("keys list")
    await c.expect(ru("keys.none"))
    assert "\x1b" not in c.raw  # plain text for scripts
    c.send_eof()
    await c.expect(ru("quit.bye"))
    await c.wait_closed()
    await c.close()

    conn = await asyncssh.connect("127.0.0.1", port, username="Скрипт", password=PW, known_hosts=None,
                                  client_keys=None, agent_path=None, config=None)
    result = await conn.run("keys list", timeout=10)
    assert ru("keys.none") in result.stdout and result.exit_status == 0
    conn.close()


async def test_login_throttle(server_factory):
    srv = server_factory("[accounts]\nlogin_attempts = 2\nlogin_backoff = 30\n")
    port = srv.ssh_port
    c = await connect(port, "Зина", password=PW)
    await c.close()
    for _ in range(2):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(port, "Зина", password="wrong")
    with pytest.raises(asyncssh.PermissionDenied):  # now even the right password must wait
        await connect(port, "Зина", password=PW)


async def test_host_key_kept_across_restart(server_factory, tmp_path):
    data = tmp_path / "keep"

    async def host_fingerprint(port: int) -> str:
        conn = await asyncssh.connect("127.0.0.1", port, username="Хост", password=PW, known_hosts=None,
                                      client_keys=None, agent_path=None, config=None)
        fingerprint = conn.get_server_host_key().get_fingerprint()
        conn.close()
        return fingerprint

    first = server_factory(data_dir=data)
    before = await host_fingerprint(first.ssh_port)
    assert first.terminate() == 0
    key_file = data / "ssh_host_ed25519_key"
    assert key_file.exists() and (key_file.stat().st_mode & 0o777) == 0o600
    second = server_factory(data_dir=data)
    assert await host_fingerprint(second.ssh_port) == before
    assert re.match(r"SHA256:", before)


async def test_ban_closes_the_session_and_refuses_login(server_factory):
    srv = server_factory('[accounts]\nadmins = ["Админ"]\n')
    port = srv.ssh_port
    admin = await connect(port, "Админ", password=PW, width=WIDE)
    target = await connect(port, "Вредина", password=PW, width=WIDE)
    await admin.expect(ru("login.welcome", name="Админ"))
    await target.expect(ru("login.welcome", name="Вредина"))
    admin.send_line("ban Вредина")
    await target.expect(ru("mod.banned_you_forever"))  # for how long (and why, given one)
    await target.wait_closed()
    await target.close()
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(port, "Вредина", password=PW)
    await admin.close()
