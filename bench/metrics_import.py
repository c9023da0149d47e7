"""What metrics add to a server's start-up: the CPU time of importing prometheus-client after the
server's own modules (which is all a server with ``[metrics] port`` set pays more at start; one
with metrics off never imports it), beside the CPU time of importing those modules themselves.

    .venv/bin/python bench/metrics_import.py [--runs N]

Each figure is the median over N fresh interpreters (CPU seconds of the process, user + system,
so a loaded machine's waiting does not count), printed beside its baseline of the same run.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import time
t0 = time.process_time()
import server.app, server.ssh, server.telnet, server.cli
t1 = time.process_time()
{extra}
t2 = time.process_time()
print(t1 - t0, t2 - t1)
"""
PROMETHEUS = "import prometheus_client, prometheus_client.parser"


def measure(extra: str, runs: int) -> tuple[float, float]:
    server, added = [], []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", PROBE.format(extra=extra)], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
        server.append(float(out[0]))
        added.append(float(out[1]))
    return statistics.median(server), statistics.median(added)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    base, _ = measure("", args.runs)
    _, prometheus = measure(PROMETHEUS, args.runs)
    print(f"server modules import:                {base * 1000:7.1f} ms CPU (baseline)")
    print(f"prometheus-client after them:          {prometheus * 1000:7.1f} ms CPU "
          f"({prometheus / base:.1%} of the baseline; only with [metrics] port set)")


if __name__ == "__main__":
    main()
