"""The host's log: logfmt lines, the audit trail read back from a rotating file, and SIGHUP reload
(server/logs.py, world/audit.py, server/reload.py), against real server processes."""
from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path

import asyncssh
import pytest

from server.logs import quote
from tests.ssh_client import attempt, connect
from tests.telnet_client import PASSWORD_PROMPT, TelnetClient, log_in
from world.i18n import strip_marks, t

WIDE = 200
PAIR = re.compile(r'([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*"|[^\s"]*)')
ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"'}


def ru(key: str, **params) -> str:
    return strip_marks(t("ru", key, **params))


def unquote(value: str) -> str:
    if not value.startswith('"'):
        return value
    return re.sub(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|.)",
                  lambda m: ESCAPES.get(m.group(1)) or chr(int(m.group(1)[1:], 16)), value[1:-1])


def parse(line: str) -> dict[str, str]:
    """One logfmt line as a dict; every character of the line must belong to a pair."""
    pairs = PAIR.findall(line)
    assert " ".join(f"{k}={v}" for k, v in pairs) == line, line
    return {key: unquote(value) for key, value in pairs}


def audit_lines(text: str) -> list[dict[str, str]]:
    return [fields for fields in map(parse, text.splitlines()) if fields.get("logger") == "korchma.audit"]


def test_values_that_would_break_a_line_or_a_terminal_are_quoted_and_escaped():
    """Spaces, quotes, newlines, escape sequences and bidi overrides: one line, nothing raw,
    and the value reads back as it was."""
    for value in ("Анна", "два слова", 'a "quoted" \\ one', "line\nbreak\r", "\x1b[2J\x07", "abc\u202eevil",
                  "tab\there", "", "x=y", "\u2028sep", "🍺"):
        out = quote(value)
        assert "\n" not in out and "\r" not in out and "\x1b" not in out and "\u202e" not in out
        assert "\u2028" not in out and "\x07" not in out
        assert unquote(out) == value, (value, out)
    assert quote("Анна") == "Анна" and quote("ssh") == "ssh"  # plain words stay bare and readable


def test_a_flood_of_unchecked_refusals_is_counted_not_written_line_by_line(caplog):
    """A wrong password is always a line; throttled or busy refusals from one address are one line
    a minute, the next one saying how many were left out."""
    from world.audit import AUDIT_LOGGER
    from world.failed_logins import FailedLogins

    book = FailedLogins(window=60)
    with caplog.at_level("INFO", logger=AUDIT_LOGGER):
        for second in range(100):
            book.record("ssh", "192.0.2.7", "Жертва", "wait", clock=float(second))
            book.record("ssh", "192.0.2.8", "Жертва", "bad_password", clock=float(second))
    records = [r.fields for r in caplog.records if r.name == AUDIT_LOGGER]
    assert [f for f in records if f["reason"] == "wait"] == [
        {"door": "ssh", "address": "192.0.2.7", "name": "Жертва", "reason": "wait"},
        {"door": "ssh", "address": "192.0.2.7", "name": "Жертва", "reason": "wait", "repeated": 59}]
    assert len([f for f in records if f["reason"] == "bad_password"]) == 100


