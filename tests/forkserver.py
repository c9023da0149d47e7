"""Test servers forked from a process that has imported the server already.

Every wire test starts its own server process (tests/conftest.py); about two thirds of a start's
CPU was Python importing the same modules each time (asyncssh, tortoise, prompt_toolkit, our own
layers) before `main()` ran. This helper process imports them once per pytest worker; each test
server is then a fresh `fork()` of it that runs `server.cli.main(argv)` with its own command
line, working folder, environment, stdin/stdout/stderr and descriptor limit: the same code as
`python -m server serve ...`, in a process of its own, listening on real sockets. Modules are
imported here, and the read-only texts every start loads (server.startup.preload_texts: our
catalogs, Babel's plural rules, pymorphy3's dictionaries, the game modules: files no test changes
while the suite runs; a start read them again each time, a quarter of its CPU); nothing else of
the project's is read (config, the database: each server reads its own, as a start from scratch
does), and no thread or event loop exists at the fork.

Protocol (a Unix socket per request): the client sends one JSON line {argv, cwd, env, nofile}
with three descriptors (stdin, stdout, stderr) attached; the forkserver answers "pid N\n", and
later "exit CODE\n" (CODE as subprocess.Popen.returncode: negative for a signal) when it has
reaped the server. `ForkedProcess` is the client's Popen-like handle. Set KORCHMA_TEST_FORK=0
to start every server with a plain exec instead.
"""
from __future__ import annotations

import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

# commands.load_all: every command module (and the world modules they use), which a server
# otherwise imports at its first command line.
PRELOAD = ("server.cli", "server.app", "server.ssh", "server.telnet", "commands", "commands.load_all",
           "server.web.door", "redis.asyncio")  # (the web door and the cluster tests: imported only when on)


class ForkedProcess:
    """The part of subprocess.Popen the tests use, for a server forked by the forkserver."""

    def __init__(self, conn: socket.socket, pid: int, stdout: IO[str]) -> None:
        self._conn = conn
        self._buf = b""
        self.pid = pid
        self.stdout = stdout
        self.returncode: int | None = None

    def _read_exit(self, timeout: float | None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            if b"\n" in self._buf:
                line, _, self._buf = self._buf.partition(b"\n")
                word, _, value = line.decode().partition(" ")
                if word == "exit":
                    self.returncode = int(value)
                    self._conn.close()
                continue
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._conn], [], [], left)
            if not ready:
                return
            chunk = self._conn.recv(4096)
            if not chunk:  # the forkserver went away: the process is gone with it (its group)
                self.returncode = -signal.SIGKILL
                self._conn.close()
                return
            self._buf += chunk

    def poll(self) -> int | None:
        self._read_exit(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._read_exit(timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"server pid {self.pid}", timeout or 0)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:  # exited, not yet reported
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkClient:
    """The pytest worker's end: starts the forkserver once, asks it for servers."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = Path(f"/tmp/korchma-fork-{os.getpid()}.sock")
        self.proc: subprocess.Popen | None = None
        self.broken = False
        self._lock = threading.Lock()

    def _ensure(self) -> bool:
        if self.proc is not None and self.proc.poll() is None:
            return True
        if self.broken:
            return False
        self.path.unlink(missing_ok=True)
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.forkserver", str(self.path)], cwd=self.root,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        if not ready or self.proc.stdout.readline().strip() != "ready":
            self.proc.kill()
            self.broken = True
            return False
        return True

    def spawn(self, argv: list[str], cwd: Path, env: dict[str, str], stderr: IO[Any],
              nofile: int | None) -> ForkedProcess | None:
        """A forked server, or None when the forkserver cannot be used (start it with exec)."""
        with self._lock:
            if not self._ensure():
                return None
        read_end, write_end = os.pipe()
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.connect(str(self.path))
            request = json.dumps({"argv": argv, "cwd": str(cwd), "env": env, "nofile": nofile}).encode() + b"\n"
            with open(os.devnull, "rb") as devnull:
                socket.send_fds(conn, [request], [devnull.fileno(), write_end, stderr.fileno()])
            reply = b""
            while not reply.endswith(b"\n"):
                chunk = conn.recv(1)
                if not chunk:
                    raise OSError("forkserver closed the connection")
                reply += chunk
        except OSError:
            conn.close()
            os.close(read_end)
            return None
        finally:
            os.close(write_end)
        word, _, pid = reply.decode().strip().partition(" ")
        assert word == "pid", reply
        return ForkedProcess(conn, int(pid), os.fdopen(read_end, "r"))

    def close(self) -> None:
        """Stop the forkserver; it kills any server still running (its process group)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.path.unlink(missing_ok=True)


# -- the forkserver process ---------------------------------------------------------------


def _child(listener: socket.socket, others: list[socket.socket], conn: socket.socket, request: dict,
           fds: list[int]) -> None:
    """In the forked child: become the server process the request describes. Never returns.
    ``others``: every socket of the forkserver's besides ``conn``, closed here."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        listener.close()
        for other in others:
            other.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        conn.close()  # the server's exit is reported by the forkserver, which reaps it
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setpgid(0, 0)  # its own group, like a process the tests started themselves
        if request["nofile"]:
            resource.setrlimit(resource.RLIMIT_NOFILE, (request["nofile"], request["nofile"]))
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        time.tzset()  # the C library read TZ when the forkserver started; the server's may differ
        sys.argv = ["korchma", *request["argv"]]
        from server.cli import main

        code = main(request["argv"])
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        # What the interpreter does on its way out: wait for non-daemon threads, run atexit,
        # flush the streams; then leave without unwinding into the forkserver's loop.
        try:
            threading._shutdown()  # type: ignore[attr-defined]
            import atexit

            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) else 1)


def serve(path: str) -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    from server.startup import preload_texts

    preload_texts()  # the catalogs, plural rules, dictionaries and game modules each start reads
    assert threading.active_count() == 1, "a thread at the fork would be copied half-way"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    waiting: dict[int, socket.socket] = {}  # server pid -> the connection that asked for it
    stopping: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
    # A server's exit wakes the loop at once (its test is waiting for the exit code).
    wake_r, wake_w = socket.socketpair()
    wake_r.setblocking(False)
    wake_w.setblocking(False)
    signal.set_wakeup_fd(wake_w.fileno(), warn_on_full_buffer=False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    print("ready", flush=True)
    parent = os.getppid()
    while os.getppid() == parent and not stopping:  # the pytest worker is gone: so are we
        ready, _, _ = select.select([listener, wake_r], [], [], 0.5)
        if wake_r in ready:
            ready.remove(wake_r)
            try:
                wake_r.recv(4096)
            except BlockingIOError:
                pass
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            conn = waiting.pop(pid, None)
            if conn is not None:
                code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
                try:
                    conn.sendall(f"exit {code}\n".encode())
                except OSError:
                    pass
                conn.close()
        if not ready:
            continue
        conn, _ = listener.accept()
        msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        while not msg.endswith(b"\n"):
            more = conn.recv(1 << 20)
            if not more:
                break
            msg += more
        request = json.loads(msg)
        pid = os.fork()
        if pid == 0:
            _child(listener, [wake_r, wake_w, *waiting.values()], conn, request, fds)
        for fd in fds:
            os.close(fd)
        waiting[pid] = conn
        conn.sendall(f"pid {pid}\n".encode())
    for pid in waiting:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


if __name__ == "__main__":
    serve(sys.argv[1])
