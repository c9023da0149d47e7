#!/usr/bin/env python3
"""Korchma benchmark: memory per session and `say` broadcast cost, against a bare asyncio server.

    python bench/run_all.py            (or: make bench)
    python bench/run_all.py --quick    (smaller numbers, for a smoke test)

Starts every server itself (temporary data folders, free ports, 127.0.0.1 only), drives them from
raw-socket telnet clients on one asyncio loop in this process (and asyncssh for SSH), prints the
figures with the targets beside them, and stops everything it started. See bench/README.md.
"""
from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import platform
import random
import re
import resource
import shutil
import string
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"

# Run inside the project's virtualenv (asyncssh lives there) even when started as `python bench/...`.
if Path(sys.prefix).resolve() != VENV.resolve() and (VENV / "bin" / "python").exists() \
        and not os.environ.get("KORCHMA_BENCH_REEXEC"):
    os.environ["KORCHMA_BENCH_REEXEC"] = "1"
    os.execv(str(VENV / "bin" / "python"), [str(VENV / "bin" / "python"), *sys.argv])

sys.path.insert(0, str(Path(__file__).resolve().parent))

from procs import ServerProcess, raise_nofile  # noqa: E402
from tclient import TelnetClient, connect  # noqa: E402

try:
    import asyncssh  # noqa: E402
except ImportError:  # pragma: no cover
    asyncssh = None

HOST = "127.0.0.1"
PASSWORD = "benchpass1"
ENCODING_MENU = b"Kodirovka"
TOKEN_RE = re.compile(rb"ZQ(\d{5})Q")
TAG_RE = re.compile(r"<(/[bygrcmd]?|[bygrcmd])>")
CSI_RE = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\r")

MCCP = False  # --mccp: Korchma's telnet clients accept MCCP2 (like Mudlet or TinTin++ do)

TARGET_IDLE_KIB = 25
TARGET_SSH_KIB = 300
TARGET_RATIO = 3.0

_started: list[ServerProcess] = []


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def _kill_leftovers() -> None:
    for srv in _started:
        srv.kill_now()


atexit.register(_kill_leftovers)


# -- what the Korchma login screen says ---------------------------------------------------------

class LoginTexts:
    """Prompts of the login flow, read from the catalog of the configured default language."""

    def __init__(self, config_path: Path) -> None:
        with config_path.open("rb") as fh:
            lang = tomllib.load(fh).get("server", {}).get("default_language", "ru")
        with (ROOT / "world" / "locale" / lang / "core.toml").open("rb") as fh:
            login = tomllib.load(fh)["login"]
        self.lang = lang
        self.ask_name = self._plain(login["ask_name"])
        self.ask_new_password = self._plain(login["ask_new_password"])[:24]
        self.ask_confirm = self._plain(login["ask_confirm"])
        self.ask_password = self._plain(login["ask_password"].split("{", 1)[0])
        self.bad_password = self._plain(login["bad_password"])
        self.welcome = self._plain(login["welcome"].split("{", 1)[0])
        menu = login.get("encoding_menu")
        self.encoding_menu = self._plain(menu)[:20] if menu else ENCODING_MENU

    @staticmethod
    def _plain(text: str) -> bytes:
        return TAG_RE.sub("", text).strip().encode("utf-8")


def unique_names(prefix: str, n: int) -> list[str]:
    tag = "".join(random.choice(string.ascii_lowercase) for _ in range(3))
    return [f"{prefix}{tag}{i:04d}" for i in range(n)]


# -- clients ------------------------------------------------------------------------------------

async def korchma_prompt(port: int, texts: LoginTexts, timeout: float = 30.0,
                         local_addr: str | None = None) -> TelnetClient:
    """Connect, negotiate (refuse all but NAWS), answer the encoding menu: stop at the name prompt."""
    client = await connect(HOST, port, local_addr=local_addr, mccp=MCCP)
    try:
        if await client.expect(texts.encoding_menu, texts.ask_name, timeout=timeout) == 0:
            client.send_line("1")
            await client.expect(texts.ask_name, timeout=timeout)
    except BaseException:
        client.close()
        raise
    return client


