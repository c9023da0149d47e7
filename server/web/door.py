"""The web door's listener: aiohttp serves the page (``GET /``, ``/static/...``), its words
(``GET /texts``) and the WebSocket (``/ws``) of every browser session (server/web/session.py).

A WebSocket connection counts against ``limits.connections_per_address`` as a telnet one does
(server/connections.py), from the address ``[web] proxy_trusted`` lets it claim
(server/web/forwarded.py). Frames from the browser: text, one typed line each, at most
``limits.input_buffer`` bytes (aiohttp refuses a larger frame and closes with 1009, "message too
big", before reading it whole); a binary frame is refused with one line and the session goes on.
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from world.i18n import normalize_lang, strip_marks, t
from world.messages import msg

from ..startup import port_problem
from .forwarded import HEADER, ForwardedFor
from .session import WebSession

if TYPE_CHECKING:
    from ..ports import AppServices

log = logging.getLogger("korchma.web")
STATIC = Path(__file__).with_name("static")
#: The page's own words (world/locale/*/web.toml, [webpage]), sent by ``GET /texts``.
PAGE_KEYS = ("title", "send", "room", "hall", "table", "you", "waits", "disconnected", "reconnect", "input",
             "password")
LANGS = ("ru", "en", "uk")
#: On every answer: the page runs only its own script and styles and talks only to its own
#: server (the output is set as HTML from escaped text; this is the second lock on that door),
#: and no other site may frame it.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class WebDoor:
    def __init__(self, app: "AppServices") -> None:
        self.app = app
        cfg = app.config
        section = cfg.section("web")
        self.host = str(section["host"])
        self.wanted_port = int(section["port"])
        self.forwarded = ForwardedFor(section["proxy_trusted"])
        self.input_buffer = max(256, int(cfg.section("limits").get("input_buffer", 8192)))
        self.login_timeout = float(cfg.section("accounts").get("login_timeout", 60))
        self.sessions: set[WebSession] = set()
        self.runner: web.AppRunner | None = None
        self.site: web.TCPSite | None = None
        self.port = 0

    # -- HTTP ----------------------------------------------------------------------------

    def application(self) -> web.Application:
        application = web.Application()
        application.on_response_prepare.append(self._headers)
        application.router.add_get("/", self.page)
        application.router.add_get("/texts", self.texts)
        application.router.add_get("/ws", self.websocket)
        application.router.add_static("/static/", STATIC, follow_symlinks=False, append_version=False)
        return application

    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)

    async def page(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def texts(self, request: web.Request) -> web.Response:
        """The page's words in every language (a few dozen bytes each): the page picks the
        session's language as the server names it."""
        words = {lang: {key: strip_marks(t(lang, f"webpage.{key}")) for key in PAGE_KEYS} for lang in LANGS}
        return web.json_response(words, headers={"Cache-Control": "no-cache"})

    def address_of(self, request: web.Request) -> str:
        peer = request.remote or ""
        return self.forwarded.client(peer, request.headers.getall(HEADER, ()))

    # -- the WebSocket ---------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        address = self.address_of(request)
        ws = web.WebSocketResponse(max_msg_size=self.input_buffer, heartbeat=30.0)
        await ws.prepare(request)
        ticket = self.app.connections.admit(address)
        if ticket is None:  # over limits.connections_per_address: one line, then closed
            await ws.send_json({"text": self.line("connections.too_many",
                                                  limit=self.app.connections.per_address)})
            await ws.close()
            return ws
        session = WebSession(self.app, self, ws, address)
        lang = normalize_lang(request.query.get("lang", ""))
        if lang:  # the browser's language, until the account's own (not "chosen": that wins)
            session.lang = lang
        self.sessions.add(session)
        self.app.world.connected(session)
        timer = asyncio.get_running_loop().call_later(self.login_timeout, self._late, session) \
            if self.login_timeout > 0 else None
        try:
            session.start()
            await self._read(session, ws)
        finally:
            if timer is not None:
                timer.cancel()
            ticket.release()
            self.sessions.discard(session)
            await session.close()
            try:
                await self.app.logged_out(session)
            except Exception:
                log.exception("logging out %s", address)
        return ws

    async def _read(self, session: WebSession, ws: web.WebSocketResponse) -> None:
        async for frame in ws:
            if session.closed:
                break
            if frame.type == WSMsgType.TEXT:
                try:
                    await session.handle_line(frame.data)
                except Exception:
                    log.exception("web line from %s", session.address)
            elif frame.type == WSMsgType.BINARY:  # lines are text: said once, the session goes on
                session.send("webpage.binary")
            elif frame.type == WSMsgType.ERROR:  # a frame over the size limit, a broken frame
                log.info("web %s: %s", session.address, ws.exception())
                break

    def _late(self, session: WebSession) -> None:
        """Not logged in within accounts.login_timeout: said and closed, as on telnet."""
        if session.account is None and not session.closed:
            asyncio.get_running_loop().create_task(session.close(msg("login.timeout")))

    def line(self, key: str, **params: Any) -> str:
        """A line in the server's language, for a connection refused before it has a session."""
        lang = str(self.app.config.server["default_language"])
        return " ".join(strip_marks(t(lang, key, **params)).split())

    # -- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        # Sessions are closed before the runner (App.stop): its wait for handlers is short.
        self.runner = web.AppRunner(self.application(), access_log=None, handle_signals=False, shutdown_timeout=5.0)
        await self.runner.setup()
        self.site = site = web.TCPSite(self.runner, self.host, self.wanted_port, reuse_address=True)
        try:
            await site.start()
        except OSError as err:
            await self.runner.cleanup()
            self.runner = None
            raise port_problem("web", self.host, self.wanted_port, err) from err
        self.port = int(self.runner.addresses[0][1])  # the port 0 chose

    async def stop_listening(self) -> None:
        """No new connection (a drain); the open WebSockets stay."""
        if self.site is not None:
            await self.site.stop()
            self.site = None

    async def close(self) -> None:
        for session in list(self.sessions):
            await session.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


async def start_web(app: "AppServices") -> WebDoor | None:
    """The web door if ``[web] port`` is 0 or more (StartupError, one line, if it cannot
    listen); None when it is off."""
    if int(app.config.section("web")["port"]) < 0:
        return None
    door = WebDoor(app)
    await door.start()
    return door
