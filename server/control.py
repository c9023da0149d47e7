"""The control channel: `korchma` subcommands talk to the running server through a Unix socket.

The server opens ``<data_dir>/control.sock`` (mode 0600: only the user running the server, and
root, may use it) when it starts and removes it when it stops. A client sends one JSON object on
one line, ``{"op": NAME, ...}``, and reads one JSON line back: ``{"ok": true, ...}`` or
``{"ok": false, "error": "one line"}``. Each operation is a handler registered with
:func:`handler` (``async def fn(app, request) -> dict``); a module that wants one registers it
at import. A command that only needs the database works without the server: :func:`request`
returns None when nobody answers, and the command says the server was not reached.

Why a socket file and not a TCP port: its permissions are the access control (no password to
keep), and it lives with the data it controls, so two servers on one machine never mix up.
"""
from __future__ import annotations

import asyncio
import importlib
import json
import logging
import os
import socket
from pathlib import Path
from typing import Any, Awaitable, Callable

log = logging.getLogger("korchma.control")

SOCKET_NAME = "control.sock"
MAX_REQUEST = 64 * 1024  # one JSON line; anything longer is refused
CLIENT_TIMEOUT = 10.0

Handler = Callable[[Any, dict[str, Any]], Awaitable[dict[str, Any]]]
HANDLERS: dict[str, Handler] = {}
# Modules whose handlers the server loads when it opens the channel (each registers at import).
HANDLER_MODULES = ["server.admin_roles", "server.drain"]


def handler(op: str) -> Callable[[Handler], Handler]:
    """Register ``fn`` as the server side of operation ``op``."""
    def register(fn: Handler) -> Handler:
        HANDLERS[op] = fn
        return fn
    return register


def socket_path(data_dir: Path) -> Path:
    return Path(data_dir) / SOCKET_NAME


@handler("ping")
async def _ping(app: Any, request: dict[str, Any]) -> dict[str, Any]:
    return {"pid": os.getpid()}


class ControlServer:
    """The server's end: one task per client, one request and one reply each."""

    def __init__(self, app: Any, path: Path) -> None:
        self.app, self.path = app, path
        self.server: asyncio.AbstractServer | None = None

    async def start(self) -> bool:
        """Listen at ``path``; False (and a warning in the log) when it cannot."""
        for module in HANDLER_MODULES:
            importlib.import_module(module)
        if _answers(self.path):
            log.warning("control socket %s: another server answers there; not opened", self.path)
            return False
        # Bound under a temporary name, made 0600, then renamed: the socket is never reachable
        # by others, not even for a moment between bind and chmod.
        temporary = self.path.with_name(f".{SOCKET_NAME}.{os.getpid()}")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            for stale in (temporary, self.path):
                if stale.is_socket():
                    stale.unlink()  # left by a server that was killed: nobody answers there
            sock.bind(str(temporary))
            os.chmod(temporary, 0o600)
            os.replace(temporary, self.path)
            self.server = await asyncio.start_unix_server(self._serve, sock=sock, limit=MAX_REQUEST)
        except OSError as err:  # a path too long for a socket (108 bytes), a read-only folder, ...
            sock.close()
            temporary.unlink(missing_ok=True)
            log.warning("control socket %s could not be opened (%s); `korchma` commands will say "
                        "the server was not reached", self.path, err.strerror or err)
            return False
        log.info("control socket %s (korchma admin and the other commands reach the server there)", self.path)
        return True

    async def close(self) -> None:
        if self.server is None:
            return
        self.server.close()
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        self.server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            reply = await self._reply(reader)
            writer.write(json.dumps(reply, ensure_ascii=False).encode() + b"\n")
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def _reply(self, reader: asyncio.StreamReader) -> dict[str, Any]:
        try:
            line = await asyncio.wait_for(reader.readline(), CLIENT_TIMEOUT)
            request = json.loads(line)
        except (ValueError, asyncio.LimitOverrunError, asyncio.TimeoutError):
            return {"ok": False, "error": "not one JSON line"}
        if not isinstance(request, dict) or request.get("op") not in HANDLERS:
            op = request.get("op") if isinstance(request, dict) else None
            return {"ok": False, "error": f"unknown operation {op!r}"}
        try:
            return {"ok": True, **await HANDLERS[request["op"]](self.app, request)}
        except Exception as err:  # noqa: BLE001 - the client gets one line; the log has the rest
            log.exception("control operation %s failed", request["op"])
            return {"ok": False, "error": f"{type(err).__name__}: {' '.join(str(err).split())}"}


def _answers(path: Path) -> bool:
    if not path.is_socket():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(1.0)
            probe.connect(str(path))
        return True
    except OSError:
        return False


def request(data_dir: Path, op: str, timeout: float = CLIENT_TIMEOUT, **fields: Any) -> dict[str, Any] | None:
    """Ask the server running on ``data_dir``; its reply, or None when no server answers."""
    path = socket_path(data_dir)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(path))
            sock.sendall(json.dumps({"op": op, **fields}, ensure_ascii=False).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
    except OSError:  # no socket, nobody listening, refused, timed out
        return None
    try:
        reply = json.loads(data)
    except ValueError:
        return None
    return reply if isinstance(reply, dict) else None
