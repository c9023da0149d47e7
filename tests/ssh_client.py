"""A small asyncssh client for tests: log in, type, and wait for text on the screen.

    client = await connect(port, "Бася", password="secret1")
    client.send_line("say привет")
    await client.expect("привет")
    await client.close()

With ``term=True`` (the default) the client asks for a pty, like ``ssh`` from a terminal, and the
server runs its prompt_toolkit line editor: the output is full of cursor movement and erase
sequences. ``text`` is that output made readable: escape sequences, carriage returns, backspaces
and BELs removed. What the server redraws (the prompt and the half-typed line after a message)
appears again in ``text``. ``screen`` follows the cursor movements, so a test can also see
what a person would see, line by line (``screen.text_lines()``).
"""
from __future__ import annotations

import asyncio
import re
from typing import Any, Callable, Pattern

import asyncssh

# CSI (with private markers), OSC (to BEL or ST), charset selection, and other two-byte escapes.
_ESCAPES = re.compile(r"\x1b\[[0-9;?<=>!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]"
                      r"|\x1b[=>78DEHMNOZc]")
_CONTROLS = re.compile(r"[\r\x07\x08\x00]")


def clean_screen_text(data: str) -> str:
    return _CONTROLS.sub("", _ESCAPES.sub("", data))


_TOKEN = re.compile(r"\x1b\[([0-9;?]*)([@-~])|(\x1b[^\[])|([\r\n\x08])|([^\x1b\r\n\x08]+)")


class Screen:
    """Just enough of a terminal to see where prompt_toolkit put things: printable text,
    CR, LF, BS, cursor movement (CUU/CUD/CUF/CUB/CHA), erase below (ED) and erase line (EL).
    Lines never wrap and never scroll away; every other sequence is ignored."""

    def __init__(self) -> None:
        self.lines: list[list[str]] = [[]]
        self.row = 0
        self.col = 0

    def _put(self, text: str) -> None:
        line = self.lines[self.row]
        if len(line) < self.col:
            line.extend(" " * (self.col - len(line)))
        line[self.col:self.col + len(text)] = list(text)
        self.col += len(text)

    def _down(self, n: int) -> None:
        self.row += n
        while len(self.lines) <= self.row:
            self.lines.append([])

    def feed(self, data: str) -> None:
        for m in _TOKEN.finditer(data):
            params, final, _other, ctl, text = m.groups()
            if text:
                self._put(text.replace("\x07", ""))
            elif ctl == "\r":
                self.col = 0
            elif ctl == "\n":
                self._down(1)
            elif ctl == "\x08":
                self.col = max(0, self.col - 1)
            elif final and not (params or "").startswith("?"):
                n = int(params) if params and params.isdigit() else 1
                if final == "A":
                    self.row = max(0, self.row - n)
                elif final == "B":
                    self._down(n)
                elif final == "C":
                    self.col += n
                elif final == "D":
                    self.col = max(0, self.col - n)
                elif final == "G":
                    self.col = n - 1
                elif final == "J" and params in ("", "0"):
                    del self.lines[self.row][self.col:]
                    del self.lines[self.row + 1:]
                elif final == "K" and params in ("", "0"):
                    del self.lines[self.row][self.col:]

    def text_lines(self) -> list[str]:
        return ["".join(line).rstrip() for line in self.lines]


#: Answers keyboard-interactive prompts: (the prompts' texts, the banners so far) -> the answers,
#: or None to give up. Each call is one challenge; a list of answer lists is used in order.
Answers = Callable[[list[str], list[str]], "list[str] | None"]


class _Banners(asyncssh.SSHClient):
    """Keeps the authentication banners the server sends (why a login was refused), answers
    keyboard-interactive challenges (``answers``) and password change requests (``change``:
    (old, new))."""

    def __init__(self, into: list[str], answers: Answers | None = None,
                 change: tuple[str, str] | None = None, prompts: list[list[str]] | None = None) -> None:
        self.into, self.answers, self.change = into, answers, change
        self.prompts = prompts if prompts is not None else []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.into.append(msg)

    def kbdint_auth_requested(self) -> str | None:
        return "" if self.answers is not None else None

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                  prompts: Any) -> list[str] | None:
        if not prompts:
            return []
        texts = [text for text, _echo in prompts]
        self.prompts.append(texts)
        assert self.answers is not None
        return self.answers(texts, self.into)

    def password_change_requested(self, prompt: str, lang: str) -> Any:
        return self.change if self.change is not None else NotImplemented


def scripted(*rounds: list[str]) -> Answers:
    """Answers that give each challenge the next list of ``rounds``, then give up."""
    left = list(rounds)
    return lambda prompts, banners: left.pop(0) if left else None


