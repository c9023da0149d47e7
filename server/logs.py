"""The server's log: one logfmt line per event, on the console and, when `[log] file` is set, in a
rotating file (docs/decisions.md "Logs").

A line is ``ts=... level=info logger=korchma.audit event=login door=ssh name=Анна ...``:
an audit record (world/audit.py) has ``event`` for ``msg`` and its fields as keys after it. A value is written bare
when it is plain text, and in double quotes otherwise, with ``\\``, ``"`` and every control,
format (bidi) or separator character escaped (``\\n``, ``\\t``, ``\\u202e``), so one event is one
line, a parser sees where each value ends, and nothing a player typed reaches a terminal raw.

world/log_redact.py masks secrets in every record's message (its record factory); the field values
of an audit record go through the same masking here, before they are quoted, for every handler.
"""
from __future__ import annotations

import logging
import logging.handlers
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any, TextIO

from world import log_redact

from .config import Config
from .startup import StartupError

# Keys of a line that are not an audit record's fields; a field of that name is written "field.KEY".
BASE_KEYS = ("ts", "level", "logger", "msg", "event", "exc", "stack")
# Characters that would end a line, move the cursor or reorder text on a terminal: controls (Cc),
# format characters such as the bidi overrides (Cf), line and paragraph separators (Zl, Zp), and
# surrogates or unassigned code points (Cs, Cn) a terminal may draw as anything.
_UNSAFE = ("Cc", "Cf", "Zl", "Zp", "Cs", "Cn")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if unicodedata.category(ch) in _UNSAFE:
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return ch


def quote(value: Any) -> str:
    """A logfmt value: bare when it is a plain word, quoted and escaped otherwise."""
    text = value if isinstance(value, str) else str(value)
    if text.isprintable():  # the common case: no control, format or separator character but " "
        if text and " " not in text and "=" not in text and '"' not in text:
            return text
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    escaped = "".join(_escape_char(ch) for ch in text)
    if text and escaped == text and not any(ch in text for ch in ' ="') and not any(ch.isspace() for ch in text):
        return text
    return f'"{escaped}"'


class LogfmtFormatter(logging.Formatter):
    """One logfmt line per record (see the module's text)."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        pairs: list[tuple[str, Any]] = [("ts", self.formatTime(record)), ("level", record.levelname.lower()),
                                        ("logger", record.name)]
        event = getattr(record, "event", None)
        fields = getattr(record, "fields", None)
        message = record.getMessage()
        if event is None or message != event:  # an audit record's message is its event: said once
            pairs.append(("msg", message))
        if event is not None:
            pairs.append(("event", event))
        if isinstance(fields, dict):
            for key, value in fields.items():
                name = "".join(ch if ch.isalnum() or ch in "_.-" else "_" for ch in str(key)) or "_"
                pairs.append((f"field.{name}" if name in BASE_KEYS else name, log_redact.redact(_text(value))))
        if record.exc_info and not record.exc_text:
            record.exc_text = log_redact.redact(self.formatException(record.exc_info))
        if record.exc_text:
            pairs.append(("exc", record.exc_text))
        if record.stack_info:
            pairs.append(("stack", record.stack_info))
        return " ".join(f"{key}={quote(value)}" for key, value in pairs)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, set)):
        return ",".join(_text(v) for v in value)
    return str(value)


def level_of(cfg: Config, flag: str | None = None) -> int:
    """The level: ``--log-level`` if given, else ``[log] level``."""
    name = (flag or str(cfg.section("log").get("level", "INFO"))).upper()
    return logging.getLevelName(name) if isinstance(logging.getLevelName(name), int) else logging.INFO


def file_path(cfg: Config) -> Path | None:
    """The log file (a relative one is inside data_dir), or None when `[log] file` is empty."""
    name = str(cfg.section("log").get("file", "") or "")
    if not name:
        return None
    path = Path(name)
    return path if path.is_absolute() else cfg.data_dir / path


class Logs:
    """The handlers this process logs through, made from the configuration (and re-made in part
    on SIGHUP, server/reload.py: the level, and the file reopened for a host's logrotate)."""

    def __init__(self) -> None:
        self.console: logging.Handler | None = None
        self.file: logging.handlers.RotatingFileHandler | None = None
        self.flag_level: str | None = None

    def configure(self, cfg: Config, flag_level: str | None = None, console: TextIO | None = None,
                  with_file: bool = True) -> None:
        """The handlers for ``cfg``. ``with_file`` False: a short-lived command (`korchma admin`)
        appends its records (the audit of what it did) to the file without ever rotating it, which
        is the running server's job."""
        log_redact.install()  # no secret in a record's message, whoever logs it
        self.flag_level = flag_level
        root = logging.getLogger()
        formatter = LogfmtFormatter()
        for old in (self.console, self.file):
            if old is not None:
                root.removeHandler(old)
                old.close()
        section = cfg.section("log")
        where = str(section.get("console", "stderr"))
        self.console = None
        if where != "off":
            stream = console or (sys.stdout if where == "stdout" else sys.stderr)
            self.console = logging.StreamHandler(stream)
            self.console.setFormatter(formatter)
            root.addHandler(self.console)
        self.file = None
        path = file_path(cfg)
        if path is not None:
            backups = int(section.get("backups", 0)) if with_file else 0
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self.file = logging.handlers.RotatingFileHandler(
                    # No backups: never rotated (the handler would reopen the same file at every line).
                    path, maxBytes=int(section.get("max_bytes", 0)) if backups else 0, backupCount=backups,
                    encoding="utf-8")
            except OSError as err:
                raise StartupError(f"log file {path} cannot be opened ({err.strerror or err}); "
                                   f"check [log] file and the folder's permissions") from err
            self.file.setFormatter(formatter)
            root.addHandler(self.file)
        root.setLevel(level_of(cfg, flag_level))

    def set_level(self, cfg: Config) -> None:
        """The level from ``cfg`` (a ``--log-level`` given at start still wins)."""
        logging.getLogger().setLevel(level_of(cfg, self.flag_level))

    def reopen(self) -> None:
        """Close the file; the next line opens it again, so a file moved away by logrotate is let go."""
        if self.file is not None:
            self.file.acquire()
            try:
                if self.file.stream is not None:
                    self.file.stream.close()
                    self.file.stream = None  # type: ignore[assignment]
            finally:
                self.file.release()


#: The one set of handlers of this process (server/cli.py configures it, server/reload.py changes it).
LOGS = Logs()


def configure_early(flag_level: str | None) -> None:
    """Before the configuration is read (its errors are one line on stderr anyway): the console
    only, in the same format."""
    LOGS.configure(Config(), flag_level)
