"""Check a config file (or the command-line overrides) against server/config.py DEFAULTS.

Every section and key must be one DEFAULTS knows; the type comes from the default value, and
:data:`RULES` narrows it (ranges, allowed words, address lists). ``[games.NAME]`` sections hold a
game's table options: the name must be a game, each key one of its engine's ``default_options``,
each value one its ``validate_options`` accepts. The first problem raises :class:`ConfigError`,
one line naming the file and line (or the flag), the key, what is wrong, and the nearest known
name when a name is misspelt ("did you mean").
"""
from __future__ import annotations

import difflib
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .startup import StartupError


class ConfigError(StartupError):
    exit_code = 2


@dataclass(frozen=True)
class Rule:
    """``kind``: int (whole number), number (int or float), text, bool, texts (a list of text),
    addresses (a list of IP addresses or networks: every ``*_exempt`` list, world/addresses.py).
    ``low``/``high`` bound numbers, ``choices`` lists the allowed words ("@languages" and
    "@bot_levels" stand for the catalog's languages and the bots' levels), ``nonempty`` refuses
    "" for text."""

    kind: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    nonempty: bool = False


def _languages() -> tuple[str, ...]:
    from world.i18n import LANGUAGES

    return tuple(LANGUAGES)


def _bot_levels() -> tuple[str, ...]:
    from commands.table import BOT_LEVELS

    return tuple(dict.fromkeys(BOT_LEVELS.values()))


