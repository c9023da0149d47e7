"""What a table says: events to their audiences, status lines, and the GMCP View and Awaiting.

The runner (world/runner.py) owns one :class:`TableOutput` per table and calls it after each
step it has logged; nothing here changes the game.
"""
from __future__ import annotations

import json
import logging
import time
import weakref
from typing import TYPE_CHECKING, Any

from games.base import MASTER, SPECTATOR, Awaiting, Event, RuleError

from .messages import Msg, msg
from .presenters import (
    gmcp_readable, present_params, present_question, present_status, present_view, said_elsewhere,
)
from .waits import Answer, Steps, WaitBook, WaitsAsSeen

if TYPE_CHECKING:
    from .ports import RunnerState

log = logging.getLogger("korchma.runner")


def view_key(view: Any) -> str:
    """A view as text: what a viewer was sent, kept to compare (the engines' views may share
    lists with the state, so a kept dict could change under us)."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)


class TableOutput:
    def __init__(self, runner: "RunnerState") -> None:
        self.runner = runner
        self.world = runner.world
        self.manager = runner.manager
        self.table = runner.table
        # GMCP Awaiting dedupe: per session, the language and the awaiting of the last payload sent
        # (its ``lines`` follow from those two). A client script that answers each Awaiting once
        # then answers each wait once (``since``: WaitBook), however many other seats act meanwhile.
        self.awaiting_sent: "weakref.WeakKeyDictionary[Any, tuple[str, dict[str, Any]]]" = \
            weakref.WeakKeyDictionary()
        # GMCP View dedupe: per session, the last view sent (``view_key`` of the payload). A view
        # goes out only when it changed for that viewer: a resend of an unchanged view would
        # tell that something happened that the viewer may not see (a queued Coup challenge).
        self.views_sent: "weakref.WeakKeyDictionary[Any, str]" = weakref.WeakKeyDictionary()
        # Whom each viewer may see awaited; each seat's question and its id (GMCP Awaiting
        # ``wait``), and the guard that keeps an answer to the question it was typed for. Both
        # note only who can read now; ``seen`` knows which steps the others missed (``steps``).
        self.steps = Steps()
        self.seen = WaitsAsSeen(self.steps)
        self.book = WaitBook(float(self.world.config.section("tables")["answer_guard"]))
        self._views: tuple[Any, int, dict[int, tuple[dict[str, Any], str]]] = (None, -1, {})

    @property
    def engine(self) -> Any:
        return self.table.engine

    def view(self, viewer: int) -> tuple[dict[str, Any], str]:
        """(the view of ``viewer`` now, its ``view_key``): made once per step, for the status
        lines, the GMCP View and its dedupe alike (a view is only read, never changed)."""
        game, step, views = self._views
        if game is not self.table.game or step != self.table.step:
            views = {}
            self._views = (self.table.game, self.table.step, views)
        made = views.get(viewer)
        if made is None:
            view = self.engine.view(self.table.game, viewer)
            made = views[viewer] = (view, view_key(view))
        return made

    # -- events ---------------------------------------------------------------------------------

    def recipients(self, event: Event) -> tuple[list[int], list[int]]:
        """(seats that may see it, watchers that may see it)."""
        table = self.table
        seats = [s.number for s in table.seats if event.audience.includes(s.number)]
        watchers = list(table.watchers) if event.audience.kind == "all" else []
        return seats, watchers

    def render_params(self, params: dict[str, Any]) -> dict[str, Any]:
        return present_params(self.table, params)

    async def send_events(self, events: list[Event]) -> None:
        table = self.table
        quiet = said_elsewhere(table, events)
        for index, event in enumerate(events):
            printed = index not in quiet
            seats, watchers = self.recipients(event)
            message = Msg(event.key, self.render_params(event.params))
            # Each account once, whatever roles it has here (a seat, a watcher's chair, the
            # Master's): the Master reads every event in the Master's form, not as a watcher too.
            online: dict[int, None] = {}
            for number in seats:
                account_id = table.seats[number].account_id
                if account_id is None:
                    continue
                here = self.world.is_online(account_id) and self.manager.at_table.get(account_id) == table.number
                if here:
                    online.setdefault(account_id)
                if not printed:
                    continue
                if not here and (event.is_whisper or self.runner.keep_all or not self.world.is_online(account_id)):
                    # Away: kept in the inbox and shown at the next login or `join`, in order (a
                    # forum-pace game keeps its news too for a player who stood up and stayed on).
                    await self.world.keep(account_id, message, "game", table.number)
                elif here and self.runner.keep_all:
                    # A forum-pace game keeps its news and results for rereading (`inbox`).
                    await self.world.keep(account_id, message, "game", table.number, delivered=True)
            for watcher in watchers:
                if watcher not in table.masters and self.world.is_online(watcher):
                    online.setdefault(watcher)
            sessions = self.world.sessions_of(online)
            if printed:
                self.world.send_to_sessions(sessions, message)
            payload = {"table": table.number, "key": event.key, "params": event.params,
                       "whisper": event.is_whisper}
            self.gmcp(sessions, "Korchma.Game.Event", payload)
            self._tell_masters(event, message if printed else None, payload, seats, online)

    def _tell_masters(self, event: Event, message: Msg | None, payload: dict[str, Any], seats: list[int],
                      reached: dict[int, None]) -> None:
        """The observer Master sees every event: the news as it is, and every whisper and order
        marked with whom it was for (once: not to an account the event ``reached`` already)."""
        masters = self.world.sessions_of(m for m in self.table.masters
                                         if m not in reached and self.world.is_online(m))
        if not masters:
            return
        if event.audience.kind not in ("all", "master"):  # a whisper: say whom it was for
            names = ", ".join(self.table.seats[n].name for n in seats) or "-"
            if message is not None:
                message = msg("master.whisper_to", names=names, text=message)
            payload = {**payload, "to_seats": seats}
        if message is not None:  # (None: its line is said by another event of the step)
            self.world.send_to_sessions(masters, message)
        self.gmcp(masters, "Korchma.Game.Event", payload)

    def gmcp(self, sessions: list[Any], package: str, payload: dict[str, Any]) -> None:
        """``payload`` to each session, made readable in its language where the game needs it
        (presenters' ``gmcp_readable``: a Mafia bot's letter is a key until then); one copy per
        language, the payload itself where the game has nothing to change."""
        readable = gmcp_readable(self.table)
        by_lang: dict[str, Any] = {}
        for session in sessions:
            if readable is None:
                session.gmcp(package, payload)
                continue
            lang = session.lang
            if lang not in by_lang:
                by_lang[lang] = readable(payload, lang)
            session.gmcp(package, by_lang[lang])

    # -- status lines ---------------------------------------------------------------------------

    def send_status(self) -> None:
        """After every change, each seated player (and watcher) online gets the game's status
        line(s) from its own view, if the game's presenter has one. Whom they see awaited is
        what they may know of (``WaitsAsSeen``), so a secret answer prints nothing."""
        table = self.table
        awaited = self._note_step()
        viewers = [(s.account_id, s.number) for s in table.seats if s.account_id is not None]
        viewers += [(w, None) for w in table.watchers]
        told: set[int] = set()  # each account one status, whatever roles it has here
        for account_id, number in viewers:
            if account_id in told or not self.world.is_online(account_id) \
                    or self.manager.at_table.get(account_id) != table.number:
                continue
            told.add(account_id)
            viewer = SPECTATOR if number is None else number
            view, _ = self.view(viewer)
            for message in present_status(table, view, number, self.runner.deadline,
                                          self.seen.awaited(viewer, awaited)):
                self.world.deliver(account_id, message)

    def _note_step(self, *also: int) -> frozenset[int]:
        """Tell ``seen`` the step, and what each viewer who can read now sees (and each viewer in
        ``also``); the seats awaited. The others catch up when they come (``WaitsAsSeen``)."""
        table = self.table
        waits = self.engine.awaiting(table.game)
        awaited = frozenset(a.seat for a in waits)
        self.seen.step(table.step, awaited, frozenset(a.window for a in waits))
        online = self.world.is_online
        viewers = {s.number for s in table.seats if s.account_id is not None and online(s.account_id)}
        if any(online(w) for w in table.watchers - table.masters):
            viewers.add(SPECTATOR)
        for viewer in viewers.union(also) - {MASTER}:
            self.seen.update(viewer, self.view(viewer)[1])
        return awaited

    # -- GMCP -----------------------------------------------------------------------------------

    def send_awaiting(self) -> None:
        """GMCP: each seated player's view and what the game waits for from them; watchers get
        the spectator view, the Masters the Master's.

        A session gets a View only when it differs from the last one it got (a new session gets
        the current one once), and an Awaiting only when it differs from the last one it got; the
        Awaiting carries ``since``, the number of the seat's wait (WaitBook)."""
        table = self.table
        awaited = {a.seat: a for a in self.engine.awaiting(table.game)}
        now = time.monotonic()
        self.steps.at(table.step)  # even with nobody here: the steps a seat away misses count
        for seat in table.seats:
            sessions = self.world.sessions_of([seat.account_id]) if seat.account_id is not None else []
            if not sessions:  # asked when its player comes back (one new wait for all that changed meanwhile)
                continue
            wait = awaited.get(seat.number)
            legal, deadline, wait_id = self._ask(seat.number, wait, now)
            awaiting = {"table": table.number, "seat": seat.number, "kind": wait.kind if wait else None,
                        "legal": legal, "deadline": deadline, "wait": wait_id, "since": self.book.since(seat.number)}
            self._send_view(sessions, seat.number)
            in_lang: dict[str, dict[str, Any]] = {}  # the lines to type are in each session's language
            for session in sessions:
                sent = (session.lang, awaiting)
                if self.awaiting_sent.get(session) == sent:
                    continue  # (most steps: its lines are not made again for nothing)
                self.awaiting_sent[session] = sent
                payload = in_lang.get(session.lang)
                if payload is None:
                    payload = in_lang[session.lang] = self._with_lines(awaiting, seat.number, session.lang)
                session.gmcp("Korchma.Game.Awaiting", payload)
        self._send_view(self.world.sessions_of(table.watchers - table.masters), SPECTATOR)
        self._send_view(self.world.sessions_of(table.masters), MASTER)

    def _with_lines(self, awaiting: dict[str, Any], seat: int, lang: str) -> dict[str, Any]:
        """``awaiting`` with ``lines``: for each legal answer, the line its player would type."""
        make = self.world.answer_lines
        if make is None:
            return awaiting
        return {**awaiting, "lines": make(self.table, seat, awaiting["legal"], lang) if awaiting["legal"] else []}

    def _send_view(self, sessions: list[Any], viewer: int) -> None:
        """The View of ``viewer`` (a seat, SPECTATOR or MASTER) to each of ``sessions`` whose last
        View was another one (or none)."""
        if not sessions:
            return
        seat: Any = None if viewer == SPECTATOR else "master" if viewer == MASTER else viewer
        view, key = self.view(viewer)
        key = f"{self.table.number}:{seat}:{key}"
        payload = {"table": self.table.number, "seat": seat, "view": view}
        due = [session for session in sessions if self.views_sent.get(session) != key]
        for session in due:
            self.views_sent[session] = key
        self.gmcp(due, "Korchma.Game.View", payload)

    # -- the question an answer is for ------------------------------------------------------------

    def acted(self, seat: int, step: int) -> None:
        """The runner applied ``seat``'s action as ``step``: what the seat is asked next is new."""
        self.book.acted(seat, step)

    def _ask(self, seat: int, wait: Awaiting | None, now: float) -> tuple[list[Any], str | None, int | None]:
        """Note in the book what ``seat`` is asked now: (its legal actions, when its wait ends, the
        question's id). The question is the kind of wait, the engine's window and the legal
        actions (the book adds when the seat last acted); the clock is not part of it (more time
        is the same question), only of the wait."""
        if wait is None:
            return [], None, self.book.note(seat, None, "", now)
        legal = self.engine.legal(self.table.game, seat)
        question = json.dumps([wait.kind, wait.window, legal], sort_keys=True, default=str)
        deadline = self.runner.deadline.isoformat() if self.runner.deadline else None
        return legal, deadline, self.book.note(seat, question, wait.window, now, deadline)

    def check_answer(self, seat: int, answer: Answer) -> None:
        """Under the table's lock, just before a person's action applies: a RuleError saying which
        question is open now when ``answer`` was not for it (``WaitBook.refusal``)."""
        wait = next((a for a in self.engine.awaiting(self.table.game) if a.seat == seat), None)
        now = time.monotonic()
        self._ask(seat, wait, now)
        if not self.book.refusal(seat, answer, now):
            return
        log.info("table %d: seat %d's %r was for another question (wait %s named, %s open)",
                 self.table.number, seat, answer.verb, answer.wait, answer.for_wait)
        if wait is None:
            raise RuleError("waits.closed", typed=answer.verb)
        now_line, hint = present_question(self.table, self.view(seat)[0], seat)
        raise RuleError("waits.other_question", typed=answer.verb, now=now_line, hint=hint)

    def answer_taken(self, seat: int, answer: Answer) -> None:
        self.book.taken(seat, answer, time.monotonic())

    # -- on request -----------------------------------------------------------------------------

    def viewer_of(self, account_id: int) -> int:
        """The view an account gets here: the Master's, its seat's, or the spectator's."""
        if account_id in self.table.masters:
            return MASTER
        number = self.table.seat_of(account_id)
        return SPECTATOR if number is None else number

    def view_for(self, account_id: int) -> dict[str, Any]:
        return self.view(self.viewer_of(account_id))[0]

    def show_view(self, account_id: int) -> None:
        """Send the current view (hand, scores, what is pending and until when) to an account:
        the text, and the GMCP View to each of its sessions that does not have it yet (one that
        came in just now, or started watching)."""
        table = self.table
        if table.game is None:
            return
        viewer = self.viewer_of(account_id)
        view, _ = self.view(viewer)
        awaited = self._note_step(viewer)
        for message in present_view(table, view, table.seat_of(account_id), self.runner.deadline,
                                    self.seen.awaited(viewer, awaited)):
            self.world.deliver(account_id, message)
        self._send_view(self.world.sessions_of([account_id]), viewer)
