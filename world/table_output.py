"""What a table says: events to their audiences, status lines, and the GMCP View and Awaiting.

The runner (world/runner.py) owns one :class:`TableOutput` per table and calls it after each
step it has logged; nothing here changes the game.
"""
from __future__ import annotations

import json
import weakref
from typing import TYPE_CHECKING, Any

from games.base import MASTER, SPECTATOR, Event

from .messages import Msg, msg
from .presenters import present_params, present_status, present_view

if TYPE_CHECKING:
    from .runner import TableRunner


class TableOutput:
    def __init__(self, runner: "TableRunner") -> None:
        self.runner = runner
        self.world = runner.world
        self.manager = runner.manager
        self.table = runner.table
        # GMCP Awaiting dedupe: per seat, what the current wait is and the step it began at; per
        # session, the last payload sent. A client script that answers each Awaiting once then
        # answers each wait once, however many other seats act meanwhile.
        self.waits: dict[int, tuple[str, int]] = {}
        self.acted_at: dict[int, int] = {}  # seat -> the step it last acted at (the runner fills it)
        self.awaiting_sent: "weakref.WeakKeyDictionary[Any, dict[str, Any]]" = weakref.WeakKeyDictionary()

    @property
    def engine(self) -> Any:
        return self.table.engine

    # -- events ---------------------------------------------------------------------------------

    def _recipients(self, event: Event) -> tuple[list[int], list[int]]:
        """(seats that may see it, watchers that may see it)."""
        table = self.table
        seats = [s.number for s in table.seats if event.audience.includes(s.number)]
        watchers = list(table.watchers) if event.audience.kind == "all" else []
        return seats, watchers

    def render_params(self, params: dict[str, Any]) -> dict[str, Any]:
        return present_params(self.table, params)

    async def send_events(self, events: list[Event]) -> None:
        table = self.table
        for event in events:
            seats, watchers = self._recipients(event)
            message = Msg(event.key, self.render_params(event.params))
            online: list[int] = []
            for number in seats:
                account_id = table.seats[number].account_id
                if account_id is None:
                    continue
                here = self.world.is_online(account_id) and self.manager.at_table.get(account_id) == table.number
                if here:
                    online.append(account_id)
                if not here and (event.is_whisper or not self.world.is_online(account_id)):
                    # Away: kept in the inbox and shown at the next login, in order.
                    await self.world.keep(account_id, message, "game", table.number)
                elif here and self.runner.keep_all:
                    # A forum-pace game keeps its news and results for rereading (`inbox`).
                    await self.world.keep(account_id, message, "game", table.number, delivered=True)
            online.extend(w for w in watchers if self.world.is_online(w))
            sessions = self.world.sessions_of(online)
            self.world.send_to_sessions(sessions, message)
            payload = {"table": table.number, "key": event.key, "params": event.params,
                       "whisper": event.is_whisper}
            for session in sessions:
                session.gmcp("Korchma.Game.Event", payload)
            self._tell_masters(event, message, payload, seats)

    def _tell_masters(self, event: Event, message: Msg, payload: dict[str, Any], seats: list[int]) -> None:
        """The observer Master sees every event: the news as it is, and every whisper and order
        marked with whom it was for."""
        masters = self.world.sessions_of(m for m in self.table.masters if self.world.is_online(m))
        if not masters:
            return
        if event.audience.kind not in ("all", "master"):  # a whisper: say whom it was for
            names = ", ".join(self.table.seats[n].name for n in seats) or "-"
            message = msg("master.whisper_to", names=names, text=message)
            payload = {**payload, "to_seats": seats}
        self.world.send_to_sessions(masters, message)
        for session in masters:
            session.gmcp("Korchma.Game.Event", payload)

    # -- status lines ---------------------------------------------------------------------------

    def send_status(self) -> None:
        """After every change, each seated player (and watcher) online gets the game's status
        line(s) from its own view, if the game's presenter has one."""
        table = self.table
        awaiting = self.engine.awaiting(table.game)
        viewers = [(s.account_id, s.number) for s in table.seats if s.account_id is not None]
        viewers += [(w, None) for w in table.watchers]
        for account_id, number in viewers:
            if not self.world.is_online(account_id) or self.manager.at_table.get(account_id) != table.number:
                continue
            view = self.engine.view(table.game, SPECTATOR if number is None else number)
            for message in present_status(table, view, number, self.runner.deadline, awaiting):
                self.world.deliver(account_id, message)

    # -- GMCP -----------------------------------------------------------------------------------

    def send_awaiting(self) -> None:
        """GMCP: each seated player's view and what the game waits for from them.

        The view goes out after every change; the Awaiting only when it differs from the last one
        that session got, and it carries ``since``, the step its wait began at."""
        table = self.table
        awaited = {a.seat: a for a in self.engine.awaiting(table.game)}
        for seat in table.seats:
            if seat.account_id is None or not self.world.is_online(seat.account_id):
                continue
            sessions = self.world.sessions_of([seat.account_id])
            view = self.engine.view(table.game, seat.number)
            wait = awaited.get(seat.number)
            legal = self.engine.legal(table.game, seat.number) if wait else []
            deadline = self.runner.deadline.isoformat() if (wait and self.runner.deadline) else None
            awaiting = {"table": table.number, "seat": seat.number,
                        "kind": wait.kind if wait else None, "legal": legal, "deadline": deadline,
                        "since": self.wait_since(seat.number, wait.kind if wait else None, legal, deadline)}
            for session in sessions:
                session.gmcp("Korchma.Game.View", {"table": table.number, "seat": seat.number, "view": view})
                if self.awaiting_sent.get(session) != awaiting:
                    self.awaiting_sent[session] = awaiting
                    session.gmcp("Korchma.Game.Awaiting", awaiting)
        watchers = self.world.sessions_of(table.watchers - table.masters)
        if watchers:
            public = {"table": table.number, "seat": None, "view": self.engine.view(table.game, SPECTATOR)}
            for session in watchers:
                session.gmcp("Korchma.Game.View", public)
        masters = self.world.sessions_of(table.masters)
        if masters:
            everything = {"table": table.number, "seat": "master", "view": self.engine.view(table.game, MASTER)}
            for session in masters:
                session.gmcp("Korchma.Game.View", everything)

    def wait_since(self, seat: int, kind: str | None, legal: list[Any], deadline: str | None) -> int:
        """The step this seat's current wait began at: a wait goes on while its choices and clock
        stay the same and the seat has not acted."""
        key = json.dumps([kind, legal, deadline, self.acted_at.get(seat)], sort_keys=True, default=str)
        known = self.waits.get(seat)
        if known is None or known[0] != key:
            known = (key, self.table.step)
            self.waits[seat] = known
        return known[1]

    # -- on request -----------------------------------------------------------------------------

    def view_for(self, account_id: int) -> dict[str, Any]:
        if account_id in self.table.masters:
            return self.engine.view(self.table.game, MASTER)
        number = self.table.seat_of(account_id)
        return self.engine.view(self.table.game, SPECTATOR if number is None else number)

    def show_view(self, account_id: int) -> None:
        """Send the current view (hand, scores, what is pending and until when) to an account."""
        if self.table.game is None:
            return
        number = self.table.seat_of(account_id)
        view = self.view_for(account_id)
        for message in present_view(self.table, view, number, self.runner.deadline,
                                    self.engine.awaiting(self.table.game)):
            self.world.deliver(account_id, message)
