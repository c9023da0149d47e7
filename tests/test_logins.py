"""Passwords and logins under trouble and under attack, against a real server process.

* No secret in any log: the database fails (a full disk) while an account is made and while a
  password is changed (both forms); two look-alike names are made at the same moment.
* Nobody can lock an owner out: guesses from one address never hold up the owner elsewhere.
* Password checks are bounded and fair: a flood from one address is refused at once, the
  others still get in; stored hashes with old argon2 parameters are made again at login.

Every point over telnet and over SSH. Other visitors come from other loopback addresses
(127.0.0.2, 127.0.0.3: on Linux all of 127/8 reaches a server on 127.0.0.1). Expected texts come
from the catalogs; the server's default language is Russian.
"""
from __future__ import annotations

import asyncio
import contextvars
import re
import sqlite3
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from tests.conftest import TEST_CONFIG, ServerProcess, merge_toml
from tests.fsfault import small_disk  # noqa: F401  (the fixture)
from tests.ssh_client import attempt, connect
from tests.telnet_client import NAME_PROMPT, WELCOME, TelnetClient
from tests.wire import open_table
import logging

from world import log_redact, login_guard
from world.addresses import address_key
from world.i18n import strip_marks, t

ATTACKER, OWNER = "127.0.0.2", "127.0.0.3"
WIDE = 200


def ru(key: str, **params) -> str:
    return strip_marks(t("ru", key, **params))


def prefix(key: str) -> str:
    """The catalog text of ``key`` up to its first parameter."""
    return strip_marks(t("ru", key, **{"seconds": 10 ** 9})).split(str(10 ** 9))[0]


async def telnet(port: int, local: str | None = None) -> TelnetClient:
    client = TelnetClient(naws=(WIDE, 50))
    await client.connect("127.0.0.1", port, local_address=local)
    await client.reach_name_prompt()
    return client


async def telnet_login(port: int, name: str, password: str, local: str | None = None,
                       create: bool = True, timeout: float = 10.0) -> TelnetClient:
    client = TelnetClient(naws=(WIDE, 50))
    await client.connect("127.0.0.1", port, local_address=local)
    await client.login(name, password, create=create, timeout=timeout)
    return client


async def to_confirm(client: TelnetClient, name: str, password: str) -> None:
    """A new name, its password: stop at "repeat the password"."""
    client.send_line(name)
    await client.expect(ru("login.ask_new_password"))
    client.send_line(password)
    await client.expect(ru("login.ask_confirm"))


def assert_nowhere(secrets: list[str], log: str, *folders: Path) -> None:
    """None of ``secrets`` in the server's log or in any file under ``folders``."""
    texts = {"the server log": log.encode()}
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file():
                texts[str(path)] = path.read_bytes()
    assert any("korchma.sqlite3" in where for where in texts), texts.keys()
    for secret in secrets:
        for where, data in texts.items():
            assert secret.encode() not in data, f"{secret!r} found in {where}"


def stored_hash(data: Path, name: str) -> str:
    with sqlite3.connect(f"file:{data / 'korchma.sqlite3'}?mode=ro", uri=True) as db:
        return db.execute("SELECT password_hash FROM account WHERE name = ?", (name,)).fetchone()[0]


# -- no secret in any log: the disk fills up -----------------------------------------------------

async def change_password_on_a_full_disk(changer, disk) -> None:
    """``changer`` (telnet or SSH, logged in with crashpw1) tries both forms of ``password``
    while the disk is full, then once more when it is back."""
    disk.fill()
    changer.send_line("password crashpw1 changedsecret77")
    await changer.expect(ru("password.not_saved"))
    changer.send_line("пароль")
    await changer.expect(ru("password.ask_old"))
    changer.send_line("crashpw1")
    await changer.expect(ru("password.ask_new"))
    changer.send_line("dialoguesecret88")
    await changer.expect(ru("password.ask_again"))
    changer.send_line("dialoguesecret88")
    await changer.expect(ru("password.not_saved"))
    changer.send_line("кто")  # the session lives on
    await changer.expect("Менялкин")
    disk.free()
    changer.send_line("password crashpw1 healedpw9")  # the old password still holds, and it heals
    await changer.expect(ru("password.changed"))


