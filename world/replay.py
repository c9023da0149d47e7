"""A finished game told again: its stored seed, options and action log replayed through the engine
and the game's presenters, as a transcript anyone may read once the game is over.

Each step of the log is one part of the transcript: who acted and how the action came (a person,
a bot, the clock, a bot playing for an absent person, an automatic pass), and every event the
step made: the public ones as the table read them, each whisper marked with whom it was for
(«→ Анне: …»), and what only the Master saw marked as such. Step 0 is the deal (the game's
``start_events``). Nothing is hidden: a replay is only for a game that is over (the command and
the CLI refuse any other, world/replay_load.py), when no secret matters any more.

The log is replayed the way a restart rebuilds a table (world/table_restore.py): the options as
the table started (``restored_options``), each logged action through ``apply_logged`` (an action
today's rules no longer ask for is skipped, as there), the clock's answers read as the table read
them (``timeout_events``). A log the rules refuse at some step (a broken table) is told up to that
step, and the transcript says where and why it stops.

Pure: no database, no clock, no session. The messages are :class:`Msg` objects that each reader
renders in their own language (a session, or :func:`plain_text` for a file).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games import registry
from games.base import Event, RuleError

from .abandon import is_abandoned, reason_param, who_param
from .broken_tables import GameGone
from .clock import as_utc, utc_minute
from .i18n import nested, nested_list, strip_marks, t
from .messages import Msg, msg
from .presenters import present_params, said_elsewhere, seat_name
from .presenters.absence import timeout_events
from .presenters.reveal import reveal_message
from .table_data import SeatInfo, Table
from .table_options import shown
from .upgrades import apply_logged, restored_options

# How an action came, as the log's ``by`` says (world/runner.py): each but a person's own is marked.
MARKED_BY = ("bot", "timeout", "autopilot", "autopass")


@dataclass(frozen=True)
class LoggedStep:
    step: int
    seat: int
    action: Any
    by: str = "player"
    at: datetime | None = None  # when it was logged


@dataclass
class GameRecord:
    """A stored game: everything a replay needs, from the database or an exported file."""

    number: int
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[SeatInfo]
    log: list[LoggedStep]
    state: str = "finished"  # the table's state: finished, or broken / closed (told up to the end)
    outcome: dict[str, Any] | None = None  # as stored: the winners and why, or why it broke
    started_at: datetime | None = None
    finished_at: datetime | None = None


@dataclass
class StepText:
    step: int  # 0: the deal
    seat: int | None
    by: str
    lines: list[Msg] = field(default_factory=list)
    at: datetime | None = None


@dataclass
class Transcript:
    record: GameRecord
    table: Table
    steps: list[StepText]
    outcome: dict[str, Any] | None  # as the replay ends it (None: not over)
    reveal: Msg | None  # the end-of-game block, when the replay ends the game
    refused: tuple[int, RuleError] | None = None  # the step the rules refused, and why

    @property
    def matches(self) -> bool:
        """The replay ends the game as the database says it ended."""
        return same_outcome(self.record.outcome, self.outcome)


def table_of(record: GameRecord) -> Table:
    """The table as the presenters read it (names, options), without a game running at it."""
    engine = registry.get(record.game)
    if engine is None:
        raise GameGone(record.game)
    return Table(number=record.number, game_name=record.game, engine=engine, options=record.options,
                 host=record.seats[0].name if record.seats else "", seats_total=len(record.seats),
                 seed=record.seed, state_name=record.state, seats=list(record.seats), outcome=record.outcome)


def outcome_record(table: Table, game: Any) -> dict[str, Any] | None:
    """The result as the runner stores it (world/runner.py ``_outcome_record``); None: not over."""
    outcome = table.engine.outcome(game)
    if outcome is None:
        return None
    return {"winners": [table.seats[s].name for s in outcome.winners], "winner_seats": list(outcome.winners),
            "reason": outcome.reason, "params": outcome.params}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def same_outcome(stored: dict[str, Any] | None, replayed: dict[str, Any] | None) -> bool:
    """The same winners (by seat), reason and parameters (compared as JSON, as they are stored)."""
    if stored is None or replayed is None or "broken" in stored:
        return False
    fields = ("winner_seats", "reason", "params")
    return all(_plain(stored.get(f)) == _plain(replayed.get(f)) for f in fields)


def build(record: GameRecord) -> Transcript:
    """Replay ``record``'s log from its seed; every step's lines. GameGone: no such game here;
    a RuleError of ``new`` (options today's engine refuses): the caller's."""
    table = table_of(record)
    engine = table.engine
    table.options = restored_options(engine, record.options)
    game = engine.new(len(table.seats), table.options, table.seed)
    start = getattr(engine, "start_events", None)
    steps = [StepText(0, None, "deal", _lines(table, start(game) if start is not None else []), record.started_at)]
    refused: tuple[int, RuleError] | None = None
    for entry in record.log:
        try:
            events = apply_logged(engine, game, entry.seat, entry.action)
        except RuleError as err:
            refused = (entry.step, err)
            break
        text = StepText(entry.step, entry.seat, entry.by, at=entry.at)
        if events is None:  # an answer today's rules no longer ask for: skipped, as on a restart
            text.lines.append(msg("replay.skipped"))
        else:
            if entry.by == "timeout":
                events = timeout_events(table, entry.seat, events)
            text.lines = _lines(table, events)
        steps.append(text)
    result = outcome_record(table, game)
    reveal = None
    final_reveal = getattr(engine, "final_reveal", None)
    if result is not None and final_reveal is not None:
        data = final_reveal(game)
        if data is not None:
            reveal = reveal_message(table, data, _seconds(record.started_at, record.finished_at))
    return Transcript(record, table, steps, result, reveal, refused)


def _lines(table: Table, events: list[Event]) -> list[Msg]:
    """A step's events as lines: those another event of the step says in full print nothing (as
    at the table: presenters ``said_elsewhere``); a whisper names whom it was for."""
    quiet = said_elsewhere(table, events)
    out = []
    for index, event in enumerate(events):
        if index in quiet:
            continue
        text = Msg(event.key, present_params(table, event.params))
        kind = event.audience.kind
        if kind == "all":
            out.append(msg("replay.public", text=text))
        elif kind == "master":
            out.append(msg("replay.to_master", text=text))
        else:
            seats = [s.number for s in table.seats if event.audience.includes(s.number)]
            # Each name in the case the line asks for (a list as one string would not inflect).
            names = nested_list([nested("replay.recipient", name=seat_name(table, s)) for s in seats])
            out.append(msg("replay.whisper", names=names if seats else "-", n=len(seats), text=text))
    return out


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    if start is None or end is None:
        return None
    return max(0.0, (as_utc(end) - as_utc(start)).total_seconds())


def _clock(seconds: float) -> str:
    """Time into the game: «4:05», «1:02:09»."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _when(moment: datetime | None) -> str:
    return utc_minute(moment) if moment is not None else "-"


