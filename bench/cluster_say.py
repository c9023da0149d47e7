"""Hall `say` across nodes (issue 19): N listeners on one node, beside N listeners spread over
three nodes sharing one PostgreSQL and one Valkey, measured in the same run.

    python bench/cluster_say.py              (900 listeners each, 200 says)
    python bench/cluster_say.py --quick      (90 listeners, 30 says: a smoke test)

Both set-ups are up at once and their says alternate (as bench/run_all.py does with the bare
server), so both see the same background load of this shared machine. The speaker is on node a;
the three-node listeners are spread evenly over a, b and c. Printed for each: the p50/p99 of
every delivery (send -> arrival at one listener), the p99 of the time until the last listener
had a say, and the CPU per say of all the set-up's processes (the nodes, and Valkey for the
cluster; PostgreSQL takes no part in a say). Then a tell from the speaker to one listener (on
node b for the cluster): p50/p99 over `--tells` tells. Logins use a cheap argon2 (the bench is
about talk, not passwords). Everything runs on 127.0.0.1 in a temporary folder and is stopped at
the end.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import run_all as ra  # noqa: E402  (re-runs this under .venv/bin/python when needed)
from procs import CLK_TCK, ServerProcess, raise_nofile  # noqa: E402

from tests.pg import start_cluster  # noqa: E402
from tests.valkey import Valkey  # noqa: E402

TELL_RE = re.compile(rb"ZT(\d{5})T")
NODES = ("a", "b", "c")


def node_config(tmp: Path, tag: str, database_url: str, redis_url: str | None) -> Path:
    text = (f'[server]\ndatabase_url = "{database_url}"\n'
            "[accounts]\nargon2_memory = 64\nargon2_time = 1\n")
    if redis_url:
        text += f'[cluster]\nredis_url = "{redis_url}"\nnode = "{tag}"\n'
    path = tmp / f"{tag}.toml"
    path.write_text(text)
    return path


def korchma(tmp: Path, tag: str, config: Path) -> ServerProcess:
    data = tmp / f"data-{tag}"
    data.mkdir()
    argv = [sys.executable, "-m", "server", "serve", "--config", "config.toml", "--config", str(config),
            "--telnet-port", "0", "--ssh-port", "0", "--data-dir", str(data)]
    srv = ServerProcess(f"korchma-{tag}", argv, r"KORCHMA READY telnet=(\d+) ssh=(\d+)",
                        tmp / f"korchma-{tag}.log", ra.ROOT)
    ra._started.append(srv)  # killed at exit whatever happens (run_all's atexit)
    return srv


class Processes:
    """What SayTarget needs of a server, for a group of processes: their CPU summed."""

    def __init__(self, servers: list[ServerProcess], extra_pids: list[int] = ()) -> None:
        self.servers, self.extra_pids = servers, list(extra_pids)
        self.pid = servers[0].pid

    def cpu_seconds(self) -> float:
        return sum(s.cpu_seconds() for s in self.servers) + sum(pid_cpu(p) for p in self.extra_pids)


def pid_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


async def log_in_many(ports: list[int], texts: ra.LoginTexts, prefix: str, n: int, parallel: int) -> list:
    """n + 1 accounts; the first (the speaker) on ports[0], the others spread over ``ports``."""
    names = ra.unique_names(prefix, n + 1)

    async def one(i: int):
        port = ports[0] if i == 0 else ports[(i - 1) % len(ports)]
        client = await ra.korchma_login(port, texts, names[i])
        client.name = names[i]
        client.port = port
        return client

    ok, errors, secs = await ra.open_many(one, n + 1, parallel, f"{prefix} logins")
    if errors or not ok or ok[0].name != names[0]:
        raise RuntimeError(f"{prefix}: {len(errors)} logins failed: {errors[:1]!r}")
    ra.log(f"{prefix}: {len(ok)} logged in in {secs:.1f}s")
    return ok


async def tells(pairs: list[tuple[str, object, object]], count: int, spacing: float) -> dict[str, dict]:
    """Each (key, speaker, listener): ``count`` tells, alternating between the pairs."""
    sent = {key: [0.0] * count for key, _, _ in pairs}
    got: dict[str, list[float | None]] = {key: [None] * count for key, _, _ in pairs}
    for key, _, listener in pairs:
        def sink(chunk: bytes, key: str = key) -> None:
            t = time.perf_counter()
            for m in TELL_RE.finditer(chunk):
                seq = int(m.group(1))
                if seq < count and got[key][seq] is None:
                    got[key][seq] = t
        listener.sink = sink
    for seq in range(count):
        for key, speaker, listener in pairs:
            sent[key][seq] = time.perf_counter()
            speaker.send_line(f"tell {listener.name} ZT{seq:05d}T")
            await asyncio.sleep(spacing / len(pairs))
    await asyncio.sleep(2.0)
    out = {}
    for key, _, listener in pairs:
        listener.sink = None
        lat = sorted((g - s) * 1000 for g, s in zip(got[key], sent[key]) if g is not None)
        out[key] = {"tells": count, "arrived": len(lat), "p50_ms": ra.pct(lat, 50), "p99_ms": ra.pct(lat, 99)}
    return out


@contextlib.asynccontextmanager
async def services(prefix: str):
    """A temp folder, a throwaway PostgreSQL cluster and a Valkey in it, as the tests start them:
    (folder, cluster, valkey); at the end every server the bench started is stopped and all of it
    removed (the caller closes its own clients first)."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    pg = start_cluster()
    valkey = Valkey(tmp)
    try:
        valkey.start()
        yield tmp, pg, valkey
    finally:
        await asyncio.sleep(0.5)
        for srv in ra._started:
            await srv.stop()
        valkey.kill()
        pg.stop()
        shutil.rmtree(pg.root, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)


