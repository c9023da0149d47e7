"""`korchma backup FILE`: a consistent copy of the database while the server runs.

SQLite: the online backup API (``sqlite3.Connection.backup``) in this process, against the
database file the server uses. The copy is taken in one step, so it is one read transaction: a
snapshot of one moment (WAL mode lets the server go on writing meanwhile, and no half-written
table or action log can be in it). It is written beside FILE under a temporary name, checked
with ``PRAGMA integrity_check`` and only then renamed to FILE, so FILE is either a whole, checked
copy or not there. A server started on the copy (as its data folder's korchma.sqlite3, or with
``--database-url sqlite://FILE``) resumes the tables as they were at that moment.

PostgreSQL: say to use pg_dump, with the command for the configured URL (without its password).
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from . import startup
from .config import Config


def register(sub: Any) -> None:
    from .cli import common_flags

    summary = "copy the database to FILE while the server runs (SQLite)"
    p = sub.add_parser("backup", help=summary, description=summary)
    common_flags(p)
    p.add_argument("file", metavar="FILE", help="where the copy goes (refused if it exists, unless --force)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, cfg: Config) -> int:
    url = cfg.database_url
    if url.startswith(("postgres://", "postgresql://", "asyncpg://", "psycopg://")):
        print(f"korchma: the database is PostgreSQL; back it up with pg_dump: {pg_dump_command(url, args.file)}",
              file=sys.stderr)
        return 1
    source = startup._sqlite_path(url)
    if source is None:
        print(f"korchma: cannot back up {startup.redact_url(url)}: not an SQLite file", file=sys.stderr)
        return 1
    target = Path(args.file).resolve()
    problem = _refusal(source, target, args.force)
    if problem:
        print(f"korchma: {problem}", file=sys.stderr)
        return 1
    temporary = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        copy(source, temporary)
        verdict = integrity(temporary)
        if verdict != "ok":
            print(f"korchma: the copy of {source} failed its integrity check ({verdict}); {target} not written",
                  file=sys.stderr)
            return 1
        summary = describe(temporary)
        os.replace(temporary, target)
    except (sqlite3.Error, OSError) as err:
        reason = startup.os_reason(err) if isinstance(err, OSError) else startup.one_line(err)
        print(f"korchma: backup of {source} to {target} failed: {reason}", file=sys.stderr)
        return 1
    finally:
        for leftover in (temporary, temporary.with_name(temporary.name + "-journal")):
            leftover.unlink(missing_ok=True)
    print(f"wrote {target}: {summary}; integrity check ok")
    return 0


def _refusal(source: Path, target: Path, force: bool) -> str | None:
    if not source.is_file():
        return f"no database at {source} (nothing to back up); check --data-dir or --database-url"
    if target == source.resolve():
        return f"{target} is the database itself; choose another FILE"
    if target.exists() and not force:
        return f"{target} exists; choose another FILE or add --force"
    if not target.parent.is_dir():
        return f"folder {target.parent} does not exist"
    return None


def copy(source: Path, target: Path) -> None:
    """Everything in one step (pages=-1): one read transaction, one moment's snapshot."""
    with sqlite3.connect(source, timeout=30) as src, sqlite3.connect(target) as dst:
        src.backup(dst, pages=-1)
        dst.execute("PRAGMA journal_mode=DELETE")  # one file; the server turns WAL back on
    src.close()
    dst.close()


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    conn.close()
    return "; ".join(str(r[0]) for r in rows[:3])


def describe(path: Path) -> str:
    """'1.2 MB, 7 tables (5 game tables running, 12 accounts)'."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                            "AND name NOT LIKE 'sqlite_%'")]
        extra = []
        if "game_table" in names:
            running = conn.execute("SELECT COUNT(*) FROM game_table WHERE state='running'").fetchone()[0]
            extra.append(f"{running} game table{'' if running == 1 else 's'} running")
        if "account" in names:
            count = conn.execute("SELECT COUNT(*) FROM account").fetchone()[0]
            extra.append(f"{count} account{'' if count == 1 else 's'}")
    finally:
        conn.close()
    size = path.stat().st_size
    shown = f"{size / 1024 / 1024:.1f} MB" if size >= 1024 * 1024 else f"{size / 1024:.0f} KB"
    return f"{shown}, {len(names)} tables" + (f" ({', '.join(extra)})" if extra else "")


def pg_dump_command(url: str, file: str) -> str:
    """pg_dump for ``url`` without its password (pg_dump reads it from ~/.pgpass or PGPASSWORD)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    user = f"{parts.username}@" if parts.username else ""
    netloc = user + host + (f":{parts.port}" if parts.port else "")
    plain = urlunsplit(("postgresql", netloc, parts.path, "", ""))
    return f"pg_dump --format=custom --file={file} '{plain}'"
