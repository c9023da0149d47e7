"""Start-up fails fast and clearly: every broken setup is one line on stderr naming the cause and
the flag or config key to change, a non-zero exit within seconds, and a traceback only with
``--debug``. Each case starts the real server process (``python -m server serve``) the way
tests/conftest.py does and waits for it to end by itself.
"""
from __future__ import annotations

import functools
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.fsfault import small_disk  # noqa: F401  (the fixture)

#: A start that fails must end by itself within this many seconds (it takes ~1 s), or within
#: SLOWER_THAN_IMPORT times what importing the server takes on this machine now, whichever is
#: more: on a loaded machine (CI beside other work) a bare import has taken 4 s, and the bound is
#: about waiting for nothing (a network timeout, a retry loop), not about the machine's speed. The
#: process is killed at RUN_LIMIT so a hang fails instead of stalling.
EXIT_WITHIN = 10.0
SLOWER_THAN_IMPORT = 4
RUN_LIMIT = 30.0


@functools.cache  # timed once per test process (the first call)
def _import_seconds() -> float:
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "import server.app, commands.load_all"], cwd=ROOT,
                   capture_output=True, timeout=RUN_LIMIT, check=True)
    return time.monotonic() - started


def exit_within() -> float:
    """The bound for this run."""
    return max(EXIT_WITHIN, SLOWER_THAN_IMPORT * _import_seconds())


@dataclass
class Run:
    code: int | None
    seconds: float
    stdout: str
    stderr: str


def serve(tmp_path: Path, *args: str, config: str | None = None, data_dir: Path | None = None) -> Run:
    """`korchma serve` with config.toml (and ``config`` laid over it) on free ports; ``args`` come
    last, so they override the defaults given here."""
    command = [sys.executable, "-m", "server", "serve", "--config", str(ROOT / "config.toml")]
    if config is not None:
        extra = tmp_path / f"extra-{time.monotonic_ns()}.toml"
        extra.write_text(config, encoding="utf-8")
        command += ["--config", str(extra)]
    command += ["--telnet-port", "0", "--ssh-port", "0", "--data-dir", str(data_dir or tmp_path / "data"), *args]
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=RUN_LIMIT)
    except subprocess.TimeoutExpired as hung:
        return Run(None, time.monotonic() - started, _text(hung.stdout), _text(hung.stderr))
    return Run(done.returncode, time.monotonic() - started, done.stdout, done.stderr)


def _text(data: bytes | str | None) -> str:
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return data or ""


def one_line_failure(run: Run, *names: str) -> str:
    """The run failed fast with exactly one line on stderr that names each of ``names``."""
    assert run.code is not None, f"still running after {RUN_LIMIT} s (hung); stderr:\n{run.stderr[-3000:]}"
    assert run.code != 0, f"exit code 0; stderr:\n{run.stderr}"
    bound = exit_within()
    assert run.seconds < bound, f"took {run.seconds:.1f} s to exit (the bound now: {bound:.1f} s)"
    assert "KORCHMA READY" not in run.stdout
    assert "Traceback" not in run.stderr, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, f"stderr has {len(lines)} lines:\n{run.stderr}"
    line = lines[0]
    for name in names:
        assert name in line, f"{name!r} not in {line!r}"
    return line


def busy_port() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- ports ---------------------------------------------------------------------------------


@pytest.mark.parametrize("door,flag,key", [("telnet", "--telnet-port", "server.telnet_port"),
                                           ("ssh", "--ssh-port", "server.ssh_port"),
                                           ("metrics", "--metrics-port", "metrics.port")])
def test_port_in_use_is_one_line_naming_the_door_flag_and_key(tmp_path, door, flag, key):
    with busy_port() as sock:
        port = sock.getsockname()[1]
        run = serve(tmp_path, flag, str(port))
    line = one_line_failure(run, f"{door} port {port}", "in use", flag, key)
    other = "ssh" if door == "telnet" else "telnet"
    assert f"{other} port" not in line


