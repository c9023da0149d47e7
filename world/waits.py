"""Waits as the people at a table may know them.

:class:`WaitsAsSeen`: whom each viewer may see the game waiting for, without the secret answers.
:class:`WaitBook`: each seat's question and its id, and the guard that keeps an answer to the
question it was typed for. Both note only who can read now; :class:`Steps` tells ``WaitsAsSeen``
what the others missed.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from games.base import MASTER


class Steps:
    """The steps a table's waits were looked at (``at``), whoever could read them. Something
    noted at the last or the one before saw every step; noted earlier, or never, it missed some
    (a player away, a watcher who just came)."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.now: int | None = None
        self.before: int | None = None

    def at(self, step: int) -> None:
        if step != self.now:
            self.before, self.now = self.now, step
            if self.first is None:
                self.first = step

    def missed(self, noted: int | None) -> bool:
        """Whether something last noted at step ``noted`` (None: never) missed a step."""
        return noted not in (self.now, self.before)


@dataclass
class _Seen:
    view: str  # the viewer's view when it was last noted
    step: int  # the step it was last noted at
    opened: int  # the step the wait it was noted in began at
    shown: frozenset[int]  # whom this viewer sees awaited
    done: set[int] = field(default_factory=set)  # left the wait unseen: still shown
    new: set[int] = field(default_factory=set)  # joined the wait unseen: not shown yet


class WaitsAsSeen:
    """Whom each viewer may see the game waiting for ("(думает)", "Ждём: ...").

    ``awaiting()`` is the truth, and part of it can be secret: a Coup challenge queued behind a
    seat with priority (challenge_order=seat) takes its seat out of the wait with no word to the
    others; so does a Mafia `ready`. A seat that leaves the wait at a step that changed nothing
    in a viewer's view did something that viewer may not know of: for that viewer it stays
    awaited until the wait ends (the engine's set of window names changes). A seat that joins
    the wait at such a step is not shown until then either. A viewer always sees itself as it is.
    Viewers are seat numbers and SPECTATOR; the Master sees the truth.

    Only viewers who can read are noted (``update``); the table's steps all are (``step``). The
    steps a viewer missed (``Steps``) count as steps that changed nothing in its view, and one new
    to the current wait sees whom it began with, then that: a player who comes back, or a watcher
    who arrives, learns no secret answer given meanwhile.
    """

    def __init__(self, steps: Steps | None = None) -> None:
        self.steps = steps or Steps()
        self.seen: dict[int, _Seen] = {}
        self.current: frozenset[int] = frozenset()  # whom the game awaits now
        self.windows: frozenset[str] | None = None  # the engine's windows now
        self.opened = -1  # the step the current wait began at (its set of windows was new then)
        self.opened_with: frozenset[int] = frozenset()  # whom it awaited then

    def step(self, step: int, awaited: frozenset[int], windows: frozenset[str]) -> None:
        """The table after ``step``: whom the game awaits, and in which windows."""
        self.steps.at(step)
        self.current = awaited
        if windows != self.windows:
            self.windows, self.opened, self.opened_with = windows, step, awaited

    def update(self, viewer: int, view: str) -> None:
        """What ``viewer`` sees at the step noted last (``view``: its ``view_key``)."""
        now = self.steps.now
        seen = self.seen.get(viewer)
        if seen is None or seen.opened != self.opened:  # new to this wait: it saw it begin, then nothing
            seen = self.seen[viewer] = _Seen(view, self.opened, self.opened, self.opened_with)
        if seen.step == now:
            return
        if self.steps.missed(seen.step) or seen.view == view:  # nothing it saw: who left or came is not its news
            seen.done |= seen.shown - self.current - {viewer}
            seen.new |= self.current - seen.shown - {viewer}
        seen.view, seen.step = view, now
        seen.shown = frozenset((self.current | seen.done) - seen.new)

    def awaited(self, viewer: int, awaited: frozenset[int]) -> set[int]:
        seen = self.seen.get(viewer)
        if viewer == MASTER or seen is None:
            return set(awaited)
        shown = set(seen.shown - {viewer})
        if viewer in awaited:
            shown.add(viewer)
        return shown


@dataclass
class Answer:
    """A game command from a person: the action (as JSON), the verb typed, the wait it names (a
    GMCP client's ``Korchma.Game.Command``) if any, and whether the account's client reads
    Korchma's GMCP (``scripted``: it is told each question with its id as it opens).
    ``for_wait`` and ``window``: the question it was taken for (``WaitBook.refusal`` fills them
    in); ``at``: when it was applied (``WaitBook.taken``)."""
    action: str
    verb: str
    wait: int | None = None
    scripted: bool = False
    for_wait: int | None = None
    window: str = ""
    at: float = 0.0


