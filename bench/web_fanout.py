"""What the web door costs beside telnet: one `say` heard by N browsers vs N telnet clients, and
the server's memory per logged-in session, both doors in the same server and the same run (the
telnet figures are the baseline).

    .venv/bin/python bench/web_fanout.py [--clients 100] [--says 20]

For each door: N clients log in (web: aiohttp's WebSocket client; telnet: tests/telnet_client.py),
the server's RSS is read before and after (KiB per session); then a speaker on that door says a
line `--says` times, and the time from sending to the moment the last of the N listeners has it
is taken; the median and the worst are printed.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.procs import ServerProcess  # noqa: E402
from tests.telnet_client import log_in  # noqa: E402
from tests.web_client import web_log_in  # noqa: E402

CONFIG = """
[server]
negotiation_wait = 0.2
pager = false
[web]
port = 0
[limits]
connections_per_address = 0
commands_per_second = 1000
command_burst = 1000
[accounts]
argon2_memory = 8
argon2_time = 1
"""
READY = r"KORCHMA READY telnet=(\d+) ssh=(\d+).* web=(\d+)"


async def heard_by_all(speaker, listeners, text: str) -> float:
    started = time.perf_counter()
    speaker.send_line(f"say {text}")
    for client in listeners:
        await client.wait_for(lambda c=client: text in c.text, 30)
    return time.perf_counter() - started


async def door(name: str, clients: int, says: int, server: ServerProcess, connect) -> dict:
    before = server.rss_kib()
    people = [await connect(f"{name}{i:03d}") for i in range(clients + 1)]
    await asyncio.sleep(1.0)
    after = server.rss_kib()
    speaker, listeners = people[0], people[1:]
    times = [await heard_by_all(speaker, listeners, f"{name}-line-{n}") for n in range(says)]
    for client in people:
        await client.close()
    return {"kib_per_session": (after - before) / (clients + 1), "median_ms": statistics.median(times) * 1000,
            "worst_ms": max(times) * 1000}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--says", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "bench.toml"
        cfg.write_text(CONFIG)
        server = ServerProcess("korchma", [sys.executable, "-m", "server", "serve", "--config", str(ROOT / "config.toml"),
                                           "--config", str(cfg), "--telnet-port", "0", "--ssh-port", "0",
                                           "--data-dir", str(Path(tmp) / "data"), "--log-level", "WARNING"],
                               READY, Path(tmp) / "server.log", ROOT)
        match = await server.start()
        try:
            telnet_port, web_port = int(match.group(1)), int(match.group(3))
            telnet = await door("Tel", args.clients, args.says, server, lambda n: log_in(telnet_port, n))
            web = await door("Web", args.clients, args.says, server, lambda n: web_log_in(web_port, n))
        finally:
            await server.stop()
    print(f"{args.clients} listeners, {args.says} says each, one server (this process ran the clients):")
    for label, row in (("telnet (baseline)", telnet), ("web", web)):
        print(f"  {label:18} say heard by all: median {row['median_ms']:7.1f} ms, worst {row['worst_ms']:7.1f} ms; "
              f"RSS {row['kib_per_session']:6.1f} KiB a session")


if __name__ == "__main__":
    asyncio.run(main())
