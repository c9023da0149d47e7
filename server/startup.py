"""Start-up checks that turn a broken setup into one plain line for the host.

Every failure a host can fix (a busy port, a data folder or database that cannot be written, a
database that does not answer, a bad config value) raises :class:`StartupError` with a message
that names the cause and the flag or config key to change. ``korchma serve`` prints that one line
on stderr and exits non-zero; ``--debug`` adds the traceback. Messages are English: they go to a
host's terminal and log, before any player language exists.
"""
from __future__ import annotations

import asyncio
import errno
import os
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

#: Seconds the database gets to answer at start-up before we give up (asyncpg waits 60 by default).
DB_CONNECT_TIMEOUT = 10.0

DATA_DIR_HINT = "change server.data_dir or --data-dir"
DB_URL_HINT = "change server.database_url or --database-url"


class StartupError(Exception):
    """A start-up failure the host can fix; ``str()`` is the whole message, one line."""

    exit_code = 1


def os_reason(err: OSError) -> str:
    """'Read-only file system' rather than '[Errno 30] Read-only file system: /x'."""
    if err.errno is not None and err.strerror:
        return err.strerror
    return str(err) or type(err).__name__


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def prepare_data_dir(path: Path) -> None:
    """Create the data folder if needed and prove a file can be written in it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StartupError(f"data folder {path} cannot be created: a file of that name is in the way; "
                           f"{DATA_DIR_HINT}") from None
    except OSError as err:
        raise StartupError(f"data folder {path} cannot be created ({os_reason(err)}); {DATA_DIR_HINT}") from err
    if not path.is_dir():
        raise StartupError(f"data folder {path} is not a folder; {DATA_DIR_HINT}")
    try:
        fd, probe = tempfile.mkstemp(prefix=".korchma-write-check-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise StartupError(f"data folder {path} is not writable ({os_reason(err)}); {DATA_DIR_HINT}") from err


def redact_url(url: str) -> str:
    """The database URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:  # a port that is no number: show the scheme only
        return url.split(":", 1)[0] + "://***"


def _sqlite_path(url: str) -> Path | None:
    if not url.startswith("sqlite://"):
        return None
    rest = url[len("sqlite://"):].split("?", 1)[0]
    return None if rest in ("", ":memory:") else Path(rest)


def _database_problem(url: str, err: BaseException, in_data_dir: bool) -> str:
    shown = redact_url(url)
    reason = one_line(err) or type(err).__name__
    if isinstance(err, (asyncio.TimeoutError, TimeoutError)):
        return f"database {shown} did not answer within {DB_CONNECT_TIMEOUT:g} s; {DB_URL_HINT}"
    from tortoise.exceptions import ConfigurationError

    if isinstance(err, (ConfigurationError, ValueError, KeyError)):
        return f"database URL {shown} is malformed ({reason}); {DB_URL_HINT}"
    sqlite = _sqlite_path(url)
    if sqlite is not None:
        lowered = reason.lower()
        hint = DATA_DIR_HINT if in_data_dir else DB_URL_HINT
        if "readonly" in lowered or "read-only" in lowered or "unable to open" in lowered or isinstance(err, OSError):
            return f"database file {sqlite} cannot be written ({reason}); make it writable, or {hint}"
        return f"database file {sqlite} cannot be used ({reason}); {hint}"
    if isinstance(err, OSError):  # refused, no route, unknown host; tortoise's DBConnectionError too
        return f"database {shown} is unreachable ({os_reason(err)}); {DB_URL_HINT}"
    return f"database {shown} cannot be used ({reason}); {DB_URL_HINT}"  # e.g. a wrong password


async def _write_check() -> None:
    """Prove the database takes writes: a table made and dropped in a transaction that is rolled
    back (DDL is transactional in SQLite and PostgreSQL), so nothing is left behind."""
    from tortoise import Tortoise

    conn = Tortoise.get_connection("default")
    await conn.execute_script("BEGIN; CREATE TABLE korchma_write_check (x INTEGER); "
                              "INSERT INTO korchma_write_check VALUES (1); ROLLBACK;")


async def open_database(url: str, in_data_dir: bool = False) -> list[str]:
    """db.init with a deadline and a write check, then the pending schema migrations; any failure
    becomes a StartupError. Returns the names of the migrations applied (world.schema.report
    says them).
    ``in_data_dir``: the URL is the default SQLite file in server.data_dir (which the hint names)."""
    from world import db, schema

    try:
        # asyncio.timeout, not wait_for: tortoise keeps its state in a context variable, and
        # wait_for (Python 3.11) would run the init in a task of its own, with its own context.
        async with asyncio.timeout(DB_CONNECT_TIMEOUT):
            await db.init(url, migrate=False)
            await _write_check()
    except asyncio.CancelledError:
        raise
    except Exception as err:
        raise StartupError(_database_problem(url, err, in_data_dir)) from err
    # Outside the connect deadline: a migration of a big database may take its time.
    try:
        applied = await schema.migrate()
    except asyncio.CancelledError:
        raise
    except Exception as err:
        raise StartupError(f"database {redact_url(url)}: schema migration failed ({one_line(err)}); "
                           "see docs/migrations.md") from err
    return applied


def wait_for_database_threads(timeout: float = 5.0) -> None:
    """After a failed start: let aiosqlite's worker threads finish while the loop is still open.
    When its connect fails, aiosqlite queues a stop whose result it posts to the loop later; with
    the loop already closed by then, the thread printed a traceback on the way out. A worker
    only needs the loop to exist (not to run) to finish, so joining here cannot deadlock."""
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and thread.name.endswith("(_connection_worker_thread)"):
            thread.join(max(0.0, deadline - time.monotonic()))


def port_problem(door: str, host: str, port: int, err: OSError) -> StartupError:
    flag, key = {"telnet": ("--telnet-port", "server.telnet_port"),
                 "ssh": ("--ssh-port", "server.ssh_port"),
                 "metrics": ("--metrics-port", "metrics.port"),
                 "web": ("--web-port", "web.port")}[door]
    host_hint = f"{door}.host" if door in ("metrics", "web") else "server.host or --host"
    where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    if err.errno == errno.EADDRINUSE:
        return StartupError(f"{door} port {port} is already in use on {host or 'every address'} "
                            f"(another program, or Korchma running already); change {key} or {flag}")
    if err.errno == errno.EACCES:
        return StartupError(f"{door} port {port} needs privileges this user lacks; "
                            f"choose a port above 1023 in {key} or {flag}")
    if err.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
        return StartupError(f"cannot listen for {door} on {where}: {os_reason(err)}; "
                            f"change {host_hint}")
    return StartupError(f"cannot listen for {door} on {where} ({os_reason(err)}); "
                        f"change {key} or {flag}, or {host_hint}")


def preload_texts() -> None:
    """Read every catalog, plural rule and game module now: loaded lazily, the first of them
    would be read from disk by a player's connection, which fails once the process is out of
    file descriptors (and a catalog that does not parse should stop the start, not a login)."""
    from games import registry
    from world import i18n, morph

    for lang in i18n.LANGUAGES:
        i18n.catalog(lang)
        i18n.plural_category(lang, 2)
    morph.warm()  # the ru and uk dictionaries (under half a second)
    registry.all_games()