@dataclass
class _SeatWaits:
    acted: int | None = None  # the step the seat last acted at: what it is asked next is a new question
    question: tuple[str, int | None] | None = None  # what the seat is asked now, and ``acted`` then
    wait: int | None = None  # its id
    window: str = ""  # the engine's window of the question
    opened: float = 0.0  # when (monotonic seconds)
    previous: int | None = None  # the id of the seat's question before this one
    last: Answer | None = None  # the seat's last answer taken, while it may be repeated by mistake
    waiting: tuple[str | None, int | None, str | None] | None = None  # (question, acted, clock) at ``since``
    since: int = 0  # the number of the seat's wait: its question or its clock changed then
    count: int = 0  # how many waits the seat has been seen to begin


class WaitBook:
    """Each seat's current question and its id, and the guard that keeps an answer to the
    question it was typed for.

    A question is what a seat is asked (the kind of wait, the engine's window, the legal actions,
    and when the seat last acted; not the clock); a wait is a question with its clock (more time
    is a new wait for the same question). Each seat's waits are numbered one after another, from
    a number drawn when the table's runner starts (so that a number from before a restart names
    no question after it): ``since(seat)`` is the number of its current wait (GMCP Awaiting
    ``since``), and a question's id is the number of the wait it opened with, so (seat, id) names
    it. The numbers count only the seat's own waits as its player was shown them, never the
    table's steps: a step count would tell of actions the player cannot see (a Coup challenge
    queued behind them, the night orders of a Mafia game). A seat is noted while its player can
    read (and when it answers); what changed while it was away is one new wait when it is back.

    An answer that names an id counts only for that question. One that does not is taken for the
    question open when it arrives, except this slip of a person reading text: it repeats the
    seat's last answer (the same action, typed with the same verb) to the question before, and both the last
    answer and the opening of this question are less than ``guard`` seconds old: a second "allow"
    typed for a challenge must not answer the block question that the first one opened. Such a
    repeat is refused once (the seat's next answer is taken). A client that reads Korchma's GMCP
    answers as fast as questions come (milliseconds after one opens, whatever its last answer
    was), so timing cannot tell its answers from slips: its answers without an id are taken.
    """

    def __init__(self, guard: float, base: int | None = None) -> None:
        self.guard = guard
        self.base = secrets.randbelow(1 << 30) if base is None else base
        self.seats: dict[int, _SeatWaits] = {}

    def acted(self, seat: int, step: int) -> None:
        """``seat`` acted at ``step`` (a person, a bot or a timeout): it is asked anew after it."""
        self.seats.setdefault(seat, _SeatWaits()).acted = step

    def note(self, seat: int, question: str | None, window: str, now: float,
             clock: str | None = None) -> int | None:
        """The seat's question now (``question``: its key, None when it is asked nothing) and when
        its wait ends (``clock``); the question's id."""
        book = self.seats.setdefault(seat, _SeatWaits())
        asked = None if question is None else (question, book.acted)
        waiting = (question, book.acted, clock)
        if waiting != book.waiting:
            book.count += 1
            book.waiting, book.since = waiting, self.base + book.count
        if asked != book.question:
            if book.wait is not None:
                book.previous = book.wait
            book.question, book.window, book.opened = asked, window, now
            book.wait = None if asked is None else book.since
        return book.wait

    def since(self, seat: int) -> int:
        """The number of the seat's wait as last noted (see the class)."""
        return self.seats.setdefault(seat, _SeatWaits(since=self.base)).since

    def refusal(self, seat: int, answer: Answer, now: float) -> bool:
        """Whether ``answer`` is not for the seat's current question (see the class)."""
        book = self.seats.setdefault(seat, _SeatWaits())
        answer.for_wait, answer.window = book.wait, book.window
        if answer.wait is not None:
            return answer.wait != book.wait
        last = book.last
        if (answer.scripted or last is None or book.wait is None or last.for_wait != book.previous
                or last.window == book.window or (last.action, last.verb) != (answer.action, answer.verb)
                or now - book.opened >= self.guard or now - last.at >= self.guard):
            return False
        book.last = None  # refused once: the next answer is taken
        return True

    def taken(self, seat: int, answer: Answer, now: float) -> None:
        """``answer`` (checked by ``refusal``) was applied, logged and told at ``now``: from then on
        its player sees what it did (a slow commit does not shorten the guard)."""
        answer.at = now
        self.seats.setdefault(seat, _SeatWaits()).last = answer
