"""`korchma serve [--config FILE] [--telnet-port N] [--ssh-port N] [--data-dir DIR] [--database-url URL] [--debug]`.

A start-up failure (server/startup.py) is one line on stderr and a non-zero exit: 2 for a bad
command line or config, 1 for everything else; ``--debug`` prints the traceback above it.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import traceback
from pathlib import Path

from . import config as config_mod
from .startup import StartupError, one_line

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage is one `--help` away)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="korchma", description="Korchma: a tavern of hidden-role games")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--config", action="append", default=None,
                       help="config file (default: ./config.toml if present); repeat to layer files")
    serve.add_argument("--host", default=None, help="address to listen on")
    serve.add_argument("--telnet-port", type=int, default=None, help="telnet port (0 = any free port)")
    serve.add_argument("--ssh-port", type=int, default=None, help="SSH port (0 = any free port)")
    serve.add_argument("--data-dir", default=None, help="folder for the database and host key")
    serve.add_argument("--database-url", default=None, help="database URL (sqlite://... or postgres://...)")
    serve.add_argument("--log-level", default="INFO", type=str.upper, choices=LOG_LEVELS)
    serve.add_argument("--debug", action="store_true",
                       help="show the full traceback when start-up fails")
    return parser


def load_config(args: argparse.Namespace) -> config_mod.Config:
    paths = args.config
    if paths is None:
        paths = ["config.toml"] if Path("config.toml").exists() else []
    over: dict = {"server": {}}
    for key in ("host", "telnet_port", "ssh_port", "data_dir", "database_url"):
        value = getattr(args, key)
        if value is not None:
            over["server"][key] = value
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=getattr(logging, args.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    from .app import serve as serve_app

    try:
        asyncio.run(serve_app(load_config(args)))
    except StartupError as err:
        return fail(err, str(err), err.exit_code, args.debug)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
