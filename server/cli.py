"""`korchma serve [--config FILE] [--telnet-port N] [--ssh-port N] [--data-dir DIR] [--database-url URL]`."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from . import config as config_mod


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="korchma", description="Korchma: a tavern of hidden-role games")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--config", action="append", default=None,
                       help="config file (default: ./config.toml if present); repeat to layer files")
    serve.add_argument("--host", default=None, help="address to listen on")
    serve.add_argument("--telnet-port", type=int, default=None, help="telnet port (0 = any free port)")
    serve.add_argument("--ssh-port", type=int, default=None, help="SSH port (0 = any free port)")
    serve.add_argument("--data-dir", default=None, help="folder for the database and host key")
    serve.add_argument("--database-url", default=None, help="database URL (sqlite://... or postgres://...)")
    serve.add_argument("--log-level", default="INFO")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=getattr(logging, args.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    paths = args.config
    if paths is None:
        from pathlib import Path

        paths = ["config.toml"] if Path("config.toml").exists() else []
    over: dict = {"server": {}}
    for key in ("host", "telnet_port", "ssh_port", "data_dir", "database_url"):
        value = getattr(args, key)
        if value is not None:
            over["server"][key] = value
    cfg = config_mod.load(paths, over)
    if args.data_dir is not None:
        # A data folder given on the command line is relative to where the command runs.
        from pathlib import Path

        cfg.server["data_dir"] = str(Path(args.data_dir).resolve())
    from .app import serve as serve_app

    asyncio.run(serve_app(cfg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