async def korchma_login(port: int, texts: LoginTexts, name: str, timeout: float = 60.0) -> TelnetClient:
    """A new account through the telnet login flow: name, password, password again."""
    client = await korchma_prompt(port, texts, timeout)
    try:
        client.send_line(name)
        await client.expect(texts.ask_new_password, timeout=timeout)
        client.send_line(PASSWORD)
        await client.expect(texts.ask_confirm, timeout=timeout)
        client.send_line(PASSWORD)
        await client.expect(texts.welcome, timeout=timeout)
    except BaseException:
        client.close()
        raise
    client.discard = True  # from now on, nobody reads what arrives but the sinks
    client.buf.clear()
    return client


async def bare_prompt(port: int, timeout: float = 30.0) -> TelnetClient:
    client = await connect(HOST, port)
    try:
        await client.expect(b"Name:", timeout=timeout)
    except BaseException:
        client.close()
        raise
    return client


async def bare_login(port: int, name: str, timeout: float = 30.0) -> TelnetClient:
    client = await bare_prompt(port, timeout)
    try:
        client.send_line(name)
        await client.expect(b"Welcome", timeout=timeout)
    except BaseException:
        client.close()
        raise
    client.discard = True
    client.buf.clear()
    return client


async def open_many(factory, n: int, parallel: int, what: str) -> tuple[list, list, float]:
    """Run factory(i) for i < n with at most `parallel` at once; returns (clients, errors, seconds)."""
    sem = asyncio.Semaphore(parallel)
    done = 0
    t0 = time.perf_counter()

    async def one(i: int):
        nonlocal done
        async with sem:
            try:
                return await factory(i)
            finally:
                done += 1
                if done % max(1, n // 4) == 0:
                    log(f"  {what}: {done}/{n} ({time.perf_counter() - t0:.1f}s)")

    results = await asyncio.gather(*(one(i) for i in range(n)), return_exceptions=True)
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    return ok, errors, time.perf_counter() - t0


def close_all(clients) -> None:
    for c in clients:
        try:
            c.close()
        except Exception:
            pass


async def settle(seconds: float) -> None:
    await asyncio.sleep(seconds)


# -- the say test -------------------------------------------------------------------------------

class SayTarget:
    """One server in the say test: its process, a speaker, listeners, and what arrived when."""

    def __init__(self, key: str, srv: ServerProcess, speaker: TelnetClient, listeners: list[TelnetClient],
                 total: int) -> None:
        self.key, self.srv, self.speaker, self.listeners = key, srv, speaker, listeners
        self.sent = [0.0] * total
        self.arrivals: list[list[float]] = [[] for _ in range(total)]
        self.profiler: subprocess.Popen | None = None
        self.profile_out: Path | None = None
        for c in listeners:
            c.sink = self._make_sink(total)
        speaker.discard = True

    def _make_sink(self, total: int):
        arrivals = self.arrivals
        now = time.perf_counter
        carry = b""

        def sink(chunk: bytes) -> None:
            nonlocal carry
            t = now()
            data = carry + chunk
            skip = len(carry)
            for m in TOKEN_RE.finditer(data):
                if m.end() > skip:
                    seq = int(m.group(1))
                    if seq < total:
                        arrivals[seq].append(t)
            carry = data[-15:]
        return sink

    def say(self, seq: int) -> None:
        self.sent[seq] = time.perf_counter()
        self.speaker.send_line(f"say ZQ{seq:05d}Q")

    def complete(self, seqs) -> bool:
        n = len(self.listeners)
        return all(len(self.arrivals[s]) >= n for s in seqs)

    def detach(self) -> None:
        for c in self.listeners:
            c.sink = None
            c.discard = True


async def say_test(targets: list[SayTarget], says: int, spacing: float, warmup: int = 5,
                   pyspy: str | None = None, tmp: Path | None = None) -> dict:
    """Every target gets a say each `spacing` seconds; with two targets their says alternate
    (offset by half a spacing), so both servers see the same background load on this machine."""
    now = time.perf_counter
    offset = spacing / len(targets)

    async def round_of(seq: int) -> None:
        for tg in targets:
            tg.say(seq)
            await asyncio.sleep(offset)

    for seq in range(warmup):
        await round_of(seq)
    await asyncio.sleep(1.0)
    # idle CPU of each server with everybody connected, for reference
    idle0 = [tg.srv.cpu_seconds() for tg in targets]
    t_idle = now()
    await asyncio.sleep(3.0)
    span = now() - t_idle
    idle_rate = [(tg.srv.cpu_seconds() - c0) / span for tg, c0 in zip(targets, idle0)]

    if pyspy and tmp is not None:
        duration = int(says * spacing) + 2
        for tg in targets:
            tg.profile_out = tmp / f"{tg.key}.pyspy.txt"
            tg.profiler = subprocess.Popen(
                [pyspy, "record", "--pid", str(tg.srv.pid), "--duration", str(duration), "--rate", "250",
                 "--format", "raw", "--output", str(tg.profile_out), "--nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await asyncio.sleep(0.5)

    me0 = resource.getrusage(resource.RUSAGE_SELF)
    cpu0 = [tg.srv.cpu_seconds() for tg in targets]
    t0 = now()
    measured = range(warmup, warmup + says)
    for seq in measured:
        await round_of(seq)
    deadline = now() + 10.0
    while now() < deadline and not all(tg.complete(measured) for tg in targets):
        await asyncio.sleep(0.05)
    cpu1 = [tg.srv.cpu_seconds() for tg in targets]
    window = now() - t0
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)

    results = {}
    for i, tg in enumerate(targets):
        tg.detach()
        if tg.profiler is not None:
            try:
                tg.profiler.wait(timeout=30)
            except subprocess.TimeoutExpired:
                tg.profiler.kill()
                tg.profiler.wait()
        expected = len(tg.listeners)
        lat: list[float] = []
        reach_all: list[float] = []
        missing = 0
        for s in measured:
            got = tg.arrivals[s]
            missing += max(0, expected - len(got))
            lat.extend((t - tg.sent[s]) * 1000 for t in got)
            if len(got) >= expected:
                reach_all.append((max(got) - tg.sent[s]) * 1000)
        lat.sort()
        reach_all.sort()
        used = cpu1[i] - cpu0[i]
        res = {
            "listeners": expected, "says": says, "spacing_s": spacing, "deliveries": len(lat),
            "missing": missing, "interleaved_with": [t.key for t in targets if t is not tg],
            "p50_ms": pct(lat, 50), "p99_ms": pct(lat, 99), "max_ms": lat[-1] if lat else None,
            "all_p50_ms": pct(reach_all, 50), "all_p99_ms": pct(reach_all, 99),
            "cpu_per_say_ms": used / says * 1000, "cpu_window_s": window, "server_cpu_s": used,
            "idle_cpu_pct": idle_rate[i] * 100,
            "cpu_per_say_net_ms": max(0.0, used - idle_rate[i] * window) / says * 1000,
            "client_cpu_s": client_cpu,
        }
        if tg.profile_out is not None and tg.profile_out.exists():
            res["profile"] = summarize_profile(tg.profile_out)
        results[tg.key] = res
    return results


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    k = min(len(values) - 1, max(0, int(round(p / 100 * len(values) + 0.5)) - 1))
    return values[k]


# -- phases -------------------------------------------------------------------------------------

def korchma_server(tmp: Path, tag: str) -> ServerProcess:
    data = tmp / f"korchma-{tag}"
    data.mkdir()
    argv = [sys.executable, "-m", "server", "serve", "--config", "config.toml", "--telnet-port", "0",
            "--ssh-port", "0", "--data-dir", str(data)]
    srv = ServerProcess(f"korchma-{tag}", argv, r"KORCHMA READY telnet=(\d+) ssh=(\d+)",
                        tmp / f"korchma-{tag}.log", ROOT)
    _started.append(srv)
    return srv


def bare_server(tmp: Path, tag: str) -> ServerProcess:
    argv = [sys.executable, str(ROOT / "bench" / "bare_server.py"), "--host", HOST, "--port", "0"]
    srv = ServerProcess(f"bare-{tag}", argv, r"BARE READY port=(\d+)", tmp / f"bare-{tag}.log", ROOT)
    _started.append(srv)
    return srv


def mem_delta(before: dict, after: dict, n: int) -> dict:
    out = {"n": n, "before_rss_kib": before["rss"], "after_rss_kib": after["rss"]}
    if n:
        out["rss_kib"] = (after["rss"] - before["rss"]) / n
        out["anon_kib"] = (after["anon"] - before["anon"]) / n
        if before["pss"] is not None and after["pss"] is not None:
            out["pss_kib"] = (after["pss"] - before["pss"]) / n
    return out


async def phase_korchma_idle(tmp: Path, texts: LoginTexts, n: int, parallel: int) -> dict:
    srv = korchma_server(tmp, "idle")
    try:
        m = await srv.start()
        port = int(m.group(1))
        log(f"korchma idle: server pid {srv.pid}, telnet {port}")
        # warm-up: one full login and a few prompt-only connections, so lazy imports are in the baseline
        warm = await korchma_login(port, texts, "Warmidle")
        warm.send_line("say warm")
        extra = [await korchma_prompt(port, texts) for _ in range(3)]
        await settle(0.5)
        close_all([warm, *extra])
        await settle(1.5)
        before = srv.memory()
        clients, errors, secs = await open_many(lambda i: korchma_prompt(port, texts), n, parallel,
                                                "korchma telnet at login prompt")
        await settle(1.5)
        after = srv.memory()
        res = mem_delta(before, after, len(clients))
        res.update(errors=len(errors), connect_s=secs,
                   negotiations=sum(c.negotiations for c in clients) / max(1, len(clients)))
        if errors:
            res["first_error"] = repr(errors[0])
        close_all(clients)
        await settle(0.5)
        return res
    finally:
        await srv.stop()


async def phase_bare_idle(tmp: Path, n: int, parallel: int) -> dict:
    srv = bare_server(tmp, "idle")
    try:
        m = await srv.start()
        port = int(m.group(1))
        log(f"bare idle: server pid {srv.pid}, port {port}")
        warm = await bare_login(port, "warm")
        warm.send_line("say warm")
        await settle(0.5)
        warm.close()
        await settle(1.0)
        before = srv.memory()
        clients, errors, secs = await open_many(lambda i: bare_prompt(port), n, parallel, "bare idle")
        await settle(1.5)
        after = srv.memory()
        res = mem_delta(before, after, len(clients))
        res.update(errors=len(errors), connect_s=secs)
        close_all(clients)
        await settle(0.5)
        return res
    finally:
        await srv.stop()


async def say_setup(tmp: Path, kind: str, texts: LoginTexts | None, listeners_n: int, parallel: int,
                    clients: list) -> tuple[ServerProcess, dict]:
    """Start a server, warm it up, log in a speaker and the listeners; memory before and after."""
    srv = korchma_server(tmp, "say") if kind == "korchma" else bare_server(tmp, "say")
    m = await srv.start()
    port = int(m.group(1))
    log(f"{kind} say: server pid {srv.pid}, port {port}")
    if kind == "korchma":
        def login(name: str):
            return korchma_login(port, texts, name)
    else:
        def login(name: str):
            return bare_login(port, name)
    warm = await login("Warmsay")
    warm.send_line("say warm")
    await settle(0.5)
    warm.close()
    await settle(1.5)
    before = srv.memory()
    names = unique_names("Lst", listeners_n + 1)
    ok, errors, secs = await open_many(lambda i: login(names[i]), listeners_n + 1, parallel, f"{kind} logins")
    clients.extend(ok)
    await settle(3.0)  # the arrival announcements must drain first
    after = srv.memory()
    mem = mem_delta(before, after, len(ok))
    mem.update(errors=len(errors), login_s=secs)
    if errors:
        mem["first_error"] = repr(errors[0])
    if len(ok) < 2:
        raise RuntimeError(f"{kind}: too few clients logged in ({len(ok)}): {errors[:1]!r}")
    return srv, mem


async def phase_say(tmp: Path, kinds: list[str], texts: LoginTexts, args, pyspy: str | None) -> dict:
    """Both servers up at once, says alternating between them; one result per server."""
    groups: dict[str, list[TelnetClient]] = {k: [] for k in kinds}
    servers: list[ServerProcess] = []
    out: dict = {}
    try:
        targets = []
        for kind in kinds:
            parallel = args.login_parallel if kind == "korchma" else args.parallel
            srv, mem = await say_setup(tmp, kind, texts, args.listeners, parallel, groups[kind])
            servers.append(srv)
            out[f"{kind}_say"] = {"memory": mem}
            total = 5 + args.says
            targets.append(SayTarget(f"{kind}_say", srv, groups[kind][0], groups[kind][1:], total))
        log(f"say test: {', '.join(f'{t.key} {len(t.listeners)} listeners' for t in targets)}; "
            f"{args.says} says each, every {args.spacing}s" + (", interleaved" if len(targets) > 1 else ""))
        results = await say_test(targets, args.says, args.spacing, pyspy=pyspy, tmp=tmp)
        for key, res in results.items():
            out[key]["say"] = res
        return out
    finally:
        for clients in groups.values():
            close_all(clients)
        await settle(0.5)
        for srv in servers:
            await srv.stop()


class _SshSession(asyncssh.SSHClientSession if asyncssh else object):  # type: ignore[misc]
    def __init__(self) -> None:
        self.buf = bytearray()
        self.want: bytes | None = None
        self.found: asyncio.Future | None = None
        self.keep = True

    def data_received(self, data, datatype) -> None:
        if not self.keep:
            return
        self.buf += data if isinstance(data, bytes) else data.encode()
        if self.want is not None and self.found is not None and not self.found.done():
            if self.want in CSI_RE.sub(b"", bytes(self.buf)):
                self.found.set_result(True)

    def connection_lost(self, exc) -> None:
        if self.found is not None and not self.found.done():
            self.found.set_exception(ConnectionError(f"ssh channel closed: {exc!r}; got "
                                                     f"{bytes(self.buf[-200:])!r}"))


async def ssh_login(port: int, name: str, welcome: bytes, timeout: float = 60.0):
    conn = await asyncio.wait_for(asyncssh.connect(
        HOST, port, username=name, password=PASSWORD, known_hosts=None, client_keys=None,
        agent_path=None, preferred_auth="password,keyboard-interactive"), timeout)
    try:
        session = _SshSession()
        session.want = welcome
        session.found = asyncio.get_running_loop().create_future()
        chan, _ = await conn.create_session(lambda: session, term_type="xterm", term_size=(80, 24),
                                            encoding=None)
        await asyncio.wait_for(session.found, timeout)
        session.keep = False
        session.buf.clear()
        return conn
    except BaseException:
        conn.close()
        raise


async def phase_ssh(tmp: Path, texts: LoginTexts, n: int, parallel: int) -> dict:
    srv = korchma_server(tmp, "ssh")
    conns = []
    try:
        m = await srv.start()
        port = int(m.group(2))
        log(f"korchma ssh: server pid {srv.pid}, ssh {port}")
        warm = await ssh_login(port, "Warmssh", texts.welcome)
        await settle(0.5)
        warm.close()
        await settle(1.5)
        before = srv.memory()
        names = unique_names("Ssh", n)
        conns, errors, secs = await open_many(lambda i: ssh_login(port, names[i], texts.welcome), n,
                                              parallel, "korchma ssh logins")
        await settle(2.0)
        after = srv.memory()
        res = mem_delta(before, after, len(conns))
        res.update(errors=len(errors), login_s=secs)
        if errors:
            res["first_error"] = repr(errors[0])
        return res
    finally:
        for c in conns:
            c.close()
        await settle(0.3)
        await srv.stop()


# -- profile summary ----------------------------------------------------------------------------

def summarize_profile(path: Path, top: int = 15) -> list[tuple[str, float]]:
    """py-spy raw (collapsed) stacks -> the functions with the most samples anywhere on the stack."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in path.read_text("utf-8", "replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = stack.split(";")
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + n
        own[frames[-1]] = own.get(frames[-1], 0) + n
    if not total:
        return []
    rows = sorted(own.items(), key=lambda kv: -kv[1])[:top]
    return [(frame, 100.0 * count / total, 100.0 * inclusive[frame] / total) for frame, count in rows]


# -- report -------------------------------------------------------------------------------------

def fmt(v, unit="", nd=1) -> str:
    if v is None:
        return "n/a"
    return f"{v:.{nd}f}{unit}"


def ratio(a, b) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return a / b


def verdict(ok: bool | None) -> str:
    return "" if ok is None else ("PASS" if ok else "FAIL")


def code_version() -> str:
    """The commit measured, and how many files differ from it (read-only git, no index refresh)."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        st = subprocess.run(["git", "--no-optional-locks", "-C", str(ROOT), "status", "--porcelain", "--",
                             "server", "world", "commands", "games"], capture_output=True, text=True,
                            timeout=10).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head or '?'}" + (f" + {len(st)} changed/new files in server/ world/ commands/ games/" if st else "")