class SSHClient:
    def __init__(self) -> None:
        self.banners: list[str] = []  # authentication banners, also when the login is refused
        self.prompts: list[list[str]] = []  # keyboard-interactive challenges asked (their prompts)
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: Any = None
        self.term = True
        self.raw = ""
        self.text = ""
        self.screen = Screen()
        self.mark = 0
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._tail = ""  # an escape sequence cut in two by the network

    async def connect(self, port: int, name: str, password: str | None = None, key: Any = None,
                      term: bool = True, width: int = 80, height: int = 24, host: str = "127.0.0.1",
                      command: str | None = None, local_address: str | None = None,
                      connect_timeout: float = 10, answers: Answers | None = None,
                      change: tuple[str, str] | None = None) -> "SSHClient":
        """``local_address``: the source address to connect from (see TelnetClient.connect).
        ``answers``: log in by keyboard-interactive (as OpenSSH does), answering each challenge
        with it (:func:`scripted`); the prompts asked are kept in ``prompts``. ``change``: the
        (old, new) passwords to give if the server asks for a password change."""
        self.term = term
        if answers is not None:
            preferred = "keyboard-interactive"
        else:
            preferred = "publickey" if password is None else "password,publickey"
        self.conn = await asyncssh.connect(
            host, port, username=name, password=password,
            client_factory=lambda: _Banners(self.banners, answers, change, self.prompts),
            local_addr=(local_address, 0) if local_address else None,
            client_keys=[key] if key is not None else None,
            preferred_auth=preferred,
            known_hosts=None, agent_path=None, config=None, connect_timeout=connect_timeout)
        self.process = await self.conn.create_process(
            command, term_type="xterm-256color" if term else None,
            term_size=(width, height) if term else None, encoding="utf-8")
        self._task = asyncio.get_running_loop().create_task(self._read_loop())
        return self

    async def _read_loop(self) -> None:
        try:
            while True:
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    break
                self.raw += chunk
                data = self._tail + chunk
                cut = data.rfind("\x1b")
                if cut >= 0 and cut > len(data) - 32 and not _ESCAPES.match(data, cut):
                    data, self._tail = data[:cut], data[cut:]  # wait for the rest of the sequence
                else:
                    self._tail = ""
                self.text += clean_screen_text(data)
                self.screen.feed(data)
                self._changed.set()
        except (asyncssh.Error, OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self.closed.set()
            self._changed.set()

    # -- typing ---------------------------------------------------------------------------

    def send(self, data: str) -> None:
        """Type without pressing Enter."""
        self.process.stdin.write(data)

    def send_line(self, text: str) -> None:
        self.mark_here()
        self.send(text + ("\r" if self.term else "\n"))

    def send_eof(self) -> None:
        self.process.stdin.write_eof()

    def resize(self, width: int, height: int = 24) -> None:
        self.process.change_terminal_size(width, height)

    # -- reading --------------------------------------------------------------------------

    def mark_here(self) -> None:
        self.mark = len(self.text)

    def text_since_mark(self) -> str:
        return self.text[self.mark:]

    async def expect(self, pattern: str | Pattern[str], timeout: float = 5.0) -> str:
        """Wait until the text since the mark contains ``pattern`` (a substring or a compiled
        regex); move the mark past the match and return the matched text."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            hay = self.text[self.mark:]
            if isinstance(pattern, str):
                i = hay.find(pattern)
                if i >= 0:
                    self.mark += i + len(pattern)
                    return pattern
            else:
                m = pattern.search(hay)
                if m:
                    self.mark += m.end()
                    return m.group(0)
            left = deadline - loop.time()
            if left <= 0 or (self.closed.is_set() and not self._changed.is_set()):
                raise AssertionError(f"{pattern!r} not seen in {timeout}s; text since mark:\n{hay[-3000:]}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Wait until nothing has arrived for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), quiet)
            except asyncio.TimeoutError:
                return

    async def wait_closed(self, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    @property
    def exit_status(self) -> int | None:
        return self.process.exit_status if self.process is not None else None

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            try:
                await asyncio.wait_for(self.conn.wait_closed(), 2)
            except (asyncio.TimeoutError, OSError):
                pass
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass


async def connect(port: int, name: str, password: str | None = None, key: Any = None, term: bool = True,
                  width: int = 80, **kwargs: Any) -> SSHClient:
    """Log in as ``name`` by password or by ``key`` (an asyncssh private key) and open a session
    (with a pty of ``width`` columns when ``term``). Raises asyncssh.PermissionDenied if refused."""
    return await SSHClient().connect(port, name, password=password, key=key, term=term, width=width, **kwargs)


async def attempt(port: int, name: str, password: str, **kwargs: Any) -> tuple[SSHClient | None, str]:
    """Try to log in: (the client, or None if refused; the banners the server sent, joined)."""
    client = SSHClient()
    try:
        await client.connect(port, name, password=password, **kwargs)
    except asyncssh.PermissionDenied:
        return None, "\n".join(client.banners)
    return client, "\n".join(client.banners)
