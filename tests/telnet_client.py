"""A raw-socket telnet client for tests: every byte on the wire is ours to choose and to see.

    client = TelnetClient(naws=(60, 24), ttype="xterm-256color", charset=["UTF-8"], gmcp=True)
    await client.connect("127.0.0.1", port)
    await client.login("Бася", "secret1")
    client.send_line("say привет")
    await client.expect("привет")

Options the client agrees to are chosen in the constructor; everything else is refused
(DONT/WONT). The server's IAC sequences are parsed and recorded: ``gmcp_messages`` holds
(package, parsed JSON) pairs, ``mssp`` the MSSP variables, ``prompt_marks`` counts GA/EOR,
``text`` the clean text (decoded with the client's encoding, telnet commands removed),
``raw`` every byte received, and ``events`` the negotiation as (command, option) names.
"""
from __future__ import annotations

import asyncio
import json
import re
import struct
from typing import Any, Pattern

IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
GA, EOR_CMD, NOP = 249, 239, 241
BINARY, ECHO, SGA, TTYPE, EOR, NAWS, CHARSET = 0, 1, 3, 24, 25, 31, 42
MSSP, MCCP2, MCCP3, GMCP = 70, 86, 87, 201
TTYPE_IS, TTYPE_SEND = 0, 1
CHARSET_REQUEST, CHARSET_ACCEPTED, CHARSET_REJECTED = 1, 2, 3
MSSP_VAR, MSSP_VAL = 1, 2

OPTION_NAMES = {BINARY: "BINARY", ECHO: "ECHO", SGA: "SGA", TTYPE: "TTYPE", EOR: "EOR", NAWS: "NAWS",
                CHARSET: "CHARSET", MSSP: "MSSP", MCCP2: "MCCP2", MCCP3: "MCCP3", GMCP: "GMCP",
                39: "NEW_ENVIRON", 34: "LINEMODE"}
COMMAND_NAMES = {DO: "DO", DONT: "DONT", WILL: "WILL", WONT: "WONT"}

# Prompts of the login state machine, in any of the catalog's languages. Prompts end a line
# with a colon, which tells "Repeat the password:" from "Wrong name or password."
ENCODING_MENU = re.compile(r"Kodirovka[^\n]*\[1\]:")
NAME_PROMPT = re.compile(r"(name|имя|ім.я|логин|login)[^\n:]*:[ \t]*\r?$", re.M | re.I)
PASSWORD_PROMPT = re.compile(r"(password|пароль)[^:.!?]*:[ \t]*\r?$", re.M | re.I)  # may wrap
WELCOME = re.compile(r"welcome|добро пожаловать|ласкаво просимо", re.I)


def gmcp_bytes(package: str, data: Any = None) -> bytes:
    """A GMCP message as a client sends it (IAC SB GMCP ... IAC SE), to send alone or among typed bytes."""
    body = (package if data is None else f"{package} {json.dumps(data)}").encode("utf-8")
    return bytes([IAC, SB, GMCP]) + body.replace(b"\xff", b"\xff\xff") + bytes([IAC, SE])


