"""`korchma <command> [--config FILE] [--data-dir DIR] [--database-url URL] [--debug] ...`.

Every subcommand takes the same configuration flags as `serve` (`common_flags`), so a host points
`migrate`, `backup`, `admin` and `status` at the same data as the running server. A subcommand
lives in its own module (server/cli_<name>.py) and registers here with one line in SUBCOMMANDS:
`register(sub)` adds its parser and sets `run=` (args, config) -> exit code.

A start-up failure (server/startup.py) is one line on stderr and a non-zero exit: 2 for a bad
command line or config, 1 for everything else; ``--debug`` prints the traceback above it.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
import traceback
from pathlib import Path
from typing import Callable

from . import config as config_mod
from . import logs
from .startup import StartupError, one_line

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# Modules with a `register(subparsers)` function, one per subcommand besides `serve`.
SUBCOMMANDS: list[str] = [
    "cli_admin",
    "cli_backup",
    "cli_migrate",
    "cli_status",
    "cli_export",
    "cli_replay",
    "cli_drain",
]


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage is one `--help` away)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def common_flags(parser: argparse.ArgumentParser) -> None:
    """The flags every subcommand shares: which configuration and which data."""
    parser.add_argument("--config", action="append", default=None, metavar="FILE",
                        help="config file (default: ./config.toml if present); repeat to layer files")
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help="folder for the database, host key, log and run file (server.data_dir)")
    parser.add_argument("--database-url", default=None, metavar="URL",
                        help="database URL, sqlite://... or postgres://... (server.database_url)")
    parser.add_argument("--log-level", default=None, type=str.upper, choices=LOG_LEVELS, metavar="LEVEL",
                        help=f"{', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]} (overrides [log] level)")
    parser.add_argument("--debug", action="store_true", help="show the full traceback when a command fails")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="korchma", description="Korchma: a tavern of hidden-role games")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    summary = "run the server (telnet and SSH)"
    serve = sub.add_parser("serve", help=summary, description=summary)
    common_flags(serve)
    serve.add_argument("--host", default=None, metavar="ADDR", help="address both doors listen on (server.host)")
    serve.add_argument("--telnet-port", type=int, default=None, metavar="N", help="telnet port (0 = any free port)")
    serve.add_argument("--ssh-port", type=int, default=None, metavar="N", help="SSH port (0 = any free port)")
    serve.add_argument("--metrics-port", type=int, default=None, metavar="N",
                       help="serve Prometheus /metrics on this port (0 = any free port, -1 = off)")
    serve.add_argument("--web-port", type=int, default=None, metavar="N",
                       help="serve the web page and its WebSocket on this port (0 = any free port, -1 = off)")
    serve.add_argument("--redis-url", default=None, metavar="URL",
                       help="join the nodes that share this Redis (or Valkey): cluster.redis_url, docs/cluster.md")
    serve.add_argument("--node", default=None, metavar="NAME",
                       help="this node's name in the cluster (cluster.node; default: host name and telnet port)")
    serve.set_defaults(run=run_serve)
    for name in SUBCOMMANDS:
        importlib.import_module(f".{name}", __package__).register(sub)
    return parser


def load_config(args: argparse.Namespace) -> config_mod.Config:
    paths = args.config
    if paths is None:
        paths = ["config.toml"] if Path("config.toml").exists() else []
    over: dict = {"server": {}}
    for key in ("host", "telnet_port", "ssh_port", "data_dir", "database_url"):
        value = getattr(args, key, None)
        if value is not None:
            over["server"][key] = value
    if getattr(args, "metrics_port", None) is not None:
        over["metrics"] = {"port": args.metrics_port}
    if getattr(args, "web_port", None) is not None:
        over["web"] = {"port": args.web_port}
    for key in ("redis_url", "node"):
        if getattr(args, key, None) is not None:
            over.setdefault("cluster", {})[key] = getattr(args, key)
    cfg = config_mod.load(paths, over)
    if args.data_dir is not None:
        # A data folder given on the command line is relative to where the command runs.
        cfg.server["data_dir"] = str(Path(args.data_dir).resolve())
    return cfg


def fail(err: BaseException, message: str, code: int, debug: bool) -> int:
    if debug:
        traceback.print_exception(err, file=sys.stderr)
    print(f"korchma: {message}", file=sys.stderr, flush=True)
    return code


def run_serve(args: argparse.Namespace, cfg: config_mod.Config) -> int:
    from .app import serve as serve_app

    asyncio.run(serve_app(cfg, load_again=lambda: load_config(args)))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logs.configure_early(args.log_level)
    run: Callable[[argparse.Namespace, config_mod.Config], int] = args.run
    try:
        cfg = load_config(args)
        logs.LOGS.configure(cfg, args.log_level, with_file=args.command == "serve")
        return run(args, cfg)
    except StartupError as err:
        return fail(err, str(err), err.exit_code, args.debug)
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # not foreseen: still one line (the traceback with --debug)
        return fail(err, f"{args.command} failed: {type(err).__name__}: {one_line(err)} "
                         f"(run with --debug for the traceback)", 1, args.debug)


if __name__ == "__main__":
    sys.exit(main())