def assert_failed_quietly(log: str, data: Path) -> None:
    assert "storage failure: could not store the new password of" in log  # the failures did happen, and were logged
    assert "Traceback" not in log
    assert_nowhere(["newbiesecret42", "crashpw1", "changedsecret77", "dialoguesecret88"], log, data)


async def test_full_disk_during_login_and_password_change_leaks_nothing_telnet(small_disk, server_factory,
                                                                                tmp_path):
    srv = server_factory(data_dir=small_disk.path, log_dir=tmp_path)
    port = srv.telnet_port
    newbie = await telnet(port)
    await to_confirm(newbie, "Новичок", "newbiesecret42")
    small_disk.fill()
    newbie.send_line("newbiesecret42")
    await newbie.expect(ru("error.storage"))  # one clear line, and the login starts again
    await newbie.expect(NAME_PROMPT)
    assert not newbie.server_echo  # the echo is back on for the name
    small_disk.free()
    await to_confirm(newbie, "Новичок", "newbiesecret43")  # the same connection, the disk back
    newbie.send_line("newbiesecret43")
    await newbie.expect(ru("login.created", name="Новичок"))

    changer = await telnet_login(port, "Менялкин", "crashpw1")
    await change_password_on_a_full_disk(changer, small_disk)
    for client in (newbie, changer):
        await client.close()
    assert_failed_quietly(srv.log(), small_disk.path)


async def test_full_disk_during_login_and_password_change_leaks_nothing_ssh(small_disk, server_factory,
                                                                             tmp_path):
    srv = server_factory(data_dir=small_disk.path, log_dir=tmp_path)
    port = srv.ssh_port
    small_disk.fill()
    refused, banners = await attempt(port, "Новичок", "newbiesecret42")
    assert refused is None and ru("error.storage") in banners
    small_disk.free()
    newbie, _ = await attempt(port, "Новичок", "newbiesecret43", width=WIDE)
    assert newbie is not None
    await newbie.expect(ru("login.created", name="Новичок"))

    changer = await connect(port, "Менялкин", password="crashpw1", width=WIDE)
    await changer.expect(ru("login.welcome", name="Менялкин"))
    await change_password_on_a_full_disk(changer, small_disk)
    for client in (newbie, changer):
        await client.close()
    assert_failed_quietly(srv.log(), small_disk.path)


async def test_a_full_disk_does_not_keep_players_out(small_disk, server_factory, tmp_path):
    """Storing the time of a login, or that missed messages were read, is no reason to turn a
    player away: with the disk full, existing players still log in on both doors and play."""
    srv = server_factory(data_dir=small_disk.path, log_dir=tmp_path)
    first = await telnet_login(srv.telnet_port, "Первая", "firstpw1")
    second = await connect(srv.ssh_port, "Второй", password="secondpw2", width=WIDE)
    await second.expect(ru("login.welcome", name="Второй"))
    await first.close()
    second.send_line("tell Первая ждёт-во-входящих")
    await second.expect(ru("tell.kept", name="Первая"))
    await second.close()
    small_disk.fill()
    first = await telnet_login(srv.telnet_port, "Первая", "firstpw1", create=False)
    await first.expect("ждёт-во-входящих")  # shown, though it cannot be marked as read now
    second = await connect(srv.ssh_port, "Второй", password="secondpw2", width=WIDE)
    await second.expect(ru("login.welcome", name="Второй"))
    first.send_line("say всё ещё здесь")
    await second.expect("всё ещё здесь")
    small_disk.free()
    for client in (first, second):
        await client.close()
    log = srv.log()
    assert "storage failure: could not store the login of" in log and "Traceback" not in log


# Words the table's log lines use (world/storage_pause.py), as passwords.
GAME_WORDS = {"carries": "the game carries on", "retries": "the table is paused and retries"}
HAND = re.compile(r"ваши карты — ([\d, ]+)\.")


