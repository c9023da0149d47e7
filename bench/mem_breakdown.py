#!/usr/bin/env python3
"""Where does an idle telnet session's memory go? tracemalloc over Korchma run in this process.

    .venv/bin/python bench/mem_breakdown.py [--sessions 500] [--login 0] [--top 25] [--frames 1]
    .venv/bin/python bench/mem_breakdown.py --ssh --sessions 30

Runs the server's App in this process (temporary data folder, free ports) with tracemalloc on,
warms it up with one login, takes a snapshot, then a child process opens N raw telnet clients
(refusing every option but NAWS, answering the encoding menu) and optionally logs some of them
in; a second snapshot is compared with the first, grouped by source line, divided by N.
tracemalloc sees Python allocations only (not the kernel's socket buffers, not C libraries'
own malloc), so its total is below the RSS growth run_all.py reports.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


async def clients_main(port: int, n: int, login: int, ssh: bool) -> None:
    """Child process: open n clients at the login prompt, log `login` of them in, wait on stdin.
    With ssh: n SSH sessions (pty, password, new accounts) instead."""
    import run_all  # noqa: WPS433 (the helpers, not the benchmark)

    texts = run_all.LoginTexts(ROOT / "config.toml")
    if ssh:
        names = run_all.unique_names("Mss", n)
        conns, errors, _ = await run_all.open_many(lambda i: run_all.ssh_login(port, names[i], texts.welcome),
                                                   n, 8, "ssh")
        print(f"CLIENTS READY {len(conns)} ssh, errors {len(errors)}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        return
    names = run_all.unique_names("Mem", login)
    prompt, _, _ = await run_all.open_many(lambda i: run_all.korchma_prompt(port, texts), n - login, 50,
                                           "prompt")
    logged, _, _ = await run_all.open_many(lambda i: run_all.korchma_login(port, texts, names[i]), login, 8,
                                           "login")
    print(f"CLIENTS READY {len(prompt)} {len(logged)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


async def server_main(args) -> None:
    from server import config as config_mod
    from server.app import App
    import run_all

    data = Path(tempfile.mkdtemp(prefix="korchma-mem-"))
    cfg = config_mod.load([str(ROOT / "config.toml")],
                          {"server": {"telnet_port": 0, "ssh_port": 0, "data_dir": str(data)}})
    cfg.server["data_dir"] = str(data)
    tracemalloc.start(args.frames)
    app = App(cfg)
    await app.start()
    port = app.telnet_port
    texts = run_all.LoginTexts(ROOT / "config.toml")
    warm = await run_all.korchma_login(port, texts, "Warmmem")
    warm.send_line("say warm")
    if args.ssh:
        port = app.ssh_port
        warm_ssh = await run_all.ssh_login(port, "Warmmemssh", texts.welcome)
        await asyncio.sleep(0.5)
        warm_ssh.close()
    await asyncio.sleep(0.5)
    warm.close()
    await asyncio.sleep(1.0)
    before = tracemalloc.take_snapshot()
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--child", str(port), "--sessions", str(args.sessions),
        "--login", str(args.login), *(["--ssh"] if args.ssh else []), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    try:
        line = await asyncio.wait_for(child.stdout.readline(), 600)
        print(line.decode().strip(), file=sys.stderr)
        await asyncio.sleep(2.0)
        after = tracemalloc.take_snapshot()
        n = args.sessions
        filters = [tracemalloc.Filter(False, tracemalloc.__file__)]
        before, after = before.filter_traces(filters), after.filter_traces(filters)
        stats = after.compare_to(before, "traceback" if args.frames > 1 else "lineno")
        total = sum(s.size_diff for s in stats)
        what = "SSH sessions" if args.ssh else f"telnet sessions ({args.login} of them logged in)"
        print(f"tracemalloc growth: {total / 1024:.0f} KiB for {n} {what} = {total / 1024 / n:.2f} KiB each")
        for s in stats[:args.top]:
            where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in s.traceback)
            print(f"  {s.size_diff / n:8.0f} B/session  {s.count_diff / n:6.1f} blocks  {where}")
    finally:
        if child.stdin:
            child.stdin.close()
        try:
            await asyncio.wait_for(child.wait(), 10)
        except asyncio.TimeoutError:
            child.kill()
        await app.stop()
        shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--login", type=int, default=0, help="how many of them log in (argon2: slow)")
    parser.add_argument("--ssh", action="store_true", help="SSH sessions (pty, password) instead of telnet")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--frames", type=int, default=1, help="traceback depth to group by")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    from procs import raise_nofile

    raise_nofile()
    if args.child is not None:
        asyncio.run(clients_main(args.child, args.sessions, args.login, args.ssh))
    else:
        os.chdir(ROOT)
        asyncio.run(server_main(args))


if __name__ == "__main__":
    main()
