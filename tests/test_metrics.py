"""Metrics: /metrics (Prometheus text) of a real server after real telnet and SSH logins and a bot
game, read back with prometheus-client's own parser; `korchma status` from the same numbers."""
from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import threading
import time
import urllib.request
from collections import defaultdict
from dataclasses import dataclass

from prometheus_client.parser import text_string_to_metric_families

from server.cli import main
from tests.conftest import ROOT
from tests.ssh_client import attempt, connect
from tests.telnet_client import NAME_PROMPT, TelnetClient, log_in
from world.i18n import strip_marks, t

# Metrics on any free port; a quick game of Sealed Bids: Anna never bids, so her seat times out
# (then a bot plays it), and the bot bids at once.
# Two wrong passwords from one address make its next try wait, longer than any test takes.
METRICS = ("[metrics]\nport = 0\n[games.bids]\nseconds = 1\n[tables]\nbot_delay = 0.05\n"
           "[accounts]\nlogin_attempts = 2\nlogin_backoff = 120\n")


def ru(key: str, **params) -> str:
    return strip_marks(t("ru", key, **params))


def scrape(port: int) -> dict[str, list[tuple[dict[str, str], float]]]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = answer.read().decode()
    found: dict[str, list[tuple[dict[str, str], float]]] = defaultdict(list)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name].append((sample.labels, sample.value))
    return found


