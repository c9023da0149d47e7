"""Password reset codes, SSH keyboard-interactive logins (a new account confirms its password) and
what a banned person hears, over real telnet and SSH connections to a real server."""
from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import datetime, timezone
from types import SimpleNamespace

import asyncssh

from tests.ssh_client import SSHClient, attempt, scripted
from tests.telnet_client import NAME_PROMPT, PASSWORD_PROMPT, WELCOME, TelnetClient, log_in
from world.ban_notice import ban_notice
from world.i18n import strip_marks, t

CONFIG = '[accounts]\nadmins = ["Админ"]\nlogin_attempts = 20\n'
CODE = re.compile(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}")
FAILED_ONCE = "1 неудачная попытка входа"
FAILED_TWICE = "2 неудачные попытки входа"


async def issue(admin: TelnetClient, name: str, verb: str = "resetpass") -> str:
    admin.send_line(f"{verb} {name}")
    await admin.expect("Код сброса пароля для")
    await asyncio.sleep(0.25)  # the admin types at a person's pace (flood guard)
    return await admin.expect(CODE)


async def telnet_password_line(port: int, name: str, line: str) -> TelnetClient:
    """Connect, give ``name`` and type ``line`` at its password prompt."""
    client = TelnetClient()
    await client.connect("127.0.0.1", port)
    await client.reach_name_prompt()
    client.send_line(name)
    await client.expect(PASSWORD_PROMPT)
    client.send_line(line)
    return client


async def kbdint(port: int, name: str, *rounds: list[str]) -> tuple[SSHClient | None, SSHClient, str]:
    """A keyboard-interactive login answering each challenge with the next of ``rounds``:
    (the client if it logged in, else None; the client, for its prompts; the banners)."""
    client = SSHClient()
    try:
        await client.connect(port, name, answers=scripted(*rounds))
    except asyncssh.DisconnectError:  # PermissionDenied too
        return None, client, "\n".join(client.banners)
    return client, client, "\n".join(client.banners)


def expire_codes(data_dir, name: str) -> None:
    """Move the account's reset codes' expiry into the past, in the server's own database."""
    with sqlite3.connect(data_dir / "korchma.sqlite3") as db:
        past = "2000-01-01 00:00:00+00:00"
        changed = db.execute("UPDATE password_reset SET expires_at = ? WHERE account_id = "
                             "(SELECT id FROM account WHERE name = ?)", (past, name)).rowcount
    assert changed == 1


