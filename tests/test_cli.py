"""The `korchma` command line against a running server (and without one): admins, backups, `make run`.

Each command runs as a subprocess with the same --config/--data-dir flags the server got, as a
host would type it; the players it concerns are logged in over telnet and SSH.
"""
from __future__ import annotations

import asyncio
import os
import re
import select
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import ROOT, READY
from tests.ssh_client import connect
from tests.telnet_client import log_in

OWNER = '[accounts]\nadmins = ["Хозяйка"]\n[log]\nfile = "korchma.log"'


def korchma(srv, *args: str, data_dir: Path | None = None) -> subprocess.CompletedProcess:
    """`korchma ARGS` on the data and config of ``srv`` (a tests.conftest.ServerProcess)."""
    return subprocess.run(
        [sys.executable, "-m", "server", *args, "--config", str(ROOT / "config.toml"), "--config", str(srv.config),
         "--data-dir", str(data_dir or srv.data_dir)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)


async def run(srv, *args: str, **kw) -> subprocess.CompletedProcess:
    # In a thread, so the clients' read loops go on reading what the server says meanwhile.
    return await asyncio.to_thread(korchma, srv, *args, **kw)


def one_line(result: subprocess.CompletedProcess) -> str:
    """What a command said: exactly one line on stdout (success) or the last line of stderr."""
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result
    assert "Traceback" not in result.stderr, result.stderr
    return lines[0]


def wrapped(text: str) -> re.Pattern[str]:
    """``text`` as the screen shows it: lines wrap at the terminal's width."""
    return re.compile(r"\s+".join(map(re.escape, text.split())))


def failure(result: subprocess.CompletedProcess) -> str:
    assert result.returncode != 0 and not result.stdout, result
    assert "Traceback" not in result.stderr, result.stderr
    return result.stderr.strip().splitlines()[-1]


async def test_admin_add_remove_list_reach_players_online(server_factory):
    srv = server_factory(OWNER)
    sock = srv.data_dir / "control.sock"
    assert stat.S_ISSOCK(sock.stat().st_mode) and stat.S_IMODE(sock.stat().st_mode) == 0o600
    anna = await log_in(srv.telnet_port, "Анна")
    boris = await connect(srv.ssh_port, "Boris", password="secret1")
    await boris.expect("Boris")
    anna.send_line("role Boris moderator")  # not an admin: "role" is not hers, it reads as "roles"
    await anna.expect("Нет такой версии правил: Boris moderator")

    # Made an admin from the command line: told at once, and the next command already works.
    added = await run(srv, "admin", "add", "Анна")
    assert added.returncode == 0
    assert one_line(added) == "Анна is now an admin (kept in the database); they are online and were told"
    assert "logger=korchma.audit event=role by=cli name=Анна" in added.stderr
    # ... and in the server's log file, beside the server's own records (appended, never rotated)
    log_file = (srv.data_dir / "korchma.log").read_text(encoding="utf-8")
    assert "event=role by=cli name=Анна" in log_file and "event=login" in log_file, log_file
    await anna.expect("Теперь вы администратор.")
    anna.send_line("role Boris moderator")
    await anna.expect("Boris теперь модератор")
    await boris.expect("Теперь вы модератор")

    # Over SSH too; an admin made so is not changed by `role`, and says how it is undone.
    assert (await run(srv, "admin", "add", "boris")).returncode == 0
    await boris.expect("Теперь вы администратор.")
    boris.send_line("role Анна player")
    await boris.expect(wrapped("Анна — администратор, назначенный из командной строки; снять эту роль можно "
                               "командой «korchma admin remove Анна» на сервере."))

    listing = await run(srv, "admin", "list")
    assert listing.returncode == 0
    lines = listing.stdout.splitlines()
    assert lines[0] == "3 admins:"
    assert re.fullmatch(rf"  Хозяйка: config, \[accounts\] admins in {re.escape(str(srv.config))}, line \d+ "
                        r"\(no account yet\)", lines[1]), lines
    assert sorted(lines[2:]) == ["  Boris: database (korchma admin add)", "  Анна: database (korchma admin add)"]

    removed = await run(srv, "admin", "remove", "Boris")
    assert one_line(removed) == "Boris is no longer an admin; they are online and were told"
    await boris.expect("Вы больше не администратор.")
    boris.send_line("role Анна player")
    await boris.expect("Нет такой версии правил: Анна player")

    # The config's admin is the config's: the line names the file and line that list it.
    owner = await run(srv, "admin", "remove", "Хозяйка")
    assert re.fullmatch(rf"korchma: Хозяйка is an admin by \[accounts\] admins in {re.escape(str(srv.config))}, "
                        r"line \d+; take the name off that list and restart the server", failure(owner))
    unknown = await run(srv, "admin", "add", "Анка")
    assert failure(unknown) == "korchma: no account is called Анка; did you mean Анна?"
    await anna.close()
    await boris.close()

    # No server: the database alone, and the line says the server was not reached.
    assert srv.terminate() == 0
    assert not sock.exists()
    offline = await run(srv, "admin", "add", "Boris")
    assert one_line(offline) == ("Boris is now an admin (kept in the database); the server was not reached "
                                 "(not running?): it applies when they next log in")
    srv2 = server_factory(OWNER, data_dir=srv.data_dir)
    boris = await connect(srv2.ssh_port, "Boris", password="secret1")
    boris.send_line("role Анна player")  # an admin's command: Анна is still an admin too
    await boris.expect("Анна — администратор, назначенный из командной строки")
    await boris.close()


async def _bots_play(client, seats: int) -> int:
    """``client`` opens Coup with bots in every other seat, starts it and stands up: bots play
    every seat, fast (bot_delay 0.05), each action a write."""
    client.send_line(f"открыть переворот seats={seats}")
    number = int(re.search(r"\d+", await client.expect(re.compile(r"открываете стол \d+"))).group(0))
    client.send_line(f"боты {seats - 1}")
    await client.expect(re.compile(r"За стол сад(ится|ятся)"))
    client.send_line("начать")
    await client.expect("Мастер начинает игру")
    return number


def _actions(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT COUNT(*) FROM action_log").fetchone()[0]


async def test_backup_while_tables_play_and_a_server_on_the_copy_resumes(server_factory, tmp_path):
    srv = server_factory()
    anna = await log_in(srv.telnet_port, "Анна")
    boris = await connect(srv.ssh_port, "Boris", password="secret1")
    await boris.expect("Boris")
    kept = await _bots_play(boris, 2)  # Boris stays seated: this table is running in every copy
    await _bots_play(anna, 4)
    anna.send_line("встать")  # a bot takes her seat: four bots play on
    await anna.expect("бот")

    copies = []
    for i in range(2):
        target = tmp_path / f"copy-{i}.sqlite3"
        result = await run(srv, "backup", str(target))
        assert result.returncode == 0, result.stderr
        assert re.fullmatch(rf"wrote {re.escape(str(target))}: \d+ KB, \d+ tables \(\d+ game tables? running, "
                            r"2 accounts\); integrity check ok", one_line(result))
        with sqlite3.connect(target) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no -wal
        copies.append(target)
    counts = [_actions(c) for c in copies]
    assert counts == sorted(counts) and counts[0] < counts[-1], counts  # taken while actions were written

    refused = await run(srv, "backup", str(copies[0]))
    assert failure(refused) == f"korchma: {copies[0]} exists; choose another FILE or add --force"
    await anna.close()
    await boris.close()
    srv.terminate()

    # A server on the last copy: Boris's table is where the copy left it.
    data = tmp_path / "restored"
    data.mkdir()
    os.replace(copies[-1], data / "korchma.sqlite3")
    srv2 = server_factory(data_dir=data)
    boris = await connect(srv2.ssh_port, "Boris", password="secret1")
    await boris.expect(f"Вы снова за столом {kept}")
    await boris.close()


async def test_backup_of_postgres_names_pg_dump_without_the_password(tmp_path):
    cfg = tmp_path / "pg.toml"
    cfg.write_text('[server]\ndatabase_url = "postgres://korchma:s3cret@db.example:5433/korchma"\n')
    result = subprocess.run([sys.executable, "-m", "server", "backup", str(tmp_path / "x.dump"), "--config", str(cfg)],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert failure(result) == ("korchma: the database is PostgreSQL; back it up with pg_dump: pg_dump "
                               f"--format=custom --file={tmp_path / 'x.dump'} "
                               "'postgresql://korchma@db.example:5433/korchma'")
    assert "s3cret" not in result.stderr


def test_make_run_passes_args_to_serve(tmp_path):
    proc = subprocess.Popen(
        ["make", "-s", "run", f"ARGS=--telnet-port 0 --ssh-port 0 --data-dir {tmp_path / 'data'}"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline and not READY.search(line):
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            if ready:
                line = proc.stdout.readline()
            assert proc.poll() is None, proc.stderr.read()
        assert READY.search(line), line
        assert (tmp_path / "data" / "korchma.sqlite3").exists()  # --data-dir reached serve
        # A terminal's Ctrl-C or systemd signals the whole group: make and the server both get
        # it (the server, twice: from the kill and from make), and the server still stops.
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
        assert "Tortoise-ORM shutdown" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def test_config_admins_layer_over_the_database(tmp_path):
    """world/accounts.py: the config's admins are admins in memory only; the stored role is the
    command line's. An older version's stored copy of a config admin is cleared at start-up, so
    taking the name off the list still demotes it; a command-line admin is never demoted."""
    script = f"""
import asyncio
from world import accounts, db
from world.models import Account

async def main():
    await db.init('sqlite://{tmp_path / "k.sqlite3"}')
    old = await Account.create(name='Анна', name_key=accounts.name_key('Анна'), role='admin')  # an older version's copy
    cli = await Account.create(name='Boris', name_key='boris', role='admin')  # korchma admin add
    new = await accounts.create('Вера', 'hash', 'ru', ['вера'])
    print(await accounts.settle_config_admins(['анна', 'Вера']), new.role,
          (await Account.get(id=new.id)).role, (await Account.get(id=old.id)).role)
    for account in (old, cli, new):
        await accounts.sync_admin_role(account, [])  # off the list (a reload, the next login)
    print(old.role, cli.role, new.role)
    await db.close()

asyncio.run(main())
"""
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.stdout.split("\n")[:2] == ["1 admin player player", "player admin player"], out.stderr