async def run(args) -> dict:
    texts = ra.LoginTexts(ra.ROOT / "config.toml")
    groups: list[list] = []
    async with services("korchma-cluster-bench-") as (tmp, pg, valkey):
        try:
            single_db, shared_db = pg.create_database("single"), pg.create_database("shared")
            one = korchma(tmp, "single", node_config(tmp, "single", single_db, None))
            nodes = [korchma(tmp, n, node_config(tmp, n, shared_db, valkey.url)) for n in NODES]
            ports = {}
            for srv in (one, *nodes):  # one after the other: the first of the cluster migrates its database
                ports[srv.name] = int((await srv.start()).group(1))
            one_clients = await log_in_many([ports["korchma-single"]], texts, "One", args.listeners, args.login_parallel)
            groups.append(one_clients)
            node_ports = [ports[s.name] for s in nodes]
            three_clients = await log_in_many(node_ports, texts, "Three", args.listeners, args.login_parallel)
            groups.append(three_clients)
            await asyncio.sleep(3.0)  # the arrival lines drain first
            total = 5 + args.says
            targets = [ra.SayTarget("one node", Processes([one]), one_clients[0], one_clients[1:], total),
                       ra.SayTarget("three nodes", Processes(nodes, [valkey.process.pid]), three_clients[0],
                                    three_clients[1:], total)]
            valkey_cpu0 = pid_cpu(valkey.process.pid)
            ra.log(f"say test: {args.listeners} listeners each, {args.says} says each, every {args.spacing}s, interleaved")
            results = await ra.say_test(targets, args.says, args.spacing)
            results["three nodes"]["valkey_cpu_per_say_ms"] = (pid_cpu(valkey.process.pid) - valkey_cpu0) / total * 1000
            far = next(c for c in three_clients[1:] if c.port == node_ports[1])  # on node b
            told = await tells([("one node", one_clients[0], one_clients[1]), ("three nodes", three_clients[0], far)],
                               args.tells, args.spacing)
            for key, res in told.items():
                results[key]["tell"] = res
            return results
        finally:
            for clients in groups:
                ra.close_all(clients)


def report(results: dict) -> None:
    one, three = results["one node"], results["three nodes"]
    rows = [("say delivery p50, ms", "p50_ms"), ("say delivery p99, ms", "p99_ms"),
            ("say reached all p99, ms", "all_p99_ms"), ("CPU per say, ms (all processes)", "cpu_per_say_ms"),
            ("CPU per say less idle, ms", "cpu_per_say_net_ms"), ("deliveries missing", "missing")]
    print(f"{'':34} {'one node':>10} {'three nodes':>12} {'ratio':>7}")
    for label, key in rows:
        a, b = one.get(key), three.get(key)
        r = ra.ratio(b, a)
        print(f"{label:34} {ra.fmt(a):>10} {ra.fmt(b):>12} {ra.fmt(r, 'x', 2) if r else '-':>7}")
    print(f"{'  of which Valkey (whole test), ms':34} {'-':>10} {ra.fmt(three.get('valkey_cpu_per_say_ms')):>12}")
    for label, key in (("tell p50, ms", "p50_ms"), ("tell p99, ms", "p99_ms")):
        a, b = one["tell"].get(key), three["tell"].get(key)
        r = ra.ratio(b, a)
        print(f"{label:34} {ra.fmt(a):>10} {ra.fmt(b):>12} {ra.fmt(r, 'x', 2) if r else '-':>7}")
    print(f"listeners: {one['listeners']} and {three['listeners']} (three nodes: a third on each); "
          f"says: {one['says']}, every {one['spacing_s']} s; tells arrived: {one['tell']['arrived']} and "
          f"{three['tell']['arrived']} of {one['tell']['tells']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listeners", type=int, default=900, help="listeners in each set-up (default 900)")
    parser.add_argument("--says", type=int, default=200, help="measured says (default 200)")
    parser.add_argument("--tells", type=int, default=50, help="tells timed (default 50)")
    parser.add_argument("--spacing", type=float, default=0.22, help="seconds between says (under the flood limit)")
    parser.add_argument("--login-parallel", type=int, default=16, help="logins at once")
    parser.add_argument("--quick", action="store_true", help="90 listeners, 30 says, 20 tells")
    args = parser.parse_args()
    if args.quick:
        args.listeners, args.says, args.tells = 90, 30, 20
    raise_nofile()
    results = asyncio.run(asyncio.wait_for(run(args), 900))
    report(results)
    return 0 if all(r["missing"] == 0 for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