class TelnetClient:
    def __init__(self, *, naws: tuple[int, int] | None = (80, 24), ttype: str | list[str] | None = None,
                 charset: list[str] | None = None, gmcp: bool = False, eor: bool = False,
                 binary: bool = True, mssp: bool = False, encoding: str = "utf-8",
                 echo: bool = True, mccp: bool = False) -> None:
        """``charset``: the CHARSET names we would accept, in our order of preference (the first
        one the server offers wins); None refuses CHARSET altogether (WONT), [] answers REJECTED.
        ``ttype``: one name, or a list cycled through like MUD clients do (last one repeats).
        ``echo``: agree to the server's WILL ECHO (password hiding)."""
        self.naws = naws
        self.ttypes = [ttype] if isinstance(ttype, str) else list(ttype or [])
        self.charset = charset
        self.gmcp_on, self.eor_on, self.binary_on, self.mssp_on, self.echo_on = gmcp, eor, binary, mssp, echo
        self.encoding = encoding
        self.mccp_on = mccp
        self.compressed_bytes = 0  # bytes received inside the MCCP2 stream
        self._inflate: Any = None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.raw = bytearray()
        self.text = ""
        self.mark = 0
        self.gmcp_messages: list[tuple[str, Any]] = []
        self.mssp: dict[str, Any] = {}
        self.prompt_marks: list[str] = []  # "GA" / "EOR", in order
        self.text_at_marks: list[int] = []  # len(self.text) when each GA/EOR arrived
        self.events: list[tuple[str, str]] = []  # ("WILL", "GMCP") as received
        self.charset_chosen: str | None = None
        self.server_echo = False  # the server said WILL ECHO (we should not echo)
        self.closed = asyncio.Event()
        self._ttype_index = 0
        self._state = "data"
        self._sb: bytearray = bytearray()
        self._data = bytearray()  # in-band bytes not yet decoded (an incomplete character)
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._decoder = None

    # -- connection ---------------------------------------------------------------------

    async def connect(self, host: str, port: int, local_address: str | None = None,
                      preamble: bytes = b"") -> "TelnetClient":
        """``local_address``: the source address to connect from (e.g. 127.0.0.2: on Linux every
        127.x.y.z reaches a server on 127.0.0.1), to be another visitor. ``preamble``: bytes sent
        before anything else (a PROXY protocol header, as HAProxy sends it)."""
        import codecs

        self._decoder = codecs.getincrementaldecoder(self.encoding)("replace")
        self.reader, self.writer = await asyncio.open_connection(
            host, port, local_addr=(local_address, 0) if local_address else None)
        if preamble:
            self.writer.write(preamble)
        self._task = asyncio.get_running_loop().create_task(self._read_loop())
        return self

    async def close(self) -> None:
        if self.writer is not None:
            try:
                self.writer.close()
                await asyncio.wait_for(self.writer.wait_closed(), 2)
            except (OSError, asyncio.TimeoutError, ConnectionError):
                pass
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    async def _read_loop(self) -> None:
        assert self.reader is not None
        try:
            while True:
                chunk = await self.reader.read(65536)
                if not chunk:
                    break
                self.raw += chunk
                self._feed(chunk)
                self._changed.set()
        except (ConnectionError, OSError):
            pass
        finally:
            self.closed.set()
            self._changed.set()

    # -- sending ------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        assert self.writer is not None
        self.writer.write(data)

    def send_line(self, text: str) -> None:
        self.mark_here()
        data = text.encode(self.encoding, "replace").replace(b"\xff", b"\xff\xff")
        self.send_raw(data + b"\r\n")

    def _cmd(self, cmd: int, opt: int) -> None:
        self.send_raw(bytes([IAC, cmd, opt]))

    def _subneg(self, opt: int, payload: bytes) -> None:
        self.send_raw(bytes([IAC, SB, opt]) + payload.replace(b"\xff", b"\xff\xff") + bytes([IAC, SE]))

    def resize(self, width: int, height: int = 24) -> None:
        """Report a new window size (NAWS), like a terminal being resized."""
        self.naws = (width, height)
        self._subneg(NAWS, struct.pack("!HH", width, height))

    def send_gmcp(self, package: str, data: Any = None) -> None:
        self.send_raw(gmcp_bytes(package, data))

    # -- reading ------------------------------------------------------------------------

    def mark_here(self) -> None:
        self.mark = len(self.text)

    def text_since_mark(self) -> str:
        return self.text[self.mark:]

    async def expect(self, pattern: str | Pattern[str], timeout: float = 5.0, since_mark: bool = True) -> str:
        """Wait until the text (since the mark) contains ``pattern`` (a substring or a compiled
        regex); move the mark past the match and return the matched text."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            start = self.mark if since_mark else 0
            hay = self.text[start:]
            if isinstance(pattern, str):
                i = hay.find(pattern)
                if i >= 0:
                    self.mark = start + i + len(pattern)
                    return pattern
            else:
                m = pattern.search(hay)
                if m:
                    self.mark = start + m.end()
                    return m.group(0)
            left = deadline - loop.time()
            if left <= 0 or (self.closed.is_set() and not self._changed.is_set()):
                raise AssertionError(f"{pattern!r} not seen in {timeout}s; text since mark:\n{hay[-3000:]}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def wait_for(self, predicate, timeout: float = 5.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError("condition not met in time")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def gmcp(self, package: str, timeout: float = 5.0, after: int = 0) -> Any:
        """The data of the first GMCP message ``package`` (at index >= ``after``)."""
        found: list[Any] = []

        def seen() -> bool:
            for name, data in self.gmcp_messages[after:]:
                if name == package:
                    found.append(data)
                    return True
            return False

        try:
            await self.wait_for(seen, timeout)
        except AssertionError:
            raise AssertionError(f"no GMCP {package}; got {[n for n, _ in self.gmcp_messages]}") from None
        return found[0]

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

    # -- login --------------------------------------------------------------------------

    async def reach_name_prompt(self, timeout: float = 10.0) -> None:
        """Wait for the name prompt, answering the encoding menu first if the server shows it."""
        either = re.compile(f"{ENCODING_MENU.pattern}|{NAME_PROMPT.pattern}", re.M | re.I)
        first = await self.expect(either, timeout)
        if ENCODING_MENU.search(first):
            choice = {"utf-8": "1", "cp1251": "2", "koi8-r": "3", "koi8-u": "4"}.get(self.encoding.lower(), "1")
            self.send_line(choice)
            await self.expect(NAME_PROMPT, timeout)

    async def login(self, name: str, password: str, create: bool = True, timeout: float = 10.0) -> str:
        """Answer the encoding menu (if shown), the name prompt, then the password prompt; if
        the server asks for the password again, it is a new account: confirm it (when ``create``).
        Returns the text from the name prompt up to the welcome line."""
        await self.reach_name_prompt(timeout)
        start = self.mark
        self.send_line(name)
        await self.expect(PASSWORD_PROMPT, timeout)
        self.send_line(password)
        outcome = re.compile(f"(?P<welcome>{WELCOME.pattern})|(?P<again>{PASSWORD_PROMPT.pattern})|"
                             f"(?P<name>{NAME_PROMPT.pattern})", re.M | re.I)
        got = await self.expect(outcome, timeout)
        m = outcome.search(got)
        assert m is not None
        if m.group("again"):
            if not create:
                raise AssertionError(f"{name} does not exist:\n{self.text[start:]}")
            self.send_line(password)
            await self.expect(WELCOME, timeout)
        elif m.group("name"):
            raise AssertionError(f"login refused:\n{self.text[start:]}")
        return self.text[start:self.mark]

    # -- the telnet parser --------------------------------------------------------------

    def _emit(self, data: bytes) -> None:
        assert self._decoder is not None
        self.text += self._decoder.decode(bytes(data))

    def _feed(self, chunk: bytes) -> None:
        if self._inflate is not None:
            self.compressed_bytes += len(chunk)
            chunk = self._inflate.decompress(chunk)
        out = bytearray()
        for index, b in enumerate(chunk):
            st = self._state
            if st == "data":
                if b == IAC:
                    self._state = "iac"
                else:
                    out.append(b)
            elif st == "iac":
                if b == IAC:
                    out.append(IAC)
                    self._state = "data"
                elif b in (DO, DONT, WILL, WONT):
                    self._state = ("opt", b)
                elif b == SB:
                    self._state = "sb"
                    self._sb = bytearray()
                elif b in (GA, EOR_CMD):
                    self._emit(out)
                    out = bytearray()
                    self.prompt_marks.append("GA" if b == GA else "EOR")
                    self.text_at_marks.append(len(self.text))
                    self._state = "data"
                else:
                    self._state = "data"
            elif st == "sb":
                if b == IAC:
                    self._state = "sb_iac"
                else:
                    self._sb.append(b)
            elif st == "sb_iac":
                if b == IAC:
                    self._sb.append(IAC)
                    self._state = "sb"
                elif b == SE:
                    self._state = "data"
                    self._emit(out)
                    out = bytearray()
                    if bytes(self._sb) == bytes([MCCP2]) and self.mccp_on:
                        # MCCP2: every byte after this SE is one zlib stream.
                        self._inflate = __import__("zlib").decompressobj()
                        self._feed(chunk[index + 1:])
                        return
                    self._subnegotiation(bytes(self._sb))
                else:
                    self._state = "data"
            else:  # ("opt", cmd)
                self._state = "data"
                self._negotiate(st[1], b)
        self._emit(out)

    def _negotiate(self, cmd: int, opt: int) -> None:
        self.events.append((COMMAND_NAMES[cmd], OPTION_NAMES.get(opt, str(opt))))
        if cmd == DO:
            if opt == NAWS and self.naws is not None:
                self._cmd(WILL, NAWS)
                self.resize(*self.naws)
            elif opt == TTYPE and self.ttypes:
                self._cmd(WILL, TTYPE)
            elif opt == CHARSET and self.charset is not None:
                self._cmd(WILL, CHARSET)
            elif opt == BINARY and self.binary_on:
                self._cmd(WILL, BINARY)
            else:
                self._cmd(WONT, opt)
        elif cmd == WILL:
            agree = {GMCP: self.gmcp_on, EOR: self.eor_on, BINARY: self.binary_on, MSSP: self.mssp_on,
                     ECHO: self.echo_on, SGA: False, CHARSET: self.charset is not None,
                     MCCP2: self.mccp_on}.get(opt, False)
            if opt == ECHO:
                self.server_echo = True
            self._cmd(DO if agree else DONT, opt)
            if opt == GMCP and agree:
                self.send_gmcp("Core.Hello", {"client": "korchma-tests", "version": "1"})
                self.send_gmcp("Core.Supports.Set", ["Core 1", "Korchma 1"])
        elif cmd == WONT:
            if opt == ECHO:
                self.server_echo = False
            self._cmd(DONT, opt)
        # DONT: nothing to answer

    def _subnegotiation(self, sb: bytes) -> None:
        if not sb:
            return
        opt, body = sb[0], sb[1:]
        if opt == TTYPE and body[:1] == bytes([TTYPE_SEND]) and self.ttypes:
            name = self.ttypes[min(self._ttype_index, len(self.ttypes) - 1)]
            self._ttype_index += 1
            self._subneg(TTYPE, bytes([TTYPE_IS]) + name.encode("ascii"))
        elif opt == CHARSET and body[:1] == bytes([CHARSET_REQUEST]) and self.charset is not None:
            sep = body[1:2]
            offered = [c.decode("ascii", "replace") for c in body[2:].split(sep)] if sep else []
            upper = {c.upper(): c for c in offered}
            choice = next((upper[c.upper()] for c in self.charset if c.upper() in upper), None)
            if choice is None:
                self._subneg(CHARSET, bytes([CHARSET_REJECTED]))
            else:
                self.charset_chosen = choice
                self._subneg(CHARSET, bytes([CHARSET_ACCEPTED]) + choice.encode("ascii"))
        elif opt == GMCP:
            text = body.decode("utf-8", "replace")
            package, _, rest = text.partition(" ")
            try:
                data = json.loads(rest) if rest.strip() else None
            except json.JSONDecodeError:
                data = rest
            self.gmcp_messages.append((package, data))
        elif opt == MSSP:
            key = None
            for part in re.split(b"([\x01\x02])", body):
                if part == b"\x01":
                    mode = "var"
                elif part == b"\x02":
                    mode = "val"
                elif part:
                    value = part.decode("utf-8", "replace")
                    if mode == "var":
                        key = value
                        self.mssp.setdefault(key, [])
                    elif key is not None:
                        self.mssp[key].append(value)
            self.mssp = {k: (v[0] if len(v) == 1 else v) for k, v in self.mssp.items()}


async def log_in(port: int, name: str, password: str = "secret1", create: bool = True,
                 **options: Any) -> TelnetClient:
    """Connect to 127.0.0.1:``port`` and log in (creating the account if ``create``)."""
    preamble = options.pop("preamble", b"")
    client = TelnetClient(**options)
    await client.connect("127.0.0.1", port, preamble=preamble)
    await client.login(name, password, create=create)
    await client.settle(0.1)
    return client
