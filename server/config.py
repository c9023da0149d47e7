"""Load config.toml (tomllib), check it (server/config_check.py) and apply command-line overrides."""
from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULTS: dict[str, Any] = {
    "server": {
        "name": "Korchma",
        "host": "127.0.0.1",
        "telnet_port": 4000,
        "ssh_port": 2222,
        "data_dir": "data",
        "database_url": "",
        "host_key": "ssh_host_ed25519_key",
        "default_language": "ru",
        "negotiation_wait": 1.0,
        # PROXY protocol v1/v2 on the telnet port (server/proxy_gate.py), from these addresses only.
        "proxy_protocol": False,
        "proxy_trusted": ["127.0.0.1", "::1"],
        "motd": "",
        "pager": True,  # page a command's output taller than the client's screen (server/pager.py)
    },
    "accounts": {
        "admins": [],
        "login_attempts": 5,
        "login_backoff": 5,
        "login_backoff_max": 300,
        "login_forget": 3600,
        "login_timeout": 60,
        "new_accounts_per_address": 3,
        "new_accounts_window": 3600,
        "new_accounts_exempt": ["127.0.0.1", "::1"],
        "reset_code_hours": 24,  # how long a `resetpass` code works
        # argon2id (OWASP's first choice; see docs/decisions.md "Logins"): KiB, passes, lanes.
        "argon2_memory": 19456,
        "argon2_time": 2,
        "argon2_lanes": 1,
        "hash_workers": 0,  # 0: one per CPU core this process may use
        "checks_per_address": 2,
        "checks_exempt": ["127.0.0.1", "::1"],
        "checks_queued_max": 1000,
    },
    "limits": {
        "max_line": 2000,
        "commands_per_second": 5,
        "command_burst": 10,
        "flood_mute": 10,
        "input_buffer": 8192,
        "connections_per_address": 8,
        "connections_exempt": ["127.0.0.1", "::1"],
        "aliases_per_account": 50,
        "alias_length": 200,
    },
    # The channels and the scrollback (world/channels.py, world/scrollback.py).
    "chat": {
        "scrollback_lines": 100,
        "entry_lines": 5,
        "recall_lines": 20,
    },
    # Statistics, ratings and seasons (world/ratings.py).
    "ratings": {
        "provisional_games": 5,
        "top_page": 20,
    },
    "tables": {
        "reaction_seconds": 20,
        "afk_timeouts": 2,
        "bot_level": "normal",
        "bot_delay": 1.0,
        "answer_guard": 1.5,
        "autopass_smart_seconds": 4,
    },
    # The board of players' notes (`board`: world/board.py).
    "board": {"note_length": 300, "page_size": 10, "posts_per_window": 5, "post_window": 600},
    # The games that ended (`history`: world/history.py).
    "history": {"page_size": 15},
    "inbox": {
        "retention_days": 90,  # items older than this are dropped (at start, hourly, at login)
        "login_lines": 20,  # a group waiting at login longer than this is summed up, not printed
    },
    # Prometheus text at http://host:port/metrics (server/metrics.py); off by default.
    "metrics": {"host": "127.0.0.1", "port": -1},
    # The web door: a page and its WebSocket at http://host:port/ (server/web/); off by default.
    "web": {"host": "127.0.0.1", "port": -1, "proxy_trusted": []},
    # Several nodes, one tavern (docs/cluster.md): off unless a Redis URL is given.
    "cluster": {"redis_url": "", "node": "", "lease_seconds": 5.0, "heartbeat_seconds": 1.0},
    "log": {
        "level": "INFO",
        "console": "stderr",
        "file": "",
        "max_bytes": 10 * 1024 * 1024,
        "backups": 5,
    },
    "games": {"bids": {"rounds": 5, "seconds": 30}, "coup": {"turn": 60, "reaction": 20}},
}


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


@dataclass
class Config:
    raw: dict[str, Any] = field(default_factory=lambda: copy.deepcopy(DEFAULTS))
    base_dir: Path = field(default_factory=Path.cwd)
    # Where each (section, key) was set last: "FILE, line N", a flag, or "the built-in defaults".
    set_at: dict[tuple[str, str], str] = field(default_factory=dict)

    def origin(self, section: str, key: str) -> str:
        return self.set_at.get((section, key), "the built-in defaults")

    def section(self, name: str) -> dict[str, Any]:
        return self.raw.get(name, {})

    @property
    def server(self) -> dict[str, Any]:
        return self.raw["server"]

    @property
    def data_dir(self) -> Path:
        p = Path(self.server["data_dir"])
        return p if p.is_absolute() else (self.base_dir / p)

    @property
    def database_url(self) -> str:
        url = self.server.get("database_url") or ""
        if url:
            return url
        return f"sqlite://{self.data_dir / 'korchma.sqlite3'}"

    @property
    def host_key_path(self) -> Path:
        p = Path(self.server["host_key"])
        return p if p.is_absolute() else (self.data_dir / p)

    def game(self, name: str) -> dict[str, Any]:
        return self.raw.get("games", {}).get(name, {})


def read_file(path: Path) -> tuple[dict[str, Any], str]:
    """One config file as a dict, and its text; ConfigError (one line: file, line, what) if it cannot be."""
    from .config_check import ConfigError

    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"config file {path} not found; check --config") from None
    except OSError as err:
        raise ConfigError(f"config file {path} cannot be read ({err.strerror or err}); check --config") from err
    try:
        text = data.decode("utf-8")
        return tomllib.loads(text), text
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text (byte {err.start}); save the file as UTF-8") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: TOML syntax error: {err}") from None


def load(paths: str | Path | list | None = None, overrides: dict[str, Any] | None = None) -> Config:
    """Defaults, then each file in order (later ones win), then command-line overrides, each
    checked against DEFAULTS first (ConfigError on the first problem).
    Relative paths in the config are relative to the first file's folder."""
    from .config_check import Origin, check, check_together

    raw = copy.deepcopy(DEFAULTS)
    base_dir = Path.cwd()
    set_at: dict[tuple[str, str], str] = {}  # where each key was set last (for check_together)

    def apply(layer: dict[str, Any], origin: Origin) -> dict[str, Any]:
        check(layer, origin, DEFAULTS)
        for section, body in layer.items():
            for key in body if isinstance(body, dict) else ():
                set_at[(section, key)] = origin.where(section, key)
        return _merge(raw, layer)

    if isinstance(paths, (str, Path)):
        paths = [paths]
    for i, path in enumerate(paths or []):
        p = Path(path)
        layer, text = read_file(p)
        raw = apply(layer, Origin(p, text))
        if i == 0:
            base_dir = p.resolve().parent
    if overrides:
        raw = apply(overrides, Origin())
    check_together(raw, lambda section, key: set_at.get((section, key), "the built-in defaults"))
    return Config(raw=raw, base_dir=base_dir, set_at=set_at)
