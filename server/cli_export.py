"""`korchma export N FILE [--text TEXT] [--lang LANG] [--force]`: a finished game to a file.

FILE gets the game as JSON (world/replay_load.py ``to_json``: the seed, options, seats, the
whole action log with who or what made each move, the engine that played it — Korchma's
version, a digest of the game's source, the data and rules revisions the table pinned — and
the stored outcome), which `korchma replay FILE` plays back offline. Beside it goes the
transcript as plain text (the one `replay N` shows players), in ``--text`` or FILE with its
``.json`` ending made ``.txt`` (or ``.txt`` added). Reads the database the configuration names,
as `admin` does (SQLite works while the server runs). Only a game that is over: a table open or
running is refused with one line, like `replay N` in the game. Files are written whole (under a
temporary name, then renamed) and never over an existing one without ``--force``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from .config import Config

LANGS = ("ru", "en", "uk")


def register(sub: Any) -> None:
    from .cli import common_flags

    summary = "write a finished game to FILE as JSON (for `korchma replay`) and a plain-text transcript"
    p = sub.add_parser("export", help=summary, description=summary)
    common_flags(p)
    p.add_argument("number", type=int, metavar="N", help="the table the game was played at")
    p.add_argument("file", metavar="FILE", help="where the JSON goes")
    p.add_argument("--text", default=None, metavar="TEXT",
                   help="where the transcript goes (default: FILE with .txt for .json, or .txt added)")
    p.add_argument("--lang", default=None, choices=LANGS,
                   help="the transcript's language (default: server.default_language)")
    p.add_argument("--force", action="store_true", help="replace FILE and TEXT if they exist")
    p.set_defaults(run=run)


def text_path(file: Path, text: str | None) -> Path:
    if text is not None:
        return Path(text).resolve()
    return file.with_suffix(".txt") if file.suffix.lower() == ".json" else file.with_name(file.name + ".txt")


def run(args: argparse.Namespace, cfg: Config) -> int:
    target = Path(args.file).resolve()
    text_target = text_path(target, args.text)
    for path in (target, text_target):
        problem = _refusal(path, args.force)
        if problem:
            print(f"korchma: {problem}", file=sys.stderr)
            return 1
    if target == text_target:
        print("korchma: FILE and --text name the same file; choose another", file=sys.stderr)
        return 1
    missing = _no_database(cfg)
    if missing:
        print(f"korchma: {missing}", file=sys.stderr)
        return 1
    from . import admin_roles

    lang = args.lang or cfg.server["default_language"]
    return asyncio.run(admin_roles.with_database(cfg, lambda: _export(args.number, target, text_target, lang)))


async def _export(number: int, target: Path, text_target: Path, lang: str) -> int:
    from world import replay, replay_load

    try:
        record = await replay_load.load(number)
    except replay_load.NotReplayable as err:
        return refused(err.key, err.params)
    problem, transcript = transcript_of(record)
    if transcript is None:
        print(f"korchma: {problem}", file=sys.stderr)
        return 1
    data = json.dumps(replay_load.to_json(record), ensure_ascii=False, indent=1, sort_keys=True)
    try:
        write_whole(target, data + "\n")
        write_whole(text_target, replay.plain_text(replay.messages(transcript), lang))
    except OSError as err:
        from .startup import os_reason

        print(f"korchma: could not write {err.filename or target}: {os_reason(err)}", file=sys.stderr)
        return 1
    print(f"wrote {target} ({record.game}, table {number}, {len(record.log)} steps) and {text_target}")
    return 0


def refused(key: str, params: dict[str, Any]) -> int:
    from world.i18n import strip_marks, t

    print(f"korchma: {strip_marks(t('en', key, **params))}", file=sys.stderr)
    return 1


def transcript_of(record: Any) -> tuple[str, Any]:
    """(why not, None), or ("", the transcript) of ``record`` replayed by today's engine."""
    from games.base import RuleError
    from world import replay
    from world.broken_tables import GameGone
    from world.i18n import strip_marks, t

    try:
        return "", replay.build(record)
    except GameGone as err:
        return f"table {record.number} played {err.game!r}, which this Korchma does not have", None
    except RuleError as err:
        return (f"today's engine refuses the options of table {record.number}: "
                f"{strip_marks(t('en', err.key, **err.params))}"), None


def write_whole(path: Path, text: str) -> None:
    """``text`` to ``path`` in one rename: a reader sees the whole file or none."""
    temporary = path.with_name(f".{path.name}.partial-{os.getpid()}")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _refusal(path: Path, force: bool) -> str | None:
    if path.exists() and not force:
        return f"{path} exists; choose another name or add --force"
    if not path.parent.is_dir():
        return f"folder {path.parent} does not exist"
    return None


def _no_database(cfg: Config) -> str | None:
    """An SQLite file that is not there: said, rather than made empty by opening it."""
    from . import startup

    path = startup._sqlite_path(cfg.database_url)
    if path is not None and not path.is_file():
        return f"no database at {path}; check --data-dir or --database-url"
    return None