DAY = 86400
#: Per section and key: narrower rules than "the type of the default"; keys not listed here get only that type check.
RULES: dict[str, dict[str, Rule]] = {
    "server": {
        "name": Rule("text", nonempty=True),
        "host": Rule("text"),
        "telnet_port": Rule("int", 0, 65535),
        "ssh_port": Rule("int", 0, 65535),
        "data_dir": Rule("text", nonempty=True),
        "database_url": Rule("text"),
        "host_key": Rule("text", nonempty=True),
        "default_language": Rule("text", choices=("@languages",)),
        "negotiation_wait": Rule("number", 0, 60),
        "proxy_protocol": Rule("bool"),
        "proxy_trusted": Rule("addresses"),
        "motd": Rule("text"),
        "pager": Rule("bool"),
    },
    "accounts": {
        "admins": Rule("texts"),
        "login_attempts": Rule("int", 1, 10000),
        "login_backoff": Rule("number", 0, DAY),
        "login_backoff_max": Rule("number", 0, 30 * DAY),
        "login_timeout": Rule("number", 0, DAY),
        "new_accounts_per_address": Rule("int", 0, 1_000_000),
        "new_accounts_window": Rule("number", 0, 365 * DAY),
        "new_accounts_exempt": Rule("addresses"),
        "login_forget": Rule("number", 0, 365 * DAY),
        "reset_code_hours": Rule("number", 0.01, 24 * 365),
        # argon2id (world/login_guard.py Hasher): KiB, passes, lanes. libargon2 wants at least 8 KiB
        # a lane (check_together); above 4 GiB or 100 passes a login would take its memory or
        # seconds of CPU for every password check.
        "argon2_memory": Rule("int", 8, 4 * 1024 * 1024),
        "argon2_time": Rule("int", 1, 100),
        "argon2_lanes": Rule("int", 1, 64),
        "hash_workers": Rule("int", 0, 1024),
        # 0 would refuse every password check: nobody could log in.
        "checks_per_address": Rule("int", 1, 100_000),
        "checks_queued_max": Rule("int", 1, 10_000_000),
        "checks_exempt": Rule("addresses"),
    },
    "limits": {
        "max_line": Rule("int", 16, 1_000_000),
        "commands_per_second": Rule("number", 0.01, 10000),
        "command_burst": Rule("int", 1, 100000),
        "flood_mute": Rule("number", 0, DAY),
        "input_buffer": Rule("int", 256, 64 * 1024 * 1024),
        "connections_per_address": Rule("int", 0, 1_000_000),
        "connections_exempt": Rule("addresses"),
        "aliases_per_account": Rule("int", 0, 10_000),
        "alias_length": Rule("int", 1, 100_000),
    },
    "chat": {
        "scrollback_lines": Rule("int", 0, 10_000),  # 0: no scrollback kept
        "entry_lines": Rule("int", 0, 10_000),
        "recall_lines": Rule("int", 1, 10_000),
    },
    "tables": {
        "reaction_seconds": Rule("number", 1, 7 * DAY),
        "afk_timeouts": Rule("int", 1, 1000),
        "bot_level": Rule("text", choices=("@bot_levels",)),
        "bot_delay": Rule("number", 0, 3600),
        "answer_guard": Rule("number", 0, 60),
        "autopass_smart_seconds": Rule("number", 0, 3600),
    },
    "ratings": {
        "provisional_games": Rule("int", 0, 1_000_000),
        "top_page": Rule("int", 1, 1000),
    },
    "board": {
        "note_length": Rule("int", 1, 100_000),
        "page_size": Rule("int", 1, 1000),
        "posts_per_window": Rule("int", 1, 1_000_000),
        "post_window": Rule("number", 0, 30 * DAY),
    },
    "history": {
        "page_size": Rule("int", 1, 1000),
    },
    "inbox": {
        "retention_days": Rule("number", 0.001, 100 * 365),
        "login_lines": Rule("int", 0, 100_000),
    },
    "cluster": {
        "redis_url": Rule("text"),
        "node": Rule("text"),
        # A table's lease lasts this long unless renewed: the longest a dead node's tables wait
        # for another node (the bar is 10 s); renewed every heartbeat.
        "lease_seconds": Rule("number", 1, 60),
        "heartbeat_seconds": Rule("number", 0.1, 20),
    },
    "metrics": {
        "host": Rule("text", nonempty=True),
        "port": Rule("int", -1, 65535),  # -1: off; 0: any free port
    },
    "web": {
        "host": Rule("text", nonempty=True),
        "port": Rule("int", -1, 65535),  # -1: off; 0: any free port
        "proxy_trusted": Rule("addresses"),  # X-Forwarded-For is read only from these
    },
    "log": {
        "level": Rule("text", choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")),
        "console": Rule("text", choices=("stderr", "stdout", "off")),
        "file": Rule("text"),
        # 0: never rotate (the file grows; for a host whose logrotate moves it, SIGHUP reopens it).
        "max_bytes": Rule("int", 0, 1 << 40),
        "backups": Rule("int", 0, 1000),
    },
}
#: Command-line flags of `korchma serve` and the [server] (and [metrics]) keys they set.
FLAGS = {"host": "--host", "telnet_port": "--telnet-port", "ssh_port": "--ssh-port",
         "data_dir": "--data-dir", "database_url": "--database-url"}
METRICS_FLAGS = {"port": "--metrics-port"}
WEB_FLAGS = {"port": "--web-port"}
CLUSTER_FLAGS = {"redis_url": "--redis-url", "node": "--node"}


def _choices(rule: Rule) -> tuple[str, ...]:
    out: list[str] = []
    for choice in rule.choices:
        out.extend({"@languages": _languages, "@bot_levels": _bot_levels}.get(choice, lambda c=choice: (c,))())
    return tuple(out)


def rule_for(section: str, key: str, default: Any) -> Rule:
    rule = RULES.get(section, {}).get(key)
    if rule is not None:
        return rule
    if isinstance(default, bool):
        return Rule("bool")
    if isinstance(default, int):
        return Rule("int")
    if isinstance(default, float):
        return Rule("number")
    if isinstance(default, list):
        return Rule("texts")
    return Rule("text")


def show(value: Any) -> str:
    """A value as it would be written in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _span(rule: Rule, what: str) -> str:
    if rule.low is not None and rule.high is not None:
        low = int(rule.low) if float(rule.low).is_integer() else rule.low
        high = int(rule.high) if float(rule.high).is_integer() else rule.high
        return f"{what} from {low} to {high}"
    if rule.low is not None:
        return f"{what} of at least {rule.low:g}"
    return what


def problem(rule: Rule, value: Any) -> str | None:
    """What is wrong with ``value`` under ``rule`` ("must be ..., not VALUE"), or None."""
    wrong = _problem(rule, value)
    if wrong is None:
        return None
    text, culprit = wrong
    return f"{text}, not {show(culprit)}"


def _problem(rule: Rule, value: Any) -> tuple[str, Any] | None:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if rule.kind == "bool":
        return None if isinstance(value, bool) else ("must be true or false", value)
    if rule.kind == "int":
        if not (number and isinstance(value, int)):
            return "must be " + _span(rule, "a whole number"), value
    elif rule.kind == "number":
        if not number or not math.isfinite(value):
            return "must be " + _span(rule, "a number"), value
    if rule.kind in ("int", "number"):
        if (rule.low is not None and value < rule.low) or (rule.high is not None and value > rule.high):
            return "must be " + _span(rule, "a whole number" if rule.kind == "int" else "a number"), value
        return None
    if rule.kind == "text":
        if not isinstance(value, str):
            return "must be text in quotes", value
        choices = _choices(rule)
        if choices and value not in choices:
            return "must be one of " + ", ".join(show(c) for c in choices), value
        if rule.nonempty and not value.strip():
            return "must not be empty", value
        return None
    if rule.kind in ("texts", "addresses"):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return 'must be a list of texts in quotes, like ["a", "b"]', value
        if rule.kind == "addresses":
            from world.addresses import parse_networks

            for item in value:
                try:
                    parse_networks([item])
                except ValueError:
                    return 'must list IP addresses or networks (like "10.0.0.0/8")', item
        return None
    return None


def near(name: str, candidates: list[str]) -> str:
    found = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"; did you mean {found[0]}?" if found else ""


class Origin:
    """Where values come from: a file (with its text, for line numbers) or the command line."""

    def __init__(self, path: Path | None = None, text: str = "") -> None:
        self.path = path
        self.lines = text.splitlines()

    def where(self, section: str, key: str | None = None) -> str:
        if self.path is None:
            flag = {"server": FLAGS, "metrics": METRICS_FLAGS, "web": WEB_FLAGS,
                    "cluster": CLUSTER_FLAGS}.get(section, {}).get(key or "")
            return flag or "command line"
        line = self.line_of(section, key)
        return f"{self.path}, line {line}" if line else str(self.path)

    def line_of(self, section: str, key: str | None) -> int | None:
        """The line of ``[section]`` (or of ``key`` inside it); best effort, None if not found."""
        current = ""
        header = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]")
        for number, line in enumerate(self.lines, 1):
            m = header.match(line)
            if m:
                current = ".".join(p.strip().strip("\"'") for p in m.group(1).split("."))
                if key is None and current == section:
                    return number
                continue
            if key is not None and current == section:
                if re.match(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", line):
                    return number
        return None


def check(raw: dict[str, Any], origin: Origin, defaults: dict[str, Any]) -> None:
    """Raise ConfigError for the first unknown name or bad value in ``raw``."""
    sections = sorted(defaults)
    for section, body in raw.items():
        if section not in defaults:
            if isinstance(body, dict):
                hint = near(section, sections)
                hint = hint.replace("did you mean ", "did you mean [").replace("?", "]?") if hint else \
                    "; sections are " + ", ".join(f"[{s}]" for s in sections)
                raise ConfigError(f"{origin.where(section)}: unknown section [{section}]{hint}")
            owners = [f"{s}.{section}" for s in sections if isinstance(defaults[s], dict) and section in defaults[s]]
            hint = f"; did you mean {owners[0]} (in [{owners[0].split('.')[0]}])?" if owners else ""
            raise ConfigError(f"{origin.where('', section)}: unknown key {section} outside any section{hint}")
        if not isinstance(body, dict):
            raise ConfigError(f"{origin.where('', section)}: {section} must be a section [{section}], not {show(body)}")
        if section == "games":
            _check_games(body, origin)
            continue
        known = defaults[section]
        for key, value in body.items():
            if key not in known:
                elsewhere = [f"{s}.{key}" for s in sections if s != section and isinstance(defaults[s], dict)
                             and key in defaults[s]]
                hint = (f"; did you mean {elsewhere[0]}?" if elsewhere
                        else near(key, sorted(known)).replace("did you mean ", f"did you mean {section}."))
                raise ConfigError(f"{origin.where(section, key)}: unknown key {section}.{key}{hint}")
            wrong = problem(rule_for(section, key, known[key]), value)
            if wrong:
                raise ConfigError(f"{origin.where(section, key)}: {section}.{key} {wrong}")


def check_together(raw: dict[str, Any], where: Callable[[str, str], str]) -> None:
    """Rules between keys, on the merged config (the keys may come from different files):
    ConfigError naming the key ``where`` says was set last."""
    acc = raw["accounts"]
    memory, lanes = acc["argon2_memory"], acc["argon2_lanes"]
    if memory < 8 * lanes:
        raise ConfigError(f"{where('accounts', 'argon2_memory')}: accounts.argon2_memory must be at least 8 KiB "
                          f"per lane (accounts.argon2_lanes = {lanes}: {8 * lanes}), not {memory}")
    server = raw["server"]
    cluster = raw["cluster"]
    if cluster["redis_url"]:
        if not cluster["redis_url"].startswith(("redis://", "rediss://", "unix://")):
            raise ConfigError(f"{where('cluster', 'redis_url')}: cluster.redis_url must be a redis://, rediss:// "
                              f"or unix:// URL, not {show(cluster['redis_url'])}")
        if not server["database_url"].startswith(("postgres://", "postgresql://")):
            raise ConfigError(f"{where('cluster', 'redis_url')}: cluster.redis_url turns several nodes on, and "
                              "they share one database: server.database_url (--database-url) must then be "
                              "a postgres:// URL, not " + (show(server["database_url"]) if server["database_url"]
                                                           else "the SQLite file in the data folder"))
        if cluster["heartbeat_seconds"] * 2 > cluster["lease_seconds"]:
            raise ConfigError(f"{where('cluster', 'heartbeat_seconds')}: cluster.heartbeat_seconds must be at most "
                              f"half of cluster.lease_seconds ({cluster['lease_seconds']:g}), so a lease is "
                              f"renewed twice before it runs out, not {cluster['heartbeat_seconds']:g}")
    if server["proxy_protocol"] and not server["proxy_trusted"]:
        raise ConfigError(f"{where('server', 'proxy_trusted')}: server.proxy_trusted is empty while "
                          "server.proxy_protocol is on, so every telnet connection would be closed; "
                          "list the proxy's address")


def _check_games(games: dict[str, Any], origin: Origin) -> None:
    from games import registry
    from games.base import RuleError
    from world.i18n import strip_marks, t

    engines = registry.all_games()
    for name, options in games.items():
        section = f"games.{name}"
        if name not in engines:
            raise ConfigError(f"{origin.where(section)}: unknown game [{section}]"
                              f"{near(name, sorted(engines)).replace('did you mean ', 'did you mean games.')}"
                              f" (games: {', '.join(sorted(engines))})")
        if not isinstance(options, dict):
            raise ConfigError(f"{origin.where('games', name)}: games.{name} must be a section [{section}]")
        engine = engines[name]
        allowed = sorted(engine.default_options)
        for key, value in options.items():
            if key not in engine.default_options:
                hint = near(key, allowed).replace("did you mean ", f"did you mean {section}.")
                raise ConfigError(f"{origin.where(section, key)}: unknown option {section}.{key}"
                                  f"{hint or '; options of ' + name + ': ' + ', '.join(allowed)}")
            try:
                engine.validate_options({key: value})
            except RuleError as err:
                why = strip_marks(t("en", err.key, **err.params))
                raise ConfigError(f"{origin.where(section, key)}: {section}.{key} = {show(value)} is refused: "
                                  f"{' '.join(why.split())}") from None
