"""A throwaway PostgreSQL cluster for tests: initdb + pg_ctl in a temp dir on a free port.

    from tests.pg import pg_cluster, pg_database  # noqa: F401  (registers the fixtures)

    def test_something(pg_database):       # "postgres://korchma:korchma@127.0.0.1:PORT/test_1"
        ...

``pg_cluster`` (session scope) runs one cluster for the whole test session; ``pg_database``
(function scope) creates a fresh, empty database in it for each test. ``own_pg_cluster``
(function scope) is a cluster of the test's own, for tests that stop and start its server
(``stop_server`` / ``start_server``). Both are plain
synchronous fixtures, so they do not depend on pytest-asyncio's event loop scopes.

The cluster listens on 127.0.0.1 only (its unix socket sits inside the temp dir), with trust
authentication, and is stopped with ``pg_ctl stop -m immediate`` at the end; the dir is removed.

initdb and postgres refuse to run as root, and CI runs the tests as root. Then the cluster runs
as an unprivileged user: the ``postgres`` system user if it exists, else a system user
``korchma-pg`` created once with ``useradd --system --no-create-home korchma-pg``. The temp dir is
chowned to that user and the PostgreSQL programs are started with ``runuser -u USER --`` (or,
without runuser, with subprocess's own user/group switch).

The programs are looked up as ``initdb`` on PATH, then in /usr/lib/postgresql/*/bin (newest
first); pg_ctl and createdb are taken from the same folder as initdb. With no initdb at all the
tests that need the cluster are skipped, saying why.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.services import missing


SUPERUSER = "korchma"  # the cluster's superuser role (initdb -U); trust auth, so any password
FALLBACK_OS_USER = "korchma-pg"


def find_bin_dir() -> Path | None:
    """The folder holding initdb (and, next to it, pg_ctl and createdb)."""
    candidates: list[str] = []
    found = shutil.which("initdb")
    if found:
        candidates.append(os.path.realpath(found))  # /usr/local/bin/initdb may be a symlink

    def version(path: str) -> tuple[int, ...]:
        part = Path(path).parents[1].name  # /usr/lib/postgresql/<version>/bin/initdb
        return tuple(int(x) for x in part.split(".") if x.isdigit()) or (0,)

    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version, reverse=True)
    for path in candidates:
        folder = Path(path).parent
        if os.access(path, os.X_OK) and (folder / "pg_ctl").exists():
            return folder
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def os_user_for_cluster() -> str | None:
    """None when we are not root (run the programs as ourselves); otherwise an unprivileged
    user to run them as: ``postgres`` if it exists, else ``korchma-pg`` (created if missing)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", FALLBACK_OS_USER):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            pass
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    done = subprocess.run([useradd, "--system", "--no-create-home", FALLBACK_OS_USER],
                          capture_output=True, text=True)
    if done.returncode != 0:
        try:  # made concurrently by another test run?
            pwd.getpwnam(FALLBACK_OS_USER)
        except KeyError:
            pytest.fail(f"running as root and could not create user {FALLBACK_OS_USER}: {done.stderr}")
    return FALLBACK_OS_USER


@dataclass
class PgCluster:
    bin_dir: Path
    root: Path  # the temp dir: data/, sock/, log
    port: int
    os_user: str | None
    databases: list[str] = field(default_factory=list)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def log_path(self) -> Path:
        return self.root / "postgres.log"

    def url(self, database: str) -> str:
        return f"postgres://{SUPERUSER}:{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def run(self, program: str, *args: str, timeout: float = 60.0, check: bool = True) -> subprocess.CompletedProcess:
        """Run one of the PostgreSQL programs (as the cluster's OS user when we are root).
        Output goes to a file, not a pipe: pg_ctl start leaves the server holding its stdout."""
        cmd = [str(self.bin_dir / program), *args]
        kw: dict = {}
        if self.os_user is not None:
            runuser = shutil.which("runuser") or ("/usr/sbin/runuser" if os.path.exists("/usr/sbin/runuser") else None)
            if runuser:
                cmd = [runuser, "-u", self.os_user, "--", *cmd]
            else:
                entry = pwd.getpwnam(self.os_user)
                kw = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        out_path = self.root / f"{program}.out"
        env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PGTZ": "UTC"}
        env.pop("PGDATA", None)
        with out_path.open("a") as out:
            done = subprocess.run(cmd, cwd=self.root, stdin=subprocess.DEVNULL, stdout=out,
                                  stderr=subprocess.STDOUT, env=env, timeout=timeout, **kw)
        if check and done.returncode != 0:
            log = self.log_path.read_text() if self.log_path.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{out_path.read_text()}\n{log}")
        return done

    def start(self) -> None:
        sock = self.root / "sock"
        sock.mkdir()
        if self.os_user is not None:
            entry = pwd.getpwnam(self.os_user)
            for path in (self.root, sock):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self.run("initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "--auth=trust",
                 "--encoding=UTF8", "--locale=C", "--no-instructions")
        self.start_server()

    def start_server(self) -> None:
        """Start the cluster's server (again, after :meth:`stop_server`), on the same port."""
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                   f"-c unix_socket_directories={self.root / 'sock'} -c max_connections=50 "
                   f"-c shared_buffers=16MB")
        self.run("pg_ctl", "start", "-D", str(self.data_dir), "-l", str(self.log_path),
                 "-w", "-t", "60", "-o", options)

    def stop_server(self, mode: str = "fast") -> None:
        """Stop the server as an admin would (``fast``: sessions are ended, open transactions
        rolled back; ``immediate``: no shutdown at all, recovery at the next start)."""
        self.run("pg_ctl", "stop", "-D", str(self.data_dir), "-m", mode, "-w", "-t", "60")

    def create_database(self, name: str) -> str:
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, name)
        self.databases.append(name)
        return self.url(name)

    def stop(self) -> None:
        self.run("pg_ctl", "stop", "-D", str(self.data_dir), "-m", "immediate", "-w", check=False)


def start_cluster() -> PgCluster:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        missing("PostgreSQL is not installed: no initdb on PATH or in /usr/lib/postgresql/*/bin")
    os_user = os_user_for_cluster()
    last_error: Exception | None = None
    for _ in range(3):  # the free port may be taken between our probe and postgres' bind
        root = Path(tempfile.mkdtemp(prefix="korchma-pg-"))
        cluster = PgCluster(bin_dir=bin_dir, root=root, port=free_port(), os_user=os_user)
        try:
            cluster.start()
            return cluster
        except Exception as exc:  # noqa: BLE001 - retried, then reported
            last_error = exc
            cluster.stop()
            shutil.rmtree(root, ignore_errors=True)
    raise RuntimeError(f"could not start a PostgreSQL cluster: {last_error}")


def running_cluster():
    """A started cluster, stopped and removed when the generator is closed."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(cluster.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster():
    """One throwaway PostgreSQL cluster for the test session."""
    yield from running_cluster()


@pytest.fixture
def own_pg_cluster():
    """A cluster for one test alone: for tests that stop and start the server, so the shared
    session cluster (and the tests using it) are never hit."""
    yield from running_cluster()


@pytest.fixture
def pg_database(pg_cluster: PgCluster) -> str:
    """A fresh, empty database in the session's cluster; its URL (postgres://...)."""
    name = f"korchma_{len(pg_cluster.databases) + 1}_{int(time.time() * 1000) % 100000}"
    return pg_cluster.create_database(name)
