"""One browser on the web door: a :class:`server.session.Session` like telnet's and SSH's.

Everything a player types goes through ``Session.handle_line`` (login, flood guard, line limit,
text cleaning, commands); everything the world says goes out through ``write`` and ``gmcp``. What
is the web's own is only the wire: each line is a JSON frame (docs/web.md), queued and sent in
order by one task per connection, and a browser that stops reading is dropped once
:data:`MAX_BACKLOG` characters wait for it (as telnet's and SSH's backlogs).
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from typing import TYPE_CHECKING, Any

from world.i18n import t
from world.messages import Msg

from ..session import Session
from .markup import to_html
from .words import game_words

if TYPE_CHECKING:
    from aiohttp import web

    from ..ports import AppServices

log = logging.getLogger("korchma.web")

#: Characters of frames queued for one browser before it is taken for gone and dropped.
MAX_BACKLOG = 512 * 1024


class WebText(str):
    """A rendered message: already markup (server/web/markup.py), sent as it is. The world
    renders a line once for every session of the same language and colour (world/hub.py), so
    its frame is made once too (``frame_body``) and shared by them all."""

    body: str

    def frame_body(self) -> str:
        try:
            return self.body
        except AttributeError:
            self.body = _dumps({"text": str(self).rstrip("\n")})
            return self.body


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


class _LastGmcp:
    """A broadcast hands the same GMCP object to every session in a row (a room's `Korchma.Room`):
    the last frame is kept, with its data (so the object cannot be another one at the same
    address), and a room of N browsers costs one encoding, as on telnet (gmcp_frame)."""

    __slots__ = ("package", "data", "body")

    def __init__(self) -> None:
        self.package, self.data, self.body = "", None, ""

    def body_of(self, package: str, data: Any) -> str:
        if data is not None and data is self.data and package == self.package:
            return self.body
        body = _dumps({"gmcp": package, "data": data})
        self.package, self.data, self.body = package, data, body
        return body


LAST_GMCP = _LastGmcp()


class WebSession(Session):
    kind = "web"
    newline = "\n"

    def __init__(self, app: "AppServices", door: Any, ws: "web.WebSocketResponse", address: str) -> None:
        super().__init__(app, address)
        self.door = door
        self.ws = ws
        self.width = 0  # the browser wraps, at its own width
        self.term_color = True  # the page draws every style; `color off` still turns them off
        # WebSocket text is UTF-8 (set_encoding keeps it so); no menu is ever shown (start greets at
        # once), and "not known" keeps the account's telnet encoding from being overwritten with
        # this door's at login (server/app.py logged_in), as on SSH.
        self.encoding_known = False
        self._frames: deque[str] = deque()
        self._backlog = 0
        self._wake = asyncio.Event()
        self._sender: asyncio.Task | None = None
        self._gone = False
        self._lang_sent = ""
        self._echo = True
        self._words_sent: set[tuple[str, str]] = set()

    # -- output -------------------------------------------------------------------------

    def render_key(self) -> tuple:
        # Not shared with an SSH script of the same language (width 0, "\n"): that gets plain text.
        return ("web", self.lang, self.color)

    def render(self, message: Msg) -> str:
        return WebText(to_html(t(self.lang, message.key, **message.params), self.color))

    def write(self, rendered: Any) -> None:
        if self._gone or self.pager.hold(rendered):
            return
        if not isinstance(rendered, WebText):  # a line written as it is (a pager's prompt): escaped here
            if isinstance(rendered, (bytes, bytearray)):
                rendered = bytes(rendered).decode("utf-8", "replace")
            rendered = WebText(to_html(str(rendered), self.color))
        if rendered.strip("\n"):
            self._language_frame()
            self.send_body(rendered.frame_body())

    def _language_frame(self) -> None:
        """The page's own few words follow the session's language (docs/web.md ``lang``)."""
        if self.lang != self._lang_sent:
            self._lang_sent = self.lang
            self.frame({"lang": self.lang})

    def gmcp(self, package: str, data: Any) -> None:
        if self._gone:
            return
        if package == "Korchma.Game.View" and isinstance(data, dict):
            self._words_for(data.get("view"))
        try:
            body = LAST_GMCP.body_of(package, data)
        except (TypeError, ValueError):
            log.exception("GMCP %s not serializable", package)
            return
        self.send_body(body)

    def _words_for(self, view: Any) -> None:
        """Before a game's first View (and again in a new language): its words (words.py)."""
        game = view.get("game") if isinstance(view, dict) else None
        if isinstance(game, str) and (game, self.lang) not in self._words_sent:
            self._words_sent.add((game, self.lang))
            self.frame({"words": game_words(game, self.lang)})

    def set_echo(self, on: bool) -> None:
        """A password is asked (off) or has been typed (on): the page hides the input line."""
        if on != self._echo and not self._gone:
            self._echo = on
            self.frame({"echo": on})

    def frame(self, data: dict[str, Any]) -> None:
        """Queue one JSON frame."""
        if not self._gone:
            self.send_body(_dumps(data))

    def send_body(self, body: str) -> None:
        """Queue one frame's JSON text; a browser too far behind is dropped."""
        if self._gone:
            return
        self._frames.append(body)
        self._backlog += len(body)
        if self._backlog > MAX_BACKLOG:
            log.info("web %s stopped reading; dropped", self.address)
            self._frames.clear()
            self._drop()
            asyncio.get_running_loop().create_task(self.ws.close())
            return
        self._wake.set()

    async def send_frames(self) -> None:
        """The connection's one sender: frames out in order, as fast as the browser reads."""
        try:
            while not self._gone or self._frames:
                if not self._frames:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                body = self._frames.popleft()
                self._backlog -= len(body)
                if self.ws.closed:
                    break
                await self.ws.send_str(body)
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass
        finally:
            self._frames.clear()

    def set_encoding(self, encoding: str) -> None:
        """The account's `encoding` is its telnet client's; a WebSocket speaks UTF-8."""

    def apply_account_settings(self, account: Any) -> None:
        """Logged in: the page learns whose it is (its panels mark "me") and the verbs to
        complete (those this account may type, in every language)."""
        from commands import load_all  # noqa: F401  (registers every command)
        from commands.parser import available

        super().apply_account_settings(account)
        self.frame({"account": account.name})
        self.frame({"verbs": sorted({v for cmd in available(self) for v in cmd.verbs if len(v) > 1}, key=str.casefold)})

    # -- input --------------------------------------------------------------------------

    def queue_command(self, line: str, wait: int | None) -> None:
        """The page sends no GMCP: every answer is typed (docs/web.md)."""

    # -- lifecycle ----------------------------------------------------------------------

    def start(self) -> None:
        self._sender = asyncio.get_running_loop().create_task(self.send_frames())
        self._language_frame()
        self.greet()

    async def close(self, message: Msg | None = None) -> None:
        self.last_words(message, self._gone)
        self._drop()
        if self._sender is not None and self._sender is not asyncio.current_task():
            try:
                await asyncio.wait_for(asyncio.shield(self._sender), 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                pass
        if not self.ws.closed:
            await self.ws.close()

    def _drop(self) -> None:
        """No more frames are queued; the sender sends what is queued and stops."""
        self.closed = True
        self._gone = True
        self._wake.set()