def test_debug_shows_the_traceback_and_the_same_line(tmp_path):
    with busy_port() as sock:
        port = sock.getsockname()[1]
        plain = serve(tmp_path, "--telnet-port", str(port))
        debug = serve(tmp_path, "--telnet-port", str(port), "--debug")
    line = one_line_failure(plain, "--telnet-port")
    assert debug.code == plain.code and debug.seconds < exit_within()
    assert "Traceback" in debug.stderr and "EADDRINUSE" not in line
    assert debug.stderr.strip().splitlines()[-1] == line


def test_bad_flag_values_are_one_line(tmp_path):
    one_line_failure(serve(tmp_path, "--telnet-port", "99999"), "--telnet-port", "0 to 65535", "99999")
    one_line_failure(serve(tmp_path, "--ssh-port", "abc"), "--ssh-port", "abc")


# -- the data folder, the host key --------------------------------------------------------


def test_read_only_data_folder(tmp_path, small_disk):
    small_disk.read_only()
    line = one_line_failure(serve(tmp_path, data_dir=small_disk.path), str(small_disk.path), "not writable",
                            "server.data_dir", "--data-dir")
    assert "Read-only file system" in line
    inside = small_disk.path / "data"  # cannot even be made
    one_line_failure(serve(tmp_path, data_dir=inside), str(inside), "cannot be created", "server.data_dir",
                     "--data-dir")