# -- the transcript as messages --------------------------------------------------------------------


def header(transcript: Transcript) -> list[Msg]:
    record, table = transcript.record, transcript.table
    out = [msg("replay.header", number=record.number, game=nested(f"game.{record.game}"), n=len(table.seats),
               names=", ".join(s.name for s in table.seats))]
    options = shown(table.options, tuple(getattr(table.engine, "internal_options", ())))
    if options is not None:
        out.append(msg("replay.options", options=options))
    out.append(msg("replay.when", start=_when(record.started_at), end=_when(record.finished_at),
                   steps=len(record.log), seed=record.seed))
    return out


def step_header(transcript: Transcript, step: StepText) -> Msg:
    start = transcript.record.started_at
    at = nested("replay.at", time=_clock(_seconds(start, step.at))) if start and step.at else ""
    if step.step == 0:
        return msg("replay.deal", at=at)
    name = seat_name(transcript.table, step.seat)
    if step.by in MARKED_BY:
        return msg("replay.step_by", step=step.step, at=at, seat=name, by=nested(f"replay.by.{step.by}"))
    if step.by != "player":  # a kind of move this code does not know yet: said as the log has it
        return msg("replay.step_by", step=step.step, at=at, seat=name, by=step.by)
    return msg("replay.step", step=step.step, at=at, seat=name)


def ending(transcript: Transcript) -> list[Msg]:
    """What the replay came to: the end-of-game block, or where it stopped; and whether it ends
    the game as stored."""
    record = transcript.record
    out: list[Msg] = []
    if transcript.refused is not None:
        step, err = transcript.refused
        out.append(msg("replay.refused", step=step, why=nested(err.key, **err.params)))
    if transcript.reveal is not None:
        out.append(transcript.reveal)
    broken = (record.outcome or {}).get("broken") if record.state == "broken" else None
    if broken is not None:
        out.append(msg("replay.broken", number=record.number, why=broken))
    elif is_abandoned(record.state, record.outcome):
        out.append(msg("replay.abandoned", number=record.number, by=who_param(record.outcome),
                       step=(record.outcome or {}).get("step", len(record.log)), reason=reason_param(record.outcome)))
    elif transcript.outcome is None:
        out.append(msg("replay.unfinished", number=record.number))
    elif not transcript.matches:
        out.append(msg("replay.differs", number=record.number))
    return out


def last_step(transcript: Transcript) -> int:
    return transcript.steps[-1].step if transcript.steps else 0


def messages(transcript: Transcript, start: int = 0) -> list[Msg]:
    """The whole transcript from step ``start`` on (0: from the deal): the header, each step's
    header and lines, then how it ended. Each step is one message (its lines joined), so a reader
    pages it as one block."""
    out = header(transcript)
    if start > 0:
        out.append(msg("replay.from", step=start))
    for step in transcript.steps:
        if step.step < start:
            continue
        out.append(step_block(transcript, step))
    return out + ending(transcript)


def step_block(transcript: Transcript, step: StepText) -> Msg:
    lines = [step_header(transcript, step), *step.lines]
    return msg("replay.block", lines=nested_list(lines, sep="\n"))


def plain_text(items: list[Msg], lang: str) -> str:
    """The messages as plain text in ``lang`` (no colours), one line each, for a file or a pipe."""
    return "".join(strip_marks(t(lang, m.key, **m.params)) + "\n" for m in items)
