"""`korchma drain`: a rolling upgrade's step for one node of a cluster (docs/cluster.md).

The node running on this configuration's data folder hands its tables to the other nodes, asks
its sessions to reconnect and exits (server/drain.py does it; this command asks through the
control channel, server/control.py, prints what was done, and waits for the process to end).
Exit 0 when the node is gone; 1, with one line, when no server answers, the node refuses (not in
a cluster, no other node alive, Redis away) or does not stop in time.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from . import control, runfile
from .config import Config

#: Seconds past the handover wait for the node to close its sessions and answer, then to exit.
ANSWER_MARGIN = 30.0
EXIT_WAIT = 30.0


def register(sub: Any) -> None:
    from .cli import common_flags

    summary = "hand this node's tables to the other nodes of the cluster, ask its players to reconnect, and stop it"
    p = sub.add_parser("drain", help=summary, description=summary)
    common_flags(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace, cfg: Config) -> int:
    from world.cluster.handover import EXTRA_WAIT

    wait = float(cfg.section("cluster")["lease_seconds"]) + EXTRA_WAIT + ANSWER_MARGIN
    reply = control.request(cfg.data_dir, "drain", timeout=wait)
    if reply is None:
        print(f"korchma: no server answers on data folder {cfg.data_dir} ({control.socket_path(cfg.data_dir)}); "
              f"give the same --config/--data-dir as the server", file=sys.stderr)
        return 1
    if not reply.get("ok"):
        print(f"korchma: drain failed: {reply.get('error')}", file=sys.stderr)
        return 1
    if reply.get("refused"):
        print(f"korchma: drain refused: {reply['refused']}", file=sys.stderr)
        return 1
    for line in summary(reply):
        print(line)
    deadline = time.monotonic() + EXIT_WAIT
    while runfile.alive(int(reply["pid"])):
        if time.monotonic() > deadline:
            print(f"korchma: node {reply['node']} (process {reply['pid']}) has not stopped after {EXIT_WAIT:.0f} s",
                  file=sys.stderr)
            return 1
        time.sleep(0.1)
    print(f"node {reply['node']} stopped")
    return 0


def summary(reply: dict[str, Any]) -> list[str]:
    taken: dict[str, str] = reply.get("taken") or {}
    untaken: list[int] = reply.get("untaken") or []
    lines = [f"node {reply['node']}: {len(taken) + len(untaken)} table(s) handed over"]
    lines += [f"  table {number} -> node {node}" for number, node in sorted(taken.items(), key=lambda kv: int(kv[0]))]
    if untaken:
        lines.append(f"  not taken yet (the next node to beat takes them): {', '.join(map(str, untaken))}")
    lines.append(f"{reply['sessions']} session(s) asked to reconnect")
    return lines
