"""`korchma status`: a short summary of the running server, from its own /metrics.

The server that uses this configuration's data folder is found by its run file
(server/runfile.py: process id and ports, written at READY, removed at stop); its numbers are
read over HTTP from ``/metrics`` on the port there and parsed with prometheus-client's parser,
so `status` says exactly what Prometheus would see. No server, a server without metrics, or
metrics that do not answer: one line on stderr and exit 1.
"""
from __future__ import annotations

import argparse
import time
import urllib.error
import urllib.request
from collections import defaultdict
from typing import Any

from . import runfile
from .cli import common_flags
from .config import Config
from .metrics import address
from .startup import StartupError, one_line

#: Seconds `status` waits for /metrics (a server whose loop is stuck still answers: the HTTP
#: side has its own thread).
TIMEOUT = 5.0
#: Addresses that mean "every address" to listen on; `status` asks the machine itself there.
ANY_ADDRESS = {"", "0.0.0.0", "::"}


def register(sub: Any) -> None:
    summary = "summary of the running server: sessions, tables, uptime, lag (needs [metrics] port or --metrics-port)"
    p = sub.add_parser("status", help=summary, description=summary)
    common_flags(p)
    p.set_defaults(run=run_status)


def fetch(host: str, port: int) -> str:
    host = "127.0.0.1" if host in ANY_ADDRESS else host
    url = f"http://{address(host, port)}/metrics"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            return answer.read().decode("utf-8")
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = getattr(err, "reason", err)
        raise StartupError(f"the server's metrics at {url} do not answer ({one_line(reason)})") from err


def samples(text: str) -> dict[str, list[tuple[dict[str, str], float]]]:
    """Sample name -> [(labels, value)], from Prometheus text."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, list[tuple[dict[str, str], float]]] = defaultdict(list)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[sample.name].append((sample.labels, sample.value))
    return out


def by_label(rows: list[tuple[dict[str, str], float]], label: str) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for labels, value in rows:
        out[labels.get(label, "")] += int(value)
    return out


def listed(counts: dict[str, int]) -> str:
    """"telnet 2, ssh 1" (the non-zero ones, largest first); "none" if all are zero."""
    shown = [f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n]
    return ", ".join(shown) or "none"


def duration(seconds: float) -> str:
    seconds = int(max(0, seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s"


def summary(info: dict[str, Any], found: dict[str, list[tuple[dict[str, str], float]]], now: float) -> list[str]:
    def value(name: str) -> float:
        rows = found.get(name)
        return rows[0][1] if rows else 0.0

    sessions = by_label(found.get("korchma_sessions", []), "door")
    logged_in = sum(by_label(found.get("korchma_sessions_logged_in", []), "door").values())
    tables = found.get("korchma_tables", [])
    states = by_label(tables, "state")
    games = by_label([(labels, v) for labels, v in tables if labels.get("state") in ("open", "running")], "game")
    logins = sum(by_label(found.get("korchma_logins_total", []), "door").values())
    refused = sum(by_label(found.get("korchma_login_failures_total", []), "door").values())
    actions = sum(by_label(found.get("korchma_actions_total", []), "game").values())
    lag_ms = value("korchma_event_loop_lag_seconds") * 1000
    up = duration(now - value("korchma_start_time_seconds"))
    metrics_at = address(str(info.get("metrics_host", "")), int(info["metrics"]))
    return [
        f"korchma is running: pid {info['pid']}, up {up}; telnet {info.get('telnet')}, ssh {info.get('ssh')}, "
        f"metrics {metrics_at}" + (f", web {info['web']}" if info.get("web") is not None else ""),
        f"sessions: {sum(sessions.values())} ({listed(sessions)}), logged in {logged_in}",
        f"tables: {sum(states.values())} ({listed(states)}); open and running by game: {listed(games)}",
        f"logins: {logins}, refused {refused}; actions applied: {actions}",
        f"event-loop lag: {lag_ms:.1f} ms",
    ]


def run_status(args: argparse.Namespace, cfg: Config) -> int:
    info = runfile.read(cfg.data_dir)
    if info.get("metrics") is None:
        raise StartupError(f"the server (pid {info['pid']}) runs with metrics off, and status reads them; "
                           f"set [metrics] port (e.g. 9464) or start it with --metrics-port")
    found = samples(fetch(str(info.get("metrics_host", "")), int(info["metrics"])))
    if "korchma_sessions" not in found:
        raise StartupError(f"the answer at port {info['metrics']} holds no Korchma metrics: "
                           f"is another program on that port?")
    print("\n".join(summary(info, found, time.time())), flush=True)
    return 0