async def test_a_password_that_is_a_common_word_leaves_the_game_s_log_lines_alone(small_disk, server_factory,
                                                                                   tmp_path):
    """Two players whose passwords are words of the game's log lines come back, on telnet and on
    SSH, while their game runs (a login pokes the table's runner, which may start its tasks).
    The table's later lines stay whole in the log, and neither password is anywhere else in it."""
    srv = server_factory(data_dir=small_disk.path, log_dir=tmp_path)
    weaver = await telnet_login(srv.telnet_port, "Ткач", "carries")
    saddler = await connect(srv.ssh_port, "Шорник", password="retries", width=WIDE)
    await saddler.expect(ru("login.welcome", name="Шорник"))
    number = await open_table(weaver, "открыть торги rounds=10")
    saddler.send_line(f"сесть {number}")
    await saddler.expect(f"Вы садитесь за стол {number}")
    weaver.send_line("боты 2")
    await weaver.expect("За стол садятся 2 бота")
    weaver.send_line("начать")
    hand = [int(card) for card in (await weaver.expect(HAND, 10)).split("—")[1].strip(" .").split(", ")]
    await weaver.close()
    await saddler.close()
    weaver = await telnet_login(srv.telnet_port, "Ткач", "carries", create=False)
    await weaver.expect(ru("table.back_in_seat", number=number, game="bids"))
    saddler = await connect(srv.ssh_port, "Шорник", password="retries", width=WIDE)
    await saddler.expect(ru("login.welcome", name="Шорник"))

    small_disk.fill()  # the next move cannot be stored: the table says so in the log, and heals
    weaver.send_line(f"ставка {hand[0]}")
    await weaver.expect(ru("storage.paused", number=number), 10)
    small_disk.free()
    await weaver.expect(ru("storage.resumed", number=number), 40)
    for client in (weaver, saddler):
        await client.close()
    log = srv.log()
    assert f"table {number}: a write failed" in log
    assert f"table {number}: writes work again; the game carries on" in log
    assert "[secret]" not in log
    for password, wording in GAME_WORDS.items():
        elsewhere = [line for line in log.splitlines() if password in line and wording not in line]
        assert not elsewhere, elsewhere


@pytest.mark.parametrize("door", ["telnet", "ssh"])
async def test_pass_at_a_coup_table_is_no_secret(server, door):
    """At a Coup table `pass` is `allow`, no secret: its line is logged as typed (the repeat
    guard logs a `pass` typed twice fast), and over SSH it is shown and kept in the history."""
    from tests.test_wait_ids import OTHER_QUESTION, _boris, _two_play_until_the_assassination

    boris = await _boris(server, door)
    await _two_play_until_the_assassination(server, boris)
    boris.send_line("pass")
    boris.send_line("pass")
    await boris.expect(OTHER_QUESTION)
    if door == "ssh":
        boris.send("\x1b[A")  # Up: the last line kept in history
        await boris.settle(0.3)
        assert [line for line in boris.screen.text_lines() if line][-1] == "> pass"
        boris.send("\x03")
    await boris.anna.close()
    await boris.close()
    log = server.log()
    assert re.search(r"table \d+: seat \d+'s 'pass' was for another question", log), log
    assert "[secret]" not in log


async def test_debug_log_holds_no_password_and_no_hash(tmp_path):
    """At --log-level DEBUG the ORM logs every query with its values: hashes are cut from them."""
    config = tmp_path / "debug.toml"
    config.write_text(merge_toml(TEST_CONFIG, ""))
    (tmp_path / "data").mkdir()
    srv = ServerProcess(data_dir=tmp_path / "data", config=config, extra=["--log-level", "DEBUG"]).start()
    try:
        client = await telnet_login(srv.telnet_port, "Отладчик", "debugsecret1")
        client.send_line("password debugsecret1 debugsecret2")
        await client.expect(ru("password.changed"))
        await client.close()
        ssh = await connect(srv.ssh_port, "Отладчик", password="debugsecret2", width=WIDE)
        ssh.send_line("пароль debugsecret2 debugsecret3")
        await ssh.expect(ru("password.changed"))
        await ssh.close()
    finally:
        srv.terminate()
    log = srv.log()
    assert "tortoise.db_client" in log and "password_hash" in log  # the queries were logged
    for secret in ("debugsecret1", "debugsecret2", "debugsecret3", "$argon2id$v=19$"):
        assert secret not in log, secret


# -- no secret in any log: two look-alike names at the same moment --------------------------------

