"""The terminal of an SSH session: what prompt_toolkit needs, shared by every session.

A session with a pty gets a one-line prompt_toolkit editor (server/ssh.py ``SSHSession``). To keep
it small, everything that can be shared is: the key bindings (and their lookup caches), the
completer and the style. Input comes from the channel in memory (:class:`ChannelInput`, no OS
pipe), output goes to the channel (:class:`ChannelStdout`), history is short and in memory, and
the arguments of a secret command are masked while they are typed (:class:`MaskPasswords`).
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
from typing import Any, Iterator

from prompt_toolkit.application import get_app
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import History
from prompt_toolkit.input import Input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.bindings.basic import load_basic_bindings
from prompt_toolkit.key_binding.bindings.emacs import load_emacs_bindings
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.styles import Style

PROMPT = "> "
HISTORY_SIZE = 50
# TERM values that cannot show colour; anything else that names a terminal can.
MONO_TERMS = frozenset({"", "dumb", "unknown", "vt52", "vt100", "vt102", "vt220", "vt320", "vt420"})


def color_terminal(term: str | None) -> bool:
    term = (term or "").strip().lower()
    if term in MONO_TERMS or "mono" in term or term.endswith("-m"):
        return False
    return not (term.startswith("vt") and "color" not in term)


class SmallHistory(History):
    """In-memory history of the last HISTORY_SIZE lines (prompt_toolkit's grows for ever)."""

    def __init__(self) -> None:
        super().__init__()
        self._loaded = True

    def load_history_strings(self) -> list[str]:
        return []

    def store_string(self, string: str) -> None:
        pass

    def append_string(self, string: str) -> None:
        self._loaded_strings.insert(0, string)
        del self._loaded_strings[HISTORY_SIZE:]


class ChannelInput(Input):
    """prompt_toolkit input fed from the SSH channel in memory: no OS pipe, no file descriptor."""

    def __init__(self) -> None:
        self._keys: list[KeyPress] = []
        self._parser = Vt100Parser(self._keys.append)
        self._callback: Any = None
        self._scheduled = False
        self._closed = False

    def feed(self, data: str) -> None:
        self._parser.feed(data)
        self._wake()

    def _wake(self) -> None:
        # Call the application back from the loop, never from inside asyncssh's packet handling.
        if self._callback is not None and not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._ready)

    def _ready(self) -> None:
        self._scheduled = False
        if self._callback is not None:
            self._callback()

    def fileno(self) -> int:
        raise NotImplementedError("ChannelInput has no file descriptor")

    def typeahead_hash(self) -> str:
        return f"ssh-{id(self)}"

    def read_keys(self) -> list[KeyPress]:
        keys = self._keys[:]
        self._keys.clear()
        return keys

    def flush_keys(self) -> list[KeyPress]:
        self._parser.flush()
        return self.read_keys()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._closed = True
        self._wake()

    def raw_mode(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def cooked_mode(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def _with_callback(self, callback: Any) -> Iterator[None]:
        previous, self._callback = self._callback, callback
        if callback is not None and (self._keys or self._closed):
            self._wake()
        try:
            yield
        finally:
            self._callback = previous
            if previous is not None and (self._keys or self._closed):
                self._wake()

    def attach(self, input_ready_callback: Any) -> contextlib.AbstractContextManager[None]:
        return self._with_callback(input_ready_callback)

    def detach(self) -> contextlib.AbstractContextManager[None]:
        return self._with_callback(None)


class ChannelStdout:
    """What Vt100_Output writes to: the SSH channel."""

    encoding = "utf-8"

    def __init__(self, chan: Any) -> None:
        self.chan = chan

    def write(self, data: str) -> int:
        try:
            self.chan.write(data)
        except (BrokenPipeError, OSError):
            pass  # the channel is closing: nothing more to show
        return len(data)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def mask_secret(text: str) -> str:
    """'password old new' shown as 'password *** ***'."""
    head, sep, rest = text.partition(" ")
    return head + sep + "".join(" " if ch == " " else "*" for ch in rest)


class MaskPasswords(Processor):
    """Hide the arguments of a secret command (``password OLD NEW``, or a verb that may mean
    it: ``Session.is_secret_command``, as the session will read the line) while they are typed,
    and the whole line while the session asks for a secret (``hidden_input``)."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        text = ti.document.text
        hidden = self.session.hidden_input
        if not hidden and not self.session.is_secret_command(text):
            return Transformation(ti.fragments)
        masked = "*" * len(text) if hidden else mask_secret(text)
        style = ti.fragments[0][0] if ti.fragments else ""
        return Transformation([(style, masked)])


class KorchmaCompleter(Completer):
    """Verbs first; then player names or table numbers, as the command says it takes."""

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        session = getattr(get_app(), "korchma_session", None)
        if session is None or session.account is None:
            return
        yield from session.completions(document.text_before_cursor)


COMPLETER = KorchmaCompleter()
FOREIGN_ESCAPE = re.compile(r"\x1b(?!\[[0-9;]*m)")
STYLE = Style([])  # the output carries its own colours; the prompt is plain


def _on_tab(event: Any) -> None:
    buf = event.current_buffer
    session = getattr(event.app, "korchma_session", None)
    if session is None:
        return
    completions = list(COMPLETER.get_completions(buf.document, CompleteEvent(completion_requested=True)))
    if not completions:
        return
    typed = -completions[0].start_position  # every candidate replaces the same word
    found = sorted({c.text for c in completions}, key=str.casefold)
    if len(found) == 1:
        buf.delete_before_cursor(typed)
        buf.insert_text(found[0] + " ")
        return
    common = os.path.commonprefix([c.casefold() for c in found])
    if len(common) > typed:
        buf.delete_before_cursor(typed)
        buf.insert_text(found[0][:len(common)])
        return
    session.show_choices(found)


def _on_eof(event: Any) -> None:
    session = getattr(event.app, "korchma_session", None)
    if session is not None:
        session.end_of_input()


def _on_paste(event: Any) -> None:
    """Pasted lines run one by one; the last (unfinished) one stays in the editor."""
    session = getattr(event.app, "korchma_session", None)
    data = event.data.replace("\r\n", "\n").replace("\r", "\n")
    buf = event.current_buffer
    if session is not None:
        data = data[:session.input_limit]
    *lines, last = data.split("\n")
    for line in lines:
        buf.insert_text(line)
        buf.validate_and_handle()
    buf.insert_text(last)


def _shared_bindings() -> KeyBindings:
    kb = KeyBindings()
    empty = Condition(lambda: not get_app().current_buffer.text)
    kb.add("tab")(_on_tab)
    kb.add("c-d", filter=empty)(_on_eof)
    kb.add("c-c")(lambda event: event.current_buffer.reset())
    kb.add(Keys.BracketedPaste)(_on_paste)
    # No vi mode, no search, no mouse, no page navigation: a one-line MUD prompt.
    return merge_key_bindings([load_basic_bindings(), load_emacs_bindings(), kb])


_BINDINGS: Any = None
NO_BINDINGS = KeyBindings()


def shared_bindings() -> Any:
    global _BINDINGS
    if _BINDINGS is None:
        _BINDINGS = _shared_bindings()
    return _BINDINGS
