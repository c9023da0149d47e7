"""A server forked by tests/forkserver.py is the process an exec would have made: the same open
descriptors (nothing of the forkserver's leaks in), working folder, descriptor limit, and exit
codes as subprocess.Popen reports them. (Its environment is set in os.environ after the fork,
which /proc/PID/environ, the block a process was exec'd with, does not show.)"""
from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests import conftest
from tests.conftest import ROOT, TEST_CONFIG, ServerProcess, merge_toml
from tests.forkserver import ForkedProcess

pytestmark = pytest.mark.skipif(conftest._FORK is None, reason="KORCHMA_TEST_FORK=0: servers start with exec")


def descriptors(pid: int) -> list[str]:
    """What each descriptor is, by kind: a socket's or pipe's inode and the log's time stamp differ."""
    kinds = []
    for fd in sorted(os.listdir(f"/proc/{pid}/fd"), key=int):
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
        kinds.append(f"{fd}:{target.split('[')[0] if '[' in target else re.sub(r'[0-9]+', 'N', Path(target).name)}")
    return kinds


def make(tmp_path: Path, name: str, nofile: int | None = None) -> ServerProcess:
    data = tmp_path / name
    data.mkdir()
    config = tmp_path / f"{name}.toml"
    config.write_text(merge_toml(TEST_CONFIG, ""))
    return ServerProcess(data_dir=data, config=config, nofile=nofile)


def wait_for_sigterm_handler(pid: int) -> None:
    """Until the server catches SIGTERM (its handler goes in just after the READY line)."""
    deadline = time.monotonic() + 30
    while True:
        caught = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                      if line.startswith("SigCgt:"))
        if int(caught.split()[1], 16) >> (signal.SIGTERM - 1) & 1:
            return
        assert time.monotonic() < deadline, "the server never caught SIGTERM"
        time.sleep(0.01)


def test_a_forked_server_is_the_process_an_exec_makes(tmp_path):
    forked = make(tmp_path, "forked", nofile=512).start()
    # The baseline: the same start with a plain exec.
    fork, conftest._FORK = conftest._FORK, None
    try:
        execed = make(tmp_path, "execed", nofile=512).start()
    finally:
        conftest._FORK = fork
    try:
        assert isinstance(forked.proc, ForkedProcess) and isinstance(execed.proc, subprocess.Popen)
        assert forked.proc.pid != os.getpid() and os.getpgid(forked.proc.pid) == forked.proc.pid
        # The same descriptors of the same kinds: no forkserver socket or pipe left open in it.
        assert descriptors(forked.proc.pid) == descriptors(execed.proc.pid)
        assert os.readlink(f"/proc/{forked.proc.pid}/cwd") == str(ROOT)
        assert resource.prlimit(forked.proc.pid, resource.RLIMIT_NOFILE) == (512, 512)
        assert forked.proc.poll() is None
        # A clean stop (SIGTERM once its handler is in) exits 0, as the exec'd one does.
        for srv in (forked, execed):
            wait_for_sigterm_handler(srv.proc.pid)
        assert forked.terminate() == 0 == execed.terminate()
        assert "Tortoise-ORM shutdown" in forked.log()
    finally:
        for srv in (forked, execed):
            if srv.proc and srv.proc.poll() is None:
                srv.proc.kill()
                srv.proc.wait(5)


def test_exit_codes_read_as_popen_reports_them(tmp_path):
    killed = make(tmp_path, "killed").start()
    killed.kill9()
    assert killed.proc.returncode == -signal.SIGKILL
    # A start that fails: one line on stderr (the server's log file here) and exit code 2.
    bad = make(tmp_path, "bad")
    bad.config.write_text("[server]\nno_such_key = 1\n")
    with pytest.raises(RuntimeError, match="server exited early"):
        bad.start()
    assert bad.proc.wait(10) == 2
    assert "no_such_key" in bad.log() and "Traceback" not in bad.log()