# Pairs whose names fold to one key (l/i look alike): world/accounts.py name_key.
RACES = [("Floodal", "Floodai"), ("Raceal", "Raceai"), ("Rushal", "Rushai")]


async def test_lookalike_names_made_at_once_hear_name_taken_telnet(server):
    port = server.telnet_port
    for first_name, second_name in RACES:
        first, second = await telnet(port), await telnet(port)
        await to_confirm(first, first_name, f"{first_name}-secret1")
        await to_confirm(second, second_name, f"{second_name}-secret2")
        first.send_line(f"{first_name}-secret1")  # both at the same moment
        second.send_line(f"{second_name}-secret2")
        either = re.compile(f"{re.escape(ru('account.name_taken'))}|{WELCOME.pattern}|"
                            f"{re.escape(ru('error.internal'))}", re.I)
        outcomes = [await first.expect(either, timeout=20), await second.expect(either, timeout=20)]
        assert sorted(o == ru("account.name_taken") for o in outcomes) == [False, True], outcomes
        loser = (first, second)[outcomes.index(ru("account.name_taken"))]
        await loser.expect(NAME_PROMPT)  # and may choose another name
        for client in (first, second):
            await client.close()
    log = server.log()
    assert "Traceback" not in log
    for name, other in RACES:
        assert f"{name}-secret1" not in log and f"{other}-secret2" not in log


async def test_lookalike_names_made_at_once_hear_name_taken_ssh(server):
    port = server.ssh_port
    for first_name, second_name in RACES:
        (a, a_banners), (b, b_banners) = await asyncio.gather(
            attempt(port, first_name, f"{first_name}-secret1"), attempt(port, second_name, f"{second_name}-secret2"))
        assert (a is None) != (b is None), (a_banners, b_banners)
        assert ru("account.name_taken") in (a_banners if a is None else b_banners)
        for client in (a, b):
            if client is not None:
                await client.close()
    log = server.log()
    assert "Traceback" not in log
    for name, other in RACES:
        assert f"{name}-secret1" not in log and f"{other}-secret2" not in log


# -- nobody can lock an owner out ---------------------------------------------------------------

LOCKOUT = "[accounts]\nlogin_attempts = 10\nlogin_backoff = 30\n"


async def test_guesses_from_one_address_never_lock_the_owner_out_telnet(server_factory):
    port = server_factory(LOCKOUT).telnet_port
    await (await telnet_login(port, "Хозяин", "owner-pass1", OWNER)).close()
    await (await telnet_login(port, "Взломщик", "thief-pass1", ATTACKER)).close()

    async def guess(times: int) -> None:
        thief = await telnet(port, ATTACKER)
        for i in range(times):
            thief.send_line("Хозяин")
            await thief.expect(ru("login.ask_password", name="Хозяин"))
            thief.send_line(f"guess{i}")
            await thief.expect(ru("login.bad_password"))
            await thief.expect(NAME_PROMPT)
        await thief.close()

    await guess(9)
    # The attacker's own account logs in from the same address: that address's count stays.
    await (await telnet_login(port, "Взломщик", "thief-pass1", ATTACKER, create=False)).close()
    await guess(1)  # the tenth failure from 127.0.0.2
    thief = await telnet(port, ATTACKER)
    thief.send_line("Взломщик")
    await thief.expect(prefix("login.wait"))  # the address waits now, for any name
    await thief.close()

    owner = await telnet_login(port, "Хозяин", "owner-pass1", OWNER, create=False)  # at once
    await owner.expect(ru("login.failures", count=10, addresses=1))  # and is told
    await owner.close()