def test_data_folder_blocked_by_a_file(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    one_line_failure(serve(tmp_path, data_dir=blocker / "data"), "cannot be created", "--data-dir")


def test_host_key_not_writable_or_not_readable(tmp_path, small_disk):
    small_disk.read_only()
    key = small_disk.path / "host_key"
    one_line_failure(serve(tmp_path, config=f'[server]\nhost_key = "{key}"\n'), str(key), "cannot be written",
                     "server.host_key")
    garbage = tmp_path / "garbage_key"
    garbage.write_text("this is no private key\n")
    one_line_failure(serve(tmp_path, config=f'[server]\nhost_key = "{garbage}"\n'), str(garbage),
                     "cannot be read", "server.host_key")


# -- the database --------------------------------------------------------------------------


def test_sqlite_database_on_a_read_only_folder(tmp_path, small_disk):
    existing = small_disk.path / "old.sqlite3"
    with sqlite3.connect(existing) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
    conn.close()
    small_disk.read_only()
    for path in (existing, small_disk.path / "new.sqlite3"):
        line = one_line_failure(serve(tmp_path, "--database-url", f"sqlite://{path}"), str(path),
                                "cannot be written", "server.database_url", "--database-url")
        assert "Traceback" not in line


def test_database_url_unreachable_fails_within_seconds_without_the_password(tmp_path):
    url = f"postgres://korchma:hushhush42@127.0.0.1:{closed_port()}/korchma"
    # With metrics on too: their port is open by then, and closed again with nothing more said.
    line = one_line_failure(serve(tmp_path, "--database-url", url, "--metrics-port", "0"), "unreachable",
                            "server.database_url", "--database-url", "127.0.0.1")
    assert "hushhush42" not in line and "***" in line


@pytest.mark.parametrize("url", ["postgress://u:hushhush42@127.0.0.1:5432/db", "no-scheme-at-all",
                                 "postgres://u:hushhush42@127.0.0.1:port/db"])
def test_malformed_database_url(tmp_path, url):
    line = one_line_failure(serve(tmp_path, config=f'[server]\ndatabase_url = "{url}"\n'), "malformed",
                            "server.database_url")
    assert "hushhush42" not in line


# -- the config file -----------------------------------------------------------------------

CONFIG_CASES = [
    # (config text, names the line must contain)
    ('[server]\nname = "x"\ntelnet_port = \n', ["TOML syntax error", "line 3"]),
    ('[limit]\nmax_line = 100\n', ["unknown section [limit]", "did you mean [limits]", "line 1"]),
    ('[server]\ntelnet_prot = 4000\n', ["unknown key server.telnet_prot", "did you mean server.telnet_port",
                                        "line 2"]),
    ('[server]\nmax_line = 100\n', ["unknown key server.max_line", "did you mean limits.max_line"]),
    ('telnet_port = 4000\n', ["unknown key telnet_port", "server.telnet_port"]),
    ('[server]\ntelnet_port = "abc"\n', ["server.telnet_port", "whole number", '"abc"', "line 2"]),
    ('[server]\nnegotiation_wait = -1\n', ["server.negotiation_wait", "from 0 to 60", "-1"]),
    ('[server]\ndefault_language = "de"\n', ["server.default_language", '"ru", "en", "uk"', '"de"']),
    ('[tables]\nbot_level = "hard"\n', ["tables.bot_level", '"easy", "normal"', '"hard"']),
    ('[accounts]\nadmins = "Boris"\n', ["accounts.admins", "list"]),
    ('[limits]\nconnections_per_address = -2\n', ["limits.connections_per_address", "-2"]),
    ('[limits]\nconnections_exempt = ["127.0.0.1", "my laptop"]\n', ["limits.connections_exempt",
                                                                      '"my laptop"']),
    ('[accounts]\nchecks_per_address = 0\n', ["accounts.checks_per_address", "from 1 to", "0"]),
    ('[accounts]\nchecks_queued_max = 0\n', ["accounts.checks_queued_max", "from 1 to", "0"]),
    ('[accounts]\nchecks_exempt = ["10.0.0.0/8", "the lab"]\n', ["accounts.checks_exempt", '"the lab"']),
    ('[accounts]\nnew_accounts_exempt = ["10.0.0.0/33"]\n', ["accounts.new_accounts_exempt", '"10.0.0.0/33"']),
    ('[accounts]\nhash_workers = -1\n', ["accounts.hash_workers", "-1"]),
    ('[accounts]\nlogin_forget = "1h"\n', ["accounts.login_forget", "a number", '"1h"']),
    ('[accounts]\nargon2_time = 0\n', ["accounts.argon2_time", "from 1 to 100", "0"]),
    ('[accounts]\nargon2_lanes = 0\n', ["accounts.argon2_lanes", "from 1 to 64", "0"]),
    ('[accounts]\nargon2_memory = 1.5\n', ["accounts.argon2_memory", "whole number", "1.5"]),
    ('[accounts]\nargon2_lanes = 8\nargon2_memory = 32\n', ["accounts.argon2_memory", "line 3", "8 KiB per lane",
                                                          "accounts.argon2_lanes = 8", "32"]),
    ('[tables]\nanswer_guard = -1\n', ["tables.answer_guard", "from 0 to 60", "-1"]),
    ('[games.cop]\nturn = 60\n', ["unknown game [games.cop]", "did you mean games.coup"]),
    ('[games.coup]\nturnn = 60\n', ["unknown option games.coup.turnn", "did you mean games.coup.turn"]),
    ('[games.coup]\nturn = 4\n', ["games.coup.turn", "10..3600"]),
    ('[games.mafia]\nnight = "soon"\n', ["games.mafia.night", '"soon"']),
]


@pytest.mark.parametrize("text,names", CONFIG_CASES, ids=[c[1][0] for c in CONFIG_CASES])
def test_bad_config_is_one_line_naming_file_and_key(tmp_path, text, names):
    run = serve(tmp_path, config=text)
    line = one_line_failure(run, "extra-", *names)
    assert run.code == 2, line


def test_missing_config_file(tmp_path):
    missing = tmp_path / "nowhere.toml"
    one_line_failure(serve(tmp_path, "--config", str(missing)), str(missing), "not found", "--config")


def test_debug_shows_the_traceback_of_a_config_error(tmp_path):
    run = serve(tmp_path, "--debug", config='[server]\ntelnet_port = "abc"\n')
    assert run.code == 2 and "Traceback" in run.stderr
    assert "server.telnet_port" in run.stderr.strip().splitlines()[-1]


def test_a_good_config_with_every_game_section_still_starts(server_factory):
    """The checks refuse nothing that is valid: config.toml plus options of every game, and
    networks in every exempt list."""
    srv = server_factory('[games.mafia]\nnight = 600\nday = "1200"\n\n[games.whispers]\nturn = 90\n\n'
                         '[games.revolution]\nhand = 5\n\n[limits]\nconnections_exempt = ["10.0.0.0/8", "::1"]\n\n'
                         '[accounts]\nnew_accounts_exempt = ["10.0.0.0/8", "2001:db8::/32"]\n'
                         'checks_exempt = ["192.0.2.0/24", "::1"]\n')
    assert srv.telnet_port and srv.ssh_port
