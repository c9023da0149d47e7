"""Load config.toml (tomllib) and apply command-line overrides."""
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
    },
    "accounts": {
        "admins": [],
        "login_attempts": 5,
        "login_backoff": 5,
        "login_backoff_max": 300,
        "login_timeout": 60,
        "new_accounts_per_address": 3,
        "new_accounts_window": 3600,
        "new_accounts_exempt": ["127.0.0.1", "::1"],
    },
    "limits": {
        "max_line": 2000,
        "commands_per_second": 5,
        "command_burst": 10,
        "flood_mute": 10,
        "input_buffer": 8192,
    },
    "tables": {
        "reaction_seconds": 20,
        "afk_timeouts": 2,
        "bot_level": "normal",
        "bot_delay": 1.0,
        "answer_guard": 1.5,
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


def load(paths: str | Path | list | None = None, overrides: dict[str, Any] | None = None) -> Config:
    """Defaults, then each file in order (later ones win), then command-line overrides.
    Relative paths in the config are relative to the first file's folder."""
    raw = copy.deepcopy(DEFAULTS)
    base_dir = Path.cwd()
    if isinstance(paths, (str, Path)):
        paths = [paths]
    for i, path in enumerate(paths or []):
        p = Path(path)
        with p.open("rb") as fh:
            raw = _merge(raw, tomllib.load(fh))
        if i == 0:
            base_dir = p.resolve().parent
    if overrides:
        raw = _merge(raw, overrides)
    return Config(raw=raw, base_dir=base_dir)
