"""Keep secrets out of the log, whatever logs them.

Code that handles a secret (a password line, a new password, the arguments of ``password``)
runs inside :func:`secret_scope`. Every log record made inside the scope by the task that opened
it (our code, the ORM, asyncssh: anything that logs from that task, in whatever it awaits), and
every traceback attached to it, has each of those secrets replaced by ``[secret]`` before any
handler sees it. Argon2 hashes are redacted from every record, in a scope or not: a hash is what
an offline guesser needs.

The secrets belong to the task (world/task_local.py), not to a context variable: a task
started meanwhile (a login pokes a table's runner, which starts bot and clock tasks; the inbox
spool starts its retry task) would copy a context variable, keep the password in memory for as
long as it runs, and have every one of its later log lines matched against it (a password
"table" would turn "table 5: ..." into "[secret] 5: ..."). So a spawned task inherits nothing,
and when the scope ends no copy of its secrets is left. The other side of it: a step that handles a secret must run in the
task of its scope (argon2 runs in threads, which log nothing), or open a scope of its own.

The work happens in a log record factory (:func:`install`), not in a handler's filter, so it
holds for handlers configured before or after, by anyone.
"""
from __future__ import annotations

import contextlib
import logging
import re
from typing import Any, Iterator

from .task_local import TaskLocal

MASK = "[secret]"
# A PHC string of argon2: "$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>".
_ARGON2 = re.compile(r"\$argon2(?:id|i|d)\$[^\s'\"]*")
# Words shorter than this are not redacted on their own (a whole secret line always is): a
# password has at least 4 characters, and redacting "a" or "of" would garble every message.
MIN_WORD = 3

# The secrets of the open scopes, by the task that opened them (world/task_local.py).
_secrets: TaskLocal[tuple[str, ...]] = TaskLocal("korchma_secrets", ())
_installed = False


def current_secrets() -> tuple[str, ...]:
    """The secrets redacted from a record made here and now (longest first)."""
    return _secrets.get()


def _forms(value: str) -> set[str]:
    """The ways a logged text may show ``value``: as it is, and as repr() escapes it."""
    forms = {value}
    escaped = repr(value)[1:-1]
    if escaped:
        forms.add(escaped)
    return forms


@contextlib.contextmanager
def secret_scope(*values: str, words: tuple[str, ...] = ()) -> Iterator[None]:
    """Within this block, log records this task makes never show any of ``values`` (whole
    secrets: a password line), nor any of ``words`` of at least :data:`MIN_WORD` characters
    (the arguments of a command line that holds secrets). Tasks started meanwhile get none of
    it (see the module's text)."""
    kept = {form for value in values if value for form in _forms(value)}
    kept |= {form for word in words if len(word) >= MIN_WORD for form in _forms(word)}
    if not kept:
        yield
        return
    # Longest first, so a whole line goes before the words inside it.
    with _secrets.bound(tuple(sorted(set(_secrets.get()) | kept, key=len, reverse=True))):
        yield


def redact(text: str, secrets: tuple[str, ...] | None = None) -> str:
    for secret in current_secrets() if secrets is None else secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return _ARGON2.sub("$argon2[hash]", text) if "$argon2" in text else text


def _clean(record: logging.LogRecord) -> None:
    secrets = current_secrets()
    try:
        message = record.getMessage()
    except Exception:  # a broken format string: leave it to the handler to report
        return
    cleaned = redact(message, secrets)
    if cleaned != message:
        record.msg, record.args = cleaned, None
    if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
        text = logging.Formatter().formatException(record.exc_info)
        record.exc_text = redact(text, secrets)
    elif record.exc_text:
        record.exc_text = redact(record.exc_text, secrets)
    if record.stack_info:
        record.stack_info = redact(record.stack_info, secrets)


def install() -> None:
    """Make every log record of this process pass through the redaction (once)."""
    global _installed
    if _installed:
        return
    _installed = True
    make = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        _clean(record)
        return record

    logging.setLogRecordFactory(factory)
