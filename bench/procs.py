"""Start, watch and stop the servers under test: readiness line, RSS/PSS, CPU time."""
from __future__ import annotations

import asyncio
import ctypes
import os
import re
import resource
import signal
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")
NOFILE = 8192  # enough for 1,300+ sockets on both ends


def raise_nofile(want: int = NOFILE) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(max(want, soft), hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _child_setup() -> None:
    """Runs in the server process before exec: file limit, and die with the bench."""
    raise_nofile()
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: the server goes when the bench goes
    except OSError:
        pass


class ServerProcess:
    """A server child process that prints a readiness line on stdout."""

    def __init__(self, name: str, argv: list[str], ready: str, log_path: Path, cwd: Path) -> None:
        self.name = name
        self.argv = argv
        self.ready = re.compile(ready)
        self.log_path = log_path
        self.cwd = cwd
        self.proc: asyncio.subprocess.Process | None = None
        self.match: re.Match | None = None
        self._log = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def start(self, timeout: float = 60.0) -> re.Match:
        self._log = open(self.log_path, "wb")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, cwd=str(self.cwd), env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=self._log, preexec_fn=_child_setup)
        try:
            self.match = await asyncio.wait_for(self._wait_ready(), timeout)
        except BaseException:
            await self.stop()
            raise
        return self.match

    async def _wait_ready(self) -> re.Match:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                await self.proc.wait()
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode} before it was ready; "
                                   f"log {self.log_path}:\n{self.log_tail()}")
            m = self.ready.search(line.decode("utf-8", "replace"))
            if m:
                asyncio.get_running_loop().create_task(self._drain())
                return m

    async def _drain(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        try:
            while await self.proc.stdout.read(65536):
                pass
        except Exception:
            pass

    def log_tail(self, n: int = 25) -> str:
        try:
            lines = self.log_path.read_text("utf-8", "replace").splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-n:])

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    # -- measurements ------------------------------------------------------------------------

    def status_kib(self, field: str = "VmRSS") -> int:
        with open(f"/proc/{self.pid}/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        raise KeyError(field)

    def rss_kib(self) -> int:
        return self.status_kib("VmRSS")

    def pss_kib(self) -> int | None:
        try:
            with open(f"/proc/{self.pid}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def memory(self) -> dict:
        return {"rss": self.rss_kib(), "pss": self.pss_kib(), "anon": self.status_kib("RssAnon")}

    def cpu_seconds(self) -> float:
        """utime + stime of the whole process (all threads), from /proc/PID/stat."""
        with open(f"/proc/{self.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    # -- stop --------------------------------------------------------------------------------

    async def stop(self, timeout: float = 15.0) -> None:
        proc = self.proc
        if proc is not None and proc.returncode is None:
            try:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), timeout)
            except (asyncio.TimeoutError, ProcessLookupError):
                try:
                    proc.kill()
                except ProcessLookupError:
                    pass
                await proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def kill_now(self) -> None:
        """Last resort (atexit): no await possible."""
        if self.proc is not None and self.proc.returncode is None:
            try:
                os.kill(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
