"""A pager for one command's output taller than the client's screen.

While a typed command runs, what the session would write is held here (``hold``); when the
command is done (``release``) it goes out whole if it fits the screen, else one screenful at a
time under «-- ещё: Enter, q --». The page length is the account's ``pagelength`` (0: never
page), else the screen's rows (telnet NAWS, the SSH terminal size) less the line the page
prompt takes; a client that never told its rows gets everything at once, as before.

Lines from the game or the hall that arrive while a page waits are written at once, below the
page on telnet and above the prompt on SSH, and the page prompt is shown again after them: a
table's news must not wait on someone reading the rules (docs/decisions.md, "Pager").
GMCP never passes through here (Session.gmcp writes its own frames).
"""
from __future__ import annotations

from typing import Any

from world.i18n import t

# Rows a screen must have for paging to make sense (the page prompt takes one of them).
MIN_ROWS = 5


def _segments(item: Any) -> list[Any]:
    """``item`` (str, bytes or a door's bytes subclass) cut after each newline, each piece of
    the item's own type (a telnet Wire stays a Wire: it is escaped once)."""
    sep = b"\n" if isinstance(item, (bytes, bytearray)) else "\n"
    kind = type(item)
    out: list[Any] = []
    start = 0
    while True:
        at = item.find(sep, start)
        if at < 0:
            break
        out.append(kind(item[start:at + 1]))
        start = at + 1
    if start < len(item):
        out.append(kind(item[start:]))
    return out


def _runs(lines: list[Any]) -> list[Any]:
    """Neighbouring lines of one type joined: one write each, not one a line."""
    out: list[Any] = []
    for line in lines:
        if out and type(out[-1]) is type(line):
            out[-1] = type(line)(out[-1] + line)
        else:
            out.append(line)
    return out


class Pager:
    __slots__ = ("session", "rows", "held", "rest", "emitting", "replying")

    def __init__(self, session: Any) -> None:  # server.session.Session
        self.session = session
        self.rows = 0  # the screen's rows, 0 when the client never said
        self.held: list[Any] | None = None  # a command's output, while it runs
        self.rest: list[Any] = []  # the lines of the pages still to show
        self.emitting = False
        self.replying = False  # Session.reply is writing: the session's own answer

    # -- what the session asks --------------------------------------------------------------

    def page_length(self) -> int:
        """Lines on one page, 0 for no paging."""
        account = self.session.account
        chosen = getattr(account, "page_length", None) if account is not None else None
        if chosen is not None:
            return max(0, int(chosen))
        if not self.session.app.config.server.get("pager", True) or self.rows < MIN_ROWS:
            return 0
        return self.rows - 1

    @property
    def open(self) -> bool:
        return bool(self.rest)

    def prompt(self) -> str:
        return t(self.session.lang, "pager.more")

    def begin(self) -> None:
        """A typed command starts: hold what it writes (if this session pages at all)."""
        if self.held is None and self.page_length():
            self.held = []

    def hold(self, rendered: Any) -> bool:
        """Called first by the door's ``write``: True when ``rendered`` is kept for now. Only
        the command's own answers are held; a line from the hall or the game written meanwhile
        goes out at once, before them, never onto a later page nor dropped by q."""
        if self.held is None or self.emitting or not self.replying:
            return False
        self.held.append(rendered)
        return True

    def release(self) -> None:
        """The command is done: its output out whole, or its first page."""
        held, self.held = self.held, None
        if not held:
            return
        lines = [piece for item in held for piece in _segments(item)]
        length = self.page_length()
        if length and len(lines) > length:
            self.rest = lines[length:]
            lines = lines[:length]
        self._emit(lines)

    def answer(self, line: str) -> bool:
        """A typed line while a page waits: True when the pager took it (Enter: the next page;
        a stop word: the rest dropped). Any other line ends paging and runs as a command."""
        if not self.rest:
            return False
        word = line.strip().casefold()
        if not word:
            length = self.page_length() or len(self.rest)
            page, self.rest = self.rest[:length], self.rest[length:]
            self._emit(page)
            return True
        self.rest = []
        return word in self.stop_words()

    def stop_words(self) -> set[str]:
        return {w.casefold() for lang in ("en", self.session.lang) for w in t(lang, "pager.stop").split()}

    def finish(self) -> None:
        """The session closes: what is held or left goes out unpaged."""
        lines = [piece for item in (self.held or ()) for piece in _segments(item)] + self.rest
        self.held, self.rest = None, []
        self._emit(lines)

    def _emit(self, lines: list[Any]) -> None:
        self.emitting = True
        try:
            for run in _runs(lines):
                self.session.write(run)
        finally:
            self.emitting = False