async def test_guesses_from_one_address_never_lock_the_owner_out_ssh(server_factory):
    port = server_factory(LOCKOUT).ssh_port
    for name, password, address in (("Хозяйка", "owner-pass1", OWNER), ("Взломщица", "thief-pass1", ATTACKER)):
        client, _ = await attempt(port, name, password, local_address=address)
        assert client is not None
        await client.close()

    async def guess(times: int) -> None:
        for i in range(times):
            refused, banners = await attempt(port, "Хозяйка", f"guess{i}", local_address=ATTACKER)
            assert refused is None and ru("login.bad_password") in banners, banners

    await guess(9)
    own, _ = await attempt(port, "Взломщица", "thief-pass1", local_address=ATTACKER)
    assert own is not None
    await own.close()
    await guess(1)
    refused, banners = await attempt(port, "Взломщица", "thief-pass1", local_address=ATTACKER)
    assert refused is None and prefix("login.wait") in banners, banners

    owner, banners = await attempt(port, "Хозяйка", "owner-pass1", local_address=OWNER, width=WIDE)
    assert owner is not None, banners
    await owner.expect(ru("login.failures", count=10, addresses=1))
    await owner.close()


async def test_a_name_guessed_from_many_addresses_is_not_locked_and_its_owner_is_told(server_factory):
    srv = server_factory(LOCKOUT)
    many = login_guard.SPREAD_WARNING
    addresses = [f"127.0.20.{i + 1}" for i in range(many)]
    await (await telnet_login(srv.telnet_port, "Публичный", "owner-pass1", OWNER)).close()
    await (await connect(srv.ssh_port, "Известный", password="owner-pass2")).close()

    async def telnet_guess(address: str) -> None:
        thief = await telnet(srv.telnet_port, address)
        thief.send_line("Публичный")
        await thief.expect(ru("login.ask_password", name="Публичный"))
        thief.send_line("a-guess")
        await thief.expect(ru("login.bad_password"), timeout=20)
        await thief.close()

    async def ssh_guess(address: str) -> None:
        refused, banners = await attempt(srv.ssh_port, "Известный", "a-guess", local_address=address,
                                         connect_timeout=30)
        assert refused is None and ru("login.bad_password") in banners, banners

    # A guess from each of many addresses, on telnet for one name and on SSH for the other; then
    # each owner logs in at once through the other door, and is told.
    await asyncio.gather(*(telnet_guess(a) for a in addresses), *(ssh_guess(a) for a in addresses))
    told = ru("login.failures_many", count=many, addresses=many)
    ssh_owner, banners = await attempt(srv.ssh_port, "Публичный", "owner-pass1", local_address=OWNER, width=WIDE)
    assert ssh_owner is not None, banners
    await ssh_owner.expect(told)
    telnet_owner = await telnet_login(srv.telnet_port, "Известный", "owner-pass2", OWNER, create=False)
    await telnet_owner.expect(told)
    for client in (ssh_owner, telnet_owner):
        await client.close()
    log = srv.log()
    for name in ("Публичный", "Известный"):
        assert f"failed logins as {name} from {many} or more addresses" in log


# -- password checks are bounded and fair -------------------------------------------------------

# A victim whose stored hash takes seconds to check (argon2 with many passes, written into the
# database while the server is down), so that the flood's guesses all arrive while the first
# ones are still being checked.
FLOOD = 8  # connections from one address: kept under any sane per-address connection cap


async def slow_victim(server_factory, tmp_path: Path, name: str, door: str):
    """A server whose account ``name`` (password victim-pass1) has a slow stored hash."""
    data = tmp_path / "data"
    first = server_factory(data_dir=data)
    if door == "telnet":
        await (await telnet_login(first.telnet_port, name, "victim-pass1")).close()
    else:
        await (await connect(first.ssh_port, name, password="victim-pass1")).close()
    assert first.terminate() == 0
    slow = PasswordHasher(time_cost=80, memory_cost=19456, parallelism=1).hash("victim-pass1")  # ~1 s
    with sqlite3.connect(data / "korchma.sqlite3") as db:
        db.execute("UPDATE account SET password_hash = ? WHERE name = ?", (slow, name))
    return server_factory(data_dir=data)


