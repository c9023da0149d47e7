"""The SSH front door: asyncssh, login by password or public key (server/ssh_auth.py), a light
line editor per session (its shared parts in server/ssh_terminal.py).

A session with a terminal (pty) gets a prompt_toolkit line editor: editing, history, Tab
completion, and messages that arrive while the player types are printed above the prompt without
breaking the half-typed line. To stay small (prompt_toolkit's ``PromptSession`` costs ~835 KiB
per connection; a session here adds ~100 KiB of server RSS, ~25 KiB of it asyncssh's) each
session builds only a one-line layout and shares with every other session what can be shared:
the key bindings (and their lookup caches), the completer and the style. The input is fed from
the channel in memory (no OS pipe), cursor position requests are off, the terminal size is not
polled (SSH reports resizes), and output is batched: everything written in one event-loop turn
is printed above the prompt in one redraw, as it is (only colour sequences pass), not parsed
into per-character fragments.

A session without a pty (``ssh host command``, scripts, ``ssh -T``) reads plain lines from the
channel; with a command it runs that command line and exits.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh
from prompt_toolkit.application import Application, run_in_terminal
from prompt_toolkit.application.current import create_app_session
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import Completion
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input.typeahead import _buffer as _typeahead_buffer
from prompt_toolkit.key_binding.key_processor import KeyProcessor
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

from commands.parser import SHORTCUTS, available, resolve
from world.messages import Msg, msg
from world.models import Account
from world.text import clean

from .session import Session
from .ssh_auth import KorchmaSSHServer
from .ssh_terminal import (COMPLETER, FOREIGN_ESCAPE, NO_BINDINGS, PROMPT, STYLE, ChannelInput, ChannelStdout,
                           MaskPasswords, SmallHistory, color_terminal, mask_secret,
                           shared_bindings)
from .startup import StartupError, one_line, os_reason

if TYPE_CHECKING:
    from .ports import AppServices

MAX_BACKLOG = 512 * 1024  # bytes of output queued for one client before it is dropped
log = logging.getLogger("korchma.ssh")

# -- the server ----------------------------------------------------------------------------


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's ed25519 host key: read it, or make it once and keep it (mode 600)."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="korchma host key")
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key.export_private_key())
    os.replace(tmp, path)
    (path.with_name(path.name + ".pub")).write_bytes(key.export_public_key())
    log.info("generated SSH host key %s (%s)", path, key.get_fingerprint())
    return key


def host_key(path: Path) -> asyncssh.SSHKey:
    """:func:`load_host_key`, with a failure as one line naming server.host_key."""
    try:
        return load_host_key(path)
    except (OSError, asyncssh.KeyImportError, ValueError) as err:
        reason = os_reason(err) if isinstance(err, OSError) else one_line(err)
        if path.exists():
            raise StartupError(f"SSH host key {path} cannot be read ({reason}); fix it, remove it (a new "
                               f"one is made), or change server.host_key") from err
        raise StartupError(f"SSH host key {path} cannot be written ({reason}); make its folder writable, "
                           f"or change server.host_key (a relative path is inside server.data_dir)") from err


async def start_ssh(app: "AppServices", sockets: list[socket.socket], key: asyncssh.SSHKey) -> tuple["SSHDoor", int]:
    """Serve SSH on the bound listening sockets (server/listener.py)."""
    # asyncssh logs every channel at INFO; our own line per login is enough unless debugging.
    if not log.isEnabledFor(logging.DEBUG):
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
    door = SSHDoor()
    for sock in sockets:
        door.acceptors.append(await asyncssh.create_server(
            lambda: KorchmaSSHServer(app, SSHSession), sock=sock,
            server_host_keys=[key],
            line_editor=False,  # prompt_toolkit edits lines on a pty; plain lines otherwise
            encoding="utf-8", errors="replace",
            login_timeout=float(app.config.section("accounts")["login_timeout"]),
            keepalive_interval=60,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False,
        ))
    return door, sockets[0].getsockname()[1]


class SSHDoor:
    """The SSH listeners (one per address the host names)."""

    def __init__(self) -> None:
        self.acceptors: list[Any] = []

    def close(self) -> None:
        for acceptor in self.acceptors:
            acceptor.close()


# -- the session ---------------------------------------------------------------------------


class SSHSession(Session, asyncssh.SSHServerSession):
    kind = "ssh"
    newline = "\n"  # turned into \r\n by the terminal output, kept as \n for scripts

    def __init__(self, app: "AppServices", address: str, account: Account, created: bool = False,
                 failures: tuple[int, int] = (0, 0)) -> None:
        Session.__init__(self, app, address)
        self._auth_account = account
        self._created = created
        self._failures = failures
        self.login_method = "new" if created else "password"  # "key": set by the auth (server/ssh_auth.py)
        self._chan: Any = None
        self._command: str | None = None
        self._pty = False
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._partial = ""
        self._lost = False
        self._closed = asyncio.Event()  # close() has finished
        self._task: asyncio.Task | None = None
        # terminal mode only
        self._input: ChannelInput | None = None
        self._output: Vt100_Output | None = None
        self._pt: Application | None = None
        self._ui_task: asyncio.Task | None = None
        self._ctx: contextvars.Context | None = None
        self._pending: list[str] = []
        self._flush_handle: asyncio.Handle | None = None
        self._printing: Any = None
        self.input_limit = int(app.config.section("limits")["input_buffer"])

    # -- asyncssh callbacks ----------------------------------------------------------------

    def connection_made(self, chan: Any) -> None:
        self._chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        self._pty = self._chan.get_terminal_type() is not None
        self._task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: str, datatype: Any) -> None:
        if self._input is not None:
            self._input.feed(data)
            return
        *lines, self._partial = (self._partial + data).split("\n")
        if len(self._partial) > self.input_limit:  # no end of line in sight: cut, as telnet does
            lines.append(self._partial[:self.input_limit])
            self._partial = ""
        for line in lines:
            self._lines.put_nowait(line.rstrip("\r"))

    def eof_received(self) -> bool:
        if self._input is None and self._partial:
            self._lines.put_nowait(self._partial.rstrip("\r"))
            self._partial = ""
        self.end_of_input()
        return True  # keep sending: the goodbye still has to go out

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width > 0:
            self.width = max(20, min(width, 500))  # as telnet's NAWS
        if self._pty and self._command is None:  # a terminal (not a script): it may be paged
            self.pager.rows = max(0, height)
        if self._pt is not None and self._pt.is_running:
            self._pt._on_resize()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self.end_of_input()
        self._stop_ui()

    # -- the session's life ----------------------------------------------------------------

    async def _run(self) -> None:
        self.world.connected(self)
        try:
            if self._pty and self._command is None:
                self._start_terminal()
            else:
                self.width = 0  # scripts get long lines, not wrapped ones
            if self._created:
                self.send("login.created", name=self._auth_account.name)
            await self.app.logged_in(self, self._auth_account, method=self.login_method)
            self.tell_failures(self._failures)
            if self._command is not None:
                for line in self._command.splitlines():
                    if self.closed:
                        break
                    await self.handle_line(line)
                await self.close()
                return
            while not self.closed:
                line = await self._lines.get()
                if line is None:
                    if not self._lost:
                        await self.close(msg("quit.bye"))
                    break
                await self.handle_line(line)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.log_failure(log, "SSH session of %s failed", self.account.name if self.account else "?")
        finally:
            await self.close()  # or wait for the close already under way
            await self.app.logged_out(self)

    def end_of_input(self) -> None:
        """EOF, Ctrl-D on an empty line, or the connection went away."""
        self._lines.put_nowait(None)

    async def close(self, message: Msg | None = None) -> None:
        """Show ``message``, take the prompt away, send exit status 0 and close the channel."""
        if self.closed:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._closed.wait(), 5)
            return
        self.closed = True
        self.pager.finish()
        try:
            if message is not None:
                self.write(self.render(message))
            await self._drain()
            if self._ui_task is not None:
                self._stop_ui()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(self._ui_task), 2)
            self._lines.put_nowait(None)
            if self._chan is not None and not self._lost:
                with contextlib.suppress(OSError):
                    self._chan.exit(0)
        finally:
            self._closed.set()

    # -- output ----------------------------------------------------------------------------

    hidden_input = False  # set_echo(False): the line typed now is a secret

    def set_echo(self, on: bool) -> None:
        self.hidden_input = not on

    def write(self, rendered: Any) -> None:
        if self._chan is None or self._lost or self.pager.hold(rendered):
            return
        if self._chan.get_write_buffer_size() > MAX_BACKLOG:
            # A client that stopped reading must not make the server hold its output for ever.
            log.info("ssh %s stopped reading; dropped", self.address)
            self._chan.close()
            return
        if self._pt is None:
            if self._pty:
                rendered = rendered.replace("\n", "\r\n")
            with contextlib.suppress(BrokenPipeError, OSError):
                self._chan.write(rendered)
            return
        # Everything written in one loop turn goes above the prompt in one redraw.
        self._pending.append(rendered)
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush, context=self._ctx)

    def _flush(self) -> None:
        """Print what is pending above the prompt (runs in this session's prompt_toolkit context)."""
        self._flush_handle = None
        if not self._pending or self._output is None:
            return
        text = "".join(self._pending).replace("\n", "\r\n")
        self._pending.clear()
        output = self._output
        color = self.color

        def show() -> None:
            # Written as it is rather than parsed with prompt_toolkit's ANSI(): that makes a
            # (style, char) tuple per character, ~200 KiB for one `who` list, per recipient.
            # Only colour (SGR) sequences pass; any other ESC becomes "?" as in plain output.
            output.reset_attributes()
            output.enable_autowrap()
            if color:
                output.write_raw(FOREIGN_ESCAPE.sub("?", text))
            else:
                output.write(text)
            output.reset_attributes()
            output.flush()

        if self._pt is not None and self._pt.is_running:
            self._printing = run_in_terminal(show)
        else:
            show()

    async def _drain(self) -> None:
        """Wait until everything written so far has reached the channel."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            assert self._ctx is not None
            self._ctx.run(self._flush)
        printing = self._printing
        if printing is not None and not printing.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(printing), 2)

    def show_choices(self, choices: list[str]) -> None:
        """Tab with several candidates: list them above the prompt, in columns."""
        col = max(len(c) for c in choices) + 2
        per_line = max(1, (self.width or 80) // col)
        rows = [choices[i:i + per_line] for i in range(0, len(choices), per_line)]
        self.write("\n".join("".join(c.ljust(col) for c in row).rstrip() for row in rows) + "\n")

    # -- the terminal (prompt_toolkit) -----------------------------------------------------

    def send_prompt(self) -> None:
        if self._pt is not None and self._pt.is_running:  # the page prompt may have come or gone
            self._pt.invalidate()

    def _prompt(self) -> str:
        return self.pager.prompt() + " " if self.pager.open else PROMPT

    def _size(self) -> Size:
        cols, rows = (self._chan.get_terminal_size()[:2] if self._chan is not None else (0, 0))
        return Size(rows=rows or 24, columns=cols or 80)

    def _start_terminal(self) -> None:
        term = self._chan.get_terminal_type() or ""
        self.term_color = color_terminal(term)
        self.terminal_size_changed(*self._chan.get_terminal_size())
        self._input = ChannelInput()
        self._output = Vt100_Output(ChannelStdout(self._chan), self._size, term=term,
                                    default_color_depth=None if self.term_color else ColorDepth.DEPTH_1_BIT,
                                    enable_cpr=False)
        buffer = Buffer(multiline=False, history=SmallHistory(), completer=COMPLETER,
                        accept_handler=self._accept, on_text_insert=self._cap_line)
        control = BufferControl(buffer, input_processors=[MaskPasswords(self), BeforeInput(self._prompt)],
                                include_default_input_processors=False)
        pt = Application(layout=Layout(Window(control, dont_extend_height=True, wrap_lines=True)),
                         style=STYLE, include_default_pygments_style=False, erase_when_done=True,
                         terminal_size_polling_interval=None, input=self._input, output=self._output)
        # Application builds its own copy of every default binding (~230 KiB); use the shared
        # set, and a key processor that looks keys up there, so the caches are shared too.
        pt._default_bindings = NO_BINDINGS
        pt._page_navigation_bindings = NO_BINDINGS
        pt.key_processor = KeyProcessor(shared_bindings())
        # Likewise its style merges the default UI style into a new Style (~130 KiB once drawn):
        # our one-line prompt needs none of those classes.
        pt._merged_style = STYLE
        pt.renderer.style = STYLE
        pt.korchma_session = self  # type: ignore[attr-defined]
        self._pt = pt
        self._ctx = contextvars.copy_context()
        self._ui_task = asyncio.get_running_loop().create_task(self._ui(), context=self._ctx)

    async def _ui(self) -> None:
        assert self._pt is not None and self._input is not None and self._output is not None
        with create_app_session(input=self._input, output=self._output):
            try:
                if not self.closed:
                    # Not the process's signals, nor the loop's exception handler: they are the app's.
                    await self._pt.run_async(handle_sigint=False, set_exception_handler=False)
            except (EOFError, asyncio.CancelledError):
                pass
            except Exception:
                log.exception("SSH terminal of %s failed", self.account.name if self.account else "?")
            finally:
                _typeahead_buffer.pop(self._input.typeahead_hash(), None)
        self.end_of_input()

    def _stop_ui(self) -> None:
        pt = self._pt
        if pt is not None and pt.is_running:
            if pt.future is not None and not pt.future.done():
                pt.exit()
        elif self._ui_task is not None and not self._ui_task.done():
            self._ui_task.cancel()  # it has not started the application yet
        if self._input is not None:
            self._input.close()

    def _cap_line(self, buffer: Buffer) -> None:
        """A line typed (or pasted) without end is cut, as telnet's input buffer is."""
        if len(buffer.text) > self.input_limit:
            buffer.text = buffer.text[:self.input_limit]

    def _accept(self, buffer: Buffer) -> bool:
        """Enter: show the line above the prompt, queue it, keep the editor ready."""
        line = buffer.text
        hidden = self.hidden_input
        secret = hidden or self.is_secret_command(line)
        shown = "*" * len(line) if hidden else mask_secret(line) if secret else line
        if not (self.pager.open and not line.strip()):  # Enter under a page: the next page, no echo
            self.write(self._prompt() + clean(shown) + "\n")
        self._lines.put_nowait(line)
        if secret:  # not into history
            buffer.reset()
            return True
        return False

    def completions(self, before: str) -> list[Completion]:
        """Completions for the word before the cursor, in this session's context."""
        from commands import load_all  # noqa: F401  (registers every command)

        word = "" if not before or before[-1].isspace() else before.split()[-1]
        head = before[:len(before) - len(word)]
        folded = word.casefold()
        commands = available(self)
        if not head.strip():
            candidates = {v for cmd in commands for v in cmd.verbs if len(v) > 1}
        else:
            first = head.split()[0]
            verb = SHORTCUTS[first[0]] if first[0] in SHORTCUTS else first
            cmd, _ = resolve(verb, commands)
            kinds = cmd.completes if cmd is not None and cmd.completes else ("player",)
            candidates = set()
            if "command" in kinds:
                candidates |= {v for c in commands for v in c.verbs if len(v) > 1}
            if "player" in kinds:
                candidates |= {a.name for a in self.world.online_accounts()}
            if "table" in kinds and self.world.tables is not None:
                candidates |= {str(table.number) for table in self.world.tables.listing()}
        return [Completion(c, -len(word)) for c in sorted(candidates, key=str.casefold)
                if c.casefold().startswith(folded)]

    def set_encoding(self, encoding: str) -> None:
        super().set_encoding(encoding)
        if self._chan is not None:
            self._chan.set_encoding(encoding, "replace")

    def apply_account_settings(self, account: Account) -> None:
        # SSH terminals speak UTF-8: the account's encoding is what its telnet client chose.
        known, self.encoding_known = self.encoding_known, True
        super().apply_account_settings(account)
        self.encoding_known = known
