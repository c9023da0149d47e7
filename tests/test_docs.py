"""README keeps up with the code: every config key has a row in the configuration table (with the
default the code has), and every `korchma` subcommand and flag is in the "Command line" section.
No server: it reads README.md, server/config.py DEFAULTS and server/cli.py's parser."""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from server.cli import build_parser
from server.config import DEFAULTS

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of README's `## title` section, up to the next `## ` heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def flat(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"server": {"name": ...}, "games": {"bids": {...}}} -> {"server.name": ..., "games.bids.rounds": ...}."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def as_toml(value: Any) -> str:
    """A default as the table writes it: TOML literals (`false`, `"ru"`, `["127.0.0.1", "::1"]`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(as_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def table_rows() -> dict[str, str]:
    """`key` -> its default column, from the configuration table."""
    rows = re.findall(r"^\| `([a-z0-9_.]+)` \| `([^`]*)` \|", section("Configuration"), re.M)
    return dict(rows)


def test_every_config_key_has_a_readme_row_with_its_default():
    rows = table_rows()
    keys = flat(DEFAULTS)
    missing = sorted(set(keys) - set(rows))
    assert not missing, f"README's configuration table has no row for {', '.join(missing)}"
    stale = sorted(set(rows) - set(keys))
    assert not stale, f"README's configuration table has rows for keys not in DEFAULTS: {', '.join(stale)}"
    wrong = [f"{key}: README says {rows[key]}, DEFAULTS {as_toml(value)}"
             for key, value in keys.items() if rows[key] != as_toml(value)]
    assert not wrong, "README's defaults differ from server/config.py: " + "; ".join(wrong)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_every_subcommand_and_flag_is_in_readme_command_line():
    text = section("Command line")
    found = subcommands()
    assert {"serve", "migrate", "backup", "admin", "status"} <= set(found)
    missing = [f"korchma {name}" for name in found if not re.search(rf"`korchma {name}\b", text)]
    assert not missing, f"README's 'Command line' does not list {', '.join(missing)}"
    flags = [f"korchma {name} {flag}" for name, p in found.items() for action in p._actions
             for flag in action.option_strings
             if flag.startswith("--") and flag != "--help" and not re.search(rf"`[^`]*{flag}\b", text)]
    assert not flags, f"README's 'Command line' does not name {', '.join(flags)}"
    positional = [f"korchma {name} {action.metavar or action.dest}" for name, p in found.items()
                  for action in p._actions if not action.option_strings
                  and action.choices is not None and not all(c in text for c in action.choices)]
    assert not positional, f"README's 'Command line' lacks the choices of {', '.join(positional)}"