async def test_a_flood_of_guesses_from_one_address_is_refused_at_once_telnet(server_factory, tmp_path):
    srv = await slow_victim(server_factory, tmp_path, "Жертва", "telnet")
    port = srv.telnet_port
    guesses = [await telnet(port, ATTACKER) for _ in range(FLOOD)]
    for client in guesses:
        client.send_line("Жертва")
    for client in guesses:
        await client.expect(ru("login.ask_password", name="Жертва"))
    for client in guesses:  # all in the same moment
        client.send_line("a-wrong-guess")
    # The honest login gets in meanwhile (after one turn: the two workers check the slow guesses).
    honest = await telnet_login(port, "Честный", "honest-pass1", OWNER, timeout=30)
    outcome = re.compile(f"{re.escape(ru('login.bad_password'))}|{re.escape(ru('login.busy'))}")
    answers = [await client.expect(outcome, timeout=60) for client in guesses]
    # Two checks per address at once (accounts.checks_per_address): the rest are refused unchecked.
    assert answers.count(ru("login.bad_password")) == 2, answers
    assert answers.count(ru("login.busy")) == FLOOD - 2
    for client in guesses + [honest]:
        await client.close()


async def test_a_flood_of_guesses_from_one_address_is_refused_at_once_ssh(server_factory, tmp_path):
    srv = await slow_victim(server_factory, tmp_path, "Жертва", "ssh")
    port = srv.ssh_port
    flood = asyncio.gather(*(attempt(port, "Жертва", "a-wrong-guess", local_address=ATTACKER)
                             for _ in range(FLOOD)))
    honest, banners = await attempt(port, "Честный", "honest-pass1", local_address=OWNER, connect_timeout=30)
    assert honest is not None, banners
    results = await flood
    assert all(client is None for client, _ in results)
    checked = [b for _, b in results if ru("login.bad_password") in b]
    busy = [b for _, b in results if ru("login.busy") in b]
    assert len(checked) == 2 and len(busy) == FLOOD - 2, [b for _, b in results]
    await honest.close()


OLD_PARAMETERS = "[accounts]\nargon2_memory = 65536\nargon2_time = 3\nargon2_lanes = 4\n"


async def test_old_hashes_are_made_again_at_login(server_factory, tmp_path):
    data = tmp_path / "data"
    old = server_factory(OLD_PARAMETERS, data_dir=data)
    await (await telnet_login(old.telnet_port, "Старичок", "old-pass1")).close()
    await (await connect(old.ssh_port, "Старушка", password="old-pass2")).close()
    assert old.terminate() == 0
    before = {name: stored_hash(data, name) for name in ("Старичок", "Старушка")}
    assert all(h.startswith("$argon2id$v=19$m=65536,t=3,p=4$") for h in before.values())

    srv = server_factory(data_dir=data)  # today's parameters
    await (await telnet_login(srv.telnet_port, "Старичок", "old-pass1", create=False)).close()
    ssh = await connect(srv.ssh_port, "Старушка", password="old-pass2", width=WIDE)
    await ssh.expect(ru("login.welcome", name="Старушка"))
    await ssh.close()
    for name in before:
        assert stored_hash(data, name).startswith("$argon2id$v=19$m=19456,t=2,p=1$"), name
    # The password still works with the new hash, on both doors.
    await (await telnet_login(srv.telnet_port, "Старичок", "old-pass1", create=False)).close()
    again = await connect(srv.ssh_port, "Старушка", password="old-pass2", width=WIDE)
    await again.expect(ru("login.welcome", name="Старушка"))
    await again.close()
    assert "re-made with the current argon2 parameters" in srv.log()


# -- the pieces, without a server -----------------------------------------------------------------

def test_throttle_forgets_and_stays_bounded():
    th = login_guard.LoginThrottle(attempts=2, backoff=5, backoff_max=60, forget=100, limit=50)
    th.failed("Vasya", "1.2.3.4", clock=0.0)
    th.failed("Vasya", "1.2.3.4", clock=0.0)
    assert th.wait_left("Vasya", "1.2.3.4", clock=1.0) == 4
    assert th.wait_left("Vasya", "1.2.3.4", clock=101.0) == 0  # forgotten after `forget`
    th.failed("Vasya", "1.2.3.4", clock=101.0)
    assert th.wait_left("Vasya", "1.2.3.4", clock=101.0) == 0  # counting from one again
    for i in range(1000):  # a flood of names from many addresses
        th.failed(f"name{i}", f"10.0.{i // 250}.{i % 250}", clock=200.0)
    assert len(th.by_pair) <= 50 and len(th.by_address) <= 50 and len(th.by_name) <= 50
    # IPv6 counts by /64; an IPv4-mapped address is its IPv4 address.
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") == "2001:db8::/64"
    assert address_key("::ffff:10.1.2.3") == "10.1.2.3"