def report(r: dict, args) -> list[bool]:
    checks: list[bool] = []
    out = []
    out.append("")
    out.append(f"Korchma bench  {time.strftime('%Y-%m-%d %H:%M')}  python {platform.python_version()}  "
               f"{os.cpu_count()} CPUs  (clients and servers share them)  load avg {os.getloadavg()[0]:.1f}")
    out.append(f"code: {r.get('code', '?')}")
    out.append("telnet clients refuse every option but NAWS" + (" and MCCP2 (--mccp)" if MCCP else "")
               + "; memory = growth of the server's VmRSS (/proc/PID/status) divided by the sessions "
               "added (after a warm-up login)")
    out.append("")
    head = f"{'measure':<44}{'Korchma':>14}{'bare':>12}{'ratio':>9}   target"
    out.append(head)
    out.append("-" * len(head) + "-------")

    def row(name, k, b, unit, target="", ok=None, nd=1, show_ratio=True):
        rt = ratio(k, b) if show_ratio else None
        out.append(f"{name:<44}{fmt(k, unit, nd):>14}{fmt(b, unit, nd):>12}"
                   f"{(fmt(rt, 'x', 2) if rt is not None else ''):>9}   {target} {verdict(ok)}".rstrip())
        if ok is not None:
            checks.append(ok)

    ki, bi = r.get("korchma_idle"), r.get("bare_idle")
    if ki or bi:
        k = ki.get("rss_kib") if ki else None
        b = bi.get("rss_kib") if bi else None
        n = (ki or bi)["n"]
        row(f"idle telnet session @{n} (login prompt), KiB", k, b, "", f"<= {TARGET_IDLE_KIB} KiB",
            None if k is None else k <= TARGET_IDLE_KIB)
        row("  same, RssAnon (heap only), KiB", ki.get("anon_kib") if ki else None,
            bi.get("anon_kib") if bi else None, "")
    ks, bs = r.get("korchma_say"), r.get("bare_say")
    if ks or bs:
        km = ks["memory"] if ks else None
        bm = bs["memory"] if bs else None
        n = (km or bm)["n"]
        k = km.get("rss_kib") if km else None
        b = bm.get("rss_kib") if bm else None
        row(f"logged-in telnet session @{n}, KiB", k, b, "", f"(idle target {TARGET_IDLE_KIB} KiB)")
        row("  same, RssAnon (heap only), KiB", km.get("anon_kib") if km else None,
            bm.get("anon_kib") if bm else None, "")
        kq = ks["say"] if ks else {}
        bq = bs["say"] if bs else {}
        L = (kq or bq).get("listeners")
        if kq and bq:
            out.append(f"  (say test: both servers up at once, their says alternating, {kq['says']} each "
                       f"every {kq['spacing_s']}s)")
        row(f"say p50, send -> a listener (of {L}), ms", kq.get("p50_ms"), bq.get("p50_ms"), "", nd=2)
        rt = ratio(kq.get("p99_ms"), bq.get("p99_ms"))
        row(f"say p99, send -> a listener (of {L}), ms", kq.get("p99_ms"), bq.get("p99_ms"), "",
            f"<= {TARGET_RATIO:g}x bare", None if rt is None else rt <= TARGET_RATIO, nd=2)
        row("say p50, send -> all listeners, ms", kq.get("all_p50_ms"), bq.get("all_p50_ms"), "", nd=2)
        row("say p99, send -> all listeners, ms", kq.get("all_p99_ms"), bq.get("all_p99_ms"), "", nd=2)
        rt = ratio(kq.get("cpu_per_say_ms"), bq.get("cpu_per_say_ms"))
        row("server CPU per say (utime+stime), ms", kq.get("cpu_per_say_ms"), bq.get("cpu_per_say_ms"), "",
            f"<= {TARGET_RATIO:g}x bare", None if rt is None else rt <= TARGET_RATIO, nd=2)
        row("  same, less the idle CPU, ms", kq.get("cpu_per_say_net_ms"), bq.get("cpu_per_say_net_ms"), "",
            nd=2)
        row("  server idle CPU with all connected, %", kq.get("idle_cpu_pct"), bq.get("idle_cpu_pct"), "",
            show_ratio=False)
        row("  bench client CPU during the says, s", kq.get("client_cpu_s"), bq.get("client_cpu_s"), "",
            show_ratio=False, nd=2)
        row("  deliveries missing", kq.get("missing"), bq.get("missing"), "", nd=0, show_ratio=False)
    sh = r.get("korchma_ssh")
    if sh:
        row(f"SSH session @{sh['n']} (pty, logged in), KiB", sh.get("rss_kib"), None, "",
            f"<= {TARGET_SSH_KIB} KiB", None if sh.get("rss_kib") is None else sh["rss_kib"] <= TARGET_SSH_KIB)
    out.append("")
    notes = []
    for key in ("korchma_idle", "bare_idle", "korchma_ssh"):
        v = r.get(key)
        if v:
            notes.append(f"{key}: {v['n']} sessions in {v.get('connect_s', v.get('login_s', 0)):.1f}s, "
                         f"RSS {v['before_rss_kib']} -> {v['after_rss_kib']} KiB, errors {v['errors']}"
                         + (f" (first: {v['first_error']})" if v.get("first_error") else ""))
    for key in ("korchma_say", "bare_say"):
        v = r.get(key)
        if v:
            m, s = v["memory"], v["say"]
            notes.append(f"{key}: {m['n']} logins in {m['login_s']:.1f}s, RSS {m['before_rss_kib']} -> "
                         f"{m['after_rss_kib']} KiB, errors {m['errors']}"
                         + (f" (first: {m['first_error']})" if m.get("first_error") else "")
                         + f"; {s['says']} says every {s['spacing_s']}s, {s['deliveries']} deliveries, "
                         f"server CPU {s['server_cpu_s']:.2f}s over {s['cpu_window_s']:.1f}s, "
                         f"max {fmt(s['max_ms'], ' ms', 1)}")
    for e in r.get("errors", []):
        notes.append(f"ERROR {e}")
    out.extend(notes)
    for key in ("korchma_say", "bare_say"):
        prof = (r.get(key) or {}).get("say", {}).get("profile")
        if prof:
            out.append("")
            out.append(f"py-spy, {key} (server process during the says): own% / on-stack%")
            for frame, own, inc in prof:
                out.append(f"  {own:5.1f} {inc:5.1f}  {frame[:140]}")
    out.append(f"total time {r['seconds']:.0f}s")
    print("\n".join(out), flush=True)
    return checks


