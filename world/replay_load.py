"""Where a replay's game comes from: the database (`replay N`, `korchma export N`) or a file that
`korchma export` wrote (`korchma replay FILE`), and the rule of who may read it: nobody, while
the game may still go on.

Only a game that is over is told: ``finished``, ``broken`` (it can never go on, so its
secrets no longer matter; it is told up to where it broke, world/replay.py) or ``closed`` after
its start (abandoned by a moderator, world/abandon.py: told up to where it stopped). A table open,
running (or paused by its Master or for storage trouble: still ``running``) or closed before it
began is refused with one line, for everyone alike: a replay shows every hand, and no role on the
server (the Master's chair, an admin) makes that harmless while the game is on.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
from datetime import datetime
from pathlib import Path
from typing import Any

from games import registry

from .models import ActionLogEntry, GameTable, Seat
from .replay import GameRecord, LoggedStep
from .table_data import SeatInfo

FORMAT = "korchma-game"
FORMAT_VERSION = 1
OVER = ("finished", "broken", "closed")  # closed: abandoned, when it had begun
GAMES_DIR = Path(registry.__file__).resolve().parent


class NotReplayable(Exception):
    """Why this table cannot be replayed: a catalog key and its parameters (one line)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params


def refusal(number: int, state: str | None, started: bool = True) -> NotReplayable | None:
    """None when the table's game may be told; else why not."""
    if state is None:
        return NotReplayable("replay.no_table", number=number)
    if state == "running":
        return NotReplayable("replay.running", number=number)
    if state == "open":
        return NotReplayable("replay.open", number=number)
    if state not in OVER or not started:
        return NotReplayable("replay.never_started", number=number)
    return None


async def load(number: int, live_state: str | None = None) -> GameRecord:
    """The game at table ``number`` as the database keeps it. ``live_state``: the table's state
    in this server's memory, when it has the table (a game under way there is refused even if
    the row said otherwise). NotReplayable: not over, never played, or no such table."""
    row = await GameTable.get_or_none(id=number)
    state = row.state if row is not None else None
    problem = refusal(number, live_state if live_state in ("open", "running") else state,
                      started=row is not None and row.started_at is not None)
    if problem is not None:
        raise problem
    seats = [SeatInfo(number=s.number, name=s.name, account_id=s.account_id, bot_level=s.bot_level)
             for s in await Seat.filter(table_id=number).order_by("number")]
    log = [LoggedStep(e.step, e.seat, e.action, e.by or "player", e.created_at)
           for e in await ActionLogEntry.filter(table_id=number).order_by("step")]
    return GameRecord(number=row.id, game=row.game, options=dict(row.options or {}), seed=row.seed, seats=seats,
                      log=log, state=row.state, outcome=row.outcome, started_at=row.started_at,
                      finished_at=row.finished_at)


# -- the exported file ---------------------------------------------------------------------------


def engine_info(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Which engine played it: the server's version, a digest of the game's source files (an
    offline replay says when today's differ), and the data and rules revisions the table pinned
    when it started (its ``internal_options``)."""
    engine = registry.get(game)
    pinned = tuple(getattr(engine, "internal_options", ())) if engine is not None else ()
    return {"game": game, "korchma": _version(), "source_sha256": source_digest(game),
            "pins": {key: options[key] for key in pinned if key in options}}


def _version() -> str:
    try:
        return importlib.metadata.version("korchma")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def source_digest(game: str) -> str | None:
    """SHA-256 over the game package's .py files (names and contents, in name order)."""
    folder = GAMES_DIR / game
    if not folder.is_dir():
        return None
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _moment(text: Any) -> datetime | None:
    return datetime.fromisoformat(text) if isinstance(text, str) and text else None


def to_json(record: GameRecord) -> dict[str, Any]:
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "table": record.number, "game": record.game, "state": record.state,
        "engine": engine_info(record.game, record.options),
        "seed": record.seed, "options": record.options,
        "seats": [{"number": s.number, "name": s.name, "bot_level": s.bot_level, "person": s.account_id is not None}
                  for s in record.seats],
        "started_at": _iso(record.started_at), "finished_at": _iso(record.finished_at),
        "outcome": record.outcome,
        "log": [{"step": e.step, "seat": e.seat, "action": e.action, "by": e.by, "at": _iso(e.at)} for e in record.log],
    }


class BadFile(Exception):
    """Not a game file `korchma export` writes (or a damaged one): one line saying what is wrong."""


def from_json(data: Any) -> GameRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadFile(f"not a Korchma game file (no \"format\": \"{FORMAT}\")")
    if data.get("format_version") != FORMAT_VERSION:
        raise BadFile(f"format version {data.get('format_version')!r}; this Korchma reads {FORMAT_VERSION}")
    try:
        seats = [SeatInfo(number=int(s["number"]), name=str(s["name"]), bot_level=s.get("bot_level"),
                          account_id=0 if s.get("person") else None) for s in data["seats"]]
        log = [LoggedStep(int(e["step"]), int(e["seat"]), e["action"], str(e.get("by") or "player"), _moment(e.get("at")))
               for e in data["log"]]
        return GameRecord(number=int(data["table"]), game=str(data["game"]), options=dict(data.get("options") or {}),
                          seed=int(data["seed"]), seats=seats, log=log, state=str(data.get("state") or "finished"),
                          outcome=data.get("outcome"), started_at=_moment(data.get("started_at")),
                          finished_at=_moment(data.get("finished_at")))
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise BadFile(f"a field is missing or wrong ({type(err).__name__}: {err})") from err