async def test_password_reset_end_to_end_over_telnet_and_ssh(server_factory):
    srv = server_factory(CONFIG)
    port, ssh_port = srv.telnet_port, srv.ssh_port
    admin = await log_in(port, "Админ")
    boris = await log_in(port, "Борис", "oldpass1")
    # Not for players: the command is not even offered.
    boris.send_line("resetpass Админ")
    await boris.expect("Нет такой команды")
    await boris.close()
    # Help says how it is used, in Russian and in English.
    admin.send_line("помощь сброситьпароль")
    await admin.expect("сброситьпароль ИМЯ")

    # A new code voids the old one; the reply says how the player uses it.
    first = await issue(admin, "Борис", "сброситьпароль")
    await admin.expect("Передайте его игроку")
    second = await issue(admin, "Борис")
    assert first != second

    # Telnet: the voided code is refused in one line and counts as a failure.
    client = await telnet_password_line(port, "Борис", first.upper())
    await client.expect("Неверный код сброса пароля.")
    await client.expect(NAME_PROMPT)
    # The code (typed with spaces, as read aloud) holds: the new password twice; a mismatch asks again.
    client.send_line("Борис")
    await client.expect(PASSWORD_PROMPT)
    client.send_line(second.replace("-", " "))
    await client.expect("Код принят: придумайте новый пароль.")
    await client.expect(PASSWORD_PROMPT)
    client.send_line("newpass1")
    await client.expect("Повторите пароль")
    client.send_line("newpass2")
    await client.expect("Пароли не совпали. Введите новый пароль ещё раз.")
    client.send_line("newpass1")
    await client.expect("Повторите пароль")
    client.send_line("newpass1")
    await client.expect("Пароль изменён.")
    await client.expect(WELCOME)
    await client.expect(FAILED_ONCE)  # the voided code
    await client.close()
    # The code works once; the old password is gone; the new one logs in (over SSH too).
    client = await telnet_password_line(port, "Борис", second)
    await client.expect("Этот код сброса пароля уже использован.")
    await client.expect(NAME_PROMPT)
    client.send_line("Борис")
    await client.expect(PASSWORD_PROMPT)
    client.send_line("oldpass1")
    await client.expect("Неверное имя или пароль.")
    await client.close()
    again = await log_in(port, "Борис", "newpass1", create=False)
    await again.expect(FAILED_TWICE)  # the spent code and the old password
    await again.close()
    ssh_again, banners = await attempt(ssh_port, "Борис", "newpass1")
    assert ssh_again is not None, banners
    await ssh_again.close()

    # SSH keyboard-interactive: a new account confirms its password (a mismatch asks again).
    vera, asked, banners = await kbdint(ssh_port, "Вера", ["verapass1", "verapass2"], ["verapass1", "verapass1"])
    assert vera is not None, banners
    assert asked.prompts == [[t("ru", "login.ssh_new_password"), t("ru", "login.ssh_repeat_password")]] * 2
    assert "Пароли не совпали" in banners
    await vera.expect("Учётная запись Вера создана.")
    await vera.close()
    # The third mismatch ends the connection, and no account is made.
    refused, asked, banners = await kbdint(ssh_port, "Гриша", ["aaaa1", "bbbb1"], ["aaaa1", "bbbb1"],
                                           ["aaaa1", "bbbb1"], ["aaaa1", "aaaa1"])
    assert refused is None and len(asked.prompts) == 3
    assert "Пароли трижды не совпали" in banners, banners
    client = TelnetClient()
    await client.connect("127.0.0.1", port)
    await client.reach_name_prompt()
    client.send_line("Гриша")
    await client.expect("Имя Гриша свободно")
    await client.close()
    # An expired code is refused (and counts as a failure).
    stale = await issue(admin, "Вера")
    expire_codes(srv.data_dir, "Вера")
    refused, asked, banners = await kbdint(ssh_port, "Вера", [stale])
    assert refused is None and "Срок этого кода сброса пароля истёк." in banners, banners
    assert asked.prompts[0] == [t("ru", "login.ssh_password")]
    # A fresh code: Password: the code, then the new password twice (a mismatch asks again).
    fresh = await issue(admin, "Вера")
    vera, asked, banners = await kbdint(ssh_port, "Вера", [fresh], ["verapass2", "verapass3"],
                                        ["verapass2", "verapass2"])
    assert vera is not None, banners
    assert "Код принят" in banners and "Пароли не совпали" in banners and "Пароль изменён." in banners
    assert len(asked.prompts) == 3
    await vera.expect(FAILED_ONCE)  # the expired code
    await vera.close()
    # Once only, over SSH too; the new password works over telnet.
    refused, _, banners = await kbdint(ssh_port, "Вера", [fresh])
    assert refused is None and "уже использован" in banners, banners
    await (await log_in(port, "Вера", "verapass2", create=False)).close()
    # The SSH password method takes a code too: the client is asked for a password change.
    third = await issue(admin, "Вера")
    client = SSHClient()
    await client.connect(ssh_port, "Вера", password=third, change=(third, "verapass4"))
    await client.expect("Добро пожаловать")
    await client.close()
    await (await log_in(port, "Вера", "verapass4", create=False)).close()
    await admin.close()

    log = srv.log()
    for code in (first, second, stale, fresh, third):  # no code, in any spelling, reaches the log
        assert code not in log and code.replace("-", " ") not in log and code.upper() not in log
    for secret in ("newpass1", "newpass2", "verapass1", "verapass2", "verapass3", "verapass4", "oldpass1"):
        assert secret not in log
    # The account made over SSH keyboard-interactive names its door in the audit trail.
    assert re.search(r"event=account_created door=ssh address=\S+ name=Вера", log), log[-3000:]
    # Audited when issued (five codes) and when used (three times), with no code in the fields.
    assert len([line for line in log.splitlines() if re.search(r"\bpassword_reset\b", line)]) == 8, log[-3000:]


async def test_banned_person_hears_until_when_and_is_disconnected_on_both_doors(server_factory):
    srv = server_factory(CONFIG)
    admin = await log_in(srv.telnet_port, "Админ")
    await (await log_in(srv.telnet_port, "Дима")).close()
    admin.send_line("ban Дима 2h спам в зале")  # the reason a moderator gives is told at the door
    until = re.search(r"Вход для Димы закрыт до ([0-9-]+ [0-9:]+ UTC)",
                      await admin.expect(re.compile(r"Вход для Димы закрыт до [0-9-]+ [0-9:]+ UTC"))).group(1)
    notice = f"Вход в корчму для вас закрыт до {until} (причина: спам в зале)."
    # SSH, keyboard-interactive (as OpenSSH logs in): told, and hung up without a Password prompt.
    refused, asked, banners = await kbdint(srv.ssh_port, "Дима", ["secret1"])
    assert refused is None and notice in banners and asked.prompts == [], (banners, asked.prompts)
    # SSH, the password method: the same words, and the server's own disconnect saying so.
    client = SSHClient()
    try:
        await client.connect(srv.ssh_port, "Дима", password="secret1")
        raise AssertionError("a banned person logged in")
    except asyncssh.PermissionDenied as err:
        assert "banned" in err.reason and "UTC" in err.reason, err.reason
    assert notice in "\n".join(client.banners)
    # Telnet: the same notice, and the connection closes.
    client = TelnetClient()
    await client.connect("127.0.0.1", srv.telnet_port)
    await client.reach_name_prompt()
    client.send_line("Дима")
    await client.expect(notice)
    await client.wait_for(lambda: client.closed.is_set())
    await admin.close()


def test_ban_notice_names_the_reason_when_the_ban_has_one():
    until = datetime(2031, 5, 4, 3, 2, tzinfo=timezone.utc)
    assert _said("ru", SimpleNamespace(until=until, reason="спам")) == (
        "Вход в корчму для вас закрыт до 2031-05-04 03:02 UTC (причина: спам).")
    assert _said("en", SimpleNamespace(until=None, reason=None)) == "You are banned from the tavern for ever."
    assert _said("uk", SimpleNamespace(until=None)) == "Вхід до корчми для вас закрито назавжди."


def _said(lang: str, ban) -> str:
    notice = ban_notice(ban)
    return strip_marks(t(lang, notice.key, **notice.params))
