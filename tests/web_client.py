"""A WebSocket client of the web door (docs/web.md), aiohttp's, with the telnet test client's
ways of waiting (``expect``, ``wait_for``, ``gmcp_messages``), so a test reads the same for
every door."""
from __future__ import annotations

import asyncio
import html
import json
import re
from typing import Any, Pattern

import aiohttp

from tests.telnet_client import NAME_PROMPT, PASSWORD_PROMPT, WELCOME, TelnetClient

TAG = re.compile(r"<[^>]*>")


def plain(markup: str) -> str:
    """A text frame's markup as the words a person reads."""
    return html.unescape(TAG.sub("", markup))


class WebClient:
    def __init__(self) -> None:
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[dict[str, Any]] = []  # every JSON frame, in order
        self.markup: list[str] = []  # each text frame's "text", as sent
        self.text = ""  # the text frames as plain text, a line each
        self.mark = 0
        self.gmcp_messages: list[tuple[str, Any]] = []
        self.echo = True
        self.close_code: int | None = None
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None

    async def connect(self, port: int, query: str = "", headers: dict[str, str] | None = None) -> "WebClient":
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(f"http://127.0.0.1:{port}/ws{query}", headers=headers or {})
        self._task = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for message in self.ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                self.frames.append(frame)
                if "text" in frame:
                    self.markup.append(frame["text"])
                    self.text += plain(frame["text"]) + "\n"
                if "gmcp" in frame:
                    self.gmcp_messages.append((frame["gmcp"], frame.get("data")))
                if "echo" in frame:
                    self.echo = frame["echo"]
                self._changed.set()
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()
            self._changed.set()

    def send_line(self, text: str) -> None:
        self.mark = len(self.text)
        assert self.ws is not None
        asyncio.get_running_loop().create_task(self.ws.send_str(text))

    async def send_bytes(self, data: bytes) -> None:
        assert self.ws is not None
        await self.ws.send_bytes(data)

    async def expect(self, pattern: str | Pattern[str], timeout: float = 5.0) -> str:
        found: list[str] = []

        def seen() -> bool:
            hay = self.text[self.mark:]
            if isinstance(pattern, str):
                i = hay.find(pattern)
                if i >= 0:
                    found.append(pattern)
                    self.mark += i + len(pattern)
            else:
                m = pattern.search(hay)
                if m:
                    found.append(m.group(0))
                    self.mark += m.end()
            return bool(found)

        try:
            await self.wait_for(seen, timeout)
        except AssertionError:
            raise AssertionError(f"{pattern!r} not seen; since the mark:\n{self.text[self.mark:]}") from None
        return found[0]

    # The telnet client's waits, on the same attributes (_changed, gmcp_messages).
    wait_for = TelnetClient.wait_for
    gmcp = TelnetClient.gmcp

    async def login(self, name: str, password: str = "secret1", create: bool = True) -> None:
        await self.expect(NAME_PROMPT, 10)
        self.send_line(name)
        await self.expect(PASSWORD_PROMPT, 10)
        try:  # said right after the prompt
            await self.wait_for(lambda: self.echo is False, 5)
        except AssertionError:
            raise AssertionError("the page is not told to hide the password") from None
        self.send_line(password)
        outcome = re.compile(f"(?P<welcome>{WELCOME.pattern})|(?P<again>{PASSWORD_PROMPT.pattern})", re.M | re.I)
        got = await self.expect(outcome, 10)
        if outcome.search(got).group("again"):
            assert create, f"{name} does not exist"
            self.send_line(password)
            await self.expect(WELCOME, 10)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._task is not None:
            await asyncio.wait([self._task], timeout=2)
        if self.http is not None:
            await self.http.close()


async def web_log_in(port: int, name: str, password: str = "secret1", create: bool = True,
                     query: str = "") -> WebClient:
    client = await WebClient().connect(port, query)
    await client.login(name, password, create=create)
    return client
