"""Shared fixtures: a real server process on free ports with a temporary data folder."""
from __future__ import annotations

import asyncio
import atexit
import os
import re
import resource
import select
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.forkserver import ForkClient

ROOT = Path(__file__).resolve().parents[1]
READY = re.compile(r"KORCHMA READY telnet=(\d+) ssh=(\d+)(?: metrics=(\d+))?(?: web=(\d+))?")
# Servers are forked from a process that imported the server once (tests/forkserver.py), which
# saves each start most of its CPU; KORCHMA_TEST_FORK=0 starts each with a plain exec instead.
_FORK = ForkClient(ROOT) if os.environ.get("KORCHMA_TEST_FORK", "1") != "0" else None
if _FORK is not None:
    atexit.register(_FORK.close)


@dataclass
class ServerProcess:
    data_dir: Path
    config: Path
    extra: list[str] = field(default_factory=list)
    log_dir: Path | None = None  # where the server's log goes (default: the data folder)
    proc: subprocess.Popen | None = None
    telnet_port: int = 0
    ssh_port: int = 0
    metrics_port: int | None = None  # [metrics] port set: the port /metrics is on
    web_port: int | None = None  # [web] port set: the port of the page and its WebSocket
    log_path: Path | None = None
    nofile: int | None = None  # a lower file-descriptor limit (RLIMIT_NOFILE) for the process

    def _limit_descriptors(self) -> None:
        assert self.nofile is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def start(self, timeout: float = 30.0) -> "ServerProcess":
        self.log_path = (self.log_dir or self.data_dir) / f"server-{int(time.time() * 1000)}.log"
        log = self.log_path.open("w")
        argv = ["serve", "--config", str(ROOT / "config.toml"), "--config", str(self.config),
                "--telnet-port", "0", "--ssh-port", "0", "--data-dir", str(self.data_dir), *self.extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        forked = _FORK.spawn(argv, ROOT, env, log, self.nofile) if _FORK is not None else None
        log.close()  # the server has its own copy
        self.proc = forked or subprocess.Popen(  # type: ignore[assignment]
            [sys.executable, "-m", "server", *argv],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log_path.open("a"), text=True, env=env,
            preexec_fn=self._limit_descriptors if self.nofile else None,
        )
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if not ready:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited early:\n{self.log_path.read_text()}")
                continue
            line = self.proc.stdout.readline()
            if not line:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited early:\n{self.log_path.read_text()}")
                continue
            m = READY.search(line)
            if m:
                self.telnet_port, self.ssh_port = int(m.group(1)), int(m.group(2))
                self.metrics_port = int(m.group(3)) if m.group(3) else None
                self.web_port = int(m.group(4)) if m.group(4) else None
                return self
        self.proc.kill()
        raise RuntimeError(f"server did not start:\n{self.log_path.read_text()}")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self, timeout: float = 20.0) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path else ""


# Laid over config.toml in every test server: quick negotiation and bots, and no paging by the
# screen's rows (the test clients say 80x24 or 200x50, and most tests read long texts whole; the
# pager's own tests, tests/test_pager.py, turn it on).
TEST_CONFIG = """
[server]
negotiation_wait = 0.5
pager = false

[tables]
bot_delay = 0.05
"""


@pytest.fixture
def server_factory(tmp_path):
    """Start servers with extra config TOML appended to config.toml; all stopped at the end."""
    started: list[ServerProcess] = []

    def make(extra_toml: str = "", data_dir: Path | None = None, log_dir: Path | None = None) -> ServerProcess:
        data = data_dir or (tmp_path / "data")
        data.mkdir(exist_ok=True)
        cfg = tmp_path / f"config-{len(started)}.toml"
        cfg.write_text(merge_toml(TEST_CONFIG, extra_toml))
        srv = ServerProcess(data_dir=data, config=cfg, log_dir=log_dir)
        started.append(srv)
        return srv.start()

    yield make
    for srv in started:
        if srv.proc and srv.proc.poll() is None:
            srv.proc.kill()
            srv.proc.wait(5)


def merge_toml(base: str, extra: str) -> str:
    """Lay ``extra`` over ``base``: both are small TOML texts of [section] key = value lines."""
    sections: dict[str, dict[str, str]] = {}
    for text in (base, extra):
        current = ""
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                current = line.strip("[]")
                sections.setdefault(current, {})
            else:
                key, _, value = line.partition("=")
                sections.setdefault(current, {})[key.strip()] = value.strip()
    return "\n".join(f"[{name}]\n" + "\n".join(f"{k} = {v}" for k, v in items.items()) + "\n"
                     for name, items in sections.items())


@pytest.fixture
def server(server_factory):
    return server_factory()


# The files that take longest (minutes of CPU each, in pools of their own) run first: with
# `--dist loadfile` a file started last is the one the other worker waits for at the end. xdist
# would order files by their number of tests, which put these few-test files last; `make test`
# passes --no-loadscope-reorder so this order holds (the other files: most tests first, as xdist's).
LONGEST_FIRST = ("test_coup_property.py", "test_revolution_property.py", "test_mafia_property.py",
                 "test_whispers_property.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    per_file = Counter(item.path for item in items)

    def rank(item: pytest.Item) -> tuple[int, int]:
        name = item.path.name
        if name in LONGEST_FIRST:
            return LONGEST_FIRST.index(name), 0
        return len(LONGEST_FIRST), -per_file[item.path]

    items.sort(key=rank)  # stable: a file's tests stay together and in their order