# -- main ---------------------------------------------------------------------------------------

async def run(args) -> dict:
    r: dict = {"errors": []}
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="korchma-bench-"))
    texts = LoginTexts(ROOT / "config.toml")
    pyspy = None
    if args.pyspy:
        pyspy = shutil.which("py-spy") or (args.pyspy if args.pyspy != "auto" else None)
        if pyspy is None:
            log("py-spy not found: no profile")
    try:
        want = set(args.only.split(","))

        async def attempt(key: str, coro, limit: float) -> None:
            try:
                r[key] = await asyncio.wait_for(coro, limit)
            except Exception as exc:  # one phase failing must not lose the others
                msg = f"{key}: {type(exc).__name__}: {exc}"
                r["errors"].append(msg)
                log(msg)

        def wanted(key: str) -> bool:
            return key in want or key.split("_")[0] in want

        if wanted("bare_idle"):
            await attempt("bare_idle", phase_bare_idle(tmp, args.sessions, args.parallel), 120)
        if wanted("korchma_idle"):
            await attempt("korchma_idle", phase_korchma_idle(tmp, texts, args.sessions, args.parallel), 180)
        kinds = [k for k in ("korchma", "bare") if wanted(f"{k}_say")]
        if kinds:
            try:
                r.update(await asyncio.wait_for(phase_say(tmp, kinds, texts, args, pyspy), 420))
            except Exception as exc:
                msg = f"say: {type(exc).__name__}: {exc}"
                r["errors"].append(msg)
                log(msg)
        if wanted("korchma_ssh") and args.ssh > 0:
            if asyncssh is None:
                r["errors"].append("korchma_ssh: asyncssh is not importable")
            else:
                await attempt("korchma_ssh", phase_ssh(tmp, texts, args.ssh, args.ssh_parallel), 180)
    finally:
        for srv in _started:
            await srv.stop()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            log(f"kept {tmp}")
    r["seconds"] = time.perf_counter() - t0
    r["code"] = code_version()
    return r


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=1000, help="idle telnet sessions (default 1000)")
    parser.add_argument("--listeners", type=int, default=300, help="listeners in the say test (default 300)")
    parser.add_argument("--says", type=int, default=200, help="measured says (default 200)")
    parser.add_argument("--spacing", type=float, default=0.22,
                        help="seconds between says (default 0.22: under the 5/s flood limit)")
    parser.add_argument("--ssh", type=int, default=50, help="SSH sessions (default 50, 0 to skip)")
    parser.add_argument("--parallel", type=int, default=50, help="connections opened at once")
    parser.add_argument("--login-parallel", type=int, default=16, help="Korchma telnet logins at once")
    parser.add_argument("--ssh-parallel", type=int, default=8, help="SSH logins at once")
    parser.add_argument("--only", default="bare,korchma",
                        help="comma-separated: bare, korchma, or phases bare_idle, korchma_idle, bare_say, "
                             "korchma_say, korchma_ssh (default: bare,korchma = everything)")
    parser.add_argument("--quick", action="store_true", help="smoke test: 100 sessions, 50 listeners, 30 says, 5 SSH")
    parser.add_argument("--pyspy", nargs="?", const="auto", default=None,
                        help="profile the servers during the says with py-spy (path or on PATH)")
    parser.add_argument("--mccp", action="store_true",
                        help="Korchma telnet clients accept MCCP2 compression (default: refuse, like raw telnet)")
    parser.add_argument("--json", help="also write the raw results to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, profiles)")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()
    if args.quick:
        args.sessions, args.listeners, args.says, args.ssh = 100, 50, 30, 5
    known = {"bare", "korchma", "bare_idle", "korchma_idle", "bare_say", "korchma_say", "korchma_ssh"}
    unknown = set(args.only.split(",")) - known
    if unknown:
        parser.error(f"--only: unknown {', '.join(sorted(unknown))}; choose from {', '.join(sorted(known))}")
    global MCCP
    MCCP = args.mccp
    nofile = raise_nofile()
    need = args.sessions + 100
    if nofile < need:
        print(f"file descriptor limit {nofile} is below {need}", file=sys.stderr)
        return 2
    try:
        r = asyncio.run(asyncio.wait_for(run(args), 900))
    except KeyboardInterrupt:
        _kill_leftovers()
        return 130
    checks = report(r, args)
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2, default=str), "utf-8")
    if r["errors"]:
        return 1
    if args.strict and not all(checks):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