def test_log_records_never_show_a_secret_in_scope(caplog):
    log_redact.install()
    caplog.set_level(logging.INFO)
    log = logging.getLogger("korchma.test")
    with log_redact.secret_scope("pass word9", words=("old-secret", "new'secret", "ab")):
        try:
            raise ValueError("bad value 'pass word9' or old-secret")
        except ValueError:
            log.exception("failed: %r and %s", "new'secret", "ab")
    log.info("outside: old-secret $argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA")
    inside, _, outside = caplog.text.partition("outside:")
    for secret in ("pass word9", "old-secret", "new'secret"):  # in the message, its args, the traceback
        assert secret not in inside
    assert 'failed: "[secret]" and ab' in inside  # words under 3 letters stay
    assert "ValueError: bad value '[secret]' or [secret]" in inside
    assert outside.strip() == "old-secret $argon2[hash]"  # out of the scope, only hashes go


async def test_a_task_started_in_a_secret_scope_inherits_no_secret(caplog):
    """A login pokes its table's runner, which starts bot and clock tasks; the inbox spool may
    start its retry task. Those tasks live on: they must neither keep the password in memory nor
    have their log lines matched against it (a password "table" made "table 5: ..." read
    "[secret] 5: ..." for the rest of the game). The scope's own task, across its awaits, still
    has it redacted."""
    log_redact.install()
    caplog.set_level(logging.INFO)
    log = logging.getLogger("korchma.test")
    moved, go = asyncio.Event(), asyncio.Event()
    held: list = []

    async def bot() -> None:  # started while the password is handled
        held.extend(contextvars.copy_context().values())
        log.warning("table 5: a bot moved first")
        moved.set()
        await go.wait()
        log.warning("table 5: a bot moved later")

    with log_redact.secret_scope("table", words=("carries",)):
        task = asyncio.get_running_loop().create_task(bot())
        await moved.wait()  # the scope's task awaits meanwhile, and logs after it
        log.warning("login with table, which carries on")
    go.set()
    await task
    assert "table 5: a bot moved first" in caplog.text  # while the scope was open, in another task
    assert "table 5: a bot moved later" in caplog.text  # and after it
    assert "login with [secret], which [secret] on" in caplog.text
    assert not any("table" in repr(value) for value in held)  # the task holds no copy
    assert len(log_redact._secrets) == 0  # nor does anything else once the scope is over


class _Recording(login_guard.Hasher):
    """A real hasher that notes the order in which its jobs ran."""

    def __init__(self) -> None:
        super().__init__()
        self.order: list[str] = []

    def hash(self, password: str) -> str:
        if password != login_guard.WARM_UP:  # each thread's first two hashes (PasswordChecks._warm)
            self.order.append(password)
        return super().hash(password)


async def test_check_queue_takes_addresses_in_turn_and_bounds_each():
    hasher = _Recording()
    checks = login_guard.PasswordChecks(hasher, workers=1, per_address=3)
    jobs = [asyncio.ensure_future(checks.hash("10.0.0.1", f"a{i}")) for i in range(3)]
    await asyncio.sleep(0)
    with pytest.raises(login_guard.ChecksBusy):  # a fourth from that address: refused at once
        await checks.hash("10.0.0.1", "a3")
    jobs += [asyncio.ensure_future(checks.hash("10.0.0.2", "b0")), asyncio.ensure_future(checks.hash("10.0.0.3", "c0"))]
    await asyncio.gather(*jobs)
    # a0 was running already; then each address in turn, not first come first served.
    assert hasher.order == ["a0", "a1", "b0", "c0", "a2"]
    assert checks.load("10.0.0.1") == 0
    # A job whose client left before its turn is dropped, and frees its place.
    first = asyncio.ensure_future(checks.hash("10.0.0.1", "d0"))
    gone = asyncio.ensure_future(checks.hash("10.0.0.2", "e0"))
    await asyncio.sleep(0)
    gone.cancel()
    await first
    assert gone.cancelled() and checks.load("10.0.0.2") == 0 and "e0" not in hasher.order
    checks.close()