async def _wait_for(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


def _all_files(folder: Path) -> str:
    """The log file and its rotated copies, oldest first."""
    files = sorted(folder.glob("korchma.log*"), key=lambda p: -int(p.suffix[1:]) if p.suffix[1:].isdigit() else 0)
    return "".join(p.read_text(encoding="utf-8") for p in files)


LOGGED = """
[accounts]
admins = ["Смотритель"]
[log]
file = "logs/korchma.log"
max_bytes = 800
backups = 100
"""


async def test_audit_trail_of_failed_logins_and_bans_over_both_doors_in_a_rotating_file(server_factory, tmp_path):
    srv = server_factory(LOGGED)
    folder = srv.data_dir / "logs"  # a relative [log] file is inside data_dir
    keeper = await log_in(srv.telnet_port, "Смотритель", "keeper-pass1")
    tom = await log_in(srv.telnet_port, "Томас", "tomas-pass1")
    await tom.close()
    sara = await connect(srv.ssh_port, "Сара", password="sara-pass1", width=WIDE)
    await sara.expect(ru("login.created", name="Сара"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    sara.send_line("keys add " + key.export_public_key().decode().strip())
    await sara.expect(ru("keys.added", fingerprint=key.get_fingerprint()))
    await sara.close()
    sara = await connect(srv.ssh_port, "Сара", key=key, width=WIDE)
    await sara.expect(ru("login.welcome", name="Сара"))
    await sara.close()

    # Failed logins: a wrong password on each door (never in any log).
    wrong = TelnetClient()
    await wrong.connect("127.0.0.1", srv.telnet_port)
    await wrong.reach_name_prompt()
    wrong.send_line("Томас")
    await wrong.expect(PASSWORD_PROMPT)
    wrong.send_line("Typed-Wrong-Telnet9")
    await wrong.expect(ru("login.bad_password"))
    await wrong.close()
    client, banners = await attempt(srv.ssh_port, "Сара", "Typed-Wrong-Ssh9")
    assert client is None and ru("login.bad_password") in banners

    # Bans: one given over telnet, one over SSH.
    keeper.send_line("ban Сара 1h")
    await keeper.expect(ru("mod.banned", name="Сара", until="@").split("@")[0])
    boss = await connect(srv.ssh_port, "Смотритель", password="keeper-pass1", width=WIDE)
    await boss.expect(ru("login.welcome", name="Смотритель"))
    boss.send_line("ban Томас")
    await boss.expect(ru("mod.banned_forever", name="Томас"))
    client, banners = await attempt(srv.ssh_port, "Сара", "sara-pass1")  # banned: refused, audited
    assert client is None
    await boss.close()
    await keeper.close()

    await _wait_for(lambda: sum(1 for a in audit_lines(_all_files(folder)) if a.get("event") == "login_failed") >= 3)
    text = _all_files(folder)
    audits = audit_lines(text)
    failed = [a for a in audits if a["event"] == "login_failed"]
    assert {"door": "telnet", "address": "127.0.0.1", "name": "Томас", "reason": "bad_password"}.items() <= \
        next(a for a in failed if a.get("door") == "telnet").items()
    assert any(a["door"] == "ssh" and a["name"] == "Сара" and a["reason"] == "bad_password" for a in failed), failed
    assert any(a["door"] == "ssh" and a["name"] == "Сара" and a["reason"] == "banned" for a in failed), failed
    bans = [a for a in audits if a["event"] == "ban"]
    assert any(a["by"] == "Смотритель" and a["name"] == "Сара" and a["until"] != "never" for a in bans), bans
    assert any(a["by"] == "Смотритель" and a["name"] == "Томас" and a["until"] == "never" for a in bans), bans
    logins = [a for a in audits if a["event"] == "login"]
    assert any(a["door"] == "telnet" and a["name"] == "Смотритель" and a["method"] == "new" for a in logins)
    assert any(a["door"] == "ssh" and a["name"] == "Смотритель" and a["method"] == "password" for a in logins)
    assert any(a["door"] == "ssh" and a["name"] == "Сара" and a["method"] == "new" for a in logins)
    assert any(a["door"] == "ssh" and a["name"] == "Сара" and a["method"] == "key" for a in logins)
    assert [a["name"] for a in audits if a["event"] == "account_created"] == ["Смотритель", "Томас", "Сара"]
    # Rotated by size: several files, none much past max_bytes; the console got the same lines.
    files = list(folder.glob("korchma.log*"))
    longest = max(len(line.encode()) + 1 for line in text.splitlines())  # (the size check counts characters)
    assert len(files) >= 2 and all(p.stat().st_size <= 800 + longest for p in files), \
        [p.stat().st_size for p in files]
    assert srv.terminate() == 0
    everything = _all_files(folder) + srv.log()
    assert any(a["event"] == "shutdown" and a["by"] == "SIGTERM" for a in audit_lines(_all_files(folder)))
    for secret in ("Typed-Wrong-Telnet9", "Typed-Wrong-Ssh9", "keeper-pass1", "tomas-pass1", "sara-pass1"):
        assert secret not in everything, secret
    assert "logger=korchma.audit event=ban by=Смотритель" in srv.log()  # the console: the same logfmt lines


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _reloads(srv) -> list[dict[str, str]]:
    return [a for a in audit_lines(srv.log()) if a["event"] == "config_reloaded"]


def _refusals(srv) -> list[str]:
    return [line for line in srv.log().splitlines() if "configuration reload refused" in line]


async def _hup(srv, done) -> None:
    srv.proc.send_signal(signal.SIGHUP)
    await _wait_for(done)


BEFORE = """
[server]
motd = "Старое объявление"
[log]
level = "WARNING"
"""


async def test_sighup_reloads_motd_admins_limits_and_level_and_refuses_a_bad_file(server_factory):
    srv = server_factory(BEFORE)
    first = await log_in(srv.telnet_port, "Хозяйка", "hostess-pass1")
    await first.expect(ru("login.motd", text="Старое объявление"))
    assert not audit_lines(srv.log())  # at WARNING, no audit line yet
    config_text = srv.config.read_text(encoding="utf-8")
    changed = config_text.replace('motd = "Старое объявление"', 'motd = "Завтра турнир по Перевороту"')
    changed = changed.replace('level = "WARNING"', 'level = "INFO"')
    changed += '\n[accounts]\nadmins = ["Хозяйка"]\nargon2_time = 3\n[limits]\nmax_line = 40\n'
    _write(srv.config, changed)
    await _hup(srv, lambda: _reloads(srv))
    reload = _reloads(srv)[0]
    assert 'server.motd: "Старое объявление" -> "Завтра турнир по Перевороту"' in reload["changed"]
    assert 'accounts.admins: [] -> ["Хозяйка"]' in reload["changed"]
    assert "limits.max_line: 2000 -> 40" in reload["changed"] and 'log.level: "WARNING" -> "INFO"' in reload["changed"]
    assert reload["needs_restart"] == "accounts.argon2_time: 2 -> 3"
    await first.expect(ru("mod.role_you", role=ru("role.admin")))  # online: an admin at once

    # New logins see it: the MOTD on both doors, the line limit, the admin's powers; and the log
    # level is INFO now (their audit lines are there).
    guest = await log_in(srv.telnet_port, "Гость", "guest-pass1")
    await guest.expect(ru("login.motd", text="Завтра турнир по Перевороту"))
    guest.send_line("say " + "д" * 60)
    await guest.expect(ru("input.too_long", limit=40))
    hostess = await connect(srv.ssh_port, "Хозяйка", password="hostess-pass1", width=WIDE)
    await hostess.expect(ru("login.motd", text="Завтра турнир по Перевороту"))
    hostess.send_line("role Гость moderator")
    await hostess.expect(ru("mod.role_set", name="Гость", role=ru("role.moderator")))
    await _wait_for(lambda: any(a["event"] == "login" and a["name"] == "Гость" for a in audit_lines(srv.log())))

    # A bad value: refused with the file and the key, and the configuration in force stays.
    _write(srv.config, changed.replace("max_line = 40", 'max_line = "много"').replace("Завтра", "Послезавтра"))
    await _hup(srv, lambda: _refusals(srv))
    assert f"{srv.config}, line" in _refusals(srv)[0] and "limits.max_line" in _refusals(srv)[0]
    # A TOML syntax error: the same.
    _write(srv.config, changed + "\n[limits\n")
    await _hup(srv, lambda: len(_refusals(srv)) == 2)
    assert f"{srv.config}: TOML syntax error" in _refusals(srv)[1]
    assert len(_reloads(srv)) == 1
    late = await connect(srv.ssh_port, "Поздний", password="late-pass1", width=WIDE)
    await late.expect(ru("login.motd", text="Завтра турнир по Перевороту"))
    late.send_line("say " + "д" * 60)
    await late.expect(ru("input.too_long", limit=40))
    for client in (first, guest, hostess, late):
        await client.close()
    assert "Traceback" not in srv.log()


@pytest.fixture(autouse=True)
def _quiet_asyncssh():
    asyncssh.set_log_level("WARNING")