def value(found, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples that carry ``labels``."""
    return sum(v for have, v in found.get(name, []) if all(have.get(k) == x for k, x in labels.items()))


async def scrape_until(port: int, ready, timeout: float = 10.0):
    """Scrape until ``ready(found)``: the session and table gauges are counted once a second."""
    deadline = time.monotonic() + timeout
    while True:
        found = await asyncio.to_thread(scrape, port)
        if ready(found) or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.2)


@dataclass
class Status:
    returncode: int
    stdout: str
    stderr: str


async def status(srv) -> Status:
    """`korchma status` with the server's flags, run by the CLI's own entry point (in a thread: it
    waits on HTTP), which saves this test an interpreter start per call."""
    out, err = io.StringIO(), io.StringIO()
    argv = ["status", "--config", str(ROOT / "config.toml"), "--config", str(srv.config), "--data-dir",
            str(srv.data_dir)]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = await asyncio.to_thread(main, argv)
    return Status(code, out.getvalue(), err.getvalue())


async def test_metrics_show_logins_sessions_tables_and_latencies_and_status_reads_them(server_factory):
    srv = server_factory(METRICS)
    port = srv.metrics_port
    assert port and port not in (srv.telnet_port, srv.ssh_port)  # READY names the port 0 took
    run = json.loads((srv.data_dir / "korchma.run").read_text())
    assert (run["pid"], run["telnet"], run["ssh"], run["metrics"]) == (srv.proc.pid, srv.telnet_port,
                                                                        srv.ssh_port, port)

    # One login over each door, and one wrong password over each.
    anna = await log_in(srv.telnet_port, "Анна")
    boris = await connect(srv.ssh_port, "Boris", password="secret1")
    guesser = TelnetClient()
    await guesser.connect("127.0.0.1", srv.telnet_port)
    await guesser.reach_name_prompt()
    guesser.send_line("Boris")
    await guesser.expect(ru("login.ask_password", name="Boris"))
    guesser.send_line("not-his-password")
    await guesser.expect(ru("login.bad_password"))
    await guesser.expect(NAME_PROMPT)
    refused, banners = await attempt(srv.ssh_port, "Анна", "not-her-password")
    assert refused is None and ru("login.bad_password") in banners
    guesser.send_line("Boris")  # the address waits now: refused at the name prompt, and counted too
    await guesser.expect(ru("login.wait", seconds=120))
    await guesser.expect(NAME_PROMPT)

    # Anna, and the guesser still at the name prompt; Boris (the gauges are counted once a second).
    found = await scrape_until(port, lambda f: (value(f, "korchma_sessions", door="telnet"),
                                                value(f, "korchma_sessions", door="ssh")) == (2, 1))
    assert value(found, "korchma_sessions", door="telnet") == 2
    assert value(found, "korchma_sessions_logged_in", door="telnet") == 1
    assert value(found, "korchma_sessions", door="ssh") == 1
    assert value(found, "korchma_sessions_logged_in", door="ssh") == 1
    assert value(found, "korchma_logins_total", door="telnet") == 1
    assert value(found, "korchma_logins_total", door="ssh") == 1
    assert value(found, "korchma_login_failures_total", door="telnet", reason="bad_password") == 1
    assert value(found, "korchma_login_failures_total", door="ssh", reason="bad_password") == 1
    assert value(found, "korchma_login_failures_total", door="telnet", reason="wait") == 1
    assert value(found, "korchma_tables") == 0
    await guesser.close()

    # A short game of Sealed Bids against a bot.
    anna.send_line("open bids rounds=3")
    await anna.expect(re.compile(r"стол \d+"))
    anna.send_line("bots 1")
    await anna.expect("За стол садится 1 бот")
    found = await scrape_until(port, lambda f: value(f, "korchma_tables", game="bids", state="open") == 1)
    assert value(found, "korchma_tables", game="bids", state="open") == 1
    anna.send_line("start")
    await anna.expect("ваши карты")
    found = await scrape_until(port, lambda f: value(f, "korchma_tables", game="bids", state="running") == 1)
    assert value(found, "korchma_tables", game="bids", state="running") == 1
    await anna.expect(re.compile(r"Игра за столом \d+ окончена"), timeout=20)

    found = await scrape_until(port, lambda f: value(f, "korchma_tables", state="running") == 0)
    actions = value(found, "korchma_actions_total", game="bids")
    assert actions >= 6  # three rounds, two seats
    assert value(found, "korchma_actions_total", game="bids", by="bot") >= 3  # the bot's own seat
    assert value(found, "korchma_actions_total", game="bids", by="timeout") >= 1  # Anna never bid
    assert value(found, "korchma_tables", game="bids", state="running") == 0
    # Every logged action was one committed transaction, timed.
    assert value(found, "korchma_db_commit_seconds_count", outcome="committed") >= actions
    assert value(found, "korchma_db_commit_seconds_sum", outcome="committed") > 0
    # Each command line Anna typed is timed under its command's canonical name.
    for command in ("open", "bots", "start"):
        assert value(found, "korchma_command_seconds_count", command=command) == 1, command
    assert value(found, "korchma_command_seconds_bucket", command="start", le="+Inf") == 1
    # The event loop is sampled once a second: several samples by now, and a lag that is a lag.
    assert value(found, "korchma_event_loop_delay_seconds_count") >= 2
    assert 0 <= value(found, "korchma_event_loop_lag_seconds") < 5
    assert 0 < time.time() - value(found, "korchma_start_time_seconds") < 300
    assert value(found, "process_resident_memory_bytes") > 0  # this server's own registry has them too
    during = await status(srv)
    assert during.returncode == 0, during.stderr

    # `korchma status`: the same numbers, in a few lines.
    lines = during.stdout.splitlines()
    assert lines[0].startswith(f"korchma is running: pid {srv.proc.pid}, up ")
    assert f"telnet {srv.telnet_port}, ssh {srv.ssh_port}, metrics 127.0.0.1:{port}" in lines[0]
    assert lines[1] == "sessions: 2 (ssh 1, telnet 1), logged in 2", during.stdout
    assert lines[2] == "tables: 1 (finished 1); open and running by game: none", during.stdout
    assert lines[3] == f"logins: 2, refused 3; actions applied: {int(actions)}", during.stdout
    assert re.fullmatch(r"event-loop lag: \d+\.\d ms", lines[4]), during.stdout
    assert during.stderr == ""

    await anna.close()
    await boris.close()
    assert srv.terminate() == 0
    assert not (srv.data_dir / "korchma.run").exists()  # removed at stop
    after = await status(srv)
    assert after.returncode == 1 and after.stdout == ""
    assert after.stderr.strip() == (f"korchma: no server is running on data folder {srv.data_dir} "
                                    f"(no {srv.data_dir / 'korchma.run'}); start it with `korchma serve`, "
                                    f"or give the same --config/--data-dir as the server")
    # A run file left by a server killed with -9: its process is gone.
    (srv.data_dir / "korchma.run").write_text(json.dumps({"pid": srv.proc.pid, "metrics": port}))
    stale = await status(srv)
    assert stale.returncode == 1 and len(stale.stderr.splitlines()) == 1
    assert f"process {srv.proc.pid} of " in stale.stderr and "is gone" in stale.stderr


async def test_metrics_are_off_by_default_and_status_says_so(server):
    """No [metrics] port: no metrics port in READY, none in the run file, and `status` says in one
    line that it needs them."""
    assert server.metrics_port is None
    run = json.loads((server.data_dir / "korchma.run").read_text())
    assert run["pid"] == server.proc.pid and run["metrics"] is None
    off = await status(server)
    assert off.returncode == 1 and off.stdout == "" and len(off.stderr.splitlines()) == 1
    assert off.stderr.startswith(f"korchma: the server (pid {server.proc.pid}) runs with metrics off")
    assert "[metrics] port" in off.stderr and "--metrics-port" in off.stderr


async def test_a_stuck_event_loop_still_answers_with_its_lag():
    """/metrics is served by its own thread: while the event loop is stuck (here: asleep in a
    blocking call), a scrape still answers, and the lag it shows is how long the loop's sample
    is overdue. (A bare world: no doors are needed to block a loop.)"""
    from server.metrics import TICK, ServerMeters

    class Quiet:
        started, sessions, tables = time.time(), set(), None

    meters = ServerMeters(Quiet())  # type: ignore[arg-type]
    meters.listen("127.0.0.1", 0)
    meters.start()
    try:
        await asyncio.sleep(0)  # the sampler runs once: its next sample is due in TICK
        answer: list[dict] = []
        scraper = threading.Thread(target=lambda: (time.sleep(TICK + 1.0), answer.append(scrape(meters.port))))
        scraper.start()
        time.sleep(TICK + 1.5)  # the loop is stuck past the scrape
        scraper.join()
        assert answer, "no answer while the loop was stuck"
        assert value(answer[0], "korchma_event_loop_lag_seconds") >= 0.9
    finally:
        await meters.close()
